import './investigation.css';
import {
  Anchor,
  Button,
  Drawer,
  Group,
  Loader,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { detectedFileTypes } from '@vigil/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError, useSearchBox, VirtualTable, type Column } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useInfiniteList, useListState } from '../../../lib/list';
import { usePermission } from '../../../lib/permissions';
import { endpointEventsUrl, mailMessageUrl, withQuery } from '../../triage';
import { fileApiFilters, fileDownloadUrl, fileList, useFileDetail, type WarehouseHash } from '../api/investigation';
import { formatBytes } from '../lib/summaries';
import { CompanyFilter, HashFilter, HashValue, KeyValues, Section, useCompanyName, VerdictBadge } from './shared';

const sources = ['mail', 'network', 'endpoint'] as const;

/** Where one file was seen: companies, mails, endpoint events and files on the wire, each linked. */
function FileDrawer({ sha256, onClose }: { sha256: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const detail = useFileDetail(sha256);
  const companyName = useCompanyName();
  const canDownload = usePermission({ action: 'download', subject: 'warehouse' });
  const file = detail.data;
  return (
    <Drawer
      opened={sha256 !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={600}>{file?.filename ?? t('investigation.files.drawerTitle')}</Text>}
      data-testid="file-drawer"
    >
      {detail.isLoading && <Loader size="sm" />}
      {detail.error !== null && detail.error !== undefined && (
        <LoadError message={t('investigation.common.detailFailed')} onRetry={() => void detail.refetch()} />
      )}
      {file && (
        <Stack gap="md">
          <Section title={t('investigation.files.file')}>
            <KeyValues
              items={[
                [
                  t('investigation.mail.verdict'),
                  <VerdictBadge verdict={file.verdict.verdict} severity={file.verdict.severity} />,
                ],
                ['SHA-256', <HashValue value={file.sha256} link={false} />],
                ['SHA-1', file.sha1 ? <HashValue value={file.sha1} link={false} /> : null],
                ['MD5', file.md5 ? <HashValue value={file.md5} link={false} /> : null],
                [t('investigation.files.type'), file.detectedType],
                [t('investigation.files.size'), file.size === null ? null : formatBytes(file.size, i18n.language)],
                [t('investigation.files.firstSeen'), formatDate(file.firstSeen)],
                [t('investigation.files.lastSeen'), formatDate(file.lastSeen)],
                [t('investigation.files.sightings'), String(file.sightings)],
                [
                  t('investigation.files.stored'),
                  file.stored ? t('investigation.files.storedYes') : t('investigation.files.storedNo'),
                ],
              ]}
            />
            {file.stored && canDownload && (
              <Button
                mt="sm"
                size="xs"
                variant="light"
                component="a"
                href={fileDownloadUrl(file.sha256)}
                leftSection={<IconDownload size={14} />}
              >
                {t('investigation.files.download')}
              </Button>
            )}
          </Section>
          <Section title={t('investigation.files.companies')}>
            <Table fz="sm" verticalSpacing={4}>
              <Table.Tbody>
                {file.companies.map((company) => (
                  <Table.Tr key={company.companyId}>
                    <Table.Td>{company.companyName}</Table.Td>
                    <Table.Td>
                      {company.sources.map((source) => t(`investigation.files.sources.${source as 'mail'}`)).join(', ')}
                    </Table.Td>
                    <Table.Td>{t('investigation.files.times', { count: company.sightings })}</Table.Td>
                    <Table.Td c="dimmed">{formatDate(company.lastSeen)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Section>
          {file.mails.length > 0 && (
            <Section title={t('investigation.files.inMail', { count: file.mails.length })} testId="file-mails">
              <Table fz="sm" verticalSpacing={4}>
                <Table.Tbody>
                  {file.mails.map((mail) => (
                    <Table.Tr key={mail.id}>
                      <Table.Td c="dimmed" w={140}>
                        {formatDate(mail.ts)}
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={mailMessageUrl(mail.id)} size="sm">
                          {mail.subject ?? t('investigation.mail.noSubject')}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[mail.sender, mail.filename, companyName(mail.companyId)].filter(Boolean).join(' · ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          )}
          {file.endpointEvents.length > 0 && (
            <Section title={t('investigation.files.onEndpoints', { count: file.endpointEvents.length })}>
              <Table fz="sm" verticalSpacing={4}>
                <Table.Tbody>
                  {file.endpointEvents.map((event) => (
                    <Table.Tr key={event.id}>
                      <Table.Td c="dimmed" w={140}>
                        {formatDate(event.ts)}
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={endpointEventsUrl({ host_name: event.hostName ?? undefined, hash: file.sha256 })}
                          size="sm"
                        >
                          {event.hostName ?? '—'}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[event.action, event.processName, event.filePath, event.userName]
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          )}
          {file.networkEvents.length > 0 && (
            <Section title={t('investigation.files.onNetwork', { count: file.networkEvents.length })}>
              <Table fz="sm" verticalSpacing={4}>
                <Table.Tbody>
                  {file.networkEvents.map((event) => (
                    <Table.Tr key={event.id}>
                      <Table.Td c="dimmed" w={140}>
                        {formatDate(event.ts)}
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={withQuery('/investigation/network', { file_sha256: file.sha256 })}
                          size="sm"
                          className="vigil-inv-mono"
                        >
                          {event.srcIp ?? '—'} → {event.destIp ?? '—'}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {[event.appProto, event.filename].filter(Boolean).join(' · ')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

/** Investigation → Files: every hash the companies saw (mail attachments, files on the wire), with where it was seen. */
export default function FilesPage() {
  const { t, i18n } = useTranslation();
  const list = useListState(fileList);
  const { filters, setFilters } = list;
  const apiState = useMemo(
    () => ({ ordering: list.ordering, pageSize: list.pageSize, filters: fileApiFilters(filters) }),
    [list.ordering, list.pageSize, filters],
  );
  const data = useInfiniteList<WarehouseHash, typeof fileList.filters>(fileList, apiState);
  const search = useSearchBox(filters.search, (value) => setFilters({ search: value }));
  const [open, setOpen] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const companyName = useCompanyName();

  // Arriving with `?sha256=` (a link from a mail, an alert or a process): open that file's details at once.
  const opened = useRef<string | null>(null);
  const wanted = filters.sha256?.toLowerCase();
  useEffect(() => {
    if (!wanted || opened.current === wanted || data.isFetching) return;
    if (data.rows.length > 0 && data.rows.every((row) => row.sha256 === wanted)) {
      opened.current = wanted;
      setOpen(wanted);
    }
  }, [wanted, data.rows, data.isFetching]);

  const columns = useMemo<Column<WarehouseHash>[]>(
    () => [
      {
        id: 'name',
        header: t('investigation.files.name'),
        width: 'minmax(220px, 1.2fr)',
        render: (row) => (
          <div className="vigil-inv-cell-stack">
            <span>{row.filename ?? t('investigation.files.unnamed')}</span>
            <span className="vigil-inv-dim vigil-inv-mono">{row.sha256}</span>
          </div>
        ),
      },
      {
        id: 'verdict',
        header: t('investigation.mail.verdict'),
        width: '120px',
        render: (row) => <VerdictBadge verdict={row.verdict} />,
      },
      {
        id: 'type',
        header: t('investigation.files.type'),
        width: '90px',
        render: (row) => row.detectedType ?? <span className="vigil-inv-dim">—</span>,
      },
      {
        id: 'size',
        header: t('investigation.files.size'),
        width: '96px',
        align: 'end',
        render: (row) =>
          row.size === null ? <span className="vigil-inv-dim">—</span> : formatBytes(row.size, i18n.language),
      },
      {
        id: 'sources',
        header: t('investigation.files.seenIn'),
        width: '130px',
        render: (row) => row.sources.map((source) => t(`investigation.files.sources.${source as 'mail'}`)).join(', '),
      },
      {
        id: 'sightings',
        header: t('investigation.files.sightings'),
        width: '100px',
        sortField: 'sightings',
        align: 'end',
        render: (row) => row.sightings.toLocaleString(i18n.language),
      },
      {
        id: 'last',
        header: t('investigation.files.lastSeen'),
        width: '140px',
        sortField: 'last_seen',
        render: (row) => formatDate(row.lastSeen),
      },
      {
        id: 'company',
        header: t('investigation.common.company'),
        width: '140px',
        render: (row) => <span className="vigil-inv-dim">{companyName(row.companyId)}</span>,
      },
    ],
    [t, i18n.language, companyName],
  );

  const filtered = Object.keys(filters).length > 0;

  return (
    <Stack gap="md" className="vigil-list-page">
      <PageHeader
        title={t('investigation.files.title')}
        subtitle={
          data.count === undefined
            ? t('investigation.files.subtitle')
            : t('investigation.common.matching', { total: data.count.toLocaleString(i18n.language) })
        }
      />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('investigation.files.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
            data-testid="filter-search"
          />
          <HashFilter
            label={t('investigation.files.hash')}
            value={filters.sha256}
            onChange={(sha256) => setFilters({ sha256 })}
            testId="filter-hash"
          />
          <MultiSelect
            className="vigil-filters__tags"
            label={t('investigation.files.type')}
            placeholder={filters.detectedType?.length ? undefined : t('common.any')}
            data={[...detectedFileTypes]}
            value={filters.detectedType ?? []}
            onChange={(value) => setFilters({ detectedType: value })}
            clearable
            searchable
          />
          <MultiSelect
            className="vigil-filters__tags"
            label={t('investigation.files.seenIn')}
            placeholder={filters.source?.length ? undefined : t('common.any')}
            data={sources.map((value) => ({ value, label: t(`investigation.files.sources.${value}`) }))}
            value={filters.source ?? []}
            onChange={(value) => setFilters({ source: value })}
            clearable
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('investigation.mail.verdict')}
            </Text>
            <SegmentedControl
              size="sm"
              value={filters.verdict ?? 'any'}
              onChange={(value) => setFilters({ verdict: value === 'any' ? undefined : value })}
              data={[
                { value: 'any', label: t('common.any') },
                { value: 'malicious', label: t('investigation.verdict.malicious') },
                { value: 'unknown', label: t('investigation.verdict.unknown') },
              ]}
            />
          </div>
          <CompanyFilter value={filters.companyId} onChange={(companyId) => setFilters({ companyId })} />
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => {
              search.clear();
              list.resetFilters();
            }}
          >
            {t('common.resetFilters')}
          </Button>
        </Group>
      </Paper>

      {data.error !== null && data.error !== undefined && (
        <LoadError message={t('investigation.common.loadFailed')} onRetry={() => void data.refresh()} />
      )}

      <VirtualTable<WarehouseHash>
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={columns}
        ariaLabel={t('investigation.files.title')}
        rowHeight={46}
        total={data.count}
        ordering={list.ordering}
        onSort={list.toggleOrdering}
        activeIndex={active}
        onActiveIndexChange={setActive}
        onRowClick={(row) => setOpen(row.sha256)}
        hasMore={data.hasMore}
        loadMore={data.loadMore}
        loading={data.isLoading}
        loadingMore={data.isLoadingMore}
        empty={
          <Text c="dimmed" size="sm">
            {t('investigation.files.empty')}
          </Text>
        }
        testId="files-table"
      />

      <FileDrawer sha256={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
