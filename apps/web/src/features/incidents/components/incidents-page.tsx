import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFilterOff, IconPlus, IconRefresh } from '@tabler/icons-react';
import type { Incident as IncidentWire } from '@vigil/contract';
import { alertSeverityValues, incidentStatuses } from '@vigil/contract/client';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { LoadError } from '../../../components/list';
import { FilterControl, SearchFilter, type FilterField } from '../../../components/list-page';
import { VirtualTable, type Column } from '../../../components/list/virtual-table';
import { CUSTOM_WINDOW, TimeWindowFilter } from '../../../components/time-window/time-window-filter';
import { PageHeader } from '../../../components/ui/page-header';
import { formatDate } from '../../../lib/dates';
import { useInfiniteList, useListState } from '../../../lib/list';
import { useLiveEvents } from '../../../lib/live';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { incidentStatusPill, incidentUrl, severityPill, useTriageLabels } from '../../triage';
import { incidentList, toApiFilters, type Incident } from '../api/incidents';
import { useAssignableUsers, userName } from '../api/hooks';
import { periods } from '../../triage/periods';
import { useNow } from '../lib/use-now';
import { CreateIncidentModal } from './create-incident-modal';
import { SlaCell } from './sla-timer';
import './incidents.css';

/** The list's SLA cell, ticking on its own so the table itself does not re-render every second. */
function LiveSla({ incident }: { incident: Incident }) {
  const now = useNow(1000);
  return <SlaCell sla={incident.sla} now={now} />;
}

/** Incidents: filters in the URL, sorting, a virtualised list read by cursor, SLA state, and a way to open one. */
export default function IncidentsPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const list = useListState(incidentList);
  const canAdd = usePermission({ action: 'add', subject: 'incidents' });
  const { users, byId } = useAssignableUsers();
  const [creating, setCreating] = useState(false);
  const [changed, setChanged] = useState(false);
  const [customRange, setCustomRange] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const manyCompanies = me.companies.length > 1;
  const companyNames = useMemo(() => new Map(me.companies.map((c) => [c.id, c.name])), [me.companies]);

  // A relative window is turned into a start time when the filters change, not on every render.
  const { filters } = list;
  const apiFilters = useMemo(() => toApiFilters(filters, Date.now()), [filters]);
  const incidents = useInfiniteList<IncidentWire, typeof incidentList.filters>(incidentList, {
    ordering: list.ordering,
    pageSize: list.pageSize,
    filters: apiFilters,
  });

  useLiveEvents(['incident.created', 'incident.updated'], () => setChanged(true));

  const period =
    list.filters.createdFrom || list.filters.createdTo || customRange ? CUSTOM_WINDOW : list.filters.period;
  const filtered = Object.keys(list.filters).length > 0;

  const labels = useTriageLabels();
  // Rows call no hooks but the ticking SLA: labels are read here, once per language.
  const columns = useMemo<Column<Incident>[]>(() => {
    const unassigned = t('triage.unassigned');
    const all: (Column<Incident> | false)[] = [
      {
        id: 'id',
        header: t('incidents.list.id'),
        width: '48px',
        sortField: 'id',
        render: (row) => <span className="vigil-incidents-list__id">#{row.id}</span>,
      },
      {
        id: 'severity',
        header: t('incidents.fields.severity'),
        width: '116px',
        sortField: 'severity',
        render: (row) => severityPill(row.severity, labels.severity[row.severity]),
      },
      {
        id: 'title',
        header: t('incidents.fields.title'),
        width: 'minmax(160px, 3fr)',
        render: (row) => (
          <span className="vigil-incidents-list__text vigil-incidents-list__title" title={row.title}>
            {row.title}
          </span>
        ),
      },
      {
        id: 'status',
        header: t('incidents.fields.status'),
        width: '112px',
        render: (row) => incidentStatusPill(row.status, labels.incidentStatus[row.status]),
      },
      {
        id: 'sla',
        header: t('incidents.list.sla'),
        width: 'minmax(130px, 1.2fr)',
        render: (row) => <LiveSla incident={row} />,
      },
      {
        id: 'alerts',
        header: t('incidents.fields.alerts'),
        width: '64px',
        align: 'end',
        render: (row) => <span className="vigil-incident-mono">{row.alertCount}</span>,
      },
      {
        id: 'assignee',
        header: t('incidents.fields.assignee'),
        width: 'minmax(80px, 1fr)',
        render: (row) => {
          const user = row.assigneeId === null ? undefined : byId.get(row.assigneeId);
          return user ? (
            <span className="vigil-incidents-list__text">{userName(user)}</span>
          ) : (
            <span className="vigil-incidents-list__text vigil-incidents-list__dimmed">{unassigned}</span>
          );
        },
      },
      manyCompanies && {
        id: 'company',
        header: t('incidents.fields.company'),
        width: 'minmax(80px, 1fr)',
        render: (row) => {
          const name = companyNames.get(row.companyId) ?? `#${row.companyId}`;
          return (
            <span className="vigil-incidents-list__text" title={name}>
              {name}
            </span>
          );
        },
      },
      {
        id: 'created',
        header: t('incidents.fields.created'),
        width: '148px',
        sortField: 'created_at',
        render: (row) => <span className="vigil-incident-mono">{formatDate(row.createdAt, 'isoDateTime')}</span>,
      },
    ];
    return all.filter((column): column is Column<Incident> => column !== false);
  }, [t, labels, byId, manyCompanies, companyNames]);

  const fields: FilterField<typeof incidentList.filters>[] = [
    {
      kind: 'choice',
      name: 'status',
      label: t('incidents.fields.status'),
      options: incidentStatuses.map((value) => ({ value, label: t(`triage.incidentStatus.${value}`) })),
      testId: 'filter-status',
    },
    {
      kind: 'choice',
      name: 'severity',
      label: t('incidents.fields.severity'),
      options: [...alertSeverityValues].reverse().map((value) => ({ value, label: t(`triage.severity.${value}`) })),
      testId: 'filter-severity',
    },
    {
      kind: 'ids',
      name: 'assigneeId',
      label: t('incidents.fields.assignee'),
      options: users.map((user) => ({
        value: user.id,
        label: user.id === me.id ? `${userName(user)} (${t('triage.me')})` : userName(user),
      })),
      testId: 'filter-assignee',
    },
    { kind: 'company', name: 'companyId', label: t('incidents.fields.company'), testId: 'filter-company' },
  ];

  return (
    <Stack gap="lg" className="vigil-list-page vigil-incidents-page">
      <PageHeader
        title={t('incidents.title')}
        subtitle={
          <span data-testid="incident-count">
            {incidents.count === undefined ? '…' : t('incidents.list.count', { count: incidents.count })}
          </span>
        }
        actions={
          canAdd && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setCreating(true)}
              data-testid="incident-create"
            >
              {t('incidents.create.button')}
            </Button>
          )
        }
      />

      <Paper className="vigil-filters" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchFilter
            list={list}
            name="search"
            label={t('common.search')}
            placeholder={t('incidents.list.searchPlaceholder')}
            testId="filter-search"
          />
          {fields.map((field) => (
            <FilterControl key={field.name} field={field} list={list} />
          ))}
          <TimeWindowFilter
            list={list}
            periods={periods.map((value) => ({ value, label: t(`incidents.list.periods.${value}`) }))}
            value={period}
            from={{ name: 'createdFrom', label: t('incidents.list.from') }}
            to={{ name: 'createdTo', label: t('incidents.list.to') }}
            onCustom={() => {
              setCustomRange(true);
              list.setFilters({ period: undefined });
            }}
            onPeriod={() => setCustomRange(false)}
            testId="filter-period"
          />
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered && !customRange}
            onClick={() => {
              setCustomRange(false);
              list.resetFilters();
            }}
          >
            {t('incidents.list.resetFilters')}
          </Button>
          {changed && (
            <Button
              variant="light"
              leftSection={<IconRefresh size={16} />}
              onClick={() => {
                setChanged(false);
                void incidents.refresh();
              }}
              data-testid="incidents-refresh"
            >
              {t('incidents.list.changed')}
            </Button>
          )}
        </Group>
      </Paper>

      {incidents.error ? (
        <LoadError message={t('incidents.list.loadFailed')} onRetry={() => void incidents.refresh()} />
      ) : (
        <VirtualTable<Incident>
          ariaLabel={t('incidents.title')}
          rows={incidents.rows}
          rowKey={(row) => row.id}
          columns={columns}
          total={incidents.count}
          ordering={list.ordering}
          onSort={list.toggleOrdering}
          rowHref={(row) => incidentUrl(row.id)}
          activeIndex={activeIndex}
          onActiveIndexChange={setActiveIndex}
          hasMore={incidents.hasMore}
          loadMore={incidents.loadMore}
          loading={incidents.isLoading}
          loadingMore={incidents.isLoadingMore}
          rowHeight={44}
          empty={
            <Text c="dimmed" size="sm" ta="center" py="xl">
              {filtered ? t('incidents.list.nothingMatches') : t('incidents.list.empty')}
            </Text>
          }
          testId="incidents-table"
        />
      )}
      {creating && <CreateIncidentModal opened onClose={() => setCreating(false)} />}
    </Stack>
  );
}
