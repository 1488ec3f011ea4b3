import {
  endpointUrl,
  type AnswerOf,
  type BodyInputOf,
  type EndpointSpec,
  type ParamsInputOf,
  type QueryInputOf,
} from '@vigil/contract';
import type { Camelize } from './case';
import { request, type RequestOptions } from './client';
import type { QueryParams } from './query-string';

type Optional<T, Key extends string> = [T] extends [undefined] ? { [K in Key]?: never } : { [K in Key]: T };

/**
 * What a call of an endpoint takes: its path parameters by their names in the path, the query and
 * the body in camelCase (sent as snake_case), and the usual request options.
 */
export type CallInput<E extends EndpointSpec> = Optional<ParamsInputOf<E>, 'params'> &
  Partial<Optional<Camelize<QueryInputOf<E>>, 'query'>> &
  Optional<Camelize<BodyInputOf<E>>, 'body'> &
  Omit<RequestOptions, 'params' | 'data'>;

/** The camelCase answer of an endpoint. */
export type CallAnswer<E extends EndpointSpec> = Camelize<AnswerOf<E>>;

/**
 * Calls a declared endpoint: the only way the console reaches the API. The URL, the method and the
 * answer's type all come from the contract's declaration.
 */
export function call<E extends EndpointSpec>(spec: E, input: CallInput<E>): Promise<CallAnswer<E>> {
  const { params, query, body, ...options } = input as {
    params?: Record<string, string | number>;
    query?: QueryParams;
    body?: unknown;
  } & Omit<RequestOptions, 'params' | 'data'>;
  const url = endpointUrl(spec.path, params);
  return request<AnswerOf<E>>(spec.method, url, {
    ...options,
    ...(query ? { params: query } : {}),
    ...(body !== undefined ? { data: body } : {}),
  });
}
