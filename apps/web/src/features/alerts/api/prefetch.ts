import type { QueryClient } from '@tanstack/react-query';
import type { Alert } from '@vigil/contract';
import { prefetchInfiniteList, readListState } from '../../../lib/list';
import { alertList, toApiFilters } from './alerts';

/**
 * Starts reading the queue of the URL while the queue's code loads. A relative period is read as
 * of when the page opens, so such a view is left to the page itself.
 */
export function prefetchAlertQueue(client: QueryClient, search: URLSearchParams): void {
  const state = readListState(alertList, search);
  if (state.filters.period) return;
  void prefetchInfiniteList<Alert, (typeof alertList)['filters']>(client, alertList, {
    ordering: state.ordering,
    pageSize: state.pageSize,
    filters: toApiFilters(state.filters, Date.now()),
  });
}
