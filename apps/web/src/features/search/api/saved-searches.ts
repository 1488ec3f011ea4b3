import type {
  SavedSearch as SavedSearchWire,
  SavedSearchCreate,
  SavedSearchUpdate,
  SearchReport as SearchReportWire,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';
import { writeSearchState } from '../lib/search-state';

export type SavedSearch = Camelize<SavedSearchWire>;
export type SearchReport = Camelize<SearchReportWire>;

/** Saved searches (`POST /api/search/saved/check/`). */
export const savedSearchList = defineList(endpoints.savedSearches.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
  omit: ['id'],
});

/** What the runs of saved searches found (`POST /api/search/reports/check/`). */
export const searchReportList = defineList(endpoints.savedSearches.reports.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
});

/** Query keys: the lists' pages are kept under their basenames (`search`, `search/reports`). */
export const savedSearchKeys = {
  all: ['search'] as const,
  reports: ['search/reports'] as const,
  report: (id: number) => ['search/reports', 'detail', id] as const,
  one: (id: number) => ['search', 'detail', id] as const,
  users: ['search', 'subscribable-users'] as const,
};

/** The fields the save form shows problems beside. */
export const savedSearchFormFields = [
  'name',
  'query',
  'type',
  'intervalMinutes',
  'sharing',
  'companyIds',
  'alert',
  'subscriberIds',
];

export const createSavedSearch = (data: Camelize<SavedSearchCreate>) =>
  call(endpoints.savedSearches.create, { body: data, shownFields: savedSearchFormFields });
export const updateSavedSearch = (id: number, data: Camelize<SavedSearchUpdate>) =>
  call(endpoints.savedSearches.update, { params: { id }, body: data, shownFields: savedSearchFormFields });
export const deleteSavedSearch = (id: number) => call(endpoints.savedSearches.delete, { params: { id } });
export const runSavedSearch = (id: number) => call(endpoints.savedSearches.runNow, { params: { id } });
/** A saved search, quietly: a report's page asks for it and does without when the caller does not see it. */
export const fetchSavedSearch = (id: number, signal?: AbortSignal) =>
  call(endpoints.savedSearches.get, { params: { id }, signal, notifyErrors: false });
/** Asks for (`on`) or stops the mail of a saved search's reports to the caller. */
export const subscribeSavedSearch = (id: number, on: boolean) =>
  call(on ? endpoints.savedSearches.subscribe : endpoints.savedSearches.unsubscribe, { params: { id } });
/** Users the subscribers picker offers (`GET /api/users/available/`). */
export const fetchSubscribableUsers = (signal?: AbortSignal) => call(endpoints.users.available, { signal });
export const fetchSearchReport = (id: number, signal?: AbortSignal) =>
  call(endpoints.savedSearches.reports.get, { params: { id }, signal });

/** The search page showing what a saved search or a report searched, over `from`–`to` when given. */
export function searchPageUrl(of: { query: string; type: readonly string[] }, from?: string, to?: string): string {
  const params = writeSearchState({
    kinds: of.type as Parameters<typeof writeSearchState>[0]['kinds'],
    query: of.query,
    from,
    to,
  });
  return `/search?${params.toString()}`;
}

export const searchReportPath = (id: number) => `/searches/reports/${id}`;
