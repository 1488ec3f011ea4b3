import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { ListAnswer } from '@vigil/contract';
import { endpointUrl } from '@vigil/contract/client';
import { useCallback, useMemo } from 'react';
import { http, type Camelize } from '../http';
import type { FilterKind, FiltersOf, ListDefinition, ListState } from './list';

/** What a long, scrolled list needs: every row read so far, the total and a way to read further. */
export interface InfiniteList<Row> {
  rows: Row[];
  /** How many rows match the filters (from the first page; kept while further pages load). */
  count: number | undefined;
  isLoading: boolean;
  isFetching: boolean;
  /** True while reading the next page (not on a refresh). */
  isLoadingMore: boolean;
  error: unknown;
  hasMore: boolean;
  loadMore: () => void;
  /** Reads the list again from the first page (e.g. after a bulk change or to show new rows). */
  refresh: () => Promise<void>;
  queryKey: QueryKey;
}

/** The cursor of an engine link (`…/check/?cursor=…&page_size=…`), or null when there is none. */
export function cursorOf(link: string | null): string | null {
  if (!link) return null;
  const query = link.includes('?') ? link.slice(link.indexOf('?') + 1) : '';
  return new URLSearchParams(query).get('cursor');
}

export interface InfiniteListOptions {
  enabled?: boolean;
}

type ListAnswerOf<Wire> = Camelize<ListAnswer<Wire>>;
type InfiniteState<D extends Record<string, FilterKind>> = Pick<ListState<D>, 'ordering' | 'pageSize'> & {
  filters: FiltersOf<D>;
};

/** How long a list read is fresh: a page that prefetched it as it opened does not read it again. */
const FRESH_MS = 3_000;

/** The query of a keyset-paged list: the same key and reader for the page and for a prefetch. */
export function infiniteListQuery<Wire, D extends Record<string, FilterKind>>(
  definition: ListDefinition<D>,
  state: InfiniteState<D>,
) {
  const url = endpointUrl(definition.endpoint.path, definition.pathParams);
  return infiniteQueryOptions<
    ListAnswerOf<Wire>,
    unknown,
    InfiniteData<ListAnswerOf<Wire>, string | null>,
    QueryKey,
    string | null
  >({
    queryKey: [definition.basename, 'infinite', url, state.pageSize, state.ordering, state.filters],
    initialPageParam: null,
    queryFn: ({ pageParam, signal }) =>
      http.post<ListAnswer<Wire>>(url, {
        params: {
          pageSize: state.pageSize,
          ordering: state.ordering,
          ...(pageParam === null ? {} : { cursor: pageParam }),
        },
        data: state.filters,
        signal,
      }),
    getNextPageParam: (last) => cursorOf(last.next),
    staleTime: FRESH_MS,
  });
}

/**
 * Starts reading a list's first page before its page is on screen (while its code still loads),
 * so the rows are there as soon as the page renders.
 */
export function prefetchInfiniteList<Wire, D extends Record<string, FilterKind>>(
  client: QueryClient,
  definition: ListDefinition<D>,
  state: InfiniteState<D>,
): Promise<void> {
  return client.prefetchInfiniteQuery(infiniteListQuery<Wire, D>(definition, state));
}

/**
 * A list read page after page by the engine's keyset cursor (`next`), for virtualised tables:
 * however deep one scrolls, each page is one index walk and the count is not taken again.
 * Filters and ordering come from `useListState` (the URL); the page number there is ignored.
 */
export function useInfiniteList<Wire, D extends Record<string, FilterKind>>(
  definition: ListDefinition<D>,
  state: InfiniteState<D>,
  options: InfiniteListOptions = {},
): InfiniteList<Camelize<Wire>> {
  const queryClient = useQueryClient();
  const { pageSize, ordering, filters } = state;
  const base = useMemo(
    () => infiniteListQuery<Wire, D>(definition, { pageSize, ordering, filters }),
    [definition, pageSize, ordering, filters],
  );
  const queryKey = base.queryKey;

  const query = useInfiniteQuery({
    ...base,
    enabled: options.enabled ?? true,
    // Filters changed: keep showing the old rows until the new first page is there (no flash).
    placeholderData: (previous) => previous,
  });

  const rows = useMemo(() => query.data?.pages.flatMap((page) => page.results) ?? [], [query.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const refresh = useCallback(async () => {
    // Back to one page: a refresh must not re-read every page already scrolled through.
    queryClient.setQueryData<InfiniteData<unknown, string | null>>(queryKey, (data) =>
      data ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
    );
    await queryClient.refetchQueries({ queryKey, exact: true });
  }, [queryClient, queryKey]);

  return {
    rows,
    count: query.data?.pages[0]?.count,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    isLoadingMore: isFetchingNextPage,
    error: query.error,
    hasMore: hasNextPage,
    loadMore,
    refresh,
    queryKey,
  };
}
