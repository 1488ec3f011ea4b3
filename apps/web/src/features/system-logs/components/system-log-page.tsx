import {
  Alert,
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  IconAlertCircle,
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconChevronRight,
  IconFilterOff,
  IconSearch,
} from '@tabler/icons-react';
import { Fragment, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChangesTable } from '../../../components/audit/changes-table';
import { formatDate, isoToZonedInput, zonedInputToIso } from '../../../lib/dates';
import { orderingField, useList, useListState } from '../../../lib/list';
import { knownActions, knownObjectTypes, systemLogList } from '../api/system-logs';
import type { SystemLog as SystemLogWire } from '@vigil/contract';
import { DateTimeInput } from '../../../lib/dates/date-time-input';

const COLUMNS = 6;

function SortHeader({
  field,
  label,
  ordering,
  onSort,
}: {
  field: string;
  label: string;
  ordering: string;
  onSort: (field: string) => void;
}) {
  const current = orderingField(ordering);
  const active = current.field === field;
  const Icon = !active ? IconArrowsSort : current.descending ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th aria-sort={active ? (current.descending ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton className="vigil-table__sort" onClick={() => onSort(field)} data-active={active}>
        <span>{label}</span>
        <Icon size={14} stroke={1.8} />
      </UnstyledButton>
    </Table.Th>
  );
}

/** Settings → System logs: the audit log, with its filters, ordering and page in the URL. */
export default function SystemLogPage() {
  const { t } = useTranslation();
  const list = useListState(systemLogList);
  const { data, error, fetching, fetch } = useList<SystemLogWire, typeof systemLogList.filters>(systemLogList, list);
  const [search, setSearch] = useState(list.filters.search ?? '');
  const [expanded, setExpanded] = useState<number | null>(null);
  const applySearch = useDebouncedCallback(
    (value: string) => list.setFilters({ search: value.trim() || undefined }),
    400,
  );

  // The URL is the truth: going back in history brings its search text back into the box.
  useEffect(() => setSearch(list.filters.search ?? ''), [list.filters.search]);

  const count = data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / list.pageSize));
  // From the page the shown data belongs to (while the next page loads, the last one stays on screen).
  const first = data && data.results.length > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const last = data ? first + Math.max(data.results.length - 1, 0) : 0;
  const filtered = Object.keys(list.filters).length > 0;

  return (
    <Stack gap="lg" className="vigil-list-page">
      <div>
        <Title order={1} className="vigil-page__title">
          {t('systemLogs.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('systemLogs.subtitle')}
        </Text>
      </div>

      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap" mb="sm">
          <TextInput
            className="vigil-filters__search"
            label={t('systemLogs.search')}
            placeholder={t('systemLogs.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') list.setFilters({ search: search.trim() || undefined });
            }}
          />
          <TagsInput
            className="vigil-filters__tags"
            label={t('systemLogs.action')}
            placeholder={list.filters.action?.length ? undefined : t('systemLogs.any')}
            data={knownActions}
            value={list.filters.action ?? []}
            onChange={(value) => list.setFilters({ action: value })}
            maxTags={50}
            clearable
            data-testid="filter-action"
          />
          <TagsInput
            className="vigil-filters__tags"
            label={t('systemLogs.objectType')}
            placeholder={list.filters.objectType?.length ? undefined : t('systemLogs.any')}
            data={knownObjectTypes}
            value={list.filters.objectType ?? []}
            onChange={(value) => list.setFilters({ objectType: value })}
            maxTags={50}
            clearable
          />
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <DateTimeInput
            className="vigil-filters__date"
            label={t('systemLogs.from')}
            value={isoToZonedInput(list.filters.dateTimeFrom)}
            onChange={(value) => list.setFilters({ dateTimeFrom: zonedInputToIso(value) ?? undefined })}
          />
          <DateTimeInput
            className="vigil-filters__date"
            label={t('systemLogs.to')}
            value={isoToZonedInput(list.filters.dateTimeTo)}
            onChange={(value) => list.setFilters({ dateTimeTo: zonedInputToIso(value) ?? undefined })}
          />
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => {
              setSearch('');
              list.resetFilters();
            }}
          >
            {t('systemLogs.resetFilters')}
          </Button>
        </Group>
      </Paper>

      {error && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          <Group justify="space-between" gap="sm">
            <span>{t('systemLogs.loadFailed')}</span>
            <Button size="xs" variant="light" color="red" onClick={() => void fetch()}>
              {t('common.tryAgain')}
            </Button>
          </Group>
        </Alert>
      )}

      <Paper className="vigil-table-wrap" aria-busy={fetching}>
        <Table.ScrollContainer minWidth={820}>
          <Table
            className="vigil-table"
            data-testid="system-log-table"
            data-loading={fetching}
            highlightOnHover
            verticalSpacing="sm"
            horizontalSpacing="md"
            stickyHeader
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader
                  field="date_time"
                  label={t('systemLogs.dateTime')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="username"
                  label={t('systemLogs.user')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="action"
                  label={t('systemLogs.action')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <SortHeader
                  field="object_type"
                  label={t('systemLogs.object')}
                  ordering={list.ordering}
                  onSort={list.toggleOrdering}
                />
                <Table.Th>{t('systemLogs.ip')}</Table.Th>
                <Table.Th className="vigil-table__expander" aria-label={t('systemLogs.changes')} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.results.map((log) => {
                const open = expanded === log.id;
                const changed = Object.keys(log.changes).length;
                return (
                  <Fragment key={log.id}>
                    <Table.Tr
                      className="vigil-table__row"
                      data-open={open}
                      onClick={() => setExpanded(open ? null : log.id)}
                    >
                      <Table.Td className="vigil-table__nowrap vigil-table__mono">
                        <time dateTime={log.dateTime} title={log.dateTime}>
                          {formatDate(log.dateTime, 'isoDateTimeSeconds')}
                        </time>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          {log.username ?? (
                            <Text span c="dimmed" size="sm">
                              {t('systemLogs.system')}
                            </Text>
                          )}
                          {log.impersonatorId !== null && (
                            <Badge size="xs" color="orange" variant="light">
                              {t('systemLogs.impersonated')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="default" radius="sm" className="vigil-table__badge" tt="none">
                          {log.action}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text span c="dimmed" size="sm">
                          {log.objectType}
                        </Text>
                        {log.objectRepr !== null && <span className="vigil-table__object"> {log.objectRepr}</span>}
                      </Table.Td>
                      <Table.Td className="vigil-table__mono">
                        {log.ip ?? (
                          <Text span c="dimmed" size="sm">
                            n/a
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td className="vigil-table__expander">
                        <UnstyledButton
                          className="vigil-table__expand"
                          aria-expanded={open}
                          aria-label={t('systemLogs.showChanges')}
                          onClick={(event) => {
                            event.stopPropagation();
                            setExpanded(open ? null : log.id);
                          }}
                        >
                          {changed > 0 && (
                            <Text span size="xs" c="dimmed">
                              {changed}
                            </Text>
                          )}
                          <IconChevronRight size={16} className="vigil-table__chevron" />
                        </UnstyledButton>
                      </Table.Td>
                    </Table.Tr>
                    {open && (
                      <Table.Tr className="vigil-table__details">
                        <Table.Td colSpan={COLUMNS}>
                          <ChangesTable changes={log.changes} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
              {data && data.results.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {filtered ? t('systemLogs.nothingMatches') : t('systemLogs.empty')}
                  </Table.Td>
                </Table.Tr>
              )}
              {!data && !error && (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS} className="vigil-table__empty">
                    {t('common.loading')}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="space-between" className="vigil-table__footer" gap="sm">
          <Group gap="sm">
            <Text size="sm" c="dimmed" data-testid="system-log-range">
              {data ? (count === 0 ? t('list.noRecords') : t('list.range', { first, last, total: count })) : ''}
            </Text>
            <Select
              size="xs"
              w={120}
              aria-label={t('list.pageSize')}
              data={systemLogList.pageSizes.map((size) => ({
                value: String(size),
                label: t('list.perPage', { size }),
              }))}
              value={String(list.pageSize)}
              onChange={(value) => value && list.setPageSize(Number(value))}
              allowDeselect={false}
            />
          </Group>
          <Pagination
            size="sm"
            total={pages}
            value={Math.min(list.page, pages)}
            onChange={list.setPage}
            getControlProps={(control) => ({
              'aria-label': control === 'previous' ? t('list.previous') : control === 'next' ? t('list.next') : control,
            })}
            data-testid="system-log-pagination"
          />
        </Group>
      </Paper>
    </Stack>
  );
}
