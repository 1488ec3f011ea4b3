import { endpoint, idParams, listEndpoints, permission } from '../endpoint';
import {
  softwareFiltersSchema,
  softwareInstallFiltersSchema,
  softwareInstallSchema,
  softwareProductSchema,
  softwareVersionFiltersSchema,
  softwareVersionSchema,
} from '../software';

const tag = 'software';
const products = permission('software', 'view');
const versions = permission('software/versions', 'view');

/**
 * The software catalogue, filled from endpoint inventories and the process images endpoints run:
 * products with install counts, their versions with asset counts, and the hosts of a version.
 */
export const softwareEndpoints = {
  ...listEndpoints({
    base: '/api/software/',
    tag,
    noun: 'software product',
    item: softwareProductSchema,
    filters: softwareFiltersSchema,
    access: products,
    orderings: ['name', 'vendor', 'first_seen', 'last_seen', 'id'],
    defaultOrdering: ['name'],
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/software/:id/',
    summary: 'Read a software product',
    tag,
    access: products,
    params: idParams,
    responses: { 200: softwareProductSchema },
  }),
  versions: {
    ...listEndpoints({
      base: '/api/software/versions/',
      tag,
      noun: 'software version',
      item: softwareVersionSchema,
      filters: softwareVersionFiltersSchema,
      access: versions,
      orderings: ['name', 'version', 'first_seen', 'id'],
      defaultOrdering: ['name', 'version'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/software/versions/:id/',
      summary: 'Read a software version',
      tag,
      access: versions,
      params: idParams,
      responses: { 200: softwareVersionSchema },
    }),
    installs: listEndpoints({
      base: '/api/software/versions/installs/',
      tag,
      noun: 'software install',
      item: softwareInstallSchema,
      filters: softwareInstallFiltersSchema,
      access: versions,
      orderings: ['host_name', 'first_seen', 'last_seen', 'id'],
      defaultOrdering: ['host_name'],
    }),
  },
};
