import { useCallback, useMemo, useState } from 'react';
import type { Camelize } from '../../lib/http';
import {
  useInfiniteList,
  useList,
  useListState,
  type FilterKind,
  type FiltersOf,
  type ListDefinition,
  type ListPage,
  type ListState,
} from '../../lib/list';
import { useSelection, type Selection } from '../list/selection';

/**
 * What a list page shows, however its rows are read: the URL's list state, the rows, the count,
 * the load and error states, the selection and the keyboard cursor.
 */
export interface ListPageModel<Row, D extends Record<string, FilterKind>> {
  definition: ListDefinition<D>;
  list: ListState<D>;
  rows: readonly Row[];
  /** How many rows match the filters; undefined until the first answer. */
  count: number | undefined;
  /** The first answer is not there yet. */
  loading: boolean;
  /** Any read is under way (a new page, filters or a refresh). */
  fetching: boolean;
  error: unknown;
  retry: () => void;
  /** Scrolled lists: more rows to read, and how. */
  hasMore: boolean;
  loadMore: (() => void) | undefined;
  loadingMore: boolean;
  /** Paged lists: the page shown, for the footer's range and pages. */
  page: ListPage<unknown> | undefined;
  selection: Selection<FiltersOf<D>>;
  /** Whether a row may be selected (every row when the page did not say). */
  canSelect: ((row: Row) => boolean) | undefined;
  /** The keyboard cursor (-1: none yet). */
  activeIndex: number;
  setActiveIndex: (index: number) => void;
}

const noRows: never[] = [];
const numericId = (row: unknown) => (row as { id: number }).id;

/** Selection and keyboard cursor over the rows shown; both start afresh when the view changes. */
function usePageParts<Row, D extends Record<string, FilterKind>>(
  list: ListState<D>,
  rows: readonly Row[],
  count: number | undefined,
  options: ListPageOptions<Row>,
  viewKey: string,
) {
  const { selectable = false, canSelect } = options;
  const pickable = useMemo(
    () => (!selectable ? noRows : canSelect ? rows.filter(canSelect) : rows),
    [selectable, canSelect, rows],
  );
  const selection = useSelection<Row, FiltersOf<D>>({
    rows: pickable,
    rowId: numericId,
    count,
    filter: list.filters,
    filterKey: viewKey,
  });
  const [cursor, setCursor] = useState({ key: viewKey, index: -1 });
  return {
    selection,
    canSelect,
    activeIndex: cursor.key === viewKey ? cursor.index : -1,
    setActiveIndex: (index: number) => setCursor({ key: viewKey, index }),
  };
}

export interface ListPageOptions<Row> {
  /** Rows have checkboxes (rows must then have a numeric `id`). */
  selectable?: boolean;
  /** Which rows may be picked (a stable function); "all loaded" picks only these. */
  canSelect?: (row: Row) => boolean;
}

export interface ScrolledListPageOptions<Row, D extends Record<string, FilterKind>> extends ListPageOptions<Row> {
  /** The filters as the API takes them, when they differ from the URL's (a stable function). */
  toApi?: (filters: FiltersOf<D>) => FiltersOf<D>;
}

/**
 * A list read one numbered page at a time (the page in the URL, a footer with the range and pages):
 * for administration lists, where a page is a place one can link to.
 */
export function usePagedListPage<Wire, D extends Record<string, FilterKind>>(
  definition: ListDefinition<D>,
  options: ListPageOptions<Camelize<Wire>> = {},
): ListPageModel<Camelize<Wire>, D> {
  const list = useListState(definition);
  const { data, error, fetching, fetch } = useList<Wire, D>(definition, list);
  const rows = (data?.results ?? noRows) as readonly Camelize<Wire>[];
  const viewKey = JSON.stringify([list.filters, list.ordering, list.page, list.pageSize]);
  const parts = usePageParts(list, rows, data?.count, options, viewKey);
  return {
    definition,
    list,
    rows,
    count: data?.count,
    loading: data === undefined && !error,
    fetching,
    error,
    retry: () => void fetch(),
    hasMore: false,
    loadMore: undefined,
    loadingMore: false,
    page: data as ListPage<unknown> | undefined,
    ...parts,
  };
}

/**
 * A list read by the engine's keyset cursor as it is scrolled (one index walk per page however
 * deep): for event lists and queues that run to many thousands of rows.
 */
export function useScrolledListPage<Wire, D extends Record<string, FilterKind>>(
  definition: ListDefinition<D>,
  options: ScrolledListPageOptions<Camelize<Wire>, D> = {},
): ListPageModel<Camelize<Wire>, D> {
  const list = useListState(definition);
  const { toApi } = options;
  const state = useMemo(
    () => ({ ordering: list.ordering, pageSize: list.pageSize, filters: toApi ? toApi(list.filters) : list.filters }),
    [list.ordering, list.pageSize, list.filters, toApi],
  );
  const data = useInfiniteList<Wire, D>(definition, state);
  const viewKey = JSON.stringify([list.filters, list.ordering]);
  const parts = usePageParts(list, data.rows, data.count, options, viewKey);
  return {
    definition,
    list,
    rows: data.rows,
    count: data.count,
    loading: data.isLoading,
    fetching: data.isFetching,
    error: data.error ?? undefined,
    retry: () => void data.refresh(),
    hasMore: data.hasMore,
    loadMore: data.loadMore,
    loadingMore: data.isLoadingMore,
    page: undefined,
    ...parts,
  };
}

/** Adds one value to a repeated filter, keeping those set (a pivot: "this host too"); stable while they stay. */
export function useAddToFilter<D extends Record<string, FilterKind>>(
  list: ListState<D>,
  name: Extract<keyof D, string>,
): (value: string) => void {
  const current = list.filters[name] as string[] | undefined;
  const { setFilters } = list;
  return useCallback(
    (value: string) => setFilters({ [name]: [...new Set([...(current ?? []), value])] } as FiltersOf<D>),
    [current, setFilters, name],
  );
}
