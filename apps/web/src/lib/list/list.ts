import type { ListAnswer, ResourceBasename } from '@vigil/contract';
import { endpointUrl, type FilterKind } from '@vigil/contract/client';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from '../router';
import { useFetchState, type FetchState } from '../fetch-state';
import { http, toCamelCase, toSnakeCase, type Camelize } from '../http';

/** How a filter is kept in the URL: one value, repeated values, a number, numbers or a boolean. */
export type { FilterKind };

type FilterValue<K extends FilterKind> = K extends 'string'
  ? string
  : K extends 'strings'
    ? string[]
    : K extends 'number'
      ? number
      : K extends 'numbers'
        ? number[]
        : boolean;

export type FiltersOf<D extends Record<string, FilterKind>> = { [K in keyof D]?: FilterValue<D[K]> };

/**
 * A list over the generic list engine (`POST /api/<resource>/check/`) as a page uses it. Pages make
 * it from the contract's declaration with `defineList`, never by hand.
 */
export interface ListDefinition<D extends Record<string, FilterKind>> {
  basename: ResourceBasename;
  /** The list's declared `check/` endpoint (e.g. `endpoints.units.list`). */
  endpoint: { readonly path: string };
  /** Values of the endpoint's path parameters, when it has any (a user's timeline). */
  pathParams?: Readonly<Record<string, string | number>>;
  /** Filters (camelCase names) and how each is kept in the URL. */
  filters: D;
  /** Fields (API names) the list may be ordered by. */
  orderable: readonly string[];
  /** E.g. `-date_time`. */
  defaultOrdering: string;
  pageSizes: readonly number[];
  defaultPageSize: number;
}

export interface ListState<D extends Record<string, FilterKind>> {
  page: number;
  pageSize: number;
  /** API ordering, `-field` for descending. */
  ordering: string;
  filters: FiltersOf<D>;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  /** Orders by a field; the same field again flips the direction. */
  toggleOrdering: (field: string) => void;
  /** Changes filters (undefined or empty removes one) and goes back to page 1. */
  setFilters: (changes: FiltersOf<D>) => void;
  resetFilters: () => void;
}

function readFilter(params: URLSearchParams, name: string, kind: FilterKind): unknown {
  const values = params.getAll(name).filter((value) => value !== '');
  if (values.length === 0) return undefined;
  switch (kind) {
    case 'string':
      return values[0];
    case 'strings':
      return values;
    case 'number': {
      const number = Number(values[0]);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'numbers': {
      const numbers = values.map(Number).filter(Number.isFinite);
      return numbers.length > 0 ? numbers : undefined;
    }
    case 'boolean':
      return values[0] === 'true' ? true : values[0] === 'false' ? false : undefined;
  }
}

function positiveInt(value: string | null, fallback: number): number {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isFinite(number) && number > 0 ? number : fallback;
}

/**
 * The list's page, page size, ordering and filters, kept in the URL's query string (API names,
 * arrays as repeated keys), so a view can be shared and survives a reload.
 */
export function readListState<D extends Record<string, FilterKind>>(
  definition: ListDefinition<D>,
  params: URLSearchParams,
): Pick<ListState<D>, 'page' | 'pageSize' | 'ordering' | 'filters'> {
  const pageSize = positiveInt(params.get('page_size'), definition.defaultPageSize);
  const orderingParam = params.get('ordering') ?? '';
  const ordering = definition.orderable.includes(orderingParam.replace(/^-/, ''))
    ? orderingParam
    : definition.defaultOrdering;
  const filters: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(definition.filters)) {
    const value = readFilter(params, toSnakeCase(name), kind);
    if (value !== undefined) filters[name] = value;
  }
  return {
    page: positiveInt(params.get('page'), 1),
    pageSize: definition.pageSizes.includes(pageSize) ? pageSize : definition.defaultPageSize,
    ordering,
    filters: filters as FiltersOf<D>,
  };
}

/** The list state of the current URL, and the ways to change it (each change is a history entry). */
export function useListState<D extends Record<string, FilterKind>>(definition: ListDefinition<D>): ListState<D> {
  const [params, setParams] = useSearchParams();

  const state = useMemo(() => readListState(definition, params), [params, definition]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          change(next);
          return next;
        },
        { replace: false },
      ),
    [setParams],
  );

  // One object per URL, so components given the list state can skip renders while the URL stays.
  return useMemo<ListState<D>>(
    () => ({
      ...state,
      setPage: (page) => update((next) => (page > 1 ? next.set('page', String(page)) : next.delete('page'))),
      setPageSize: (size) =>
        update((next) => {
          next.delete('page');
          if (size === definition.defaultPageSize) next.delete('page_size');
          else next.set('page_size', String(size));
        }),
      toggleOrdering: (field) =>
        update((next) => {
          const current = state.ordering;
          // A new column sorts ascending; the same column again flips the direction.
          const ordering = current === field ? `-${field}` : field;
          next.delete('page');
          if (ordering === definition.defaultOrdering) next.delete('ordering');
          else next.set('ordering', ordering);
        }),
      setFilters: (changes) =>
        update((next) => {
          next.delete('page');
          for (const [name, value] of Object.entries(changes)) {
            const key = toSnakeCase(name);
            next.delete(key);
            const values = Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value];
            for (const item of values) next.append(key, String(item));
          }
        }),
      resetFilters: () =>
        update((next) => {
          next.delete('page');
          for (const name of Object.keys(definition.filters)) next.delete(toSnakeCase(name));
        }),
    }),
    [state, update, definition],
  );
}

/** A list answer with the page it answers (the data shown while the next page loads is the previous one). */
export type ListPage<Wire> = Camelize<ListAnswer<Wire>> & { page: number; pageSize: number };

/** One page of a list, fetched with the state's page, size, ordering and filters. */
export function useList<Wire, D extends Record<string, FilterKind>>(
  definition: ListDefinition<D>,
  state: Pick<ListState<D>, 'page' | 'pageSize' | 'ordering' | 'filters'>,
): FetchState<ListPage<Wire>> {
  const url = endpointUrl(definition.endpoint.path, definition.pathParams);
  return useFetchState({
    queryKey: [definition.basename, 'list', url, state.page, state.pageSize, state.ordering, state.filters],
    fetcher: async (signal) => ({
      ...(await http.post<ListAnswer<Wire>>(url, {
        params: { page: state.page, pageSize: state.pageSize, ordering: state.ordering },
        data: state.filters,
        signal,
      })),
      page: state.page,
      pageSize: state.pageSize,
    }),
    clearDataOnFetch: false,
  });
}

/** The column key (camelCase) of an API ordering field. */
export function orderingField(ordering: string): { field: string; key: string; descending: boolean } {
  const field = ordering.replace(/^-/, '');
  return { field, key: toCamelCase(field), descending: ordering.startsWith('-') };
}
