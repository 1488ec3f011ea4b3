import './investigation.css';
import { Button, Collapse, Group, MultiSelect, Paper, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, useSearchBox, VirtualTable, type Column } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useInfiniteList, useListState } from '../../../lib/list';
import { severityPill, useTriageLabels } from '../../triage';
import { networkEventOf, networkList, type StoredEvent } from '../api/investigation';
import { networkSummary } from '../lib/summaries';
import { NetworkEventDrawer } from './network-event-drawer';
import { CompanyFilter, EventTypeBadge, HashValue, Pivot, TimeRangeFilter } from './shared';

const eventTypes = ['alert', 'dns', 'http', 'tls', 'fileinfo', 'flow', 'anomaly'];
const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
const protocols = ['TCP', 'UDP', 'ICMP', 'IPv6-ICMP', 'SCTP'];

const ports = (values: string[]) =>
  values.map(Number).filter((port) => Number.isInteger(port) && port >= 0 && port <= 65_535);

/** Investigation → Network: Suricata events with their filters in the URL, a virtualised list and a detail drawer. */
export default function NetworkPage() {
  const { t, i18n } = useTranslation();
  const list = useListState(networkList);
  const { filters, setFilters } = list;
  const data = useInfiniteList<StoredEvent, typeof networkList.filters>(networkList, list);
  const search = useSearchBox(filters.search, (value) => setFilters({ search: value }));
  const [more, { toggle: toggleMore }] = useDisclosure(
    Boolean(
      filters.srcIp || filters.destIp || filters.srcPort || filters.destPort || filters.appProto || filters.sensor,
    ),
  );
  const [open, setOpen] = useState<StoredEvent | null>(null);
  const [active, setActive] = useState(-1);

  const addIp = useCallback(
    (ip: string) => setFilters({ ip: [...new Set([...(filters.ip ?? []), ip])] }),
    [filters.ip, setFilters],
  );

  const labels = useTriageLabels();
  const columns = useMemo<Column<StoredEvent>[]>(
    () => [
      {
        id: 'ts',
        header: t('investigation.common.time'),
        width: '160px',
        sortField: 'ts',
        render: (row) => <span className="vigil-inv-mono">{formatDate(row.ts, 'isoDateTimeSeconds')}</span>,
      },
      {
        id: 'type',
        header: t('investigation.network.type'),
        width: '88px',
        render: (row) => <EventTypeBadge type={networkEventOf(row).eventType} />,
      },
      {
        id: 'flow',
        header: t('investigation.network.flow'),
        width: '270px',
        render: (row) => {
          const event = networkEventOf(row);
          return (
            <span>
              {event.srcIp ? <Pivot value={event.srcIp} onPivot={addIp} /> : '—'}
              {event.srcPort !== null && <span className="vigil-inv-dim vigil-inv-mono">:{event.srcPort}</span>}
              <span className="vigil-inv-arrow">→</span>
              {event.destIp ? <Pivot value={event.destIp} onPivot={addIp} /> : '—'}
              {event.destPort !== null && <span className="vigil-inv-dim vigil-inv-mono">:{event.destPort}</span>}
            </span>
          );
        },
      },
      {
        id: 'proto',
        header: t('investigation.network.protoApp'),
        width: '110px',
        render: (row) => {
          const event = networkEventOf(row);
          return (
            <span>
              {event.proto ?? '—'}
              {event.appProto && <span className="vigil-inv-dim"> / {event.appProto}</span>}
            </span>
          );
        },
      },
      {
        id: 'summary',
        header: t('investigation.network.summary'),
        width: 'minmax(250px, 1fr)',
        render: (row) => {
          const event = networkEventOf(row);
          const summary = networkSummary(event, i18n.language);
          return (
            <div className="vigil-inv-cell-stack">
              <span>{summary.main || '—'}</span>
              {summary.sha256 ? (
                <span className="vigil-inv-dim">
                  <HashValue value={summary.sha256} />
                </span>
              ) : (
                summary.detail && <span className="vigil-inv-dim">{summary.detail}</span>
              )}
            </div>
          );
        },
      },
      {
        id: 'severity',
        header: t('investigation.network.severity'),
        width: '112px',
        render: (row) => {
          const severity = networkEventOf(row).severity;
          return severity ? severityPill(severity, labels.severity[severity]) : null;
        },
      },
      {
        id: 'sensor',
        header: t('investigation.network.sensor'),
        width: '120px',
        render: (row) => <span className="vigil-inv-dim">{networkEventOf(row).host ?? '—'}</span>,
      },
    ],
    [t, i18n.language, addIp, labels],
  );

  const filtered = Object.keys(filters).length > 0;

  return (
    <Stack gap="md" className="vigil-list-page">
      <PageHeader
        title={t('investigation.network.title')}
        subtitle={
          data.count === undefined
            ? t('investigation.network.subtitle')
            : t('investigation.common.matching', { total: data.count.toLocaleString(i18n.language) })
        }
      />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('investigation.network.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
            data-testid="filter-search"
          />
          <TimeRangeFilter from={filters.tsFrom} to={filters.tsTo} onChange={setFilters} />
          <MultiSelect
            className="vigil-filters__tags"
            label={t('investigation.network.type')}
            placeholder={filters.eventType?.length ? undefined : t('common.any')}
            data={eventTypes}
            value={filters.eventType ?? []}
            onChange={(value) => setFilters({ eventType: value })}
            clearable
            data-testid="filter-event-type"
          />
          <TagsInput
            className="vigil-filters__tags"
            label={t('investigation.network.ip')}
            placeholder={filters.ip?.length ? undefined : t('investigation.network.ipPlaceholder')}
            value={filters.ip ?? []}
            onChange={(value) => setFilters({ ip: value })}
            clearable
            data-testid="filter-ip"
          />
          <MultiSelect
            className="vigil-filters__tags"
            label={t('investigation.network.severity')}
            placeholder={filters.severity?.length ? undefined : t('common.any')}
            data={severities.map((value) => ({ value, label: t(`triage.severity.${value}`) }))}
            value={filters.severity ?? []}
            onChange={(value) => setFilters({ severity: value })}
            clearable
          />
          <CompanyFilter value={filters.companyId} onChange={(companyId) => setFilters({ companyId })} />
          <Button variant="subtle" leftSection={<IconAdjustmentsHorizontal size={16} />} onClick={toggleMore}>
            {more ? t('investigation.common.fewerFilters') : t('investigation.common.moreFilters')}
          </Button>
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
        <Collapse expanded={more}>
          <Group gap="sm" align="flex-end" wrap="wrap" mt="sm">
            <TagsInput
              className="vigil-filters__tags"
              label={t('investigation.network.source')}
              value={filters.srcIp ?? []}
              onChange={(value) => setFilters({ srcIp: value })}
              clearable
              data-testid="filter-src-ip"
            />
            <TagsInput
              className="vigil-filters__tags"
              label={t('investigation.network.destination')}
              value={filters.destIp ?? []}
              onChange={(value) => setFilters({ destIp: value })}
              clearable
              data-testid="filter-dest-ip"
            />
            <TagsInput
              className="vigil-filters__tags"
              label={t('investigation.network.srcPort')}
              value={(filters.srcPort ?? []).map(String)}
              onChange={(value) => setFilters({ srcPort: ports(value) })}
              clearable
            />
            <TagsInput
              className="vigil-filters__tags"
              label={t('investigation.network.destPort')}
              value={(filters.destPort ?? []).map(String)}
              onChange={(value) => setFilters({ destPort: ports(value) })}
              clearable
            />
            <MultiSelect
              className="vigil-filters__tags"
              label={t('investigation.network.proto')}
              placeholder={filters.proto?.length ? undefined : t('common.any')}
              data={[...new Set([...protocols, ...(filters.proto ?? [])])]}
              value={filters.proto ?? []}
              onChange={(value) => setFilters({ proto: value })}
              clearable
            />
            <TagsInput
              className="vigil-filters__tags"
              label={t('investigation.network.appProto')}
              data={['dns', 'http', 'tls', 'smtp', 'smb', 'ssh', 'ftp', 'krb5', 'dcerpc', 'rdp']}
              value={filters.appProto ?? []}
              onChange={(value) => setFilters({ appProto: value })}
              clearable
            />
            <TagsInput
              className="vigil-filters__tags"
              label={t('investigation.network.sensor')}
              value={filters.sensor ?? []}
              onChange={(value) => setFilters({ sensor: value })}
              clearable
            />
          </Group>
        </Collapse>
      </Paper>

      {data.error !== null && data.error !== undefined && (
        <LoadError message={t('investigation.common.loadFailed')} onRetry={() => void data.refresh()} />
      )}

      <VirtualTable<StoredEvent>
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={columns}
        ariaLabel={t('investigation.network.title')}
        rowHeight={46}
        total={data.count}
        ordering={list.ordering}
        onSort={list.toggleOrdering}
        activeIndex={active}
        onActiveIndexChange={setActive}
        onRowClick={(row) => setOpen(row)}
        hasMore={data.hasMore}
        loadMore={data.loadMore}
        loading={data.isLoading}
        loadingMore={data.isLoadingMore}
        empty={
          <Text c="dimmed" size="sm">
            {t('investigation.network.empty')}
          </Text>
        }
        testId="network-table"
      />

      <NetworkEventDrawer
        row={open}
        onClose={() => setOpen(null)}
        onFilter={(change) => {
          setOpen(null);
          if (change.ip) addIp(change.ip);
          if (change.communityId) setFilters({ communityId: change.communityId });
        }}
      />
    </Stack>
  );
}
