import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { infiniteListQuery, readListState } from '../../../lib/list';
import { alertList, toApiFilters } from './alerts';
import { prefetchAlertQueue } from './prefetch';

function clientSpy() {
  const client = new QueryClient();
  const prefetch = vi.spyOn(client, 'prefetchInfiniteQuery').mockResolvedValue(undefined);
  return { client, prefetch };
}

describe('prefetching the alert queue', () => {
  it('reads the queue of the URL under the very key the page reads it by', () => {
    const { client, prefetch } = clientSpy();
    const search = new URLSearchParams('status=new&severity=high&severity=critical&ordering=-first_seen');
    prefetchAlertQueue(client, search);
    expect(prefetch).toHaveBeenCalledTimes(1);
    const state = readListState(alertList, search);
    expect(state.filters).toEqual({ status: ['new'], severity: ['high', 'critical'] });
    const pageKey = infiniteListQuery(alertList, {
      ordering: state.ordering,
      pageSize: state.pageSize,
      filters: toApiFilters(state.filters, Date.now()),
    }).queryKey;
    expect(prefetch.mock.calls[0]![0].queryKey).toEqual(pageKey);
    expect(pageKey).toEqual([
      'alerts',
      'infinite',
      '/api/alerts/check/',
      100,
      '-first_seen',
      { status: ['new'], severity: ['high', 'critical'] },
    ]);
  });

  it('leaves a relative period to the page, which reads it as of when it opens', () => {
    const { client, prefetch } = clientSpy();
    prefetchAlertQueue(client, new URLSearchParams('period=24h'));
    expect(prefetch).not.toHaveBeenCalled();
  });
});
