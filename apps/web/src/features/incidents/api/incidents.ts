import type {
  Alert as AlertWire,
  Incident as IncidentWire,
  IncidentDetail as IncidentDetailWire,
  IncidentTask as IncidentTaskWire,
  incidentCreateSchema,
  incidentUpdateSchema,
  taskCreateSchema,
  taskUpdateSchema,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import type { z } from 'zod';
import { call, type Camelize, type RequestOptions } from '../../../lib/http';
import { defineList, type FiltersOf } from '../../../lib/list';
import { periodStart } from '../../triage/periods';

export type Incident = Camelize<IncidentWire>;
export type IncidentDetail = Camelize<IncidentDetailWire>;
export type IncidentTask = Camelize<IncidentTaskWire>;
export type TimelineEntry = IncidentDetail['timeline'][number];
export type LinkedAlert = Camelize<AlertWire>;
export type IncidentCreate = Camelize<z.input<typeof incidentCreateSchema>>;
export type IncidentUpdate = Camelize<z.input<typeof incidentUpdateSchema>>;
export type TaskCreate = Camelize<z.input<typeof taskCreateSchema>>;
export type TaskUpdate = Camelize<z.input<typeof taskUpdateSchema>>;

/** The incident list over the list engine: filters, ordering and the time window live in the URL. */
export const incidentList = defineList(endpoints.incidents.list, {
  pageSizes: [100],
  defaultPageSize: 100,
  /** A relative window (`1h`, `24h`, `7d`, `30d`) over creation; turned into `created_from` when asked. */
  pageFilters: { period: 'string' },
});

export type IncidentListFilters = FiltersOf<(typeof incidentList)['filters']>;
export type IncidentApiFilters = Omit<IncidentListFilters, 'period'>;

/**
 * The list's URL filters as the API takes them: a relative period becomes `created_from` at `now`
 * (a custom range wins over it); empty values are left out.
 */
export function toApiFilters(filters: IncidentListFilters, now: number): IncidentApiFilters {
  const { period, ...rest } = filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  if (period && !rest.createdFrom && !rest.createdTo) {
    const start = periodStart(period, now);
    if (start) out.createdFrom = start;
  }
  return out as IncidentApiFilters;
}

export const incidentKeys = {
  all: ['incidents'] as const,
  detail: (id: number) => ['incidents', 'detail', id] as const,
  alerts: (id: number) => ['incidents', 'alerts', id] as const,
  users: ['incidents', 'assignable-users'] as const,
};

export const fetchIncident = (id: number, signal?: AbortSignal) =>
  call(endpoints.incidents.get, { params: { id }, signal });

/** What a form tells the call: the fields it shows problems beside (see RequestOptions.shownFields). */
export type FormCall = Pick<RequestOptions, 'shownFields'>;

export const createIncident = (data: IncidentCreate, form: FormCall = {}) =>
  call(endpoints.incidents.create, { body: data, ...form });

export const updateIncident = (id: number, data: IncidentUpdate, form: FormCall = {}) =>
  call(endpoints.incidents.update, { params: { id }, body: data, ...form });

export const addComment = (id: number, body: string, form: FormCall = {}) =>
  call(endpoints.incidents.comment, { params: { id }, body: { body }, ...form });

export const addTask = (id: number, data: TaskCreate, form: FormCall = {}) =>
  call(endpoints.incidents.addTask, { params: { id }, body: data, ...form });

export const updateTask = (id: number, taskId: number, data: TaskUpdate) =>
  call(endpoints.incidents.updateTask, { params: { id, task_id: taskId }, body: data });

/** The most alerts the incident page lists (the detail names at most 1000). */
export const LINKED_ALERTS_LIMIT = 500;

/** The alerts linked to an incident, most severe first. */
export const fetchLinkedAlerts = (id: number, signal?: AbortSignal) =>
  call(endpoints.alerts.list, {
    query: { pageSize: LINKED_ALERTS_LIMIT, ordering: '-severity' },
    body: { incidentId: id },
    signal,
  });

/** A user the assignee pickers offer (`GET /api/users/available/`). */
export type AssignableUser = Camelize<{ id: number; username: string; full_name: string; company_id: number }>;

export const fetchAssignableUsers = (signal?: AbortSignal) => call(endpoints.users.available, { signal });
