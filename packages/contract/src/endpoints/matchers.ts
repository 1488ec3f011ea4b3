import { endpoint, idParams, listEndpoints, noContent, permission } from '../endpoint';
import {
  committedActionFiltersSchema,
  committedActionSchema,
  matcherCreateSchema,
  matcherFiltersSchema,
  matcherSchema,
  matcherUpdateSchema,
} from '../matchers';

/** Matchers ("committed actions"): conditions over new alerts → actions, and the actions they took. */
const view = permission('matchers', 'view');
const tag = 'matchers';

export const matcherEndpoints = {
  ...listEndpoints({
    base: '/api/matchers/',
    tag,
    noun: 'matcher',
    item: matcherSchema,
    filters: matcherFiltersSchema,
    access: view,
    orderings: ['position', 'name', 'created_at', 'id'],
    defaultOrdering: ['position'],
  }),
  /** What matchers did, to which alert, newest first. */
  actions: listEndpoints({
    base: '/api/matchers/actions/',
    tag,
    noun: 'committed action',
    item: committedActionSchema,
    filters: committedActionFiltersSchema,
    access: view,
    orderings: ['created_at', 'id'],
    defaultOrdering: ['-created_at'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/matchers/:id/',
    summary: 'Read a matcher',
    tag,
    access: view,
    params: idParams,
    responses: { 200: matcherSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/matchers/',
    summary: 'Create a matcher',
    description:
      'In the caller’s own company unless `company_id` names another company in the caller’s scope. Only staff ' +
      'who see every company may make a matcher for all companies.',
    tag,
    access: permission('matchers', 'add'),
    body: matcherCreateSchema,
    responses: { 201: matcherSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/matchers/:id/',
    summary: 'Change a matcher',
    tag,
    access: permission('matchers', 'change'),
    params: idParams,
    body: matcherUpdateSchema,
    responses: { 200: matcherSchema },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/matchers/:id/',
    summary: 'Delete a matcher',
    tag,
    access: permission('matchers', 'delete'),
    params: idParams,
    responses: { 204: noContent },
  }),
};
