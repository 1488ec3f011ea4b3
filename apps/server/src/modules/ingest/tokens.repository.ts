import { createHash, randomBytes } from 'node:crypto';
import { ingestTokenFiltersSchema, type IngestToken, type IngestTokenFilters } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface IngestTokenRow {
  id: number;
  company_id: number;
  name: string;
  key_prefix: string;
  created_by: number | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The company and token a valid ingest key stands for. */
export interface IngestCaller {
  tokenId: number;
  companyId: number;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

export function toIngestToken(row: IngestTokenRow): IngestToken {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    name: row.name,
    key_prefix: row.key_prefix,
    created_by: row.created_by === null ? null : Number(row.created_by),
    created_at: iso(row.created_at)!,
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  };
}

const columns = sql`t.id, t.company_id, t.name, t.key_prefix, t.created_by, t.created_at, t.last_used_at, t.revoked_at`;

/** SHA-256 (hex) of a key: the only form in which keys are stored. */
export function hashIngestKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new random key: `vgi_` and 43 characters of base64url (256 bits). */
export function newIngestKey(): string {
  return `vgi_${randomBytes(32).toString('base64url')}`;
}

export async function createIngestToken(
  tx: Queryable,
  input: { companyId: number; name: string; createdBy: number | null },
): Promise<{ row: IngestTokenRow; key: string }> {
  const key = newIngestKey();
  const { rows } = await tx.query<IngestTokenRow>(sql`
    INSERT INTO ingest_tokens AS t (company_id, name, key_hash, key_prefix, created_by)
    VALUES (${input.companyId}, ${input.name}, ${hashIngestKey(key)}, ${key.slice(0, 10)}, ${input.createdBy})
    RETURNING ${columns}`);
  return { row: rows[0]!, key };
}

export async function findIngestToken(db: Queryable, scope: TenantScope, id: number): Promise<IngestTokenRow | null> {
  const { rows } = await db.query<IngestTokenRow>(
    sql`SELECT ${columns} FROM ingest_tokens t WHERE t.id = ${id} AND ${tenantCondition(scope, sql`t.company_id`)}`,
  );
  return rows[0] ?? null;
}

export async function revokeIngestToken(tx: Queryable, id: number): Promise<void> {
  await tx.query(sql`UPDATE ingest_tokens SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL`);
}

/**
 * The company of a live key, or null. Notes the use at most once a minute. (The ingest routes
 * remember the answer for a few seconds in the app's identity cache, which every revocation clears
 * in every server process.)
 */
export async function resolveIngestKey(db: Queryable, key: string): Promise<IngestCaller | null> {
  const hash = hashIngestKey(key);
  const { rows } = await db.query<{ id: number; company_id: number; stale: boolean }>(sql`
    SELECT t.id, t.company_id, (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS stale
    FROM ingest_tokens t JOIN companies c ON c.id = t.company_id
    WHERE t.key_hash = ${hash} AND t.revoked_at IS NULL AND c.is_active`);
  const row = rows[0];
  if (!row) return null;
  if (row.stale) await db.query(sql`UPDATE ingest_tokens SET last_used_at = now() WHERE id = ${row.id}`);
  return { tokenId: Number(row.id), companyId: Number(row.company_id) };
}

export const ingestTokenList: ListResource<IngestTokenRow, IngestTokenFilters, IngestToken> = {
  from: sql`ingest_tokens t`,
  select: columns,
  tenantColumn: sql`t.company_id`,
  idField: { expr: sql`t.id`, type: 'int8' },
  filtersSchema: ingestTokenFiltersSchema,
  filters: {
    search: filter.search(sql`t.name`, sql`t.key_prefix`),
    company_id: filter.in(sql`t.company_id`, 'int8'),
    revoked: (value) => (value ? sql`t.revoked_at IS NOT NULL` : sql`t.revoked_at IS NULL`),
  },
  orderings: {
    id: { expr: sql`t.id`, type: 'int8' },
    name: { expr: sql`t.name`, type: 'text' },
    created_at: { expr: sql`t.created_at`, type: 'timestamptz' },
  },
  defaultOrdering: ['-id'],
  toItem: toIngestToken,
};
