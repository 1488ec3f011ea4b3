import type {
  Alert as AlertWire,
  AlertBulkAction,
  AlertDetail as AlertDetailWire,
  AlertComment as AlertCommentWire,
  AlertLinkedEvents as AlertLinkedEventsWire,
  AlertUpdate,
  Incident as IncidentWire,
  RuleKind,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type CallInput, type Camelize } from '../../../lib/http';
import { defineList, type FiltersOf } from '../../../lib/list';
import { periodStart, type Period } from '../../triage/periods';

export type Alert = Camelize<AlertWire>;
export type AlertDetail = Camelize<AlertDetailWire>;
export type AlertComment = Camelize<AlertCommentWire>;
export type AlertLinkedEvents = Camelize<AlertLinkedEventsWire>;
export type Incident = Camelize<IncidentWire>;

/** The queue over the list engine: every filter, the ordering and the time window live in the URL. */
export const alertList = defineList(endpoints.alerts.list, {
  pageSizes: [100],
  defaultPageSize: 100,
  omit: ['id', 'firstSeenFrom', 'firstSeenTo'],
  /** A relative window (`1h`, `24h`, `7d`, `30d`) over last seen; turned into `last_seen_from` when asked. */
  pageFilters: { period: 'string' },
});

export type AlertListFilters = FiltersOf<(typeof alertList)['filters']>;

/** What the API's filters are (camelCase; the client sends snake_case). */
export type AlertApiFilters = Omit<AlertListFilters, 'period'>;

/**
 * The queue's URL filters as the API takes them: a relative period becomes `last_seen_from` at
 * `now` (a custom range wins over it); empty lists are left out.
 */
export function toApiFilters(filters: AlertListFilters, now: number): AlertApiFilters {
  const { period, ...rest } = filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  if (period && !rest.lastSeenFrom && !rest.lastSeenTo) {
    const start = periodStart(period as Period, now);
    if (start) out.lastSeenFrom = start;
  }
  return out as AlertApiFilters;
}

export const alertKeys = {
  all: ['alerts'] as const,
  detail: (id: number) => ['alerts', 'detail', id] as const,
  events: (id: number) => ['alerts', 'events', id] as const,
  count: (filters: AlertApiFilters) => ['alerts', 'count', filters] as const,
  users: ['alerts', 'assignable-users'] as const,
  incidents: (search: string) => ['alerts', 'incident-picker', search] as const,
  rule: (kind: RuleKind, id: number) => ['alerts', 'detection-rule', kind, id] as const,
  indicator: (id: number) => ['alerts', 'detection-indicator', id] as const,
};

export const fetchAlert = (id: number, signal?: AbortSignal) => call(endpoints.alerts.get, { params: { id }, signal });

/** The stored rule an alert's detection names (404 once it is deleted or out of sight). */
export const fetchDetectionRule = (kind: RuleKind, id: number, signal?: AbortSignal) =>
  call(endpoints.rules[kind].get, { params: { id }, signal, notifyErrors: false });

/** The policy indicator an alert's detection names. */
export const fetchDetectionIndicator = (id: number, signal?: AbortSignal) =>
  call(endpoints.indicators.get, { params: { id }, signal, notifyErrors: false });

export const fetchLinkedEvents = (id: number, signal?: AbortSignal) =>
  call(endpoints.alerts.events, { params: { id }, signal });

export const updateAlert = (id: number, change: Camelize<AlertUpdate>) =>
  call(endpoints.alerts.update, { params: { id }, body: change });

export const addAlertComment = (id: number, body: string) =>
  call(endpoints.alerts.comment, { params: { id }, body: { body } });

/** The filters as the list endpoints declare them: values read from the URL are plain text, checked by the server. */
type FiltersBody = CallInput<typeof endpoints.alerts.count>['body'];

export const countAlerts = (filters: AlertApiFilters, signal?: AbortSignal) =>
  call(endpoints.alerts.count, { body: filters as FiltersBody, signal });

/** The body of `POST /api/alerts/bulk/` (camelCase; the client sends snake_case). */
export type BulkBody = ({ ids: number[] } | { filter: AlertApiFilters }) & { action: Camelize<AlertBulkAction> };

export const bulkAlerts = (body: BulkBody) =>
  call(endpoints.alerts.bulk, { body: body as CallInput<typeof endpoints.alerts.bulk>['body'] });

/** A user the picker offers (`GET /api/users/available/`). */
export interface AssignableUser {
  id: number;
  username: string;
  fullName: string;
  companyId: number;
}

export const fetchAssignableUsers = (signal?: AbortSignal) => call(endpoints.users.available, { signal });

/** Open incidents for the "add to incident" picker, newest first. */
export const searchIncidents = (search: string, signal?: AbortSignal) =>
  call(endpoints.incidents.list, {
    query: { pageSize: 20, ordering: '-created_at' },
    body: {
      status: ['open', 'investigating', 'contained'],
      ...(search.trim() ? { search: search.trim() } : {}),
    },
    signal,
  });

export const createIncident = (data: { title: string; severity?: Alert['severity']; alertIds: number[] }) =>
  call(endpoints.incidents.create, { body: data });

/** Links alerts to an incident from the incident's side (`add_alert_ids`; needs `change` on incidents). */
export const linkToIncident = (incidentId: number, alertIds: number[]) =>
  call(endpoints.incidents.update, { params: { id: incidentId }, body: { addAlertIds: alertIds } });
