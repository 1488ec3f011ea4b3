import { z } from 'zod';
import { endpoint, idParams, listEndpoints, noContent, permission, signedIn } from '../endpoint';
import { roleCatalogEntrySchema, roleCreateSchema, roleFiltersSchema, roleSchema, roleUpdateSchema } from '../roles';

/** Roles belong to a company and are administered with the `users` permissions. */
const users = (action: string) => permission('users', action);
const tag = 'roles';

export const roleEndpoints = {
  ...listEndpoints({
    base: '/api/roles/',
    tag,
    noun: 'role',
    item: roleSchema,
    filters: roleFiltersSchema,
    access: users('view'),
    orderings: ['name', 'created_at', 'id'],
    defaultOrdering: ['name'],
  }),
  catalog: endpoint({
    method: 'GET',
    path: '/api/roles/catalog/',
    summary: 'List what a role may grant',
    description: 'Every resource kind and the actions a role may grant on it, for the role editor.',
    tag,
    access: signedIn,
    responses: { 200: z.array(roleCatalogEntrySchema) },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/roles/:id/',
    summary: 'Read a role',
    tag,
    access: users('view'),
    params: idParams,
    responses: { 200: roleSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/roles/',
    summary: 'Create a role',
    description:
      'In the caller’s own company unless `company_id` names another company in the caller’s scope. A role ' +
      'cannot grant a permission the caller does not hold.',
    tag,
    access: users('add'),
    body: roleCreateSchema,
    responses: { 201: roleSchema },
  }),
  replace: endpoint({
    method: 'PUT',
    path: '/api/roles/:id/',
    summary: 'Change a role',
    tag,
    access: users('change'),
    params: idParams,
    body: roleUpdateSchema,
    responses: { 200: roleSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/roles/:id/',
    summary: 'Change some fields of a role',
    tag,
    access: users('change'),
    params: idParams,
    body: roleUpdateSchema,
    responses: { 200: roleSchema },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/roles/:id/',
    summary: 'Delete a role',
    tag,
    access: users('delete'),
    params: idParams,
    responses: { 204: noContent },
  }),
};
