import { Badge, Group, Pagination, Stack, Text, TextInput, Timeline } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { SystemLog as SystemLogWire } from '@vigil/contract';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { auditActionLabel, auditObjectLabel } from '../../../components/audit/audit-labels';
import { ChangesTable } from '../../../components/audit/changes-table';
import { LoadError } from '../../../components/list';
import { formatDate } from '../../../lib/dates';
import { useList } from '../../../lib/list';
import { timelineList } from '../api/users';

/**
 * One of a user's two timelines, newest first: changes made to the user (`timeline`), or actions
 * the user took (`user_logs_timeline`). Its page and search are its own (two live on one page).
 */
export function UserTimeline({ userId, kind }: { userId: number; kind: 'timeline' | 'user_logs_timeline' }) {
  const { t } = useTranslation();
  const definition = timelineList(userId, kind);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState<string | undefined>(undefined);
  const state = {
    page,
    pageSize: definition.defaultPageSize,
    ordering: definition.defaultOrdering,
    filters: applied ? { search: applied } : {},
  };
  const { data, error, fetching, fetch } = useList<SystemLogWire, typeof definition.filters>(definition, state);
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / definition.defaultPageSize));

  return (
    <Stack gap="md" data-testid={`timeline-${kind}`} data-loading={fetching}>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('users.timelineSearch')}
        aria-label={t('common.search')}
        type="search"
        maxLength={200}
        maw={360}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            setPage(1);
            setApplied(search.trim() || undefined);
          }
        }}
        onBlur={() => {
          if ((search.trim() || undefined) !== applied) {
            setPage(1);
            setApplied(search.trim() || undefined);
          }
        }}
      />
      {error && <LoadError message={t('users.timelineFailed')} onRetry={() => void fetch()} />}
      {data && data.results.length === 0 && (
        <Text size="sm" c="dimmed" py="lg" ta="center">
          {applied ? t('users.timelineNothingMatches') : t('users.timelineEmpty')}
        </Text>
      )}
      {!data && !error && (
        <Text size="sm" c="dimmed" py="lg" ta="center">
          {t('common.loading')}
        </Text>
      )}
      {data && data.results.length > 0 && (
        <Timeline bulletSize={14} lineWidth={2} className="vigil-timeline">
          {data.results.map((entry) => (
            <Timeline.Item
              key={entry.id}
              data-testid="timeline-entry"
              title={
                <Group gap="xs" wrap="wrap">
                  <Badge variant="default" radius="sm" tt="none" className="vigil-table__badge">
                    {auditActionLabel(entry.action)}
                  </Badge>
                  <Text size="sm" c="dimmed">
                    {auditObjectLabel(entry.objectType)}
                  </Text>
                  {entry.objectRepr && <Text size="sm">{entry.objectRepr}</Text>}
                </Group>
              }
            >
              <Group gap="md" mt={4} mb={6} wrap="wrap">
                <Text size="xs" c="dimmed" className="vigil-table__mono-inline">
                  <time dateTime={entry.dateTime}>{formatDate(entry.dateTime, 'isoDateTimeSeconds')}</time>
                </Text>
                <Text size="xs" c="dimmed">
                  {t('users.by', { user: entry.username ?? t('systemLogs.system') })}
                </Text>
                {entry.impersonatorId !== null && (
                  <Badge size="xs" color="orange" variant="light">
                    {t('systemLogs.impersonated')}
                  </Badge>
                )}
                {entry.ip && (
                  <Text size="xs" c="dimmed" className="vigil-table__mono-inline">
                    {entry.ip}
                  </Text>
                )}
              </Group>
              {Object.keys(entry.changes).length > 0 && <ChangesTable changes={entry.changes} />}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('list.range', {
              first: (page - 1) * definition.defaultPageSize + 1,
              last: (page - 1) * definition.defaultPageSize + (data?.results.length ?? 0),
              total: data?.count ?? 0,
            })}
          </Text>
          <Pagination size="sm" total={pages} value={Math.min(page, pages)} onChange={setPage} />
        </Group>
      )}
    </Stack>
  );
}
