import type { SearchBody, SearchKind, SearchValuesAnswer } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, requestFile, type Camelize } from '../../../lib/http';

/** One page of a search's results (`POST /api/search/run/`). */
export const runSearch = (
  body: Camelize<SearchBody>,
  page: number,
  pageSize: number,
  ordering: '-ts' | 'ts',
  signal?: AbortSignal,
) => call(endpoints.search.run, { query: { page, pageSize, ordering }, body, signal });

/** How the hits spread over the time range (`POST /api/search/histogram/`). */
export const searchHistogram = (body: Camelize<SearchBody>, signal?: AbortSignal) =>
  call(endpoints.search.histogram, { body, signal });

/** What the query box asks known values for: a field of the kinds chosen, what is typed, the time range. */
export interface KnownValuesAsk {
  kinds: readonly SearchKind[];
  field: string;
  prefix: string;
  from?: string;
  to?: string;
}

/** The values each kind holds most often for a field (`POST /api/search/values/`), one list a kind. */
export const searchValues = (ask: KnownValuesAsk, signal?: AbortSignal): Promise<SearchValuesAnswer['values'][]> =>
  Promise.all(
    ask.kinds.map(async (kind) => {
      const body = { kind, field: ask.field, prefix: ask.prefix, from: ask.from, to: ask.to };
      return (await call(endpoints.search.values, { body, signal })).values;
    }),
  );

export const searchKeys = {
  all: ['search'] as const,
  run: (body: Camelize<SearchBody>, ordering: string) => ['search', 'run', body, ordering] as const,
  histogram: (body: Camelize<SearchBody>) => ['search', 'histogram', body] as const,
  values: (ask: KnownValuesAsk) => ['search', 'values', ask] as const,
};

/** The newest hits as a file (`POST /api/search/export/`), saved by the browser under the server's name. */
export async function exportSearch(body: Camelize<SearchBody>, format: 'csv' | 'json'): Promise<void> {
  const { blob, filename } = await requestFile(endpoints.search.export.path, body, { format });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename ?? `vigil-search.${format === 'csv' ? 'csv' : 'jsonl'}`;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
