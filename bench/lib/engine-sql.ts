import { compile, sql, type CompiledSql, type SqlFragment } from '../../apps/server/src/db/sql';

/**
 * The SQL that `listPage`/`countList` in apps/server/src/list/list-engine.ts issue for
 * `systemLogList` (apps/server/src/modules/audit/audit.repository.ts), written out by hand so the
 * benchmark can time the database alone. `sameStatement` checks each of these against what the
 * engine actually sent during the run, so a change in the engine shows up as a mismatch instead of
 * a silently wrong ratio.
 */

/** The filters the benchmark uses, in the order the filter schema declares them. */
export interface LogFilters {
  action?: string[];
  date_time_from?: string;
}

/** `'all'` for provider staff (no tenant condition), else the visible company ids. */
export type Companies = 'all' | number[];

/** `whereClause`: tenant condition first, then each filter in the schema's key order. */
function where(companies: Companies, filters: LogFilters): SqlFragment {
  const parts: SqlFragment[] = [];
  parts.push(
    companies === 'all'
      ? sql`TRUE`
      : companies.length === 0
        ? sql`FALSE`
        : companies.length === 1
          ? sql`l.company_id = ${companies[0]}::int8`
          : sql`l.company_id = ANY(${[...companies]}::int8[])`,
  );
  if (filters.action && filters.action.length > 0) parts.push(sql`l.action = ANY(${filters.action}::text[])`);
  if (filters.date_time_from !== undefined) parts.push(sql`l.date_time >= ${filters.date_time_from}::timestamptz`);
  return sql`(${sql.join(parts, ') AND (')})`;
}

const select = sql`l.id, l.date_time, l.user_id, l.username, l.impersonator_id, l.ip, l.action, l.object_type,
              l.object_id, l.object_repr, l.company_id, l.changes`;
/** Ordering `-date_time`; the engine appends the id in the same direction as the tie-breaker. */
const keyColumns = sql`(l.date_time)::text AS __k0, (l.id)::text AS __k1`;
const orderDesc = sql`l.date_time DESC, l.id DESC`;

/** `SELECT count(*)…`: issued by both `listPage` (every page) and `countList`. */
export function countQuery(companies: Companies, filters: LogFilters): SqlFragment {
  return sql`SELECT count(*)::int8 AS count FROM system_logs l WHERE ${where(companies, filters)}`;
}

/** The page by number: `ORDER BY … LIMIT … OFFSET …` (first page, or a page asked for without cursor). */
export function offsetPageQuery(
  companies: Companies,
  filters: LogFilters,
  page: number,
  pageSize: number,
): SqlFragment {
  return sql`SELECT ${select}, ${keyColumns} FROM system_logs l
          WHERE ${where(companies, filters)}
          ORDER BY ${orderDesc} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
}

/**
 * The page after a cursor (`d: 'a'`): all directions are descending, so the engine uses a row
 * comparison `(date_time, id) < (key0, key1)`, and reads one row more to know whether a next page exists.
 */
export function keysetPageQuery(
  companies: Companies,
  filters: LogFilters,
  keys: readonly [string, string],
  pageSize: number,
): SqlFragment {
  const condition = sql`(${sql.join([sql`l.date_time`, sql`l.id`])}) < (${sql.join([
    sql`${keys[0]}::timestamptz`,
    sql`${keys[1]}::int8`,
  ])})`;
  return sql`SELECT ${select}, ${keyColumns} FROM system_logs l
          WHERE ${where(companies, filters)} AND ${condition}
          ORDER BY ${orderDesc} LIMIT ${pageSize + 1}`;
}

const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Compares a replicated statement with one the engine sent; returns a description of any difference. */
export function sameStatement(expected: SqlFragment, actual: CompiledSql): string | null {
  const mine = compile(expected);
  if (normalized(mine.text) !== normalized(actual.text)) {
    return `text differs\n  bench : ${normalized(mine.text)}\n  engine: ${normalized(actual.text)}`;
  }
  if (JSON.stringify(mine.values) !== JSON.stringify(actual.values)) {
    return `parameters differ\n  bench : ${JSON.stringify(mine.values)}\n  engine: ${JSON.stringify(actual.values)}`;
  }
  return null;
}

/** Sort keys carried by a `cursor` query parameter (base64url JSON `{f, p, d, k, c}`). */
export function cursorKeys(link: string): { page: number; direction: string; keys: [string, string] } {
  const cursor = new URL(link).searchParams.get('cursor');
  if (!cursor) throw new Error(`link has no cursor: ${link}`);
  const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p: number; d: string; k: string[] };
  if (!Array.isArray(value.k) || value.k.length !== 2) throw new Error(`unexpected cursor keys in ${link}`);
  return { page: value.p, direction: value.d, keys: [String(value.k[0]), String(value.k[1])] };
}
