import { endpoint, idParams, listEndpoints, noContent, permission } from '../endpoint';
import { unitCreateSchema, unitFiltersSchema, unitSchema, unitUpdateSchema } from '../roles';

/** Units inside a company, administered with the `companies` permissions. */
const view = permission('companies', 'view');
const change = permission('companies', 'change');
const tag = 'units';

export const unitEndpoints = {
  ...listEndpoints({
    base: '/api/units/',
    tag,
    noun: 'unit',
    item: unitSchema,
    filters: unitFiltersSchema,
    access: view,
    orderings: ['name', 'created_at', 'id'],
    defaultOrdering: ['name'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/units/:id/',
    summary: 'Read a unit',
    tag,
    access: view,
    params: idParams,
    responses: { 200: unitSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/units/',
    summary: 'Create a unit',
    description: 'In the caller’s own company unless `company_id` names another company in the caller’s scope.',
    tag,
    access: change,
    body: unitCreateSchema,
    responses: { 201: unitSchema },
  }),
  replace: endpoint({
    method: 'PUT',
    path: '/api/units/:id/',
    summary: 'Change a unit',
    tag,
    access: change,
    params: idParams,
    body: unitUpdateSchema,
    responses: { 200: unitSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/units/:id/',
    summary: 'Change some fields of a unit',
    tag,
    access: change,
    params: idParams,
    body: unitUpdateSchema,
    responses: { 200: unitSchema },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/units/:id/',
    summary: 'Delete a unit',
    tag,
    access: change,
    params: idParams,
    responses: { 204: noContent },
  }),
};
