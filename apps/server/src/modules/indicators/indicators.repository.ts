import {
  indicatorFiltersSchema,
  type Indicator,
  type IndicatorFilters,
  type IndicatorPolicy,
  type IndicatorScope,
  type IndicatorType,
} from '@vigil/contract';
import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';
import type { AlertSeverity } from '../pipeline/detections';
import type { IndexedIndicator } from './indicator-index';

export interface IndicatorRow {
  id: number;
  company_id: number;
  scope: IndicatorScope;
  type: IndicatorType;
  value: string;
  policy: IndicatorPolicy;
  severity: AlertSeverity;
  expires_at: Date | null;
  tags: string[];
  source: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

export interface IndicatorValues {
  type: IndicatorType;
  value: string;
  policy: IndicatorPolicy;
  severity: AlertSeverity;
  expires_at: string | null;
  tags: string[];
  source: string;
  description: string;
}

const columns = sql`i.id, i.company_id, i.scope, i.type, i.value, i.policy, i.severity, i.expires_at, i.tags,
  i.source, i.description, i.created_at, i.updated_at`;

/**
 * The company an indicator counts as for tenant filtering: its company for company indicators,
 * none for all-companies ones, so only callers who see every company (tenantCondition → TRUE)
 * see those.
 */
const visibleCompany = sql`(CASE WHEN i.scope = 'company' THEN i.company_id END)`;

/** An indicator row as the matching index holds it. */
export function toIndexed(row: IndicatorRow): IndexedIndicator {
  return {
    id: Number(row.id),
    companyId: Number(row.company_id),
    all: row.scope === 'all',
    type: row.type,
    value: row.value,
    policy: row.policy,
    severity: row.severity,
    expiresAt: row.expires_at === null ? null : row.expires_at.getTime(),
  };
}

/** Tenant condition of indicators for a caller. */
export function indicatorScopeCondition(scope: TenantScope): SqlFragment {
  return tenantCondition(scope, visibleCompany);
}

export const toIndicator = (row: IndicatorRow, now = Date.now()): Indicator => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  expires_at: row.expires_at ? row.expires_at.toISOString() : null,
  active: row.expires_at === null || row.expires_at.getTime() > now,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

export const indicatorList: ListResource<IndicatorRow, IndicatorFilters, Indicator> = {
  from: sql`indicators i`,
  select: columns,
  tenantColumn: visibleCompany,
  idField: { expr: sql`i.id`, type: 'int8' },
  filtersSchema: indicatorFiltersSchema,
  filters: {
    search: filter.search(sql`i.value`, sql`i.description`, sql`i.source`),
    type: (v) => filter.in<string>(sql`i.type`, 'text')(list(v)),
    policy: (v) => filter.in<string>(sql`i.policy`, 'text')(list(v)),
    severity: (v) => filter.in<string>(sql`i.severity`, 'text')(list(v)),
    tags: (v) => sql`i.tags && ${list(v)}::text[]`,
    source: (v) => filter.in<string>(sql`i.source`, 'text')(list(v)),
    active: (v) =>
      v
        ? sql`(i.expires_at IS NULL OR i.expires_at > now())`
        : sql`(i.expires_at IS NOT NULL AND i.expires_at <= now())`,
    scope: (v) => sql`i.scope = ${v}`,
    company_id: (v) => filter.in<number>(sql`i.company_id`, 'int8')(list(v)),
  },
  orderings: {
    updated_at: { expr: sql`i.updated_at`, type: 'timestamptz' },
    created_at: { expr: sql`i.created_at`, type: 'timestamptz' },
    type: { expr: sql`i.type`, type: 'text' },
    value: { expr: sql`i.value`, type: 'text' },
    severity: {
      expr: sql`(CASE i.severity WHEN 'info' THEN 0 WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 ELSE 4 END)`,
      type: 'int4',
    },
    expires_at: { expr: sql`i.expires_at`, type: 'timestamptz', nullable: true },
    id: { expr: sql`i.id`, type: 'int8' },
  },
  defaultOrdering: ['-updated_at'],
  toItem: (row) => toIndicator(row),
};

export async function findIndicator(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<IndicatorRow | null> {
  const { rows } = await db.query<IndicatorRow>(
    sql`SELECT ${columns} FROM indicators i WHERE i.id = ${id} AND ${indicatorScopeCondition(scope)}
        ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

/** Whether an indicator with this key exists already (other than `exceptId`). */
export async function indicatorKeyTaken(
  db: Queryable,
  companyId: number,
  scope: IndicatorScope,
  type: IndicatorType,
  value: string,
  exceptId: number | null = null,
): Promise<boolean> {
  const { rows } = await db.query(sql`
    SELECT 1 FROM indicators
    WHERE scope = ${scope} AND type = ${type} AND value = ${value}
      AND (${scope} = 'all' OR company_id = ${companyId})
      AND (${exceptId}::int8 IS NULL OR id <> ${exceptId}::int8)`);
  return rows.length > 0;
}

export async function insertIndicator(
  db: Queryable,
  companyId: number,
  scope: IndicatorScope,
  v: IndicatorValues,
): Promise<IndicatorRow> {
  const { rows } = await db.query<IndicatorRow>(sql`
    INSERT INTO indicators AS i (company_id, scope, type, value, policy, severity, expires_at, tags, source, description)
    VALUES (${companyId}, ${scope}, ${v.type}, ${v.value}, ${v.policy}, ${v.severity}, ${v.expires_at}::timestamptz,
            ${v.tags}::text[], ${v.source}, ${v.description})
    RETURNING ${columns}`);
  return rows[0]!;
}

export async function updateIndicator(db: Queryable, before: IndicatorRow, v: IndicatorValues): Promise<IndicatorRow> {
  const { rows } = await db.query<IndicatorRow>(sql`
    UPDATE indicators AS i SET value = ${v.value}, policy = ${v.policy}, severity = ${v.severity},
      expires_at = ${v.expires_at}::timestamptz, tags = ${v.tags}::text[], source = ${v.source},
      description = ${v.description}, updated_at = now()
    WHERE i.company_id = ${before.company_id} AND i.id = ${before.id}
    RETURNING ${columns}`);
  return rows[0]!;
}

/** Deletes the indicators among `ids` the caller may see; answers what was deleted. */
export async function deleteIndicators(
  db: Queryable,
  scope: TenantScope,
  ids: readonly number[],
): Promise<IndicatorRow[]> {
  const { rows } = await db.query<IndicatorRow>(sql`
    DELETE FROM indicators i WHERE i.id = ANY(${[...ids]}::int8[]) AND ${indicatorScopeCondition(scope)}
    RETURNING ${columns}`);
  return rows;
}

/** One good CSV row, normalised. */
export type ImportRow = IndicatorValues;

/**
 * Upserts many indicators in a few statements: rows go to a temporary table with bulkInsert,
 * then one INSERT … ON CONFLICT DO UPDATE per 50,000 rows moves them in. Rows must be unique by
 * (type, value). Answers how many were created and updated, the ids of indicators that started
 * alerting (for the retro-hunt; an unchanged alert indicator imported again is not hunted again),
 * and every written row as the index holds it.
 */
export async function upsertIndicators(
  tx: Queryable,
  companyId: number,
  scope: IndicatorScope,
  rows: readonly ImportRow[],
): Promise<{ created: number; updated: number; alertIds: number[]; indexed: IndexedIndicator[] }> {
  await tx.exec(`CREATE TEMP TABLE IF NOT EXISTS indicator_import (
    n int4, type text, value text, policy text, severity text, expires_at timestamptz, tags text[],
    source text, description text) ON COMMIT DROP`);
  await tx.exec('TRUNCATE indicator_import');
  await bulkInsert(
    tx,
    'indicator_import',
    [
      { name: 'n', type: 'int4' },
      { name: 'type', type: 'text' },
      { name: 'value', type: 'text' },
      { name: 'policy', type: 'text' },
      { name: 'severity', type: 'text' },
      { name: 'expires_at', type: 'timestamptz' },
      { name: 'tags', type: 'text[]' },
      { name: 'source', type: 'text' },
      { name: 'description', type: 'text' },
    ],
    rows.map((r, n) => [n, r.type, r.value, r.policy, r.severity, r.expires_at, r.tags, r.source, r.description]),
    { chunkSize: 10_000 },
  );
  // The staged rows and the indicators written by earlier steps of this very statement loop have
  // no statistics yet; a nested loop planned from those guesses compares every staged row with
  // every indicator (minutes at 60,000 rows). Hash joins are right at any size here.
  await tx.exec('ANALYZE indicator_import');
  await tx.exec('SET LOCAL enable_nestloop = off');
  const conflict =
    scope === 'all' ? sql`(type, value) WHERE scope = 'all'` : sql`(company_id, type, value) WHERE scope = 'company'`;
  let created = 0;
  let updated = 0;
  const alertIds: number[] = [];
  const indexed: IndexedIndicator[] = [];
  const step = 50_000;
  for (let start = 0; start < rows.length; start += step) {
    const { rows: done } = await tx.query<{
      id: number;
      inserted: boolean;
      type: IndicatorType;
      value: string;
      policy: IndicatorPolicy;
      severity: AlertSeverity;
      expires_ms: number | null;
      was_alerting: boolean;
    }>(sql`
      WITH prior AS (
        -- The rows as they were before this statement (a CTE reads the statement's snapshot).
        SELECT p.id, (p.policy = 'alert' AND (p.expires_at IS NULL OR p.expires_at > now())) AS was_alerting
        FROM indicator_import s JOIN indicators p ON p.type = s.type AND p.value = s.value AND p.scope = ${scope}
          AND (${scope} = 'all' OR p.company_id = ${companyId}::int8)
        WHERE s.n >= ${start} AND s.n < ${start + step}
      ), up AS (
        INSERT INTO indicators AS i (company_id, scope, type, value, policy, severity, expires_at, tags, source, description)
        SELECT ${companyId}::int8, ${scope}, s.type, s.value, s.policy, s.severity, s.expires_at, s.tags, s.source, s.description
        FROM indicator_import s WHERE s.n >= ${start} AND s.n < ${start + step}
        ON CONFLICT ${conflict} DO UPDATE SET policy = excluded.policy, severity = excluded.severity,
          expires_at = excluded.expires_at, tags = excluded.tags, source = excluded.source,
          description = excluded.description, updated_at = now()
        RETURNING i.id, (i.xmax = 0) AS inserted, i.type, i.value, i.policy, i.severity, i.expires_at
      )
      SELECT up.id, up.inserted, up.type, up.value, up.policy, up.severity,
        (extract(epoch FROM up.expires_at) * 1000)::float8 AS expires_ms,
        coalesce(prior.was_alerting, false) AS was_alerting
      FROM up LEFT JOIN prior ON prior.id = up.id`);
    const now = Date.now();
    for (const row of done) {
      if (row.inserted) created += 1;
      else updated += 1;
      // Hunted for: alert indicators that are live now and were not before (new, or turned to alert, or revived).
      const live = row.expires_ms === null || Number(row.expires_ms) > now;
      if (row.policy === 'alert' && live && !row.was_alerting) alertIds.push(Number(row.id));
      indexed.push({
        id: Number(row.id),
        companyId,
        all: scope === 'all',
        type: row.type,
        value: row.value,
        policy: row.policy,
        severity: row.severity,
        expiresAt: row.expires_ms === null ? null : Number(row.expires_ms),
      });
    }
  }
  await tx.exec('SET LOCAL enable_nestloop = on');
  return { created, updated, alertIds, indexed };
}

/** Every indicator the caller may see, for the CSV export (oldest first). */
export async function exportIndicators(db: Queryable, scope: TenantScope): Promise<IndicatorRow[]> {
  const { rows } = await db.query<IndicatorRow>(
    sql`SELECT ${columns} FROM indicators i WHERE ${indicatorScopeCondition(scope)} ORDER BY i.id`,
  );
  return rows;
}

/** Live indicators of every company, as the matching index holds them; only `ids` when given. */
export async function loadLiveIndicators(
  db: Queryable,
  ids: readonly number[] | null = null,
): Promise<IndexedIndicator[]> {
  const { rows } = await db.query<{
    id: number;
    company_id: number;
    scope: IndicatorScope;
    type: IndicatorType;
    value: string;
    policy: IndicatorPolicy;
    severity: AlertSeverity;
    expires_ms: number | null;
  }>(sql`
    SELECT id, company_id, scope, type, value, policy, severity,
           (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms
    FROM indicators WHERE (expires_at IS NULL OR expires_at > now())
      ${ids === null ? sql`` : sql`AND id = ANY(${[...ids]}::int8[])`}`);
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: Number(r.company_id),
    all: r.scope === 'all',
    type: r.type,
    value: r.value,
    policy: r.policy,
    severity: r.severity,
    expiresAt: r.expires_ms === null ? null : Number(r.expires_ms),
  }));
}
