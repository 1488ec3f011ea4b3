import { endpoint, idParams, listEndpoints, noContent, permission, rawAnswer, rawBody } from '../endpoint';
import {
  indicatorBulkDeleteAnswerSchema,
  indicatorBulkDeleteSchema,
  indicatorCreateSchema,
  indicatorFiltersSchema,
  indicatorImportAnswerSchema,
  indicatorImportTargetSchema,
  indicatorSchema,
  indicatorUpdateSchema,
} from '../indicators';

const tag = 'indicators';
const can = (action: string) => permission('indicators', action);

/** Policy indicators: values that raise alerts (or silence them) wherever events name them. */
export const indicatorEndpoints = {
  ...listEndpoints({
    base: '/api/indicators/',
    tag,
    noun: 'indicator',
    item: indicatorSchema,
    filters: indicatorFiltersSchema,
    access: can('view'),
    orderings: ['updated_at', 'created_at', 'type', 'value', 'severity', 'expires_at', 'id'],
    defaultOrdering: ['-updated_at'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/indicators/:id/',
    summary: 'Read an indicator',
    tag,
    access: can('view'),
    params: idParams,
    responses: { 200: indicatorSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/indicators/',
    summary: 'Make an indicator',
    description:
      'For the caller’s own company unless `company_id` names another in scope; `all_companies` (staff who ' +
      'see every company only) makes it count for every company. The value is checked and normalised by type.',
    tag,
    access: can('add'),
    body: indicatorCreateSchema,
    responses: { 201: indicatorSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/indicators/:id/',
    summary: 'Change some fields of an indicator',
    tag,
    access: can('change'),
    params: idParams,
    body: indicatorUpdateSchema,
    responses: { 200: indicatorSchema },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/indicators/:id/',
    summary: 'Delete an indicator',
    tag,
    access: can('delete'),
    params: idParams,
    responses: { 204: noContent },
  }),
  bulkDelete: endpoint({
    method: 'POST',
    path: '/api/indicators/bulk_delete/',
    summary: 'Delete several indicators',
    description: 'Ids outside the caller’s scope are passed over; the answer counts those deleted.',
    tag,
    access: can('delete'),
    body: indicatorBulkDeleteSchema,
    responses: { 200: indicatorBulkDeleteAnswerSchema },
  }),
  import: endpoint({
    method: 'POST',
    path: '/api/indicators/import/',
    summary: 'Import indicators from CSV',
    description:
      'The CSV (columns type, value, policy, severity, expires_at, tags, source, description) is the body as ' +
      '`text/csv` with the target in the query string, or JSON `{csv, company_id, all_companies}`. Rows of a ' +
      'known type and value are updated, others created; rows that cannot be read are listed in `rejected`.',
    tag,
    access: can('import'),
    query: indicatorImportTargetSchema,
    body: rawBody('CSV text, or JSON {csv, company_id, all_companies}.', [
      'text/csv',
      'text/plain',
      'application/json',
    ]),
    responses: { 200: indicatorImportAnswerSchema },
  }),
  export: endpoint({
    method: 'GET',
    path: '/api/indicators/export/',
    summary: 'Export indicators as CSV',
    description: 'Every indicator in the caller’s scope, in the import’s columns.',
    tag,
    access: can('export'),
    responses: { 200: rawAnswer('The indicators as a CSV file.', 'text/csv') },
  }),
};
