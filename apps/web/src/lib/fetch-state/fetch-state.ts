import { keepPreviousData, QueryClient, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isCancelled } from '../http';

/** The console's query client: failures are shown by the HTTP client, so no retries and no refetch on focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
      mutations: { retry: false },
    },
  });
}

export interface FetchStateOptions<T> {
  /** Identifies the data source; a new key starts a new fetch (and cancels the running one). */
  queryKey: QueryKey;
  /** Loads the data; pass the signal on to the HTTP client so the call can be cancelled. */
  fetcher: (signal: AbortSignal) => Promise<T>;
  enabled?: boolean;
  /** Data is cleared when a fetch starts, unless this is turned off (lists keep the last page). */
  clearDataOnFetch?: boolean;
}

/** Data, error, fetching flag; `fetch` starts again, `cancel` stops the running call. */
export interface FetchState<T> {
  data: T | undefined;
  error: Error | null;
  fetching: boolean;
  fetch: () => Promise<void>;
  cancel: () => Promise<void>;
}

/**
 * A data source on TanStack Query: starting a fetch clears the
 * error and cancels one already running; the data is cleared at start unless `clearDataOnFetch`
 * is false; a cancellation is only logged; any other failure is kept as the error.
 */
export function useFetchState<T>({
  queryKey,
  fetcher,
  enabled = true,
  clearDataOnFetch = true,
}: FetchStateOptions<T>): FetchState<T> {
  const client = useQueryClient();
  const query = useQuery({
    queryKey,
    enabled,
    queryFn: async ({ signal }) => {
      try {
        return await fetcher(signal);
      } catch (error) {
        if (isCancelled(error)) console.info('Fetch cancelled:', JSON.stringify(queryKey));
        throw error;
      }
    },
    // Without clearing, the last data stays on screen while the next loads; with it, nothing is cached.
    ...(clearDataOnFetch ? { gcTime: 0 } : { placeholderData: keepPreviousData }),
  });

  const keyText = JSON.stringify(queryKey);
  const fetch = useCallback(async () => {
    if (clearDataOnFetch) await client.resetQueries({ queryKey, exact: true });
    else await client.refetchQueries({ queryKey, exact: true }, { cancelRefetch: true });
    // The key's text stands for the key: a new array with the same content is the same source.
  }, [client, keyText, clearDataOnFetch]);
  const cancel = useCallback(() => client.cancelQueries({ queryKey, exact: true }), [client, keyText]);

  const error = query.isFetching || isCancelled(query.error) ? null : query.error;
  return { data: query.data, error, fetching: query.isFetching, fetch, cancel };
}
