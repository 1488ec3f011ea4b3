export { configureHttp, http, request, readCookie } from './client';
export type { ClientNotification, HttpHandlers, HttpMethod, RequestOptions } from './client';
export { ApiError, hasFieldErrors, isCancelled } from './errors';
export type { ApiErrorCode, ServerMessage } from './errors';
export { camelizeKeys, snakeizeKeys, toCamelCase, toSnakeCase } from './case';
export type { Camelize, Snakeize } from './case';
export { isSystemUpdating, onHttpEvent } from './events';
export { toQueryString } from './query-string';
