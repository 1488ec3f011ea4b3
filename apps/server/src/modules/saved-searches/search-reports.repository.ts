import {
  searchReportFiltersSchema,
  type SearchHit,
  type SearchKind,
  type SearchReport,
  type SearchReportFilters,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

/*
 * The runs of saved searches: which ingest batches each has read (the ledger), the reports the runs
 * write, and the schedule. Every write of a run is made in the run's one transaction.
 */

export interface SearchReportRow {
  id: number;
  saved_search_id: number | null;
  saved_search_name: string;
  company_id: number;
  ran_at: Date;
  query: string;
  kinds: SearchKind[];
  from_ts: Date;
  to_ts: Date;
  hit_count: number;
  first_hits: SearchHit[];
  alert_id: number | null;
}

export const toSearchReport = (row: SearchReportRow): SearchReport => ({
  id: Number(row.id),
  saved_search_id: row.saved_search_id === null ? null : Number(row.saved_search_id),
  saved_search_name: row.saved_search_name,
  company_id: Number(row.company_id),
  ran_at: new Date(row.ran_at).toISOString(),
  query: row.query,
  type: row.kinds,
  from: new Date(row.from_ts).toISOString(),
  to: new Date(row.to_ts).toISOString(),
  hit_count: row.hit_count,
  first_hits: row.first_hits,
  alert_id: row.alert_id === null ? null : Number(row.alert_id),
});

const columns = sql`r.id, r.saved_search_id, r.saved_search_name, r.company_id, r.ran_at, r.query, r.kinds,
  r.from_ts, r.to_ts, r.hit_count, r.first_hits, r.alert_id`;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Search reports, each of one company: a caller sees those of the companies in their scope. */
export const searchReportList: ListResource<SearchReportRow, SearchReportFilters, SearchReport> = {
  from: sql`search_reports r`,
  select: columns,
  tenantColumn: sql`r.company_id`,
  idField: { expr: sql`r.id`, type: 'int8' },
  filtersSchema: searchReportFiltersSchema,
  filters: {
    saved_search_id: (v) => filter.in<number>(sql`r.saved_search_id`, 'int8')(list(v)),
    company_id: (v) => filter.in<number>(sql`r.company_id`, 'int8')(list(v)),
    ran_from: (v) => sql`r.ran_at >= ${v}::timestamptz`,
    ran_to: (v) => sql`r.ran_at <= ${v}::timestamptz`,
    search: filter.search(sql`r.saved_search_name`, sql`r.query`),
  },
  orderings: {
    ran_at: { expr: sql`r.ran_at`, type: 'timestamptz' },
    hit_count: { expr: sql`r.hit_count`, type: 'int4' },
    id: { expr: sql`r.id`, type: 'int8' },
  },
  defaultOrdering: ['-ran_at'],
  toItem: toSearchReport,
};

export async function findSearchReport(db: Queryable, scope: TenantScope, id: number): Promise<SearchReportRow | null> {
  const { rows } = await db.query<SearchReportRow>(sql`
    SELECT ${columns} FROM search_reports r WHERE r.id = ${id} AND ${tenantCondition(scope, sql`r.company_id`)}`);
  return rows[0] ?? null;
}

/** Enabled saved searches whose next run has come, the longest waiting first. */
export async function dueSavedSearches(db: Queryable, limit: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(sql`
    SELECT id FROM saved_searches WHERE enabled AND next_run_at <= now() ORDER BY next_run_at, id LIMIT ${limit}`);
  return rows.map((row) => Number(row.id));
}

export interface UnreadBatch {
  companyId: number;
  batchId: number;
}

/**
 * The ingest batches of the kinds and companies received since `since` that the saved search has not
 * read, oldest first, at most `limit`. Chosen by what the ledger lacks, not by a time mark, so a batch
 * that committed late is read all the same.
 */
export async function unreadBatches(
  db: Queryable,
  search: { id: number; kinds: readonly string[]; companyIds: readonly number[]; since: Date },
  limit: number,
): Promise<UnreadBatch[]> {
  if (search.kinds.length === 0 || search.companyIds.length === 0) return [];
  const { rows } = await db.query<{ company_id: number; id: number }>(sql`
    SELECT b.company_id, b.id FROM ingest_batches b
    WHERE ${tenantCondition({ companies: search.companyIds }, sql`b.company_id`)} AND b.kind = ANY(${[...search.kinds]}::text[])
      AND b.received_at >= ${search.since.toISOString()}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM saved_search_batches l
                      WHERE l.saved_search_id = ${search.id}::int8 AND l.company_id = b.company_id AND l.batch_id = b.id)
    ORDER BY b.received_at, b.id
    LIMIT ${limit}`);
  return rows.map((row) => ({ companyId: Number(row.company_id), batchId: Number(row.id) }));
}

/** Marks batches read by a saved search; in the transaction of the run's reports and alerts. */
export async function recordReadBatches(db: Queryable, savedSearchId: number, batches: readonly UnreadBatch[]) {
  if (batches.length === 0) return;
  await db.query(sql`
    INSERT INTO saved_search_batches (saved_search_id, company_id, batch_id)
    SELECT ${savedSearchId}::int8, b.company_id, b.batch_id
    FROM unnest(${batches.map((b) => b.companyId)}::int8[], ${batches.map((b) => b.batchId)}::int8[])
      AS b(company_id, batch_id)
    ON CONFLICT DO NOTHING`);
}

/**
 * Forgets what runs read that no run can pick again: batches retention has deleted, and batches
 * received before the saved search's `batches_from` (read a day before it, to be sure of clocks).
 */
export async function pruneReadBatches(db: Queryable): Promise<number> {
  const result = await db.query(sql`
    DELETE FROM saved_search_batches l
    WHERE l.read_at < now() - interval '1 day'
      AND (NOT EXISTS (SELECT 1 FROM ingest_batches b WHERE b.company_id = l.company_id AND b.id = l.batch_id)
           OR l.read_at < (SELECT COALESCE(s.batches_from, s.enabled_at) - interval '1 day' FROM saved_searches s
                           WHERE s.id = l.saved_search_id))`);
  return result.rowCount;
}

export interface NewSearchReport {
  savedSearchId: number;
  savedSearchName: string;
  companyId: number;
  query: string;
  kinds: readonly SearchKind[];
  from: Date;
  to: Date;
  hitCount: number;
  firstHits: readonly SearchHit[];
  alertId: number | null;
}

export async function insertSearchReport(db: Queryable, report: NewSearchReport): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO search_reports (company_id, saved_search_id, saved_search_name, ran_at, query, kinds, from_ts, to_ts,
                                hit_count, first_hits, alert_id)
    VALUES (${report.companyId}, ${report.savedSearchId}, ${report.savedSearchName}, now(), ${report.query},
            ${[...report.kinds]}::text[], ${report.from.toISOString()}::timestamptz,
            ${report.to.toISOString()}::timestamptz, ${report.hitCount}, ${JSON.stringify(report.firstHits)}::jsonb,
            ${report.alertId})
    RETURNING id`);
  return Number(rows[0]!.id);
}

/**
 * A run's end: when, how many hits, and the next run (at once when batches are left to read). A run
 * that left nothing has read every batch committed when it began: only a batch received within the
 * hour before may still commit (an ingest transaction lasts seconds), so later runs look back no
 * further than that.
 */
export async function finishRun(db: Queryable, id: number, hits: number, more: boolean): Promise<void> {
  await db.query(sql`
    UPDATE saved_searches SET last_run_at = now(), last_hits = ${hits},
      ${
        more
          ? sql`next_run_at = now()`
          : sql`next_run_at = now() + make_interval(mins => interval_minutes),
                batches_from = GREATEST(COALESCE(batches_from, enabled_at), now() - interval '1 hour')`
      }
    WHERE id = ${id}`);
}

/** A company's name, for the mails of its reports. */
export async function companyNameOf(db: Queryable, companyId: number): Promise<string> {
  const { rows } = await db.query<{ name: string }>(sql`SELECT name FROM companies WHERE id = ${companyId}`);
  return rows[0]?.name ?? `#${companyId}`;
}
