import type { SoftwareInstall, SoftwareProduct, SoftwareVersion } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type Product = Camelize<SoftwareProduct>;
export type Version = Camelize<SoftwareVersion>;
export type Install = Camelize<SoftwareInstall>;

export const SOFTWARE_PATH = '/my-company/software';
export const VERSIONS_PATH = '/my-company/software/versions';
export const productPath = (id: number) => `${SOFTWARE_PATH}/${id}`;
export const assetPath = (id: number) => `/my-company/assets/${id}`;

export const softwareKeys = {
  all: ['software'] as const,
  product: (id: number) => ['software', 'product', id] as const,
  versions: (productId: number) => ['software', 'versions', productId] as const,
  installs: (productId: number, versionId: number | null) => ['software', 'installs', productId, versionId] as const,
};

const paging = { pageSizes: [25, 50, 100, 200], defaultPageSize: 50 };

/** Products over the list engine (`POST /api/software/check/`); filters and ordering kept in the URL. */
export const productList = defineList(endpoints.software.list, { ...paging, omit: ['id'] });

/** Versions of every product (`POST /api/software/versions/check/`). */
export const versionList = defineList(endpoints.software.versions.list, { ...paging, omit: ['id'] });

/** Most versions and hosts a product page lists. */
export const PRODUCT_PAGE_ROWS = 200;

export const fetchProduct = (id: number, signal?: AbortSignal) =>
  call(endpoints.software.get, { params: { id }, signal });
export const fetchProductVersions = (productId: number, signal?: AbortSignal) =>
  call(endpoints.software.versions.list, {
    query: { pageSize: PRODUCT_PAGE_ROWS, ordering: '-first_seen' },
    body: { productId },
    signal,
  });
/** Hosts that run a product now: of one version, or of any when `versionId` is null. */
export const fetchInstalls = (productId: number, versionId: number | null, signal?: AbortSignal) =>
  call(endpoints.software.versions.installs.list, {
    query: { pageSize: PRODUCT_PAGE_ROWS, ordering: 'host_name' },
    body: versionId === null ? { productId } : { versionId },
    signal,
  });
