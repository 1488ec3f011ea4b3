import { ActionIcon, Button, Menu, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconCheck,
  IconChevronDown,
  IconKeyboard,
  IconRefresh,
  IconShieldPlus,
  IconTag,
  IconUser,
} from '@tabler/icons-react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  alertSources,
  type Alert as AlertWire,
  type AlertResolution,
  type AlertStatus,
  type ListAnswer,
} from '@vigil/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LoadError, SelectionBar, useSelection, VirtualTable, type Column } from '../../../components/list';
import { PageHeader } from '../../../components/ui/page-header';
import { useAfterFirstPaint } from '../../../lib/after-paint';
import { formatDate } from '../../../lib/dates';
import { ApiError, type Camelize } from '../../../lib/http';
import { useListState } from '../../../lib/list';
import { useInfiniteList } from '../../../lib/list/infinite';
import { useLiveEvents, useLiveStatus } from '../../../lib/live';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { alertStatusPill, graphUrl, severityPill, useTriageLabels } from '../../triage';
import {
  alertList,
  bulkAlerts,
  countAlerts,
  createIncident,
  toApiFilters,
  updateAlert,
  type Alert,
  type AlertApiFilters,
} from '../api/alerts';
import { useAssignableUsers, useCompanyNames, userLabel } from '../api/hooks';
import { useLiveRowRefresh } from '../api/live-rows';
import { applyChange, buildBulkBody, toAlertUpdate, type BulkTarget, type TriageChange } from '../lib/bulk';
import { addLiveEvent, newAlertsCount, noNewAlerts } from '../lib/new-alerts';
import { saveQueueOrder } from '../lib/queue-order';
import { changingActions, shortcutFor } from '../lib/shortcuts';
import { AssignModal } from './assign-modal';
import { AlertFilters } from './alert-filters';
import { IncidentModal, type IncidentChoice } from './incident-modal';
import { ResolutionModal } from './resolution-modal';
import { ShortcutHelp } from './shortcut-help';
import { sourceIcon } from './source-icon';
import { TagModal } from './tag-modal';
import './alerts.css';

const ROW_HEIGHT = 40;
/** The most alerts a new incident is made of at once (the API's bound). */
const INCIDENT_MAX_ALERTS = 1000;
const severityRank = { info: 0, low: 1, medium: 2, high: 3, critical: 4 } as const;

type Page = Camelize<ListAnswer<AlertWire>>;
type Target = { request: BulkTarget; size: number; rows: Alert[] };
type Dialog =
  | { kind: 'resolution'; status: 'resolved' | 'closed'; target: Target }
  | { kind: 'assign' | 'tags'; target: Target }
  | { kind: 'incident'; mode: 'existing' | 'create'; target: Target }
  | { kind: 'help' };

/** Alerts → the triage queue: filters in the URL, a virtualised table, bulk actions, live arrivals, shortcuts. */
export default function AlertsPage() {
  const { t, i18n } = useTranslation();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const list = useListState(alertList);
  const mayChange = usePermission({ action: 'change', subject: 'alerts' });
  const mayBulk = usePermission({ action: 'bulk', subject: 'alerts' }) && mayChange;
  const mayAddIncident = usePermission({ action: 'add', subject: 'incidents' });
  const liveStatus = useLiveStatus();
  const users = useAssignableUsers();
  const companies = useCompanyNames();
  const searchRef = useRef<HTMLInputElement>(null);
  // The closed dialogs (five Mantine modals) mount just after the first rows are painted.
  const painted = useAfterFirstPaint();
  const tableRef = useRef<HTMLDivElement>(null);

  const filtersKey = JSON.stringify(list.filters);
  // A relative period is read as of when the filters were set; a refresh keeps that start.
  const apiFilters = useMemo<AlertApiFilters>(
    () => toApiFilters(JSON.parse(filtersKey) as typeof list.filters, Date.now()),
    [filtersKey],
  );
  const queue = useInfiniteList<AlertWire, (typeof alertList)['filters']>(alertList, {
    ordering: list.ordering,
    pageSize: list.pageSize,
    filters: apiFilters,
  });
  const { rows, refresh } = queue;
  const [countOverride, setCountOverride] = useState<{ key: string; count: number } | null>(null);
  const count = countOverride?.key === filtersKey ? countOverride.count : queue.count;

  const selection = useSelection<Alert, AlertApiFilters>({
    rows,
    rowId: rowIdOf,
    count,
    filter: apiFilters,
    filterKey: filtersKey,
  });
  // -1: no row highlighted yet (j or ↓ highlights the first); actions then reach the first row.
  const [activeIndex, setActiveIndex] = useState(-1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState(noNewAlerts);

  useEffect(() => {
    setActiveIndex(-1);
    setFresh(noNewAlerts);
    setCountOverride(null);
  }, [filtersKey, list.ordering]);

  useLiveEvents(['alert.created'], (event) => setFresh((state) => addLiveEvent(state, event, apiFilters)));

  const scrollToTop = () => tableRef.current?.querySelector('.vigil-vtable__scroll')?.scrollTo({ top: 0 });

  const showNew = async () => {
    setFresh(noNewAlerts);
    setCountOverride(null);
    setActiveIndex(0);
    scrollToTop();
    await refresh();
  };

  /** Replaces rows in every loaded page of the queue (no reload, nothing moves). */
  const patchRows = useCallback(
    (update: (row: Alert) => Alert | null) => {
      queryClient.setQueryData<InfiniteData<Page, string | null>>(queue.queryKey, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                results: page.results.map((row) => update(row) ?? row),
              })),
            }
          : data,
      );
    },
    [queryClient, queue.queryKey],
  );

  // Rows someone else triaged show their new state in place (they move or leave on the next refresh).
  useLiveRowRefresh({
    shownIds: () => new Set(rows.map(rowIdOf)),
    apply: (fresh) => {
      const byId = new Map(fresh.map((row) => [row.id, row]));
      patchRows((row) => byId.get(row.id) ?? null);
    },
  });

  const recount = useCallback(async () => {
    try {
      const answer = await countAlerts(apiFilters);
      setCountOverride({ key: filtersKey, count: answer.count });
    } catch {
      // The count shown stays the last one read; the next refresh corrects it.
    }
  }, [apiFilters, filtersKey]);

  const reportFailure = (error: unknown) => {
    // Validation answers are shown by the HTTP client; anything else gets a short line here.
    if (!(error instanceof ApiError)) notify({ type: 'error', message: t('alerts.bulk.failed') });
  };

  /** Applies a triage change to a target: one alert by PATCH, several by the bulk endpoint. */
  const apply = async (target: Target, change: TriageChange) => {
    setBusy(true);
    try {
      const single = 'ids' in target.request && target.request.ids.length === 1 && change.kind !== 'addToIncident';
      if (single && 'ids' in target.request) {
        const id = target.request.ids[0] as number;
        const row = target.rows[0];
        const updated = await updateAlert(
          id,
          toAlertUpdate(change as Exclude<TriageChange, { kind: 'addToIncident' }>, row?.tags ?? []),
        );
        patchRows((current) => (current.id === id ? updated : null));
      } else {
        const answer = await bulkAlerts(buildBulkBody(target.request, change));
        notify({
          type: 'success',
          title: t('alerts.bulk.doneTitle'),
          message: t('alerts.bulk.done', { count: answer.updated }),
        });
        if ('ids' in target.request) {
          const ids = new Set(target.request.ids);
          patchRows((row) => (ids.has(row.id) ? applyChange(row, change) : null));
        } else {
          // Every matching alert changed, loaded or not: read the queue again.
          scrollToTop();
          setActiveIndex(0);
          await refresh();
        }
        selection.clear();
      }
      void queryClient.invalidateQueries({ queryKey: ['alerts', 'detail'] });
      await recount();
    } catch (error) {
      reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

  /** What an action reaches: the selection, else the highlighted row. */
  const currentTarget = (): Target | null => {
    if (selection.mode !== 'none') {
      const request = selection.asRequest();
      const picked = 'ids' in request ? rows.filter((row) => selection.ids.has(row.id)) : rows;
      return { request, size: selection.size, rows: picked };
    }
    const row = rows[Math.max(0, activeIndex)];
    return row ? { request: { ids: [row.id] }, size: 1, rows: [row] } : null;
  };

  const setStatus = (status: AlertStatus, target = currentTarget()) => {
    if (!target) return;
    if (status === 'resolved' || status === 'closed') setDialog({ kind: 'resolution', status, target });
    else void apply(target, { kind: 'status', status });
  };

  const pickResolution = (resolution: AlertResolution) => {
    if (dialog?.kind === 'resolution') void apply(dialog.target, { kind: 'status', status: dialog.status, resolution });
    setDialog(null);
  };

  const openAlert = (row: Alert) => {
    saveQueueOrder(`${location.pathname}${location.search}`, rows.map(rowIdOf));
    void navigate(`/alerts/${row.id}`);
  };

  const chooseIncident = async (choice: IncidentChoice) => {
    if (dialog?.kind !== 'incident') return;
    const { target } = dialog;
    setBusy(true);
    try {
      if (choice.kind === 'existing') {
        const answer = await bulkAlerts(
          buildBulkBody(target.request, { kind: 'addToIncident', incidentId: choice.incidentId }),
        );
        notify({
          type: 'success',
          message: t('alerts.incidentModal.added', { count: answer.updated, id: choice.incidentId }),
        });
        setDialog(null);
        selection.clear();
        await refresh();
        return;
      }
      const ids = 'ids' in target.request ? target.request.ids : target.rows.slice(0, INCIDENT_MAX_ALERTS).map(rowIdOf);
      if (ids.length === 0) return;
      if ('ids' in target.request && ids.length > INCIDENT_MAX_ALERTS) {
        notify({ type: 'error', message: t('alerts.incidentModal.tooMany', { max: INCIDENT_MAX_ALERTS }) });
        return;
      }
      const incident = await createIncident({ title: choice.title, severity: choice.severity, alertIds: ids });
      // "All matching" may reach alerts never loaded here: they join by the filter.
      if ('filter' in target.request) {
        await bulkAlerts(buildBulkBody(target.request, { kind: 'addToIncident', incidentId: incident.id }));
      }
      notify({ type: 'success', message: t('alerts.incidentModal.created', { id: incident.id }) });
      setDialog(null);
      void navigate(`/incidents/${incident.id}`);
    } catch (error) {
      reportFailure(error);
    } finally {
      setBusy(false);
    }
  };

  // Keyboard triage. The handler reads the latest render through a ref so it is installed once.
  const onShortcut = useRef<(event: KeyboardEvent) => void>(() => undefined);
  onShortcut.current = (event: KeyboardEvent) => {
    if (dialog) return;
    const action = shortcutFor(event);
    if (!action) return;
    if (changingActions.has(action) && !mayChange) return;
    const row = rows[Math.max(0, activeIndex)];
    const handled = () => event.preventDefault();
    switch (action) {
      case 'next':
        handled();
        setActiveIndex((index) => Math.min(rows.length - 1, index + 1));
        break;
      case 'previous':
        handled();
        setActiveIndex((index) => Math.max(0, index - 1));
        break;
      case 'open':
        if (row) {
          handled();
          openAlert(row);
        }
        break;
      case 'toggleSelect':
        if (row && mayBulk) {
          handled();
          selection.toggle(row.id);
        }
        break;
      case 'clearSelection':
        selection.clear();
        break;
      case 'assignToMe':
      case 'unassign': {
        const target = currentTarget();
        if (target) {
          handled();
          void apply(target, { kind: 'assign', assigneeId: action === 'assignToMe' ? me.id : null });
        }
        break;
      }
      case 'inProgress':
        handled();
        setStatus('in_progress');
        break;
      case 'resolve':
      case 'close':
        handled();
        setStatus(action === 'resolve' ? 'resolved' : 'closed');
        break;
      case 'addToIncident':
      case 'addTag': {
        const target = currentTarget();
        if (!target) break;
        if (target.size > 1 && !mayBulk) break;
        handled();
        setDialog(action === 'addTag' ? { kind: 'tags', target } : { kind: 'incident', mode: 'existing', target });
        break;
      }
      case 'graph':
        if (row) {
          handled();
          void navigate(graphUrl({ alert: row.id }));
        }
        break;
      case 'focusSearch':
        handled();
        searchRef.current?.focus();
        searchRef.current?.select();
        break;
      case 'help':
        handled();
        setDialog({ kind: 'help' });
        break;
    }
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onShortcut.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const numberFormat = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const labels = useTriageLabels();
  // Rows call no hooks: every text a cell shows is read here, once per language.
  const columns = useMemo<Column<Alert>[]>(() => {
    const sourceLabels = Object.fromEntries(alertSources.map((source) => [source, t(`triage.source.${source}`)]));
    const unassigned = t('triage.unassigned');
    const meLabel = t('triage.me');
    const all: (Column<Alert> | null)[] = [
      {
        id: 'severity',
        header: t('alerts.columns.severity'),
        width: '104px',
        sortField: 'severity',
        render: (row) => severityPill(row.severity, labels.severity[row.severity]),
      },
      {
        id: 'title',
        header: t('alerts.columns.title'),
        width: 'minmax(200px, 1fr)',
        render: (row) => (
          <span className="vigil-alert-title" data-status={row.status}>
            {sourceIcon(row.source, sourceLabels[row.source] ?? row.source)}
            <span className="vigil-alert-title__text" title={row.title}>
              {row.title}
            </span>
          </span>
        ),
      },
      {
        id: 'status',
        header: t('alerts.columns.status'),
        width: '108px',
        render: (row) => alertStatusPill(row.status, labels.alertStatus[row.status]),
      },
      {
        id: 'assignee',
        header: t('alerts.columns.assignee'),
        width: '130px',
        // Plain elements in cells: a row is mounted each time it scrolls into view.
        render: (row) =>
          row.assigneeId === null ? (
            <span className="vigil-cell-dimmed">{unassigned}</span>
          ) : (
            <span className="vigil-ellipsis" data-me={row.assigneeId === me.id || undefined}>
              {row.assigneeId === me.id ? meLabel : userLabel(users.byId.get(row.assigneeId), row.assigneeId)}
            </span>
          ),
      },
      companies.many
        ? {
            id: 'company',
            header: t('alerts.columns.company'),
            width: '130px',
            render: (row) => (
              <span className="vigil-ellipsis">{companies.byId.get(row.companyId) ?? `#${row.companyId}`}</span>
            ),
          }
        : null,
      {
        id: 'tags',
        header: t('alerts.columns.tags'),
        width: '120px',
        render: (row) => (
          <span className="vigil-alert-tags" title={row.tags.join(', ')}>
            {row.tags.map((tag) => (
              <span key={tag} className="vigil-pill vigil-pill--outline">
                {tag}
              </span>
            ))}
          </span>
        ),
      },
      {
        id: 'count',
        header: t('alerts.columns.count'),
        width: '84px',
        sortField: 'count',
        align: 'end',
        render: (row) => <span className="vigil-num">{numberFormat.format(row.count)}</span>,
      },
      {
        id: 'lastSeen',
        header: t('alerts.columns.lastSeen'),
        width: '148px',
        sortField: 'last_seen',
        render: (row) => <span className="vigil-num">{formatDate(row.lastSeen, 'isoDateTime')}</span>,
      },
    ];
    return all.filter((column): column is Column<Alert> => column !== null);
  }, [t, labels, me.id, users.byId, companies, numberFormat]);

  // Stable, so the table keeps the strings it worked out for rows already seen.
  const rowLabel = useCallback((row: Alert) => t('alerts.queue.selectRow', { id: row.id }), [t]);

  const newCount = newAlertsCount(fresh);
  const bulkTarget = (): Target | null => (selection.mode === 'none' ? null : (currentTarget() as Target));
  const firstOf = (target: Target | null) => target?.rows[0];
  const incidentDialog = dialog?.kind === 'incident' ? dialog : null;
  const maxSeverity = (incidentDialog?.target.rows ?? []).reduce<Alert['severity']>(
    (max, row) => (severityRank[row.severity] > severityRank[max] ? row.severity : max),
    'info',
  );

  return (
    <Stack gap="sm" className="vigil-list-page vigil-alerts-page">
      <PageHeader
        title={t('alerts.queue.title')}
        subtitle={
          <span data-testid="alerts-count" data-count={count ?? ''}>
            {count === undefined
              ? t('alerts.queue.counting')
              : t('alerts.queue.count', { total: numberFormat.format(count) })}
          </span>
        }
        actions={
          <>
            <Tooltip
              label={
                liveStatus === 'open'
                  ? t('alerts.queue.live')
                  : liveStatus === 'connecting'
                    ? t('alerts.queue.liveConnecting')
                    : t('alerts.queue.liveOff')
              }
            >
              <span className="vigil-live-dot" data-status={liveStatus} aria-label={t('alerts.queue.live')}>
                {t('alerts.queue.live')}
              </span>
            </Tooltip>
            <Tooltip label={t('alerts.queue.shortcuts')}>
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => setDialog({ kind: 'help' })}
                aria-label={t('alerts.queue.shortcuts')}
              >
                <IconKeyboard size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('alerts.queue.refresh')}>
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => void showNew()}
                loading={queue.isFetching && !queue.isLoadingMore}
                aria-label={t('alerts.queue.refresh')}
              >
                <IconRefresh size={18} />
              </ActionIcon>
            </Tooltip>
          </>
        }
      />

      <AlertFilters list={list} searchRef={searchRef} />

      {queue.error !== null && queue.error !== undefined && (
        <LoadError message={t('alerts.queue.loadFailed')} onRetry={() => void refresh()} />
      )}

      {mayBulk && (
        <SelectionBar selection={selection as never} count={count}>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconUser size={14} />}
                rightSection={<IconChevronDown size={14} />}
                loading={busy}
                data-testid="bulk-assign"
              >
                {t('alerts.bulk.assign')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                onClick={() => {
                  const target = bulkTarget();
                  if (target) void apply(target, { kind: 'assign', assigneeId: me.id });
                }}
                data-testid="bulk-assign-me"
              >
                {t('alerts.bulk.assignToMe')}
              </Menu.Item>
              <Menu.Item
                onClick={() => {
                  const target = bulkTarget();
                  if (target) setDialog({ kind: 'assign', target });
                }}
              >
                {t('alerts.bulk.assignTo')}
              </Menu.Item>
              <Menu.Item
                onClick={() => {
                  const target = bulkTarget();
                  if (target) void apply(target, { kind: 'assign', assigneeId: null });
                }}
              >
                {t('alerts.bulk.unassign')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconCheck size={14} />}
                rightSection={<IconChevronDown size={14} />}
                loading={busy}
                data-testid="bulk-status"
              >
                {t('alerts.bulk.status')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(['new', 'in_progress', 'resolved', 'closed'] as const).map((status) => (
                <Menu.Item
                  key={status}
                  onClick={() => setStatus(status, bulkTarget())}
                  data-testid={`bulk-status-${status}`}
                >
                  {t(`triage.alertStatus.${status}`)}
                  {status === 'resolved' || status === 'closed' ? '…' : ''}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconTag size={14} />}
            onClick={() => {
              const target = bulkTarget();
              if (target) setDialog({ kind: 'tags', target });
            }}
            data-testid="bulk-tags"
          >
            {t('alerts.bulk.tags')}
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconShieldPlus size={14} />}
                rightSection={<IconChevronDown size={14} />}
                data-testid="bulk-incident"
              >
                {t('alerts.bulk.incident')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                onClick={() => {
                  const target = bulkTarget();
                  if (target) setDialog({ kind: 'incident', mode: 'existing', target });
                }}
              >
                {t('alerts.bulk.addToIncident')}
              </Menu.Item>
              {mayAddIncident && (
                <Menu.Item
                  onClick={() => {
                    const target = bulkTarget();
                    if (target) setDialog({ kind: 'incident', mode: 'create', target });
                  }}
                  data-testid="bulk-new-incident"
                >
                  {t('alerts.bulk.newIncident')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </SelectionBar>
      )}

      <div className="vigil-alerts-table" ref={tableRef}>
        {newCount > 0 && (
          <div className="vigil-new-alerts">
            <Button radius="xl" size="compact-md" onClick={() => void showNew()} data-testid="new-alerts-pill">
              {t('alerts.queue.newAlerts', { count: newCount })}
            </Button>
          </div>
        )}
        <VirtualTable<Alert>
          rows={rows}
          rowKey={rowIdOf}
          columns={columns}
          ariaLabel={t('alerts.queue.tableLabel')}
          rowHeight={ROW_HEIGHT}
          total={count}
          ordering={list.ordering}
          onSort={list.toggleOrdering}
          selection={mayBulk ? (selection as never) : undefined}
          rowId={rowIdOf}
          rowLabel={rowLabel}
          activeIndex={activeIndex}
          onActiveIndexChange={setActiveIndex}
          onRowClick={(row) => openAlert(row)}
          rowHref={(row) => `/alerts/${row.id}`}
          rowClassName={rowClassName}
          hasMore={queue.hasMore}
          loadMore={queue.loadMore}
          loading={queue.isLoading}
          loadingMore={queue.isLoadingMore}
          empty={
            <Stack gap={4} align="center">
              <Text fw={600}>{t('alerts.queue.empty')}</Text>
              <Text size="sm" c="dimmed">
                {t('alerts.queue.emptyHint')}
              </Text>
            </Stack>
          }
          testId="alerts-table"
        />
      </div>

      {painted && (
        <>
          <ResolutionModal
            status={dialog?.kind === 'resolution' ? dialog.status : null}
            count={dialog?.kind === 'resolution' ? dialog.target.size : 0}
            onPick={pickResolution}
            onClose={() => setDialog(null)}
          />
          <AssignModal
            opened={dialog?.kind === 'assign'}
            onClose={() => setDialog(null)}
            onAssign={(userId) => {
              if (dialog?.kind === 'assign') void apply(dialog.target, { kind: 'assign', assigneeId: userId });
              setDialog(null);
            }}
          />
          <TagModal
            opened={dialog?.kind === 'tags'}
            onClose={() => setDialog(null)}
            onApply={(kind, tags) => {
              if (dialog?.kind === 'tags') void apply(dialog.target, { kind, tags });
              setDialog(null);
            }}
          />
          <IncidentModal
            opened={incidentDialog !== null}
            defaultMode={incidentDialog?.mode ?? 'existing'}
            allowCreate={mayAddIncident}
            defaultTitle={firstOf(incidentDialog?.target ?? null)?.title ?? ''}
            defaultSeverity={maxSeverity}
            busy={busy}
            onChoose={(choice) => void chooseIncident(choice)}
            onClose={() => setDialog(null)}
          />
          <ShortcutHelp opened={dialog?.kind === 'help'} onClose={() => setDialog(null)} />
        </>
      )}
    </Stack>
  );
}

function rowIdOf(row: Alert): number {
  return row.id;
}

function rowClassName(row: Alert): string {
  return `vigil-alert-row vigil-alert-row--${row.status}`;
}
