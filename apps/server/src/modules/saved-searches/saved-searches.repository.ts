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
  /** Its subscribers the reader sees (all of them when read for no one). */
  subscriber_ids: number[];
  /** Whether the reader is one of them. */
  subscribed: boolean;
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
  subscriber_ids: (row.subscriber_ids ?? []).map(Number),
  subscribed: row.subscribed,
  last_run_at: iso(row.last_run_at),
  last_hits: row.last_hits,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

/** Who reads: the user and the companies they see. */
export interface SavedSearchViewer {
  userId: number;
  scope: TenantScope;
}

/** The subscribers a reader sees (those of the companies in their scope) and whether they are one. */
function subscriberColumns(reader: SavedSearchViewer | null): SqlFragment {
  if (reader === null) {
    return sql`ARRAY(SELECT b.user_id FROM saved_search_subscribers b WHERE b.saved_search_id = s.id
                     ORDER BY b.user_id) AS subscriber_ids, FALSE AS subscribed`;
  }
  return sql`ARRAY(SELECT b.user_id FROM saved_search_subscribers b JOIN users bu ON bu.id = b.user_id
                   WHERE b.saved_search_id = s.id AND ${tenantCondition(reader.scope, sql`bu.company_id`)}
                   ORDER BY b.user_id) AS subscriber_ids,
    EXISTS (SELECT 1 FROM saved_search_subscribers b
            WHERE b.saved_search_id = s.id AND b.user_id = ${reader.userId}::int8) AS subscribed`;
}

const columns = (reader: SavedSearchViewer | null) => sql`s.id, s.uuid::text AS uuid, s.company_id, s.owner_id,
  o.username AS owner_name, s.name, s.query, s.kinds, s.enabled, s.sharing, s.company_ids, s.interval_minutes, s.alert,
  ${subscriberColumns(reader)}, s.enabled_at, s.batches_from, s.last_run_at, s.last_hits, s.next_run_at, s.created_at,
  s.updated_at`;
const from = sql`saved_searches s LEFT JOIN users o ON o.id = s.owner_id`;

/**
 * Who sees a saved search (`s`): its owner, those who see its company when shared with the company,
 * and those who see one of the chosen companies when shared with companies.
 */
function visibility(owner: SqlFragment, sees: (company: SqlFragment) => SqlFragment): SqlFragment {
  return sql`(s.owner_id = ${owner}
    OR (s.sharing = 'company' AND ${sees(sql`s.company_id`)})
    OR (s.sharing = 'companies' AND EXISTS (SELECT 1 FROM unnest(s.company_ids) AS c(id) WHERE ${sees(sql`c.id`)})))`;
}

/** The saved searches a caller sees, from the caller's id and scope. */
export function visibleTo(viewer: SavedSearchViewer): SqlFragment {
  return visibility(sql`${viewer.userId}::int8`, (company) => tenantCondition(viewer.scope, company));
}

/**
 * Whether the user `u` sees a company: its own, one granted to it, or any for staff who see every
 * company (as a signed-in user's scope is made).
 */
const userSees = (company: SqlFragment) => sql`(u.is_superuser OR u.all_companies OR u.company_id = ${company}
  OR EXISTS (SELECT 1 FROM user_companies uc WHERE uc.user_id = u.id AND uc.company_id = ${company}))`;

/** Whether the user `u` may read search reports (a role grants `search/reports: view`, or a superuser). */
const readsReports = sql`(u.is_superuser OR EXISTS (
  SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id, jsonb_array_elements(r.permissions) p
  WHERE ur.user_id = u.id AND p ->> 'basename' = 'search/reports' AND p -> 'actions' @> '["view"]'::jsonb))`;

const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Saved searches as one caller sees them. */
export function savedSearchList(
  viewer: SavedSearchViewer,
): ListResource<SavedSearchRow, SavedSearchFilters, SavedSearch> {
  return {
    from,
    select: columns(viewer),
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

/**
 * A saved search the viewer sees (null: none, or not theirs to see); `lock` holds it for a change.
 * Its subscribers are those `reader` sees (the viewer by default; all of them for no one).
 */
export async function findSavedSearch(
  db: Queryable,
  viewer: SavedSearchViewer | null,
  id: number,
  lock: 'update' | 'skip' | null = null,
  reader: SavedSearchViewer | null = viewer,
): Promise<SavedSearchRow | null> {
  const { rows } = await db.query<SavedSearchRow>(sql`
    SELECT ${columns(reader)} FROM ${from}
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

/** How a user stands towards a saved search, for making them a subscriber. */
export interface SubscriberStanding {
  id: number;
  username: string;
  archived: boolean;
  /** Sees the saved search. */
  sees: boolean;
  /** May read search reports. */
  reads_reports: boolean;
}

/** The users of these ids in the scope, with how each stands towards the saved search as stored. */
export async function subscriberStanding(
  db: Queryable,
  savedSearchId: number,
  userIds: readonly number[],
  scope: TenantScope,
): Promise<SubscriberStanding[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.query<SubscriberStanding>(sql`
    SELECT u.id, u.username, u.archived_at IS NOT NULL AS archived,
           ${visibility(sql`u.id`, userSees)} AS sees, ${readsReports} AS reads_reports
    FROM users u JOIN saved_searches s ON s.id = ${savedSearchId}::int8
    WHERE u.id = ANY(${[...userIds]}::int8[]) AND ${tenantCondition(scope, sql`u.company_id`)}
    ORDER BY u.id`);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/**
 * Makes these users the subscribers among those of the scope: the scope's others leave, subscribers
 * of companies outside the scope stay.
 */
export async function replaceSubscribers(
  db: Queryable,
  savedSearchId: number,
  userIds: readonly number[],
  scope: TenantScope,
): Promise<void> {
  await db.query(sql`
    DELETE FROM saved_search_subscribers b USING users u
    WHERE b.saved_search_id = ${savedSearchId}::int8 AND u.id = b.user_id
      AND ${tenantCondition(scope, sql`u.company_id`)} AND NOT (b.user_id = ANY(${[...userIds]}::int8[]))`);
  await db.query(sql`
    INSERT INTO saved_search_subscribers (saved_search_id, user_id)
    SELECT ${savedSearchId}::int8, id FROM unnest(${[...userIds]}::int8[]) AS ids(id)
    ON CONFLICT DO NOTHING`);
}

/** Adds (true) or removes (false) one subscriber. */
export async function setSubscribed(db: Queryable, savedSearchId: number, userId: number, on: boolean): Promise<void> {
  await db.query(
    on
      ? sql`INSERT INTO saved_search_subscribers (saved_search_id, user_id) VALUES (${savedSearchId}, ${userId})
            ON CONFLICT DO NOTHING`
      : sql`DELETE FROM saved_search_subscribers WHERE saved_search_id = ${savedSearchId} AND user_id = ${userId}`,
  );
}

/** Drops the subscribers who no longer see the saved search (after a change of who sees it). */
export async function dropBlindSubscribers(db: Queryable, savedSearchId: number): Promise<void> {
  await db.query(sql`
    DELETE FROM saved_search_subscribers b USING users u, saved_searches s
    WHERE b.saved_search_id = ${savedSearchId}::int8 AND u.id = b.user_id AND s.id = b.saved_search_id
      AND NOT ${visibility(sql`u.id`, userSees)}`);
}

/** A subscriber to mail a report to. */
export interface ReportRecipient {
  id: number;
  username: string;
  email: string;
  /** The full name, or the username when there is none. */
  name: string;
  locale: string;
  time_zone: string | null;
}

/**
 * The subscribers who get the report of a company: active users with an address who see the saved
 * search and the company and may read search reports.
 */
export async function reportRecipients(
  db: Queryable,
  savedSearchId: number,
  companyId: number,
): Promise<ReportRecipient[]> {
  const { rows } = await db.query<ReportRecipient>(sql`
    SELECT u.id, u.username, btrim(u.email) AS email,
           COALESCE(NULLIF(btrim(u.first_name || ' ' || u.last_name), ''), u.username) AS name, u.locale, u.time_zone
    FROM saved_search_subscribers b JOIN users u ON u.id = b.user_id JOIN saved_searches s ON s.id = b.saved_search_id
    WHERE b.saved_search_id = ${savedSearchId}::int8 AND u.archived_at IS NULL AND btrim(COALESCE(u.email, '')) <> ''
      AND ${visibility(sql`u.id`, userSees)} AND ${userSees(sql`${companyId}::int8`)} AND ${readsReports}
    ORDER BY u.id`);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}
