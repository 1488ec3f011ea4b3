import {
  softwareFiltersSchema,
  softwareInstallFiltersSchema,
  softwareVersionFiltersSchema,
  type SoftwareInstall,
  type SoftwareProduct,
  type SoftwareVersion,
} from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { containsText, filter, type ListResource } from '../../list/list-engine';
import type { FoldedSoftware } from './software-items';

const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);
const iso = (value: Date) => value.toISOString();

export interface ProductRow {
  id: number;
  company_id: number;
  vendor: string;
  name: string;
  first_seen: Date;
  last_seen: Date;
  version_count: number;
  install_count: number;
}

export const toProduct = (row: ProductRow): SoftwareProduct => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  first_seen: iso(row.first_seen),
  last_seen: iso(row.last_seen),
  version_count: Number(row.version_count),
  install_count: Number(row.install_count),
});

const productColumns = sql`p.id, p.company_id, p.vendor, p.name, p.first_seen, p.last_seen,
  (SELECT count(*) FROM software_versions v WHERE v.product_id = p.id)::int8 AS version_count,
  (SELECT count(*) FROM software_installs i WHERE i.product_id = p.id AND i.removed_at IS NULL)::int8 AS install_count`;

/** Products of the companies in scope, with how many versions and current installs each has. */
export const productList: ListResource<ProductRow, z.infer<typeof softwareFiltersSchema>, SoftwareProduct> = {
  from: sql`software_products p`,
  select: productColumns,
  tenantColumn: sql`p.company_id`,
  idField: { expr: sql`p.id`, type: 'int8' },
  filtersSchema: softwareFiltersSchema,
  filters: {
    search: filter.search(sql`p.vendor`, sql`p.name`),
    company_id: (v) => filter.in<number>(sql`p.company_id`, 'int8')(list(v)),
    vendor: (v) => containsText(sql`p.vendor`, v),
    name: (v) => containsText(sql`p.name`, v),
    first_seen_from: filter.gte(sql`p.first_seen`, 'timestamptz'),
    id: (v) => filter.in<number>(sql`p.id`, 'int8')(list(v)),
  },
  orderings: {
    name: { expr: sql`lower(p.name)`, type: 'text' },
    vendor: { expr: sql`lower(p.vendor)`, type: 'text' },
    first_seen: { expr: sql`p.first_seen`, type: 'timestamptz' },
    last_seen: { expr: sql`p.last_seen`, type: 'timestamptz' },
    id: { expr: sql`p.id`, type: 'int8' },
  },
  defaultOrdering: ['name'],
  toItem: toProduct,
};

export interface VersionRow {
  id: number;
  company_id: number;
  product_id: number;
  vendor: string;
  name: string;
  version: string;
  first_seen: Date;
  last_seen: Date;
  asset_count: number;
}

export const toVersion = (row: VersionRow): SoftwareVersion => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  product_id: Number(row.product_id),
  first_seen: iso(row.first_seen),
  last_seen: iso(row.last_seen),
  asset_count: Number(row.asset_count),
});

const versionColumns = sql`v.id, v.company_id, v.product_id, p.vendor, p.name, v.version, v.first_seen, v.last_seen,
  (SELECT count(*) FROM software_installs i WHERE i.version_id = v.id AND i.removed_at IS NULL)::int8 AS asset_count`;
const versionFrom = sql`software_versions v JOIN software_products p ON p.id = v.product_id`;

/** Versions of the companies in scope, with how many hosts run each now. */
export const versionList: ListResource<VersionRow, z.infer<typeof softwareVersionFiltersSchema>, SoftwareVersion> = {
  from: versionFrom,
  select: versionColumns,
  tenantColumn: sql`v.company_id`,
  idField: { expr: sql`v.id`, type: 'int8' },
  filtersSchema: softwareVersionFiltersSchema,
  filters: {
    search: filter.search(sql`p.vendor`, sql`p.name`, sql`v.version`),
    company_id: (v) => filter.in<number>(sql`v.company_id`, 'int8')(list(v)),
    product_id: (v) => filter.in<number>(sql`v.product_id`, 'int8')(list(v)),
    version: (v) => sql`v.version = ${v}`,
    first_seen_from: filter.gte(sql`v.first_seen`, 'timestamptz'),
    id: (v) => filter.in<number>(sql`v.id`, 'int8')(list(v)),
  },
  orderings: {
    name: { expr: sql`lower(p.name)`, type: 'text' },
    version: { expr: sql`v.version`, type: 'text' },
    first_seen: { expr: sql`v.first_seen`, type: 'timestamptz' },
    id: { expr: sql`v.id`, type: 'int8' },
  },
  defaultOrdering: ['name', 'version'],
  toItem: toVersion,
};

export interface InstallRow {
  id: number;
  company_id: number;
  version_id: number;
  asset_id: number | null;
  host_name: string;
  first_seen: Date;
  last_seen: Date;
  removed_at: Date | null;
  source: string;
}

export const toInstall = (row: InstallRow): SoftwareInstall => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  version_id: Number(row.version_id),
  asset_id: row.asset_id === null ? null : Number(row.asset_id),
  first_seen: iso(row.first_seen),
  last_seen: iso(row.last_seen),
  removed_at: row.removed_at === null ? null : iso(row.removed_at),
});

/**
 * The asset an install's host is: the company's asset whose short name is the host's first label (one
 * not archived first, then the oldest). Found when read, so merges, splits and renames never leave it stale.
 */
const installAsset = sql`(SELECT a.id FROM assets a
  WHERE a.company_id = i.company_id AND a.name_key = split_part(i.host_key, '.', 1)
  ORDER BY a.archived_at IS NOT NULL, a.id LIMIT 1)`;

/** Installs: which hosts run a version (the assets of a version), current ones by default. */
export const installList: ListResource<InstallRow, z.infer<typeof softwareInstallFiltersSchema>, SoftwareInstall> = {
  from: sql`software_installs i`,
  select: sql`i.id, i.company_id, i.version_id, ${installAsset} AS asset_id, i.host_name, i.first_seen, i.last_seen,
    i.removed_at, i.source`,
  tenantColumn: sql`i.company_id`,
  idField: { expr: sql`i.id`, type: 'int8' },
  filtersSchema: softwareInstallFiltersSchema,
  filters: {
    search: (v) => containsText(sql`i.host_name`, v),
    company_id: (v) => filter.in<number>(sql`i.company_id`, 'int8')(list(v)),
    version_id: (v) => filter.in<number>(sql`i.version_id`, 'int8')(list(v)),
    product_id: (v) => filter.in<number>(sql`i.product_id`, 'int8')(list(v)),
    host_name: (v) => sql`i.host_key = ${v.toLowerCase()}`,
    asset_id: (v) => sql`(i.company_id, split_part(i.host_key, '.', 1)) IN (
      SELECT a.company_id, a.name_key FROM assets a WHERE a.id = ANY(${list(v)}::int8[]) AND a.name_key IS NOT NULL)`,
    removed: (v) => (v ? sql`i.removed_at IS NOT NULL` : sql`i.removed_at IS NULL`),
  },
  orderings: {
    host_name: { expr: sql`i.host_key`, type: 'text' },
    first_seen: { expr: sql`i.first_seen`, type: 'timestamptz' },
    last_seen: { expr: sql`i.last_seen`, type: 'timestamptz' },
    id: { expr: sql`i.id`, type: 'int8' },
  },
  defaultOrdering: ['host_name'],
  defaultFilters: { removed: false },
  toItem: toInstall,
};

export async function findProduct(db: Queryable, scope: TenantScope, id: number): Promise<ProductRow | null> {
  const { rows } = await db.query<ProductRow>(sql`SELECT ${productColumns} FROM software_products p
    WHERE p.id = ${id} AND ${tenantCondition(scope, sql`p.company_id`)}`);
  return rows[0] ?? null;
}

export async function findVersion(db: Queryable, scope: TenantScope, id: number): Promise<VersionRow | null> {
  const { rows } = await db.query<VersionRow>(sql`SELECT ${versionColumns} FROM ${versionFrom}
    WHERE v.id = ${id} AND ${tenantCondition(scope, sql`v.company_id`)}`);
  return rows[0] ?? null;
}

/** A first or last seen moves only by more than this: a host reporting all day rewrites nothing. */
const SEEN_GRAIN = sql`interval '1 hour'`;

/**
 * Writes a batch's folded software in a fixed number of statements: products, versions and
 * installs each inserted when new (never locking a row that exists), then moved only where a
 * first seen goes earlier, a last seen later by more than an hour, or an install's presence
 * changes. Sending the same inventory twice changes nothing.
 */
export async function recordSoftware(tx: Queryable, companyId: number, folded: FoldedSoftware): Promise<void> {
  const { products, versions, installs } = folded;
  if (products.length === 0) return;
  const c = companyId;
  const keys = products.map((p) => p.key);
  await tx.query(sql`
    INSERT INTO software_products (company_id, vendor, name, product_key, first_seen, last_seen)
    SELECT ${c}::int8, u.vendor, u.name, u.key, u.first_seen, u.last_seen
    FROM unnest(${products.map((p) => p.vendor)}::text[], ${products.map((p) => p.name)}::text[], ${keys}::text[],
      ${products.map((p) => p.first_seen)}::timestamptz[], ${products.map((p) => p.last_seen)}::timestamptz[])
      AS u(vendor, name, key, first_seen, last_seen)
    ON CONFLICT (company_id, product_key) DO NOTHING`);
  await tx.query(sql`
    UPDATE software_products p SET first_seen = least(p.first_seen, u.first_seen), last_seen = greatest(p.last_seen, u.last_seen)
    FROM unnest(${keys}::text[], ${products.map((p) => p.first_seen)}::timestamptz[],
      ${products.map((p) => p.last_seen)}::timestamptz[]) AS u(key, first_seen, last_seen)
    WHERE p.company_id = ${c}::int8 AND p.product_key = u.key
      AND (u.first_seen < p.first_seen OR u.last_seen > p.last_seen + ${SEEN_GRAIN})`);
  const { rows: productIds } = await tx.query<{ id: number; product_key: string }>(sql`
    SELECT id, product_key FROM software_products WHERE company_id = ${c}::int8 AND product_key = ANY(${keys}::text[])`);
  const productOf = new Map(productIds.map((r) => [r.product_key, Number(r.id)]));

  const vProduct = versions.map((v) => productOf.get(v.key)!);
  const vText = versions.map((v) => v.version);
  await tx.query(sql`
    INSERT INTO software_versions (company_id, product_id, version, first_seen, last_seen)
    SELECT ${c}::int8, u.product_id, u.version, u.first_seen, u.last_seen
    FROM unnest(${vProduct}::int8[], ${vText}::text[], ${versions.map((v) => v.first_seen)}::timestamptz[],
      ${versions.map((v) => v.last_seen)}::timestamptz[]) AS u(product_id, version, first_seen, last_seen)
    ON CONFLICT (company_id, product_id, version) DO NOTHING`);
  await tx.query(sql`
    UPDATE software_versions v SET first_seen = least(v.first_seen, u.first_seen), last_seen = greatest(v.last_seen, u.last_seen)
    FROM unnest(${vProduct}::int8[], ${vText}::text[], ${versions.map((v) => v.first_seen)}::timestamptz[],
      ${versions.map((v) => v.last_seen)}::timestamptz[]) AS u(product_id, version, first_seen, last_seen)
    WHERE v.company_id = ${c}::int8 AND v.product_id = u.product_id AND v.version = u.version
      AND (u.first_seen < v.first_seen OR u.last_seen > v.last_seen + ${SEEN_GRAIN})`);
  const { rows: versionIds } = await tx.query<{ id: number; product_id: number; version: string }>(sql`
    SELECT v.id, v.product_id, v.version FROM software_versions v
    JOIN unnest(${vProduct}::int8[], ${vText}::text[]) AS u(product_id, version)
      ON v.product_id = u.product_id AND v.version = u.version
    WHERE v.company_id = ${c}::int8`);
  const versionOf = new Map(versionIds.map((r) => [`${Number(r.product_id)}\n${r.version}`, Number(r.id)]));

  const iProduct = installs.map((i) => productOf.get(i.key)!);
  const iVersion = installs.map((i, n) => versionOf.get(`${iProduct[n]}\n${i.version}`)!);
  const iHostKey = installs.map((i) => i.host_key);
  const iFirst = installs.map((i) => i.first_seen);
  const iLast = installs.map((i) => i.last_seen);
  const iRemoved = installs.map((i) => i.removed_at);
  const iSource = installs.map((i) => i.source);
  // The host's asset is found when an install is read (installAsset).
  await tx.query(sql`
    INSERT INTO software_installs (company_id, product_id, version_id, host_name, host_key, first_seen, last_seen,
      removed_at, source)
    SELECT ${c}::int8, u.product_id, u.version_id, u.host_name, u.host_key, u.first_seen, u.last_seen, u.removed_at, u.source
    FROM unnest(${iProduct}::int8[], ${iVersion}::int8[], ${installs.map((i) => i.host_name)}::text[], ${iHostKey}::text[],
      ${iFirst}::timestamptz[], ${iLast}::timestamptz[], ${iRemoved}::timestamptz[], ${iSource}::text[])
      AS u(product_id, version_id, host_name, host_key, first_seen, last_seen, removed_at, source)
    ON CONFLICT (company_id, version_id, host_key) DO NOTHING`);
  await tx.query(sql`
    UPDATE software_installs i SET
      first_seen = least(i.first_seen, u.first_seen),
      last_seen = greatest(i.last_seen, u.last_seen),
      removed_at = CASE WHEN u.last_seen >= i.last_seen THEN u.removed_at ELSE i.removed_at END,
      source = CASE WHEN u.last_seen >= i.last_seen THEN u.source ELSE i.source END
    FROM unnest(${iVersion}::int8[], ${iHostKey}::text[], ${iFirst}::timestamptz[], ${iLast}::timestamptz[],
      ${iRemoved}::timestamptz[], ${iSource}::text[]) AS u(version_id, host_key, first_seen, last_seen, removed_at, source)
    WHERE i.company_id = ${c}::int8 AND i.version_id = u.version_id AND i.host_key = u.host_key
      AND (u.first_seen < i.first_seen OR u.last_seen > i.last_seen + ${SEEN_GRAIN}
        OR (u.last_seen >= i.last_seen AND (u.removed_at IS NULL) <> (i.removed_at IS NULL)))`);
}
