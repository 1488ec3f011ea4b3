import {
  savedSearchFiltersSchema,
  type SavedSearch,
  type SavedSearchFilters,
  type SavedSearchSharing,
  type SearchKind,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

/** The alert a saved search raises, as stored. */
export interface SavedSearchAlert {
  severity: 'info' | 'low' | 'medium' | 'high' | 'critical';
  title: string;
  mitre: string[];
}

export interface SavedSearchRow {
  id: number;
  uuid: string;
  company_id: number;
  owner_id: number | null;
  owner_name: string | null;
  name: string;
  query: string;
  kinds: SearchKind[];
  enabled: boolean;
  sharing: SavedSearchSharing;
  company_ids: number[];
  interval_minutes: number;
  alert: SavedSearchAlert | null;
  enabled_at: Date | null;
  /** Every batch received before it has been read; null: since enabled_at. */
  batches_from: Date | null;
  last_run_at: Date | null;
  last_hits: number | null;
  next_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

export const toSavedSearch = (row: SavedSearchRow): SavedSearch => ({
  id: Number(row.id),
  uuid: row.uuid,
  name: row.name,
  enabled: row.enabled,
  query: row.query,
  type: row.kinds,
  company_id: Number(row.company_id),
  owner_id: row.owner_id === null ? null : Number(row.owner_id),
  owner_name: row.owner_name,
  sharing: row.sharing,
  company_ids: (row.company_ids ?? []).map(Number),
  interval_minutes: row.interval_minutes,
  alert: row.alert,
  last_run_at: iso(row.last_run_at),
  last_hits: row.last_hits,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

const columns = sql`s.id, s.uuid::text AS uuid, s.company_id, s.owner_id, o.username AS owner_name, s.name, s.query,
  s.kinds, s.enabled, s.sharing, s.company_ids, s.interval_minutes, s.alert, s.enabled_at, s.batches_from, s.last_run_at,
  s.last_hits, s.next_run_at, s.created_at, s.updated_at`;
const from = sql`saved_searches s LEFT JOIN users o ON o.id = s.owner_id`;

/** Who reads: the user and the companies they see. */
export interface SavedSearchViewer {
  userId: number;
  scope: TenantScope;
}

/**
 * The saved searches a caller sees: their own, those shared with a company they see, and those
 * shared with companies of which they see one.
 */
export function visibleTo(viewer: SavedSearchViewer): SqlFragment {
  return sql`(s.owner_id = ${viewer.userId}::int8
    OR (s.sharing = 'company' AND ${tenantCondition(viewer.scope, sql`s.company_id`)})
    OR (s.sharing = 'companies' AND EXISTS (SELECT 1 FROM unnest(s.company_ids) AS c(id)
          WHERE ${tenantCondition(viewer.scope, sql`c.id`)})))`;
}

const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Saved searches as one caller sees them. */
export function savedSearchList(
  viewer: SavedSearchViewer,
): ListResource<SavedSearchRow, SavedSearchFilters, SavedSearch> {
  return {
    from,
    select: columns,
    idField: { expr: sql`s.id`, type: 'int8' },
    baseCondition: visibleTo(viewer),
    filtersSchema: savedSearchFiltersSchema,
    filters: {
      search: filter.search(sql`s.name`, sql`s.query`),
      enabled: (v) => sql`s.enabled = ${v}`,
      type: (v) => sql`s.kinds && ${list(v)}::text[]`,
      mine: (v) => (v ? sql`s.owner_id = ${viewer.userId}::int8` : null),
      company_id: (v) => filter.in<number>(sql`s.company_id`, 'int8')(list(v)),
      id: (v) => filter.in<number>(sql`s.id`, 'int8')(list(v)),
    },
    orderings: {
      name: { expr: sql`lower(s.name)`, type: 'text' },
      last_run_at: { expr: sql`s.last_run_at`, type: 'timestamptz', nullable: true },
      created_at: { expr: sql`s.created_at`, type: 'timestamptz' },
      updated_at: { expr: sql`s.updated_at`, type: 'timestamptz' },
      id: { expr: sql`s.id`, type: 'int8' },
    },
    defaultOrdering: ['name'],
    toItem: toSavedSearch,
  };
}

/** A saved search the viewer sees (null: none, or not theirs to see); `lock` holds it for a change. */
export async function findSavedSearch(
  db: Queryable,
  viewer: SavedSearchViewer | null,
  id: number,
  lock: 'update' | 'skip' | null = null,
): Promise<SavedSearchRow | null> {
  const { rows } = await db.query<SavedSearchRow>(sql`
    SELECT ${columns} FROM ${from}
    WHERE s.id = ${id} AND ${viewer === null ? sql`TRUE` : visibleTo(viewer)}
    ${lock === 'update' ? sql`FOR UPDATE OF s` : lock === 'skip' ? sql`FOR UPDATE OF s SKIP LOCKED` : sql``}`);
  return rows[0] ?? null;
}

export interface SavedSearchValues {
  name: string;
  query: string;
  kinds: readonly SearchKind[];
  enabled: boolean;
  sharing: SavedSearchSharing;
  companyIds: readonly number[];
  intervalMinutes: number;
  alert: SavedSearchAlert | null;
}

/** Enabling starts the runs from now: the first one an interval later. */
const enabling = (intervalMinutes: number) => sql`now(), now() + make_interval(mins => ${intervalMinutes}::int4)`;

export async function insertSavedSearch(
  db: Queryable,
  companyId: number,
  ownerId: number,
  values: SavedSearchValues,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO saved_searches (company_id, owner_id, name, query, kinds, enabled, sharing, company_ids,
                                interval_minutes, alert, enabled_at, next_run_at)
    VALUES (${companyId}, ${ownerId}, ${values.name}, ${values.query}, ${[...values.kinds]}::text[], ${values.enabled},
            ${values.sharing}, ${[...values.companyIds]}::int8[], ${values.intervalMinutes},
            ${values.alert === null ? null : JSON.stringify(values.alert)}::jsonb,
            ${values.enabled ? enabling(values.intervalMinutes) : sql`NULL, NULL`})
    RETURNING id`);
  return Number(rows[0]!.id);
}

/**
 * Writes the values of a saved search. Turning it on sets `enabled_at` to now (runs read what arrives
 * after it) and its next run an interval later; turning it off clears the next run.
 */
export async function updateSavedSearch(
  db: Queryable,
  before: SavedSearchRow,
  values: SavedSearchValues,
): Promise<void> {
  const turnedOn = values.enabled && !before.enabled;
  const schedule = turnedOn
    ? sql`enabled_at = now(), batches_from = NULL,
          next_run_at = now() + make_interval(mins => ${values.intervalMinutes}::int4)`
    : values.enabled
      ? sql`next_run_at = COALESCE(last_run_at, enabled_at, now()) + make_interval(mins => ${values.intervalMinutes}::int4)`
      : sql`next_run_at = NULL`;
  await db.query(sql`
    UPDATE saved_searches SET name = ${values.name}, query = ${values.query}, kinds = ${[...values.kinds]}::text[],
      enabled = ${values.enabled}, sharing = ${values.sharing}, company_ids = ${[...values.companyIds]}::int8[],
      interval_minutes = ${values.intervalMinutes},
      alert = ${values.alert === null ? null : JSON.stringify(values.alert)}::jsonb, ${schedule}, updated_at = now()
    WHERE id = ${before.id}`);
}

export async function deleteSavedSearch(db: Queryable, id: number): Promise<void> {
  await db.query(sql`DELETE FROM saved_searches WHERE id = ${id}`);
}
