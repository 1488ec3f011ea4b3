import { assetFiltersSchema, type Asset, type AssetCriticality, type AssetKind } from '@vigil/contract';
import type { z } from 'zod';
import { arrayLiteral } from '../../db/columns';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, listCondition, type ListResource } from '../../list/list-engine';

export interface AssetRow {
  id: number;
  company_id: number;
  name: string;
  kind: AssetKind;
  os_name: string;
  os_version: string;
  ips: string[];
  macs: string[];
  fqdn: string;
  owner_employee_id: number | null;
  owner_name: string | null;
  unit_id: number | null;
  criticality: AssetCriticality;
  tags: string[];
  first_seen: Date | null;
  last_seen: Date | null;
  sources: string[];
  agent_id: string;
  notes: string;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toAsset = (row: AssetRow): Asset => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  owner_employee_id: row.owner_employee_id === null ? null : Number(row.owner_employee_id),
  unit_id: row.unit_id === null ? null : Number(row.unit_id),
  first_seen: iso(row.first_seen),
  last_seen: iso(row.last_seen),
  archived_at: iso(row.archived_at),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The columns of an asset (`a`), addresses as text. */
export const assetColumns = sql`a.id, a.company_id, a.name, a.kind, a.os_name, a.os_version,
  ARRAY(SELECT host(x) FROM unnest(a.ips) x) AS ips, a.macs, a.fqdn, a.owner_employee_id,
  (SELECT e.full_name FROM employees e WHERE e.id = a.owner_employee_id) AS owner_name, a.unit_id,
  a.criticality, a.tags, a.first_seen, a.last_seen, a.sources, a.agent_id, a.notes, a.archived_at,
  a.created_at, a.updated_at`;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);
const criticalityRank = sql`array_position(ARRAY['low','medium','high','critical'], a.criticality)`;

/** Assets of a company: machines found in its traffic or written by hand. */
export const assetList: ListResource<AssetRow, z.infer<typeof assetFiltersSchema>, Asset> = {
  from: sql`assets a`,
  select: assetColumns,
  tenantColumn: sql`a.company_id`,
  idField: { expr: sql`a.id`, type: 'int8' },
  filtersSchema: assetFiltersSchema,
  filters: {
    search: filter.search(sql`a.name`, sql`a.fqdn`, sql`a.os_name`, sql`a.agent_id`, sql`a.notes`),
    kind: (v) => filter.in<string>(sql`a.kind`, 'text')(list(v)),
    criticality: (v) => filter.in<string>(sql`a.criticality`, 'text')(list(v)),
    tag: (v) => sql`a.tags && ${list(v)}::text[]`,
    archived: (v) => (v ? sql`a.archived_at IS NOT NULL` : sql`a.archived_at IS NULL`),
    ip: (v) => sql`a.ips @> ARRAY[${v}::inet]`,
    unit_id: (v) => filter.in<number>(sql`a.unit_id`, 'int8')(list(v)),
    owner_employee_id: (v) => filter.in<number>(sql`a.owner_employee_id`, 'int8')(list(v)),
    company_id: (v) => filter.in<number>(sql`a.company_id`, 'int8')(list(v)),
  },
  orderings: {
    name: { expr: sql`lower(a.name)`, type: 'text' },
    last_seen: { expr: sql`coalesce(a.last_seen, '-infinity')`, type: 'timestamptz' },
    first_seen: { expr: sql`coalesce(a.first_seen, '-infinity')`, type: 'timestamptz' },
    criticality: { expr: criticalityRank, type: 'int4' },
    created_at: { expr: sql`a.created_at`, type: 'timestamptz' },
    id: { expr: sql`a.id`, type: 'int8' },
  },
  defaultOrdering: ['name'],
  toItem: toAsset,
};

export async function findAsset(db: Queryable, scope: TenantScope, id: number, lock = false): Promise<AssetRow | null> {
  const { rows } = await db.query<AssetRow>(sql`
    SELECT ${assetColumns} FROM assets a WHERE a.id = ${id} AND ${tenantCondition(scope, sql`a.company_id`)}
    ${lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

/** Assets of the scope among `ids`, locked, in id order. */
export async function findAssets(db: Queryable, scope: TenantScope, ids: readonly number[]): Promise<AssetRow[]> {
  const { rows } = await db.query<AssetRow>(sql`
    SELECT ${assetColumns} FROM assets a
    WHERE a.id = ANY(${[...ids]}::int8[]) AND ${tenantCondition(scope, sql`a.company_id`)}
    ORDER BY a.id FOR UPDATE`);
  return rows;
}

/** The fields of an asset a person (or an import, a split) writes. */
export type AssetFields = Pick<
  AssetRow,
  | 'name'
  | 'kind'
  | 'os_name'
  | 'os_version'
  | 'ips'
  | 'macs'
  | 'fqdn'
  | 'owner_employee_id'
  | 'unit_id'
  | 'criticality'
  | 'tags'
  | 'agent_id'
  | 'notes'
  | 'sources'
>;

const inetArray = (ips: readonly string[]) => sql`${arrayLiteral(ips)}::inet[]`;

export async function insertAsset(db: Queryable, companyId: number, a: AssetFields): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO assets (company_id, name, kind, os_name, os_version, ips, macs, fqdn, owner_employee_id, unit_id,
      criticality, tags, agent_id, notes, sources)
    VALUES (${companyId}, ${a.name}, ${a.kind}, ${a.os_name}, ${a.os_version}, ${inetArray(a.ips)}, ${a.macs}::text[],
      ${a.fqdn}, ${a.owner_employee_id}::int8, ${a.unit_id}::int8, ${a.criticality}, ${a.tags}::text[], ${a.agent_id},
      ${a.notes}, ${a.sources}::text[])
    RETURNING id`);
  return Number(rows[0]!.id);
}

/** Changes the fields given; `seen` moves first and last seen to take it in. */
export async function updateAsset(
  db: Queryable,
  id: number,
  change: Partial<AssetFields> & { archived?: boolean; seen?: { first: Date | null; last: Date | null } },
): Promise<void> {
  const sets: SqlFragment[] = [sql`updated_at = now()`];
  const set = (column: string, value: SqlFragment) => sets.push(sql`${sql.ident(column)} = ${value}`);
  for (const column of ['name', 'kind', 'os_name', 'os_version', 'fqdn', 'criticality', 'agent_id', 'notes'] as const) {
    const value = change[column];
    if (value !== undefined) set(column, sql`${value}`);
  }
  if (change.ips !== undefined) set('ips', inetArray(change.ips));
  for (const column of ['macs', 'tags', 'sources'] as const) {
    const value = change[column];
    if (value !== undefined) set(column, sql`${value}::text[]`);
  }
  if (change.owner_employee_id !== undefined) set('owner_employee_id', sql`${change.owner_employee_id}::int8`);
  if (change.unit_id !== undefined) set('unit_id', sql`${change.unit_id}::int8`);
  if (change.archived !== undefined)
    set('archived_at', change.archived ? sql`coalesce(archived_at, now())` : sql`NULL`);
  if (change.seen) {
    set('first_seen', sql`LEAST(first_seen, ${change.seen.first}::timestamptz)`);
    set('last_seen', sql`GREATEST(last_seen, ${change.seen.last}::timestamptz)`);
  }
  await db.query(sql`UPDATE assets SET ${sql.join(sets)} WHERE id = ${id}`);
}

export async function deleteAssets(db: Queryable, ids: readonly number[]): Promise<void> {
  await db.query(sql`DELETE FROM assets WHERE id = ANY(${[...ids]}::int8[])`);
}

/** The change of a bulk edit, each part optional. */
export interface AssetBulkChange {
  criticality?: string;
  owner_employee_id?: number | null;
  add_tags?: readonly string[];
  remove_tags?: readonly string[];
  archived?: boolean;
}

/** Ids and companies of the assets a bulk change reaches (by ids or by the list's filters), locked. */
export async function chosenAssets(
  db: Queryable,
  scope: TenantScope,
  choice: { ids?: readonly number[]; filters?: z.infer<typeof assetFiltersSchema> },
): Promise<{ id: number; company_id: number }[]> {
  const where = choice.ids
    ? sql`a.id = ANY(${[...new Set(choice.ids)]}::int8[])`
    : listCondition(assetList, choice.filters ?? {}, scope);
  const { rows } = await db.query<{ id: number; company_id: number }>(sql`
    SELECT a.id, a.company_id FROM assets a WHERE ${where} AND ${tenantCondition(scope, sql`a.company_id`)}
    ORDER BY a.id FOR UPDATE`);
  return rows.map((r) => ({ id: Number(r.id), company_id: Number(r.company_id) }));
}

/** Applies one change to the assets of `ids` in one statement; answers those that were different. */
export async function bulkUpdateAssets(
  db: Queryable,
  ids: readonly number[],
  change: AssetBulkChange,
): Promise<{ id: number; company_id: number }[]> {
  const tags =
    change.add_tags || change.remove_tags
      ? sql`ARRAY(SELECT DISTINCT t FROM unnest(a.tags || ${[...(change.add_tags ?? [])]}::text[]) t
          WHERE t <> ALL(${[...(change.remove_tags ?? [])]}::text[]) ORDER BY t)`
      : sql`a.tags`;
  const criticality = change.criticality === undefined ? sql`a.criticality` : sql`${change.criticality}::text`;
  const owner =
    change.owner_employee_id === undefined ? sql`a.owner_employee_id` : sql`${change.owner_employee_id}::int8`;
  const archived =
    change.archived === undefined
      ? sql`a.archived_at`
      : change.archived
        ? sql`coalesce(a.archived_at, now())`
        : sql`NULL::timestamptz`;
  const { rows } = await db.query<{ id: number; company_id: number }>(sql`
    WITH next AS (
      SELECT a.id, ${tags} AS tags, ${criticality} AS criticality, ${owner} AS owner_employee_id, ${archived} AS archived_at
      FROM assets a WHERE a.id = ANY(${[...ids]}::int8[])
    )
    UPDATE assets a SET tags = n.tags, criticality = n.criticality, owner_employee_id = n.owner_employee_id,
      archived_at = n.archived_at, updated_at = now()
    FROM next n
    WHERE a.id = n.id AND (a.tags <> n.tags OR a.criticality <> n.criticality
      OR a.owner_employee_id IS DISTINCT FROM n.owner_employee_id OR a.archived_at IS DISTINCT FROM n.archived_at)
    RETURNING a.id, a.company_id`);
  return rows.map((r) => ({ id: Number(r.id), company_id: Number(r.company_id) }));
}

/** The company of an employee, if the employee exists. */
export async function employeeCompany(db: Queryable, employeeId: number): Promise<number | null> {
  const { rows } = await db.query<{ company_id: number }>(
    sql`SELECT company_id FROM employees WHERE id = ${employeeId}`,
  );
  return rows[0] ? Number(rows[0].company_id) : null;
}

/** Whether a unit belongs to the company. */
export async function unitOfCompany(db: Queryable, companyId: number, unitId: number): Promise<boolean> {
  const { rows } = await db.query(sql`SELECT 1 FROM units WHERE id = ${unitId} AND company_id = ${companyId}`);
  return rows.length > 0;
}

/** The company's assets by lower-case name (for the CSV import), locked. */
export async function assetsByName(db: Queryable, companyId: number, names: readonly string[]): Promise<AssetRow[]> {
  const { rows } = await db.query<AssetRow>(sql`
    SELECT ${assetColumns} FROM assets a
    WHERE a.company_id = ${companyId} AND lower(a.name) = ANY(${[...names]}::text[])
    ORDER BY a.id FOR UPDATE`);
  return rows;
}
