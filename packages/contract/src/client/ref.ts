import type { z } from 'zod';
import type { EndpointSpec, ListShape } from '../endpoint';
import type { ResourceBasename } from '../resources';
import type { FilterKind, FilterKindOf } from './filter-kinds';

/**
 * What the console needs of a declared endpoint at run time: its method and its path. The
 * declaration itself travels as a type only, so the typed client knows the inputs and the answer
 * without shipping the schemas to the browser.
 */
export interface EndpointRef<E extends EndpointSpec = EndpointSpec> {
  readonly method: E['method'];
  readonly path: E['path'];
  /** Never set at run time: carries the declaration's type. */
  readonly declaration?: E;
}

/** An endpoint declared with a list's shape (a list resource's `check/`, a user's timelines). */
export type ListEndpointSpec = EndpointSpec & { readonly listShape: ListShape };

/**
 * A list's shape as the console uses it: the records' basename, the orderings, the default
 * ordering and each filter (the API's name) with how a page keeps it in the URL. Typed from the
 * declaration, so the generated file cannot name a filter, a kind or an ordering it does not have.
 */
export interface ListShapeRef<S extends ListShape = ListShape> {
  readonly basename: ResourceBasename;
  readonly orderings: S['orderings'];
  readonly defaultOrdering: S['defaultOrdering'];
  readonly filters: { readonly [K in FilterName<S>]-?: FilterKindOf<z.input<S['filters']>[K]> };
}

export interface ListEndpointRef<E extends ListEndpointSpec = ListEndpointSpec> extends EndpointRef<E> {
  readonly listShape: ListShapeRef<E['listShape']>;
}

type FilterName<S extends ListShape> = Extract<keyof z.input<S['filters']>, string>;

/** The filters of a list, as the console's list pages read them. */
export type ListFilterKinds = Readonly<Record<string, FilterKind>>;

export function ref<E extends EndpointSpec>(method: E['method'], path: E['path']): EndpointRef<E> {
  return { method, path };
}

export function listRef<E extends ListEndpointSpec>(
  method: E['method'],
  path: E['path'],
  listShape: ListShapeRef<E['listShape']>,
): ListEndpointRef<E> {
  return { method, path, listShape };
}
