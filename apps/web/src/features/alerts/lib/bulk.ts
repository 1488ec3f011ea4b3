import type { AlertResolution, AlertStatus } from '@vigil/contract';
import type { Camelize } from '../../../lib/http';
import type { AlertBulkAction } from '@vigil/contract';
import type { AlertApiFilters, BulkBody } from '../api/alerts';

/** The alerts a bulk action reaches: picked ids, or every alert matching the queue's filters. */
export type BulkTarget = { ids: number[] } | { filter: AlertApiFilters };

/** A triage change the queue or a shortcut asks for, before it becomes an API action. */
export type TriageChange =
  | { kind: 'assign'; assigneeId: number | null }
  | { kind: 'status'; status: AlertStatus; resolution?: AlertResolution }
  | { kind: 'addTags' | 'removeTags'; tags: string[] }
  | { kind: 'addToIncident'; incidentId: number };

const FINAL: ReadonlySet<AlertStatus> = new Set(['resolved', 'closed']);

/** Whether a status needs a resolution (resolved and closed do). */
export const needsResolution = (status: AlertStatus) => FINAL.has(status);

/** Tags typed by a user: trimmed, no empties, no repeats, as the API bounds them. */
export function cleanTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag.length > 0 && tag.length <= 100))].slice(0, 50);
}

/** The API action of a triage change; throws on a change the API would refuse (a programming error). */
export function toBulkAction(change: TriageChange): Camelize<AlertBulkAction> {
  switch (change.kind) {
    case 'assign':
      return { action: 'assign', assigneeId: change.assigneeId };
    case 'status':
      if (needsResolution(change.status)) {
        if (!change.resolution) throw new Error(`A ${change.status} alert needs a resolution.`);
        return { action: 'set_status', status: change.status, resolution: change.resolution };
      }
      return { action: 'set_status', status: change.status };
    case 'addTags':
    case 'removeTags': {
      const tags = cleanTags(change.tags);
      if (tags.length === 0) throw new Error('Name at least one tag.');
      return { action: change.kind === 'addTags' ? 'add_tags' : 'remove_tags', tags };
    }
    case 'addToIncident':
      return { action: 'add_to_incident', incidentId: change.incidentId };
  }
}

/**
 * The body of `POST /api/alerts/bulk/`: by ids when alerts were picked one by one, by the filter
 * when "all N matching" was chosen (so alerts never loaded in the browser are reached too).
 */
export function buildBulkBody(target: BulkTarget, change: TriageChange): BulkBody {
  const action = toBulkAction(change);
  if ('ids' in target) {
    if (target.ids.length === 0) throw new Error('Pick at least one alert.');
    return { ids: [...new Set(target.ids)], action };
  }
  return { filter: target.filter, action };
}

/** The single-alert PATCH of a triage change (the alert page and the queue's row shortcuts). */
export function toAlertUpdate(
  change: Exclude<TriageChange, { kind: 'addToIncident' }>,
  currentTags: readonly string[],
) {
  switch (change.kind) {
    case 'assign':
      return { assigneeId: change.assigneeId };
    case 'status':
      return needsResolution(change.status)
        ? { status: change.status, resolution: change.resolution ?? null }
        : { status: change.status, resolution: null };
    case 'addTags':
      return { tags: cleanTags([...currentTags, ...change.tags]) };
    case 'removeTags': {
      const removed = new Set(change.tags.map((tag) => tag.trim()));
      return { tags: currentTags.filter((tag) => !removed.has(tag)) };
    }
  }
}

/** A row as it will be after a change the server accepted (so the queue updates in place, without a reload). */
export function applyChange<
  Row extends {
    status: AlertStatus;
    resolution: AlertResolution | null;
    assigneeId: number | null;
    tags: string[];
    incidentId: number | null;
  },
>(row: Row, change: TriageChange): Row {
  switch (change.kind) {
    case 'assign':
      return { ...row, assigneeId: change.assigneeId };
    case 'status':
      return {
        ...row,
        status: change.status,
        resolution: needsResolution(change.status) ? (change.resolution ?? row.resolution) : null,
      };
    case 'addTags':
      return { ...row, tags: cleanTags([...row.tags, ...change.tags]) };
    case 'removeTags': {
      const removed = new Set(change.tags);
      return { ...row, tags: row.tags.filter((tag) => !removed.has(tag)) };
    }
    case 'addToIncident':
      return { ...row, incidentId: change.incidentId };
  }
}
