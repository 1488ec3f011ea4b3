import './investigation.css';
import {
  ActionIcon,
  Button,
  Drawer,
  Group,
  MultiSelect,
  Paper,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconBinaryTree, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, useSearchBox, VirtualTable, type Column } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useInfiniteList, useListState } from '../../../lib/list';
import { endpointEventOf, endpointList, type StoredEvent } from '../api/investigation';
import { accountLabel, endpointSummary } from '../lib/summaries';
import { EndpointEventDrawer, OutcomeBadge } from './endpoint-event-drawer';
import { ProcessTreeView } from './process-tree-view';
import { CompanyFilter, HashFilter, Pivot, TimeRangeFilter } from './shared';

const HOUR = 3_600_000;
const actions = [
  'process-create',
  'process-terminate',
  'network-connection',
  'file-create',
  'registry-value-set',
  'dns-query',
  'logon',
  'logon-failure',
  'user-created',
  'start',
];

interface TreeTarget {
  hostName: string;
  from: string;
  to: string;
  companyId?: number;
  focusPid?: number | null;
}

/** The window a tree opened from an event shows: twelve hours either side of it. */
function aroundEvent(row: StoredEvent): TreeTarget {
  const at = Date.parse(row.ts);
  const event = endpointEventOf(row);
  return {
    hostName: event.host.name ?? '',
    from: new Date(at - 12 * HOUR).toISOString(),
    to: new Date(at + 12 * HOUR).toISOString(),
    companyId: row.companyId,
    focusPid: event.process?.pid ?? null,
  };
}

/** Investigation → Endpoint events: host activity with filters in the URL, a detail drawer and each host's process tree. */
export default function EndpointEventsPage() {
  const { t, i18n } = useTranslation();
  const list = useListState(endpointList);
  const { filters, setFilters } = list;
  const data = useInfiniteList<StoredEvent, typeof endpointList.filters>(endpointList, list);
  const search = useSearchBox(filters.search, (value) => setFilters({ search: value }));
  const [open, setOpen] = useState<StoredEvent | null>(null);
  const [tree, setTree] = useState<TreeTarget | null>(null);
  const [active, setActive] = useState(-1);

  const addHost = useCallback(
    (host: string) => setFilters({ hostName: [...new Set([...(filters.hostName ?? []), host])] }),
    [filters.hostName, setFilters],
  );
  const addUser = useCallback(
    (user: string) => setFilters({ userName: [...new Set([...(filters.userName ?? []), user])] }),
    [filters.userName, setFilters],
  );

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
        id: 'host',
        header: t('investigation.endpoint.host'),
        width: '130px',
        render: (row) => {
          const host = endpointEventOf(row).host.name;
          return host ? <Pivot value={host} onPivot={addHost} /> : '—';
        },
      },
      {
        id: 'user',
        header: t('investigation.endpoint.user'),
        width: '130px',
        render: (row) => {
          const user = endpointEventOf(row).user;
          return user?.name ? <Pivot value={user.name} label={accountLabel(user) ?? ''} onPivot={addUser} /> : '—';
        },
      },
      {
        id: 'process',
        header: t('investigation.endpoint.process'),
        width: '150px',
        render: (row) => {
          const process = endpointEventOf(row).process;
          return process ? (
            <div className="vigil-inv-cell-stack">
              <span>{process.name ?? '—'}</span>
              {process.pid !== null && <span className="vigil-inv-dim vigil-inv-mono">PID {process.pid}</span>}
            </div>
          ) : (
            '—'
          );
        },
      },
      {
        id: 'action',
        header: t('investigation.endpoint.action'),
        width: '150px',
        render: (row) => {
          const event = endpointEventOf(row).event;
          return (
            <div className="vigil-inv-cell-stack">
              <span>{event.action ?? event.code ?? '—'}</span>
              {event.category.length > 0 && <span className="vigil-inv-dim">{event.category.join(', ')}</span>}
            </div>
          );
        },
      },
      {
        id: 'outcome',
        header: t('investigation.endpoint.outcome'),
        width: '96px',
        render: (row) => {
          const outcome = endpointEventOf(row).event.outcome;
          return outcome ? <OutcomeBadge outcome={outcome} /> : null;
        },
      },
      {
        id: 'summary',
        header: t('investigation.endpoint.details'),
        width: 'minmax(240px, 1fr)',
        render: (row) => <span className="vigil-inv-mono">{endpointSummary(endpointEventOf(row)) || '—'}</span>,
      },
      {
        id: 'tree',
        header: '',
        width: '48px',
        render: (row) =>
          endpointEventOf(row).host.name ? (
            <Tooltip label={t('investigation.endpoint.showTree')} withArrow>
              <ActionIcon
                variant="subtle"
                aria-label={t('investigation.endpoint.showTree')}
                onClick={() => setTree(aroundEvent(row))}
                data-testid="row-process-tree"
              >
                <IconBinaryTree size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null,
      },
    ],
    [t, addHost, addUser],
  );

  const filtered = Object.keys(filters).length > 0;
  const singleHost = filters.hostName?.length === 1 ? filters.hostName[0]! : null;

  return (
    <Stack gap="md" className="vigil-list-page">
      <PageHeader
        title={t('investigation.endpoint.title')}
        subtitle={
          data.count === undefined
            ? t('investigation.endpoint.subtitle')
            : t('investigation.common.matching', { total: data.count.toLocaleString(i18n.language) })
        }
        actions={
          singleHost && (
            <Button
              leftSection={<IconBinaryTree size={16} />}
              variant="light"
              onClick={() =>
                setTree({
                  hostName: singleHost,
                  from: filters.tsFrom ?? new Date(Date.now() - 24 * HOUR).toISOString(),
                  to: filters.tsTo ?? new Date().toISOString(),
                  companyId: filters.companyId?.length === 1 ? filters.companyId[0] : undefined,
                })
              }
              data-testid="host-process-tree"
            >
              {t('investigation.endpoint.hostTree', { host: singleHost })}
            </Button>
          )
        }
      />
      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            className="vigil-filters__search"
            label={t('common.search')}
            placeholder={t('investigation.endpoint.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            type="search"
            maxLength={200}
            value={search.value}
            onChange={search.onChange}
            onKeyDown={search.onKeyDown}
            data-testid="filter-search"
          />
          <TimeRangeFilter from={filters.tsFrom} to={filters.tsTo} onChange={setFilters} />
          <TagsInput
            className="vigil-filters__tags"
            label={t('investigation.endpoint.host')}
            value={filters.hostName ?? []}
            onChange={(value) => setFilters({ hostName: value })}
            clearable
            data-testid="filter-host"
          />
          <TagsInput
            className="vigil-filters__tags"
            label={t('investigation.endpoint.user')}
            value={filters.userName ?? []}
            onChange={(value) => setFilters({ userName: value })}
            clearable
          />
          <TagsInput
            className="vigil-filters__tags"
            label={t('investigation.endpoint.process')}
            value={filters.processName ?? []}
            onChange={(value) => setFilters({ processName: value })}
            clearable
          />
          <TagsInput
            className="vigil-filters__tags"
            label={t('investigation.endpoint.action')}
            data={actions}
            value={filters.action ?? []}
            onChange={(value) => setFilters({ action: value })}
            clearable
          />
          <MultiSelect
            className="vigil-filters__tags"
            label={t('investigation.endpoint.outcome')}
            placeholder={filters.outcome?.length ? undefined : t('common.any')}
            data={(['success', 'failure', 'unknown'] as const).map((value) => ({
              value,
              label: t(`investigation.endpoint.outcomes.${value}`),
            }))}
            value={filters.outcome ?? []}
            onChange={(value) => setFilters({ outcome: value })}
            clearable
          />
          <HashFilter
            label={t('investigation.endpoint.hash')}
            value={filters.hash}
            onChange={(hash) => setFilters({ hash })}
          />
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

      <VirtualTable<StoredEvent>
        rows={data.rows}
        rowKey={(row) => row.id}
        columns={columns}
        ariaLabel={t('investigation.endpoint.title')}
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
            {t('investigation.endpoint.empty')}
          </Text>
        }
        testId="endpoint-table"
      />

      <EndpointEventDrawer
        row={open}
        onClose={() => setOpen(null)}
        onFilter={(change) => {
          setOpen(null);
          if (change.hostName) addHost(change.hostName);
          if (change.userName) addUser(change.userName);
        }}
        onProcessTree={(row) => {
          setOpen(null);
          setTree(aroundEvent(row));
        }}
      />

      <Drawer
        opened={tree !== null}
        onClose={() => setTree(null)}
        position="right"
        size="min(1100px, 92vw)"
        title={tree ? <Text fw={600}>{t('investigation.tree.title', { host: tree.hostName })}</Text> : null}
        data-testid="tree-drawer"
      >
        {tree && <ProcessTreeView {...tree} />}
      </Drawer>
    </Stack>
  );
}
