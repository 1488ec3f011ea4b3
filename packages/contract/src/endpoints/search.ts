import { endpoint, permission, rawAnswer } from '../endpoint';
import {
  MAX_SEARCH_EXPORT_ROWS,
  searchAnswerSchema,
  searchBodySchema,
  searchExportQuerySchema,
  searchHistogramSchema,
  searchPageQuerySchema,
} from '../search';

const tag = 'search';
const access = permission('search', 'view');

/**
 * Search: one query language (docs/query-language.md) over network, endpoint and mail events and
 * alerts. A caller needs `search: view` and the view permission of every kind searched; results are
 * always limited to the companies the caller sees.
 */
export const searchEndpoints = {
  run: endpoint({
    method: 'POST',
    path: '/api/search/run/',
    summary: 'Run a search',
    description:
      'Finds the events and alerts of `kinds` in the time range that the query matches, newest first by ' +
      'default, paged like lists. A query that cannot be read answers 400 with `errors.query` naming the ' +
      'position (1-based) and what was expected there.',
    tag,
    access,
    readsOnly: true,
    query: searchPageQuerySchema,
    body: searchBodySchema,
    responses: { 200: searchAnswerSchema },
  }),
  histogram: endpoint({
    method: 'POST',
    path: '/api/search/histogram/',
    summary: 'How a search’s hits spread over its time range',
    description: 'The hits of the same body as `run/`, counted in up to 120 equal intervals of the time range.',
    tag,
    access,
    readsOnly: true,
    body: searchBodySchema,
    responses: { 200: searchHistogramSchema },
  }),
  export: endpoint({
    method: 'POST',
    path: '/api/search/export/',
    summary: 'Export a search’s hits as a file',
    description:
      `The newest ${MAX_SEARCH_EXPORT_ROWS.toLocaleString('en-US')} hits of the same body as \`run/\`, as CSV (kind, id, ` +
      'company, time and the event as JSON) or as JSON lines, in an attachment. Needs the `raw_export` ' +
      'privilege besides `search` view (403 otherwise); the header `x-vigil-truncated: true` says more hits matched.',
    tag,
    access,
    readsOnly: true,
    query: searchExportQuerySchema,
    body: searchBodySchema,
    responses: {
      200: rawAnswer('The hits, as `text/csv` or `application/x-ndjson`.', 'text/csv'),
    },
  }),
};
