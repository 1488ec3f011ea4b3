import type { LiveEvent } from '../../../lib/live';
import type { AlertApiFilters } from '../api/alerts';

/** Alerts raised since the queue was last read that might belong in it. */
export interface NewAlerts {
  ids: ReadonlySet<number>;
  /** Alerts beyond the ids an event carried (the server caps ids per event). */
  uncounted: number;
}

export const noNewAlerts: NewAlerts = { ids: new Set(), uncounted: 0 };

export const newAlertsCount = (state: NewAlerts) => state.ids.size + state.uncounted;

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Whether a newly raised alert of a company could match the queue's filters, judged from what a
 * live event says (company only): new alerts are unassigned, status `new`, outside incidents.
 * Filters the event cannot answer (severity, search, tags…) count it in; the refresh decides.
 */
export function mayMatchNewAlert(filters: AlertApiFilters, companyId: number): boolean {
  const companies = list(filters.companyId);
  if (companies.length > 0 && !companies.includes(companyId)) return false;
  const statuses = list(filters.status);
  if (statuses.length > 0 && !statuses.includes('new')) return false;
  if (filters.unassigned === false || list(filters.assigneeId).length > 0) return false;
  if (list(filters.incidentId).length > 0) return false;
  if (filters.lastSeenTo) return false;
  return true;
}

/** Counts the alerts of one live event; created alerts only, each id once. */
export function addLiveEvent(state: NewAlerts, event: LiveEvent, filters: AlertApiFilters): NewAlerts {
  if (event.type !== 'alert.created' || !mayMatchNewAlert(filters, event.companyId)) return state;
  const fresh = event.ids.filter((id) => !state.ids.has(id));
  const uncounted = Math.max(0, event.count - event.ids.length);
  if (fresh.length === 0 && uncounted === 0) return state;
  return { ids: new Set([...state.ids, ...fresh]), uncounted: state.uncounted + uncounted };
}
