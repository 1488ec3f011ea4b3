import type { AnswerOf, BodyInputOf, EndpointSpec, ParamsInputOf, QueryInputOf } from '@vigil/contract';
import { endpointUrl, type EndpointRef } from '@vigil/contract/client';
import type { Camelize } from './case';
import { request, type RequestOptions } from './client';
import type { QueryParams } from './query-string';

type Optional<T, Key extends string> = [T] extends [undefined] ? { [K in Key]?: never } : { [K in Key]: T };

/**
 * What a call of an endpoint takes: its path parameters by their names in the path, the query and
 * the body in camelCase (sent as snake_case), and the usual request options.
 */
export type CallInput<R extends EndpointRef | EndpointSpec> = Optional<ParamsInputOf<Declared<R>>, 'params'> &
  Partial<Optional<Camelize<QueryInputOf<Declared<R>>>, 'query'>> &
  Optional<Camelize<BodyInputOf<Declared<R>>>, 'body'> &
  Omit<RequestOptions, 'params' | 'data'>;

/** The camelCase answer of an endpoint. */
export type CallAnswer<R extends EndpointRef | EndpointSpec> = Camelize<AnswerOf<Declared<R>>>;

/** The declaration behind an endpoint reference (or the declaration itself). */
type Declared<R> = R extends EndpointRef<infer E> ? E : R extends EndpointSpec ? R : never;

/**
 * Calls a declared endpoint: the only way the console reaches the API. The URL, the method and the
 * answer's type all come from the contract's declaration.
 */
export function call<R extends EndpointRef>(spec: R, input: CallInput<R>): Promise<CallAnswer<R>> {
  const { params, query, body, ...options } = input as {
    params?: Record<string, string | number>;
    query?: QueryParams;
    body?: unknown;
  } & Omit<RequestOptions, 'params' | 'data'>;
  const url = endpointUrl(spec.path, params);
  return request<AnswerOf<Declared<R>>>(spec.method, url, {
    ...options,
    ...(query ? { params: query } : {}),
    ...(body !== undefined ? { data: body } : {}),
  });
}
