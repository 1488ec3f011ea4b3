import type { AssetRef as AssetRefWire } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { useQuery } from '@tanstack/react-query';
import { call, type Camelize } from '../../../lib/http';
import { usePermission } from '../../../lib/permissions';

export type AssetRef = Camelize<AssetRefWire>;

/** What an alert or an event names: its company, its moment, and the addresses and host names in it. */
export interface AssetLookup {
  companyId: number;
  /** ISO time; now when absent. */
  at?: string | null;
  ips?: readonly (string | null | undefined)[];
  hosts?: readonly (string | null | undefined)[];
}

const clean = (values: readonly (string | null | undefined)[] | undefined) =>
  [...new Set((values ?? []).filter((v): v is string => typeof v === 'string' && v.trim() !== ''))]
    .sort()
    .slice(0, 100);

/**
 * The assets the addresses and host names of one alert or event were at its moment, by value (`ip:` or
 * `host:` and the value as given). Empty while loading, for a user who may not view assets, and for
 * values that name no asset.
 */
export function useAssetLookup(lookup: AssetLookup): Map<string, AssetRef> {
  const allowed = usePermission({ action: 'view', subject: 'assets' });
  const ips = clean(lookup.ips);
  const hosts = clean(lookup.hosts);
  const query = useQuery({
    queryKey: ['assets', 'lookup', lookup.companyId, lookup.at ?? null, ips, hosts],
    enabled: allowed && (ips.length > 0 || hosts.length > 0),
    staleTime: 60_000,
    queryFn: ({ signal }) =>
      call(endpoints.assets.lookup, {
        query: { companyId: lookup.companyId, ip: ips, host: hosts, ...(lookup.at ? { at: lookup.at } : {}) },
        signal,
      }),
  });
  const found = new Map<string, AssetRef>();
  for (const item of query.data?.found ?? []) found.set(`${item.kind}:${item.value}`, item.asset);
  return found;
}
