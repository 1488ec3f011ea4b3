import { endpoint, permission, rawAnswer } from '../endpoint';
import {
  MAX_SEARCH_EXPORT_ROWS,
  searchAnswerSchema,
  searchBodySchema,
  searchExportQuerySchema,
  searchHistogramSchema,
  searchPageQuerySchema,
  searchValuesAnswerSchema,
  searchValuesBodySchema,
  MAX_SEARCH_VALUES,
  SEARCH_VALUES_SAMPLE_ROWS,
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
  values: endpoint({
    method: 'POST',
    path: '/api/search/values/',
    summary: 'Known values of a field, for autocomplete',
    description:
      `The ${MAX_SEARCH_VALUES} values of a keyword, address or yes/no field of one kind seen most often in ` +
      `the newest rows of the time range (by default the last 7 days): ` +
      `${SEARCH_VALUES_SAMPLE_ROWS.toLocaleString('en-US')} rows in all, shared equally among the companies ` +
      'the caller sees, each company giving its newest; with how many of those rows hold each value; only values ' +
      'starting with `prefix`, whatever the case. A field the kind does not have, or of another type, answers ' +
      "400 with `errors.field`; the kind's view permission is needed as for `run/`.",
    tag,
    access,
    readsOnly: true,
    body: searchValuesBodySchema,
    responses: { 200: searchValuesAnswerSchema },
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
