import type { CommittedAction as CommittedActionWire, MatcherCreate, MatcherUpdate } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type CommittedAction = Camelize<CommittedActionWire>;

export const matcherKeys = {
  all: ['matchers'] as const,
  detail: (id: number) => ['matchers', 'detail', id] as const,
  users: ['matchers', 'assignable-users'] as const,
  incidents: (search: string) => ['matchers', 'incidents', search] as const,
  incident: (id: number) => ['matchers', 'incident', id] as const,
  names: ['matchers', 'names'] as const,
};

export const MATCHERS_PATH = '/settings/committed-actions';
export const MATCHER_LOG_PATH = '/settings/committed-actions/log';
export const matcherPath = (id: number | 'new') => `${MATCHERS_PATH}/${id}`;

/** Matchers over the list engine, in the order they run. */
export const matcherList = defineList(endpoints.matchers.list, { pageSizes: [25, 50, 100, 200], defaultPageSize: 50 });

/** What matchers did, newest first. */
export const committedActionList = defineList(endpoints.matchers.actions.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
});

export const fetchMatcher = (id: number, signal?: AbortSignal) =>
  call(endpoints.matchers.get, { params: { id }, signal, notifyErrors: false });
/** Every matcher in scope (at most 500), for names in the log's filter. */
export const fetchMatcherNames = (signal?: AbortSignal) =>
  call(endpoints.matchers.list, { query: { pageSize: 500 }, body: {}, signal });

export const createMatcher = (data: Camelize<MatcherCreate>, shownFields: readonly string[]) =>
  call(endpoints.matchers.create, { body: data, shownFields });
export const updateMatcher = (id: number, data: Camelize<MatcherUpdate>, shownFields: readonly string[] = []) =>
  call(endpoints.matchers.update, { params: { id }, body: data, shownFields });
export const deleteMatcher = (id: number) => call(endpoints.matchers.remove, { params: { id } });

/** Users the assign action may name (`GET /api/users/available/`). */
export const fetchAssignableUsers = (signal?: AbortSignal) => call(endpoints.users.available, { signal });

/** Incidents whose title or number matches, for the add-to-incident picker. */
export const searchIncidents = (search: string, signal?: AbortSignal) =>
  call(endpoints.incidents.list, {
    query: { pageSize: 20, ordering: '-created_at' },
    body: search ? { search } : {},
    signal,
    notifyErrors: false,
  });
export const fetchIncident = (id: number, signal?: AbortSignal) =>
  call(endpoints.incidents.get, { params: { id }, signal, notifyErrors: false });
