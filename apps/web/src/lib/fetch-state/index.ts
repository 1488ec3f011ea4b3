export { createQueryClient, useFetchState } from './fetch-state';
export type { FetchState, FetchStateOptions } from './fetch-state';
