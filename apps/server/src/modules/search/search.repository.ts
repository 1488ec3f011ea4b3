import type { QueryNode, SearchField, SearchHit, SearchKind } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { likeLiteral, likeMatch } from '../../list/list-engine';
import { compileSearchQuery, searchTables } from './search-sql';

/** What a search reads: its kinds, its query (null: everything), the caller's scope and the time range. */
export interface SearchScope {
  kinds: readonly SearchKind[];
  ast: QueryNode | null;
  scope: TenantScope;
  /** Only these companies (all in the caller's scope), or every company the caller sees. */
  companies: readonly number[] | null;
  from: Date;
  to: Date;
  /** What relative times (`now-15m`) count from. */
  now: Date;
}

/**
 * The event each kind answers with, for a hit `p` of the page found by its primary key: the stored
 * event (a mail without its bodies, as in the mail list), an alert's main fields.
 */
const eventOf: Record<SearchKind, SqlFragment> = {
  network: sql`(SELECT e.event::jsonb FROM network_events e
    WHERE e.company_id = p.company_id AND e.ts = p.ts AND e.id = p.id)`,
  endpoint: sql`(SELECT e.event::jsonb FROM endpoint_events e
    WHERE e.company_id = p.company_id AND e.ts = p.ts AND e.id = p.id)`,
  mail: sql`(SELECT e.event - 'text' - 'html' - 'header_lines' FROM mail_messages e
    WHERE e.company_id = p.company_id AND e.ts = p.ts AND e.id = p.id)`,
  alerts: sql`(SELECT jsonb_build_object(
      'id', e.id, 'title', e.title, 'description', e.description, 'severity', e.severity, 'score', e.score,
      'status', e.status, 'resolution', e.resolution, 'source', e.source, 'first_seen', e.first_seen,
      'last_seen', e.last_seen, 'count', e.count, 'mitre', e.mitre, 'tags', e.tags,
      'incident_id', e.incident_id, 'assignee_id', e.assignee_id)
    FROM alerts e WHERE e.company_id = p.company_id AND e.id = p.id)`,
};

/** Every condition on one kind's rows: tenant, companies asked for, time range, query. */
function kindCondition(search: SearchScope, kind: SearchKind): SqlFragment {
  const { ts } = searchTables[kind];
  return sql.and([
    tenantCondition(search.scope, sql`e.company_id`),
    // Narrowing to companies the caller named is a smaller scope of the same kind.
    ...(search.companies ? [tenantCondition({ companies: search.companies }, sql`e.company_id`)] : []),
    sql`${ts} >= ${search.from.toISOString()}::timestamptz`,
    sql`${ts} <= ${search.to.toISOString()}::timestamptz`,
    compileSearchQuery(search.ast, kind, search.now),
  ]);
}

interface HitRow {
  kind: SearchKind;
  id: string | number;
  company_id: string | number;
  ts: Date;
  event: Record<string, unknown>;
}

/** Compiles every kind's condition first, so a query one kind cannot take fails before any SQL runs. */
function conditions(search: SearchScope): KindPart[] {
  return search.kinds.map((kind) => ({ kind, where: kindCondition(search, kind) }));
}

/** One kind's condition, compiled: the kind and its WHERE over `e`. */
interface KindPart {
  kind: SearchKind;
  where: SqlFragment;
}

/**
 * One page of hits over the kinds' conditions: each kind's newest (or oldest) `offset + limit` rows,
 * merged by time, then kind, then id, all in the direction asked for; and the count, each kind
 * counted apart (with the first and last time of the hits when `span` is asked for).
 */
async function pageOf(
  db: Queryable,
  parts: readonly KindPart[],
  page: { descending: boolean; limit: number; offset: number; span?: boolean },
): Promise<{ hits: SearchHit[]; count: number; first: Date | null; last: Date | null }> {
  const direction = sql.raw(page.descending ? 'DESC' : 'ASC');
  // Keys first: each kind's first `offset + limit` rows in order, merged and cut to the page; only
  // the page's rows then read their events (by primary key), however many rows match.
  const branches = parts.map(({ kind, where }) => {
    const { from, ts } = searchTables[kind];
    return sql`(SELECT ${kind}::text AS kind, e.id, e.company_id, ${ts} AS ts FROM ${from} WHERE ${where}
      ORDER BY ${ts} ${direction}, e.id ${direction} LIMIT ${page.offset + page.limit})`;
  });
  const order = sql`p.ts ${direction}, p.kind ${direction}, p.id ${direction}`;
  const event = sql`CASE ${sql.join(
    parts.map(({ kind }) => sql`WHEN p.kind = ${kind}::text THEN ${eventOf[kind]}`),
    ' ',
  )} END`;
  const span = (kind: SearchKind) =>
    page.span ? sql`, min(${searchTables[kind].ts}) AS first, max(${searchTables[kind].ts}) AS last` : sql``;
  const [result, ...counts] = await Promise.all([
    db.query<HitRow>(sql`SELECT p.kind, p.id, p.company_id, p.ts, ${event} AS event
      FROM (SELECT p.kind, p.id, p.company_id, p.ts FROM (${sql.join(branches, ' UNION ALL ')}) p
            ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}) p
      ORDER BY ${order}`),
    ...parts.map(({ kind, where }) =>
      db.query<{ count: string | number; first?: Date | null; last?: Date | null }>(
        sql`SELECT count(*)::int8 AS count${span(kind)} FROM ${searchTables[kind].from} WHERE ${where}`,
      ),
    ),
  ]);
  let count = 0;
  let first: Date | null = null;
  let last: Date | null = null;
  for (const counted of counts) {
    const row = counted.rows[0];
    count += Number(row?.count ?? 0);
    if (row?.first && (first === null || new Date(row.first) < first)) first = new Date(row.first);
    if (row?.last && (last === null || new Date(row.last) > last)) last = new Date(row.last);
  }
  const hits = result.rows.map((row) => ({
    kind: row.kind,
    id: Number(row.id),
    company_id: Number(row.company_id),
    ts: new Date(row.ts).toISOString(),
    event: row.event,
  }));
  return { hits, count, first, last };
}

/**
 * One page of hits over every kind: each kind's newest (or oldest) `offset + limit` rows, merged by
 * time, then kind, then id, all in the direction asked for; and the count, each kind counted apart.
 */
export async function searchPage(
  db: Queryable,
  search: SearchScope,
  page: { descending: boolean; limit: number; offset: number },
): Promise<{ hits: SearchHit[]; count: number }> {
  const { hits, count } = await pageOf(db, conditions(search), page);
  return { hits, count };
}

/** Event kinds that arrive in ingest batches (alerts do not). */
export type BatchedSearchKind = Exclude<SearchKind, 'alerts'>;

/** A search over the events of chosen ingest batches of one company (a saved search's run). */
export interface BatchSearch {
  kinds: readonly BatchedSearchKind[];
  ast: QueryNode | null;
  companyId: number;
  batchIds: readonly number[];
  /** What relative times (`now-15m`) count from. */
  now: Date;
}

/**
 * The newest `limit` hits of a query in the events of some ingest batches of one company, their
 * count, and the first and last event time among them.
 */
export async function searchBatches(
  db: Queryable,
  search: BatchSearch,
  limit: number,
): Promise<{ hits: SearchHit[]; count: number; first: Date | null; last: Date | null }> {
  const parts = search.kinds.map((kind) => ({
    kind,
    where: sql.and([
      sql`e.company_id = ${search.companyId}::int8`,
      sql`e.batch_id = ANY(${[...search.batchIds]}::int8[])`,
      compileSearchQuery(search.ast, kind, search.now),
    ]),
  }));
  if (parts.length === 0 || search.batchIds.length === 0) return { hits: [], count: 0, first: null, last: null };
  return pageOf(db, parts, { descending: true, limit, offset: 0, span: true });
}

/**
 * Hits per bucket of `seconds` and per kind; a bucket is numbered by its start in seconds since
 * the epoch divided by its width. Only buckets with hits come back.
 */
export async function searchBuckets(
  db: Queryable,
  search: SearchScope,
  seconds: number,
): Promise<{ kind: SearchKind; bucket: number; count: number }[]> {
  const parts = conditions(search);
  const results = await Promise.all(
    parts.map(({ kind, where }) => {
      const { from, ts } = searchTables[kind];
      return db.query<{ bucket: string | number; count: string | number }>(sql`
        SELECT floor(extract(epoch FROM ${ts}) / ${seconds}::int8)::int8 AS bucket, count(*)::int8 AS count
        FROM ${from} WHERE ${where} GROUP BY 1`);
    }),
  );
  return results.flatMap((result, index) =>
    result.rows.map((row) => ({ kind: parts[index]!.kind, bucket: Number(row.bucket), count: Number(row.count) })),
  );
}

/** What `searchValues` counts: one field of one kind, in the caller's scope and a time range. */
export interface ValuesScope {
  kind: SearchKind;
  field: SearchField;
  /** The field's column expressions over `e` (several: any of them holds a value). */
  columns: readonly SqlFragment[];
  scope: TenantScope;
  from: Date;
  to: Date;
  /** The start of the values wanted, whatever the case. */
  prefix: string;
  /** Most rows read, shared among the companies of the scope: the newest of each. */
  sample: number;
  /** Most values answered. */
  limit: number;
}

/** A column's values as text: an address without its /32 or /128, a boolean as `true` / `false`. */
function valueText(field: SearchField, column: SqlFragment): SqlFragment {
  if (field.many) return sql`SELECT unnest(${column})::text`;
  if (field.type === 'ip') return sql`SELECT host(${column})`;
  return sql`SELECT ${column}::text`;
}

/**
 * The values a field holds most often in a bounded sample of the range, most frequent first, then by
 * value. The sample is each company's newest rows, `sample` shared equally among the companies in
 * the scope: every company's read walks its (company, time) index and stops, so the cost is bounded
 * however big the table and however many companies the caller sees.
 */
export async function searchValues(db: Queryable, search: ValuesScope): Promise<{ value: string; count: number }[]> {
  const { from, ts } = searchTables[search.kind];
  const values = sql.join(
    search.columns.map((column) => valueText(search.field, column)),
    ' UNION ALL ',
  );
  const result = await db.query<{ value: string; count: string | number }>(sql`
    WITH scope AS (SELECT c.id FROM companies c WHERE ${tenantCondition(search.scope, sql`c.id`)}),
      share AS (SELECT ceil(${search.sample}::numeric / greatest(count(*), 1))::int8 AS rows FROM scope)
    SELECT v.value, count(*)::int8 AS count
    FROM scope c
    CROSS JOIN share
    CROSS JOIN LATERAL (
      SELECT ${sql.join(search.columns, ', ')} FROM ${from}
      WHERE e.company_id = c.id
        AND ${ts} >= ${search.from.toISOString()}::timestamptz
        AND ${ts} <= ${search.to.toISOString()}::timestamptz
      ORDER BY ${ts} DESC LIMIT share.rows) e
    CROSS JOIN LATERAL (${values}) AS v(value)
    WHERE v.value IS NOT NULL AND v.value <> ''
      AND ${likeMatch(sql`v.value`, `${likeLiteral(search.prefix)}%`)}
    GROUP BY v.value
    ORDER BY count(*) DESC, v.value
    LIMIT ${search.limit}`);
  return result.rows.map((row) => ({ value: row.value, count: Number(row.count) }));
}
