import {
  assetActivitySchema,
  assetLookupAnswerSchema,
  assetLookupQuerySchema,
  assetBulkAnswerSchema,
  assetBulkSchema,
  assetCreateSchema,
  assetFiltersSchema,
  assetImportAnswerSchema,
  assetImportTargetSchema,
  assetMergeSchema,
  assetSchema,
  assetSplitAnswerSchema,
  assetSplitSchema,
  assetUpdateSchema,
  companyNetworksQuerySchema,
  companyNetworksSchema,
  companyNetworksUpdateSchema,
  ipHostFiltersSchema,
  ipHostResolveAnswerSchema,
  ipHostResolveQuerySchema,
  ipHostSchema,
} from '../assets';
import { endpoint, idParams, listEndpoints, permission, rawBody } from '../endpoint';

const tag = 'assets';
const can = (action: string) => permission('assets', action);

/** Asset IP hosts: which asset held which address when. */
export const ipHostEndpoints = {
  ...listEndpoints({
    base: '/api/assets/ip_hosts/',
    tag,
    noun: 'asset IP host',
    item: ipHostSchema,
    filters: ipHostFiltersSchema,
    access: permission('assets/ip_hosts', 'view'),
    orderings: ['last_seen', 'first_seen', 'ip', 'id'],
    defaultOrdering: ['-last_seen'],
  }),
  resolve: endpoint({
    method: 'GET',
    path: '/api/assets/ip_hosts/resolve/',
    summary: 'The asset that held an address at a moment',
    description:
      'Of the claims on the address whose first sighting is at or before `at` (now when absent), the one ' +
      'covering `at` that began last, else the one last seen before it; `null` when none.',
    tag,
    access: permission('assets/ip_hosts', 'view'),
    query: ipHostResolveQuerySchema,
    responses: { 200: ipHostResolveAnswerSchema },
  }),
};

/** Assets of a company: machines found in its traffic or written by hand. */
export const assetEndpoints = {
  ...listEndpoints({
    base: '/api/assets/',
    tag,
    noun: 'asset',
    item: assetSchema,
    filters: assetFiltersSchema,
    access: can('view'),
    orderings: ['name', 'last_seen', 'first_seen', 'criticality', 'created_at', 'id'],
    defaultOrdering: ['name'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/assets/:id/',
    summary: 'Read an asset',
    tag,
    access: can('view'),
    params: idParams,
    responses: { 200: assetSchema },
  }),
  activity: endpoint({
    method: 'GET',
    path: '/api/assets/:id/activity/',
    summary: 'Open alerts and incidents, recent events, IP history, software and risk of an asset',
    description:
      'Open alerts naming one of the asset’s addresses (now, or held then by its IP history), its name, fully ' +
      'qualified name or agent id, and the open incidents they belong to; counts of the last 7 days’ events ' +
      'of each kind; its IP history; its software; and its risk figure with the parts it is made of.',
    tag,
    access: can('view'),
    params: idParams,
    responses: { 200: assetActivitySchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/assets/',
    summary: 'Make an asset',
    description: 'In the caller’s own company unless `company_id` names another company in the caller’s scope.',
    tag,
    access: can('add'),
    body: assetCreateSchema,
    responses: { 201: assetSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/assets/:id/',
    summary: 'Change some fields of an asset',
    tag,
    access: can('change'),
    params: idParams,
    body: assetUpdateSchema,
    responses: { 200: assetSchema },
  }),
  archive: endpoint({
    method: 'POST',
    path: '/api/assets/:id/archive/',
    summary: 'Archive an asset',
    description: 'An archived asset stays in lists filtered with `archived` and is no longer matched by discovery.',
    tag,
    access: can('change'),
    params: idParams,
    responses: { 200: assetSchema },
  }),
  unarchive: endpoint({
    method: 'POST',
    path: '/api/assets/:id/unarchive/',
    summary: 'Take an asset out of the archive',
    tag,
    access: can('change'),
    params: idParams,
    responses: { 200: assetSchema },
  }),
  lookup: endpoint({
    method: 'GET',
    path: '/api/assets/lookup/',
    summary: 'The assets some addresses and host names were at a moment',
    description:
      'For one company: each address resolves as `ip_hosts/resolve/` does at `at` (now when absent), each ' +
      'host name to the asset of that short name (the first label, any letter case). Values that name no ' +
      'asset are left out of `found`. Up to 100 of each.',
    tag,
    access: can('view'),
    query: assetLookupQuerySchema,
    responses: { 200: assetLookupAnswerSchema },
  }),
  bulk: endpoint({
    method: 'POST',
    path: '/api/assets/bulk/',
    summary: 'Change many assets at once',
    description:
      'The assets of `ids`, or every asset the list `filters` give, take a criticality, an owner (an employee ' +
      'of their company), tags added or removed, or go into or out of the archive. Answers how many were ' +
      'chosen and how many changed; each company gets one audit record.',
    tag,
    access: can('change'),
    body: assetBulkSchema,
    responses: { 200: assetBulkAnswerSchema },
  }),
  merge: endpoint({
    method: 'POST',
    path: '/api/assets/merge/',
    summary: 'Merge assets into one',
    description:
      'The assets of `ids` go into `into`: their addresses, sources, tags and IP history move to it and they ' +
      'are deleted. All must belong to one company.',
    tag,
    access: can('change'),
    body: assetMergeSchema,
    responses: { 200: assetSchema },
  }),
  split: endpoint({
    method: 'POST',
    path: '/api/assets/:id/split/',
    summary: 'Take addresses or sources out of an asset into a new one',
    description:
      'The named IP and MAC addresses and sources leave the asset for a new asset of the given name. The ' +
      'split is remembered: discovery keeps them on the new asset.',
    tag,
    access: can('change'),
    params: idParams,
    body: assetSplitSchema,
    responses: { 201: assetSplitAnswerSchema },
  }),
  import: endpoint({
    method: 'POST',
    path: '/api/assets/import/',
    summary: 'Import assets from CSV',
    description:
      'The CSV (columns name, kind, os_name, os_version, ips, macs, fqdn, criticality, tags, agent_id, notes; ' +
      'lists separated by `;`) is the body as `text/csv` with the company in the query string, or JSON ' +
      '`{csv, company_id}`. A row whose name (case aside) is an asset of the company updates it; others ' +
      'are created; rows that cannot be read are listed in `rejected`.',
    tag,
    access: can('add'),
    query: assetImportTargetSchema,
    body: rawBody('CSV text, or JSON {csv, company_id}.', ['text/csv', 'text/plain', 'application/json']),
    responses: { 200: assetImportAnswerSchema },
  }),
  networks: endpoint({
    method: 'GET',
    path: '/api/assets/networks/',
    summary: 'A company’s internal networks',
    description: 'The caller’s own company unless `company_id` names another in scope.',
    tag,
    access: can('view'),
    query: companyNetworksQuerySchema,
    responses: { 200: companyNetworksSchema },
  }),
  setNetworks: endpoint({
    method: 'PUT',
    path: '/api/assets/networks/',
    summary: 'Set a company’s internal networks',
    description: 'Replaces the list. Flows with an address inside one of them make assets.',
    tag,
    access: can('change'),
    body: companyNetworksUpdateSchema,
    responses: { 200: companyNetworksSchema },
  }),
  ipHosts: ipHostEndpoints,
};
