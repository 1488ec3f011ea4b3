import type {
  Asset as AssetWire,
  AssetActivity as AssetActivityWire,
  AssetCreate,
  AssetImportAnswer,
  AssetBulk,
  AssetSplit,
  AssetUpdate,
  CompanyNetworks as CompanyNetworksWire,
  IpHost as IpHostWire,
} from '@vigil/contract';
import { useQuery } from '@tanstack/react-query';
import { endpoints } from '@vigil/contract/client';
import { useMemo } from 'react';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';
import { usePermission } from '../../../lib/permissions';

export type Asset = Camelize<AssetWire>;
export type AssetActivity = Camelize<AssetActivityWire>;
export type AssetRisk = AssetActivity['risk'];
export type IpHost = Camelize<IpHostWire>;
export type ImportAnswer = Camelize<AssetImportAnswer>;
export type CompanyNetworks = Camelize<CompanyNetworksWire>;

export const assetKeys = {
  all: ['assets'] as const,
  detail: (id: number) => ['assets', 'detail', id] as const,
  activity: (id: number) => ['assets', 'activity', id] as const,
  networks: (companyId: number) => ['assets', 'networks', companyId] as const,
};

const paging = { pageSizes: [25, 50, 100, 200], defaultPageSize: 50 };

/** Assets over the list engine (`POST /api/assets/check/`); filters and ordering kept in the URL. */
export const assetList = defineList(endpoints.assets.list, paging);

/** Which asset held which address when (`POST /api/assets/ip_hosts/check/`). */
export const ipHostList = defineList(endpoints.assets.ipHosts.list, { ...paging, omit: ['at', 'seenFrom', 'seenTo'] });

/** The fields the asset form shows problems beside. */
export const assetFormFields = [
  'name',
  'kind',
  'osName',
  'osVersion',
  'ips',
  'macs',
  'fqdn',
  'unitId',
  'ownerEmployeeId',
  'criticality',
  'tags',
  'agentId',
  'notes',
  'companyId',
] as const;

export const fetchAsset = (id: number, signal?: AbortSignal) => call(endpoints.assets.get, { params: { id }, signal });
export const fetchAssetActivity = (id: number, signal?: AbortSignal) =>
  call(endpoints.assets.activity, { params: { id }, signal });
export const createAsset = (data: Camelize<AssetCreate>) =>
  call(endpoints.assets.create, { body: data, shownFields: assetFormFields });
export const updateAsset = (id: number, data: Camelize<AssetUpdate>) =>
  call(endpoints.assets.update, { params: { id }, body: data, shownFields: assetFormFields });
/** One change to many assets (criticality, owner, tags, archive), by ids. */
export const bulkChangeAssets = (body: Camelize<AssetBulk>) => call(endpoints.assets.bulk, { body });
export const archiveAsset = (id: number) => call(endpoints.assets.archive, { params: { id } });
export const unarchiveAsset = (id: number) => call(endpoints.assets.unarchive, { params: { id } });
export const mergeAssets = (into: number, ids: number[]) => call(endpoints.assets.merge, { body: { into, ids } });
export const splitAsset = (id: number, data: Camelize<AssetSplit>) =>
  call(endpoints.assets.split, { params: { id }, body: data, shownFields: ['name', 'ips', 'macs', 'sources'] });

/** Imports a CSV text into the caller's company (or the one named); rows refused are listed in the answer. */
export const importAssets = (csv: string, companyId: number) =>
  // The endpoint's body is declared raw (CSV or JSON): its JSON form is typed here.
  call(endpoints.assets.import, { body: { csv, companyId } as never }) as Promise<ImportAnswer>;

export const fetchNetworks = (companyId: number, signal?: AbortSignal) =>
  call(endpoints.assets.networks, { query: { companyId }, signal });
export const saveNetworks = (companyId: number, cidrs: string[]) =>
  call(endpoints.assets.setNetworks, { body: { companyId, cidrs }, shownFields: ['cidrs'] });

/** Names of the employees owning the assets shown, by id (an owner the caller cannot see stays unnamed). */
export function useOwnerNames(ids: readonly (number | null)[]): ReadonlyMap<number, string> {
  const allowed = usePermission({ action: 'view', subject: 'employees' });
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))].sort((a, b) => a - b);
  const { data } = useQuery({
    queryKey: ['assets', 'owners', wanted],
    queryFn: ({ signal }) => call(endpoints.employees.list, { query: { pageSize: 500 }, body: { id: wanted }, signal }),
    enabled: allowed && wanted.length > 0,
    staleTime: 60_000,
  });
  return useMemo(() => new Map((data?.results ?? []).map((e) => [e.id, e.fullName])), [data]);
}
