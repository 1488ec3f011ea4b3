/**
 * What the console takes from the contract at run time, without the schema library: the plain
 * values, the endpoints' methods and paths, and URL building. Everything else of the contract the
 * console uses is types (`import type … from '@vigil/contract'`), which cost nothing in the browser.
 */
export * from './values';
export * from './endpoint-actions';
export { endpointUrl } from './client/url';
export { endpoints } from './client/endpoints.generated';
export type { EndpointRef, ListEndpointRef, ListEndpointSpec, ListShapeRef } from './client/ref';
export type { FilterKind } from './client/filter-kinds';
