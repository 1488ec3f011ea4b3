import { useQueryClient } from '@tanstack/react-query';
import type { AlertResolution, AlertStatus } from '@vigil/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../../lib/i18n';
import { useLocation, useNavigate } from '../../../../lib/router';
import { ApiError } from '../../../../lib/http';
import { notify } from '../../../../lib/notifications';
import { usePermission } from '../../../../lib/permissions';
import { useSignedInUser } from '../../../../lib/session';
import { graphUrl } from '../../../triage';
import { bulkAlerts, createIncident, updateAlert, type Alert } from '../../api/alerts';
import { applyChange, buildBulkBody, toAlertUpdate, type BulkTarget, type TriageChange } from '../../lib/bulk';
import { saveQueueOrder } from '../../lib/queue-order';
import { changingActions, shortcutFor } from '../../lib/shortcuts';
import type { IncidentChoice } from '../incident-modal';
import { rowIdOf, type AlertQueue } from './use-alert-queue';

/** The most alerts a new incident is made of at once (the API's bound). */
const INCIDENT_MAX_ALERTS = 1000;

/** What an action reaches: the request naming it, how many alerts that is, and the loaded ones. */
export type Target = { request: BulkTarget; size: number; rows: Alert[] };
export type Dialog =
  | { kind: 'resolution'; status: 'resolved' | 'closed'; target: Target }
  | { kind: 'assign' | 'tags'; target: Target }
  | { kind: 'incident'; mode: 'existing' | 'create'; target: Target }
  | { kind: 'help' };

/**
 * Triage of the queue: changes to one alert (PATCH) or many (the bulk endpoint), the dialogs that
 * ask for a resolution, assignee, tags or incident, and the keyboard shortcuts.
 */
export function useTriageActions(queue: AlertQueue, searchRef: React.RefObject<HTMLInputElement | null>) {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const mayChange = usePermission({ action: 'change', subject: 'alerts' });
  const mayBulk = usePermission({ action: 'bulk', subject: 'alerts' }) && mayChange;
  const mayAddIncident = usePermission({ action: 'add', subject: 'incidents' });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState(false);
  const { rows, selection, activeIndex, setActiveIndex, patchRows, recount, scrollToTop } = queue;
  const { refresh } = queue.queue;

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

  /** The selection as a target (bulk bar actions); null while nothing is selected. */
  const bulkTarget = (): Target | null => (selection.mode === 'none' ? null : currentTarget());

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

  return {
    me,
    mayBulk,
    mayAddIncident,
    dialog,
    setDialog,
    busy,
    apply,
    bulkTarget,
    setStatus,
    pickResolution,
    openAlert,
    chooseIncident,
  };
}

export type TriageActions = ReturnType<typeof useTriageActions>;
