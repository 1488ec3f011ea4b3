import type { z } from 'zod';
import type { EndpointSpec } from '../endpoint';

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

/** A list resource's shape as the console uses it: orderings, default ordering and the filters' names. */
export interface ListSpecRef<S extends ListSpecDeclaration = ListSpecDeclaration> {
  readonly orderings: S['orderings'];
  readonly defaultOrdering: S['defaultOrdering'];
  readonly filters: readonly FilterName<S>[];
}

interface ListSpecDeclaration {
  readonly orderings: readonly string[];
  readonly defaultOrdering: readonly string[];
  readonly filters: z.ZodType;
}

type FilterName<S extends ListSpecDeclaration> = Extract<keyof z.input<S['filters']>, string>;

export function ref<E extends EndpointSpec>(method: E['method'], path: E['path']): EndpointRef<E> {
  return { method, path };
}

export function listSpec<S extends ListSpecDeclaration>(spec: {
  orderings: S['orderings'];
  defaultOrdering: S['defaultOrdering'];
  filters: readonly FilterName<S>[];
}): ListSpecRef<S> {
  return spec;
}
