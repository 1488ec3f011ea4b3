import { ipHostFiltersSchema, type IpHost, type IpHostSource } from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface IpHostRow {
  id: number;
  company_id: number;
  asset_id: number;
  asset_name: string;
  ip: string;
  mac: string | null;
  first_seen: Date;
  last_seen: Date;
  source: IpHostSource;
}

export const toIpHost = (row: IpHostRow): IpHost => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  asset_id: Number(row.asset_id),
  first_seen: row.first_seen.toISOString(),
  last_seen: row.last_seen.toISOString(),
});

// The asset's name by a subquery rather than a join: a count of the list then reads the claims alone.
const columns = sql`h.id, h.company_id, h.asset_id, (SELECT a.name FROM assets a WHERE a.id = h.asset_id) AS asset_name,
  host(h.ip) AS ip, h.mac, h.first_seen, h.last_seen, h.source`;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Which asset held which address when. */
export const ipHostList: ListResource<IpHostRow, z.infer<typeof ipHostFiltersSchema>, IpHost> = {
  from: sql`asset_ip_hosts h`,
  select: columns,
  tenantColumn: sql`h.company_id`,
  idField: { expr: sql`h.id`, type: 'int8' },
  filtersSchema: ipHostFiltersSchema,
  filters: {
    asset_id: (v) => filter.in<number>(sql`h.asset_id`, 'int8')(list(v)),
    ip: (v) => sql`h.ip = ${v}::inet`,
    source: (v) => filter.in<string>(sql`h.source`, 'text')(list(v)),
    at: (v) => sql`h.first_seen <= ${v}::timestamptz AND h.last_seen >= ${v}::timestamptz`,
    seen_from: filter.gte(sql`h.last_seen`, 'timestamptz'),
    seen_to: filter.lte(sql`h.first_seen`, 'timestamptz'),
    company_id: (v) => filter.in<number>(sql`h.company_id`, 'int8')(list(v)),
  },
  orderings: {
    last_seen: { expr: sql`h.last_seen`, type: 'timestamptz' },
    first_seen: { expr: sql`h.first_seen`, type: 'timestamptz' },
    ip: { expr: sql`host(h.ip)`, type: 'text' },
    id: { expr: sql`h.id`, type: 'int8' },
  },
  defaultOrdering: ['-last_seen'],
  toItem: toIpHost,
};

/**
 * The claim on an address that answers "who held it at `at`": of the claims first seen at or before
 * `at`, one that covers it (the latest begun), else the one last seen latest. Walks the
 * (company_id, ip, first_seen) index of each company in scope.
 */
export async function resolveIpHost(
  db: Queryable,
  scope: TenantScope,
  companyId: number | null,
  ip: string,
  at: string,
): Promise<IpHostRow | null> {
  const { rows } = await db.query<IpHostRow>(sql`
    SELECT ${columns} FROM asset_ip_hosts h
    WHERE h.ip = ${ip}::inet AND h.first_seen <= ${at}::timestamptz
      AND ${tenantCondition(scope, sql`h.company_id`)}
      ${companyId === null ? sql`` : sql`AND h.company_id = ${companyId}::int8`}
    ORDER BY (h.last_seen >= ${at}::timestamptz) DESC,
      CASE WHEN h.last_seen >= ${at}::timestamptz THEN h.first_seen ELSE h.last_seen END DESC, h.id DESC
    LIMIT 1`);
  return rows[0] ?? null;
}

/**
 * The claims that would change what is stored: new ones, and those that reach earlier, or later by
 * more than `grainMs`, or give a MAC where none is kept. Discovery sends only these.
 */
export async function claimsThatChange(
  db: Queryable,
  companyId: number,
  claims: readonly IpHostClaim[],
  grainMs: number,
): Promise<IpHostClaim[]> {
  if (claims.length === 0) return [];
  const { rows } = await db.query<{
    asset_id: number;
    ip: string;
    source: string;
    mac: string | null;
    first_seen: Date;
    last_seen: Date;
  }>(sql`
    SELECT h.asset_id, host(h.ip) AS ip, h.source, h.mac, h.first_seen, h.last_seen FROM asset_ip_hosts h
    WHERE h.company_id = ${companyId}::int8 AND h.ip = ANY(${[...new Set(claims.map((c) => c.ip))]}::inet[])
      AND h.asset_id = ANY(${[...new Set(claims.map((c) => c.assetId))]}::int8[])`);
  const held = new Map(rows.map((r) => [`${Number(r.asset_id)}|${r.ip}|${r.source}`, r]));
  return claims.filter((c) => {
    const h = held.get(`${c.assetId}|${c.ip}|${c.source}`);
    if (!h) return true;
    return (
      Date.parse(c.firstSeen) < h.first_seen.getTime() ||
      Date.parse(c.lastSeen) - h.last_seen.getTime() >= grainMs ||
      (h.mac === null && c.mac !== null)
    );
  });
}

/** One claim of the assets module's own writes (by hand, import, merge, split and discovery). */
export interface IpHostClaim {
  assetId: number;
  ip: string;
  mac: string | null;
  source: IpHostSource;
  firstSeen: string;
  lastSeen: string;
}

/**
 * Adds claims in one statement: a claim already held (asset, address, source) takes in the new
 * span (first seen earlier, last seen later), so the same claims twice change nothing.
 */
export async function upsertIpHosts(db: Queryable, companyId: number, claims: readonly IpHostClaim[]): Promise<void> {
  if (claims.length === 0) return;
  await db.query(sql`
    INSERT INTO asset_ip_hosts (company_id, asset_id, ip, mac, first_seen, last_seen, source)
    SELECT ${companyId}::int8, u.asset_id, u.ip, u.mac, u.first_seen, u.last_seen, u.source
    FROM unnest(${claims.map((c) => c.assetId)}::int8[], ${claims.map((c) => c.ip)}::inet[],
      ${claims.map((c) => c.mac)}::text[], ${claims.map((c) => c.firstSeen)}::timestamptz[],
      ${claims.map((c) => c.lastSeen)}::timestamptz[], ${claims.map((c) => c.source)}::text[])
      AS u(asset_id, ip, mac, first_seen, last_seen, source)
    ON CONFLICT (company_id, asset_id, ip, source) DO UPDATE SET
      first_seen = LEAST(asset_ip_hosts.first_seen, EXCLUDED.first_seen),
      last_seen = GREATEST(asset_ip_hosts.last_seen, EXCLUDED.last_seen),
      mac = CASE WHEN EXCLUDED.last_seen > asset_ip_hosts.last_seen THEN coalesce(EXCLUDED.mac, asset_ip_hosts.mac)
                 ELSE coalesce(asset_ip_hosts.mac, EXCLUDED.mac) END
    WHERE EXCLUDED.first_seen < asset_ip_hosts.first_seen OR EXCLUDED.last_seen > asset_ip_hosts.last_seen
       OR (asset_ip_hosts.mac IS NULL AND EXCLUDED.mac IS NOT NULL)`);
}

/** Moves the IP history of `from` assets to `into`; claims both held are folded into one. */
export async function moveIpHosts(db: Queryable, from: readonly number[], into: number): Promise<void> {
  await db.query(sql`
    INSERT INTO asset_ip_hosts (company_id, asset_id, ip, mac, first_seen, last_seen, source)
    SELECT company_id, ${into}::int8, ip, (array_agg(mac ORDER BY last_seen DESC))[1], min(first_seen), max(last_seen), source
    FROM asset_ip_hosts WHERE asset_id = ANY(${[...from]}::int8[])
    GROUP BY company_id, ip, source
    ON CONFLICT (company_id, asset_id, ip, source) DO UPDATE SET
      first_seen = LEAST(asset_ip_hosts.first_seen, EXCLUDED.first_seen),
      last_seen = GREATEST(asset_ip_hosts.last_seen, EXCLUDED.last_seen)`);
}

/** Moves the claims on the given addresses from one asset to another (a split). */
export async function reassignIpHosts(
  db: Queryable,
  from: number,
  into: number,
  ips: readonly string[],
): Promise<void> {
  if (ips.length === 0) return;
  await db.query(sql`
    UPDATE asset_ip_hosts SET asset_id = ${into}
    WHERE asset_id = ${from} AND ip = ANY(${[...ips]}::inet[])`);
}

/** An asset's IP history, newest first. */
export async function ipHostsOfAsset(
  db: Queryable,
  companyId: number,
  assetId: number,
  limit: number,
): Promise<IpHostRow[]> {
  const { rows } = await db.query<IpHostRow>(sql`
    SELECT ${columns} FROM asset_ip_hosts h
    WHERE h.company_id = ${companyId}::int8 AND h.asset_id = ${assetId}::int8
    ORDER BY h.last_seen DESC, h.id DESC LIMIT ${limit}`);
  return rows;
}
