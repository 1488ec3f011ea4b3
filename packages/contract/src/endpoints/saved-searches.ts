import { endpoint, idParams, listEndpoints, noContent, permission } from '../endpoint';
import {
  savedSearchCreateSchema,
  savedSearchFiltersSchema,
  savedSearchRunAnswerSchema,
  savedSearchSchema,
  savedSearchUpdateSchema,
  searchReportFiltersSchema,
  searchReportSchema,
} from '../saved-searches';

const tag = 'search';
const can = (action: string) => permission('search', action);
const reports = permission('search/reports', 'view');

/**
 * Saved searches (kind `search`) and the reports their runs write (kind `search/reports`). A caller
 * sees the saved searches they own, those shared with their company, and (provider staff) those shared
 * with companies they see; only the owner, or someone allowed to change saved searches of that
 * company, changes one.
 */
export const savedSearchEndpoints = {
  ...listEndpoints({
    base: '/api/search/saved/',
    tag,
    noun: 'saved search',
    item: savedSearchSchema,
    filters: savedSearchFiltersSchema,
    access: can('view'),
    orderings: ['name', 'last_run_at', 'created_at', 'updated_at', 'id'],
    defaultOrdering: ['name'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/search/saved/:id/',
    summary: 'Read a saved search',
    tag,
    access: can('view'),
    params: idParams,
    responses: { 200: savedSearchSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/search/saved/',
    summary: 'Save a search',
    description: 'The query is checked as `run/` checks it (400 with its position). The caller owns it.',
    tag,
    access: can('add'),
    body: savedSearchCreateSchema,
    responses: { 201: savedSearchSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/search/saved/:id/',
    summary: 'Change a saved search',
    description: 'Enabling it starts its runs from the events that arrive after that moment.',
    tag,
    access: can('change'),
    params: idParams,
    body: savedSearchUpdateSchema,
    responses: { 200: savedSearchSchema },
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/api/search/saved/:id/',
    summary: 'Delete a saved search',
    description: 'Its reports stay, naming it.',
    tag,
    access: can('delete'),
    params: idParams,
    responses: { 204: noContent },
  }),
  runNow: endpoint({
    method: 'POST',
    path: '/api/search/saved/:id/run/',
    summary: 'Run an enabled saved search now',
    description: 'As its schedule would: over the events that arrived since its last run, each read once.',
    tag,
    access: can('change'),
    params: idParams,
    responses: { 200: savedSearchRunAnswerSchema },
  }),
  subscribe: endpoint({
    method: 'POST',
    path: '/api/search/saved/:id/subscribe/',
    summary: 'Mail me the reports of a saved search',
    description:
      'The caller is mailed each report with hits its runs write, while they see it and may read search reports. ' +
      'Subscribing twice changes nothing.',
    tag,
    access: reports,
    params: idParams,
    responses: { 200: savedSearchSchema },
  }),
  unsubscribe: endpoint({
    method: 'POST',
    path: '/api/search/saved/:id/unsubscribe/',
    summary: 'Stop mailing me the reports of a saved search',
    description: 'Open to whoever sees it, so that one who may no longer read reports can still leave.',
    tag,
    access: can('view'),
    params: idParams,
    responses: { 200: savedSearchSchema },
  }),
  reports: {
    ...listEndpoints({
      base: '/api/search/reports/',
      tag,
      noun: 'search report',
      item: searchReportSchema,
      filters: searchReportFiltersSchema,
      access: reports,
      orderings: ['ran_at', 'hit_count', 'id'],
      defaultOrdering: ['-ran_at'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/search/reports/:id/',
      summary: 'Read a search report',
      tag,
      access: reports,
      params: idParams,
      responses: { 200: searchReportSchema },
    }),
  },
};
