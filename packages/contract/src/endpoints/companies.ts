import { endpoint, idParams, listEndpoints, permission } from '../endpoint';
import { companyCreateSchema, companyFiltersSchema, companySchema, companyUpdateSchema } from '../companies';

const companies = (action: string) => permission('companies', action);
const tag = 'companies';

export const companyEndpoints = {
  ...listEndpoints({
    base: '/api/companies/',
    tag,
    noun: 'company',
    item: companySchema,
    filters: companyFiltersSchema,
    access: companies('view'),
    orderings: ['name', 'created_at', 'kind', 'id'],
    defaultOrdering: ['name'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/companies/:id/',
    summary: 'Read a company',
    tag,
    access: companies('view'),
    params: idParams,
    responses: { 200: companySchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/companies/',
    summary: 'Create a customer company',
    description: 'Only provider staff who see every company may add one.',
    tag,
    access: companies('add'),
    body: companyCreateSchema,
    responses: { 201: companySchema },
  }),
  replace: endpoint({
    method: 'PUT',
    path: '/api/companies/:id/',
    summary: 'Change a company',
    tag,
    access: companies('change'),
    params: idParams,
    body: companyUpdateSchema,
    responses: { 200: companySchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/companies/:id/',
    summary: 'Change some fields of a company',
    tag,
    access: companies('change'),
    params: idParams,
    body: companyUpdateSchema,
    responses: { 200: companySchema },
  }),
};
