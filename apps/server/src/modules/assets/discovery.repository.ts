import { arrayLiteral } from '../../db/columns';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { AssetRow } from './assets.repository';
import type { KnownAsset, NewAsset, Pins } from './discovery-plan';

/** The advisory lock space of a company's assets (discovery, merge, split, import). */
const ASSETS_LOCK_BASE = 0x61737374_00000000n;

/** Serialises the writers of one company's assets until the transaction ends. */
export async function lockCompanyAssets(tx: Queryable, companyId: number): Promise<void> {
  await tx.query(sql`SELECT pg_advisory_xact_lock(${String(ASSETS_LOCK_BASE + BigInt(companyId))}::int8)`);
}

export async function readNetworks(db: Queryable, companyId: number): Promise<string[]> {
  const { rows } = await db.query<{ cidr: string }>(
    sql`SELECT cidr::text AS cidr FROM company_networks WHERE company_id = ${companyId} ORDER BY cidr`,
  );
  return rows.map((r) => r.cidr);
}

export async function replaceNetworks(db: Queryable, companyId: number, cidrs: readonly string[]): Promise<void> {
  await db.query(sql`DELETE FROM company_networks WHERE company_id = ${companyId}`);
  await db.query(sql`
    INSERT INTO company_networks (company_id, cidr)
    SELECT DISTINCT ${companyId}::int8, c FROM unnest(${[...cidrs]}::cidr[]) c`);
}

export interface PinRow {
  kind: 'ip' | 'mac' | 'source';
  value: string;
  asset_id: number;
}

/** Pins on any of the values, of one company. */
export async function readPins(
  db: Queryable,
  companyId: number,
  values: { ips: readonly string[]; macs: readonly string[]; sources: readonly string[] },
): Promise<Pins> {
  const { rows } = await db.query<PinRow>(sql`
    SELECT kind, value, asset_id FROM asset_split_pins
    WHERE company_id = ${companyId} AND (
      (kind = 'ip' AND value = ANY(${[...values.ips]}::text[])) OR
      (kind = 'mac' AND value = ANY(${[...values.macs]}::text[])) OR
      (kind = 'source' AND value = ANY(${[...values.sources]}::text[])))`);
  const pins = { ip: new Map<string, number>(), mac: new Map<string, number>(), source: new Map<string, number>() };
  for (const r of rows) pins[r.kind].set(r.value, Number(r.asset_id));
  return pins;
}

/** Pins values on an asset (a split); a value pinned before moves to it. */
export async function pinValues(
  db: Queryable,
  companyId: number,
  assetId: number,
  pins: readonly { kind: PinRow['kind']; value: string }[],
): Promise<void> {
  if (pins.length === 0) return;
  await db.query(sql`
    INSERT INTO asset_split_pins (company_id, kind, value, asset_id)
    SELECT ${companyId}::int8, k, v, ${assetId}::int8
    FROM unnest(${pins.map((p) => p.kind)}::text[], ${pins.map((p) => p.value)}::text[]) AS u(k, v)
    ON CONFLICT (company_id, kind, value) DO UPDATE SET asset_id = EXCLUDED.asset_id, created_at = now()`);
}

/** Moves the pins of merged assets to the asset they went into. */
export async function movePins(db: Queryable, from: readonly number[], into: number): Promise<void> {
  await db.query(sql`UPDATE asset_split_pins SET asset_id = ${into} WHERE asset_id = ANY(${[...from]}::int8[])`);
}

type KnownRow = Pick<
  AssetRow,
  | 'id'
  | 'name'
  | 'kind'
  | 'os_name'
  | 'os_version'
  | 'ips'
  | 'macs'
  | 'fqdn'
  | 'agent_id'
  | 'sources'
  | 'first_seen'
  | 'last_seen'
> & { name_key: string | null };

/**
 * The company's assets (not archived) a batch may touch: those with one of its agent ids, MACs,
 * host names or addresses, and those pinned. One statement, on the company's indexes.
 */
export async function readKnownAssets(
  db: Queryable,
  companyId: number,
  keys: { agentIds: string[]; macs: string[]; nameKeys: string[]; ips: string[]; pinned: number[] },
): Promise<KnownAsset[]> {
  const { rows } = await db.query<KnownRow>(sql`
    SELECT a.id, a.name, a.name_key, a.kind, a.os_name, a.os_version, ARRAY(SELECT host(x) FROM unnest(a.ips) x) AS ips,
      a.macs, a.fqdn, a.agent_id, a.sources, a.first_seen, a.last_seen
    FROM assets a
    WHERE a.company_id = ${companyId} AND (a.archived_at IS NULL OR a.id = ANY(${keys.pinned}::int8[])) AND (
      (a.agent_id <> '' AND a.agent_id = ANY(${keys.agentIds}::text[])) OR a.macs && ${keys.macs}::text[] OR
      a.name_key = ANY(${keys.nameKeys}::text[]) OR a.ips && ${keys.ips}::inet[] OR a.id = ANY(${keys.pinned}::int8[]))
    ORDER BY a.id`);
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    nameKey: r.name_key,
    kind: r.kind,
    osName: r.os_name,
    osVersion: r.os_version,
    ips: r.ips,
    macs: r.macs,
    fqdn: r.fqdn,
    agentId: r.agent_id,
    sources: r.sources,
    firstSeen: r.first_seen ? r.first_seen.toISOString() : null,
    lastSeen: r.last_seen ? r.last_seen.toISOString() : null,
  }));
}

const literals = (lists: readonly (readonly string[])[]) => lists.map((l) => arrayLiteral(l));

/** Inserts discovered assets in one statement, answering their ids in order. */
export async function insertDiscovered(
  db: Queryable,
  companyId: number,
  assets: readonly NewAsset[],
): Promise<number[]> {
  if (assets.length === 0) return [];
  const { rows } = await db.query<{ id: number; n: number }>(sql`
    INSERT INTO assets (company_id, name, kind, os_name, os_version, ips, macs, fqdn, agent_id, sources, first_seen, last_seen)
    SELECT ${companyId}::int8, u.name, u.kind, u.os_name, u.os_version, u.ips::inet[], u.macs::text[], u.fqdn, u.agent_id,
      u.sources::text[], u.first_seen, u.last_seen
    FROM unnest(${assets.map((a) => a.name)}::text[], ${assets.map((a) => a.kind)}::text[],
      ${assets.map((a) => a.osName)}::text[], ${assets.map((a) => a.osVersion)}::text[],
      ${literals(assets.map((a) => a.ips))}::text[], ${literals(assets.map((a) => a.macs))}::text[],
      ${assets.map((a) => a.fqdn)}::text[], ${assets.map((a) => a.agentId)}::text[],
      ${literals(assets.map((a) => a.sources))}::text[], ${assets.map((a) => a.firstSeen)}::timestamptz[],
      ${assets.map((a) => a.lastSeen)}::timestamptz[])
      WITH ORDINALITY AS u(name, kind, os_name, os_version, ips, macs, fqdn, agent_id, sources, first_seen, last_seen, n)
    ORDER BY u.n
    RETURNING id`);
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Writes discovered changes to known assets in one statement. */
export async function updateDiscovered(db: Queryable, assets: readonly KnownAsset[]): Promise<void> {
  if (assets.length === 0) return;
  await db.query(sql`
    UPDATE assets a SET name = u.name, kind = u.kind, os_name = u.os_name, os_version = u.os_version,
      ips = u.ips::inet[], macs = u.macs::text[], fqdn = u.fqdn, agent_id = u.agent_id, sources = u.sources::text[],
      first_seen = u.first_seen, last_seen = u.last_seen, updated_at = now()
    FROM unnest(${assets.map((a) => a.id)}::int8[], ${assets.map((a) => a.name)}::text[],
      ${assets.map((a) => a.kind)}::text[], ${assets.map((a) => a.osName)}::text[],
      ${assets.map((a) => a.osVersion)}::text[], ${literals(assets.map((a) => a.ips))}::text[],
      ${literals(assets.map((a) => a.macs))}::text[], ${assets.map((a) => a.fqdn)}::text[],
      ${assets.map((a) => a.agentId)}::text[], ${literals(assets.map((a) => a.sources))}::text[],
      ${assets.map((a) => a.firstSeen)}::timestamptz[], ${assets.map((a) => a.lastSeen)}::timestamptz[])
      AS u(id, name, kind, os_name, os_version, ips, macs, fqdn, agent_id, sources, first_seen, last_seen)
    WHERE a.id = u.id`);
}
