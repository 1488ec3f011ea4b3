import type { ResourceBasename } from '@vigil/contract';
import type { FilterKind, ListEndpointRef } from '@vigil/contract/client';
import { toCamelCase, type CamelCase } from '../http';
import type { ListDefinition } from './list';

/** The declared filters of a list endpoint, by the names the console uses (camelCase). */
export type DeclaredFilters<R extends ListEndpointRef> = {
  [K in keyof R['listShape']['filters'] & string as CamelCase<K>]: R['listShape']['filters'][K];
};

export interface DefineListOptions<F, P extends keyof F, O extends keyof F, X extends Record<string, FilterKind>> {
  pageSizes: readonly number[];
  defaultPageSize: number;
  /** The declared filters the page shows (all of them when neither this nor `omit` is given). */
  pick?: readonly P[];
  /** The declared filters the page leaves out. */
  omit?: readonly O[];
  /** Filters only the page knows, kept in its URL and turned into declared ones before a request. */
  pageFilters?: X;
  /** Another basename for the list's cached pages than the declared one. */
  basename?: ResourceBasename;
  /** Values of the endpoint's path parameters (a user's timeline). */
  pathParams?: Readonly<Record<string, string | number>>;
}

/**
 * A list page's definition, made from the list endpoint's declaration in the contract: its basename,
 * its filters and how each is kept in the URL, the fields it may be ordered by and its default
 * ordering all come from there; the page adds its page sizes and chooses which filters it shows.
 *
 *     export const unitList = defineList(endpoints.units.list, { pageSizes: [25, 50], defaultPageSize: 50 });
 */
export function defineList<
  R extends ListEndpointRef,
  P extends keyof DeclaredFilters<R> = keyof DeclaredFilters<R>,
  O extends keyof DeclaredFilters<R> = never,
  X extends Record<string, FilterKind> = Record<never, FilterKind>,
>(
  endpoint: R,
  options: DefineListOptions<DeclaredFilters<R>, P, O, X>,
): ListDefinition<Pick<DeclaredFilters<R>, Exclude<P, O>> & X> {
  const { listShape } = endpoint;
  const declared = Object.entries(listShape.filters).map(([name, kind]) => [toCamelCase(name), kind] as const);
  const picked = options.pick ? new Set<string>(options.pick as readonly string[]) : undefined;
  const omitted = new Set<string>((options.omit ?? []) as readonly string[]);
  for (const name of [...(picked ?? []), ...omitted]) {
    if (!declared.some(([declaredName]) => declaredName === name)) {
      throw new Error(`${endpoint.path}: the list declares no filter ${name}.`);
    }
  }
  const filters = Object.fromEntries(
    declared.filter(([name]) => (picked ? picked.has(name) : true) && !omitted.has(name)),
  );
  return {
    basename: options.basename ?? listShape.basename,
    endpoint,
    ...(options.pathParams ? { pathParams: options.pathParams } : {}),
    filters: { ...filters, ...options.pageFilters } as Pick<DeclaredFilters<R>, Exclude<P, O>> & X,
    orderable: listShape.orderings,
    defaultOrdering: listShape.defaultOrdering.join(','),
    pageSizes: options.pageSizes,
    defaultPageSize: options.defaultPageSize,
  };
}
