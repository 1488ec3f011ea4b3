import { createHash } from 'node:crypto';
import { listQuerySchema, type ListAnswer } from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../db/database';
import { sql, type SqlFragment } from '../db/sql';
import { ValidationError, zodFieldErrors } from '../http/errors';
import { tenantCondition, type TenantScope } from '../http/tenancy';

/** SQL types an ordering key can be cast back to when it travels in a cursor. */
export type KeyType = 'int8' | 'int4' | 'text' | 'timestamptz' | 'float8' | 'bool' | 'numeric';

export interface OrderingField {
  /** The expression to sort by, e.g. `sql\`l.date_time\``. */
  expr: SqlFragment;
  type: KeyType;
  /** Nullable keys cannot be compared by keyset, so those orderings page by OFFSET. */
  nullable?: boolean;
}

/** What the generic list engine needs to know about one resource. */
export interface ListResource<TRow, TFilters extends Record<string, unknown>, TOut> {
  /** `FROM` clause (table with alias, joins). */
  from: SqlFragment;
  /** Columns to select. */
  select: SqlFragment;
  /** Column holding the company, for tenant resources; omitted for global resources. */
  tenantColumn?: SqlFragment;
  /** Unique, non-null key used to break ties so pages never overlap or skip. */
  idField: OrderingField;
  /** Strict schema of the JSON body: `search` and structured filters. */
  filtersSchema: z.ZodType<TFilters>;
  /** Turns validated filters into conditions; undefined values are skipped by the caller. */
  filters: { [K in keyof TFilters]?: (value: NonNullable<TFilters[K]>, all: TFilters) => SqlFragment | null };
  /** Whitelisted ordering fields. */
  orderings: Record<string, OrderingField>;
  /** Used when the query has no `ordering`. */
  defaultOrdering: readonly string[];
  /** Extra conditions always applied (e.g. rows of one object's timeline). */
  baseCondition?: SqlFragment;
  /** Filter values used when the body does not name them (e.g. `archived: false`). */
  defaultFilters?: Partial<TFilters>;
  /** Row → answer item. */
  toItem: (row: TRow) => TOut;
}

export interface ListRequest {
  query: Record<string, unknown>;
  body: unknown;
  scope: TenantScope;
  /** Absolute URL of the endpoint, without query string; `next`/`previous` are built from it. */
  url: string;
}

interface ResolvedOrder {
  name: string;
  field: OrderingField;
  descending: boolean;
}

interface Cursor {
  /** Fingerprint of filters, ordering and page size the cursor was made for. */
  f: string;
  /** Page the cursor leads to. */
  p: number;
  /** `a`: rows after the key; `b`: rows before it. */
  d: 'a' | 'b';
  /** Sort key values as text. */
  k: string[];
  /** Count of the walk, taken on the page the walk started from; keyset pages do not count again. */
  c: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (
      typeof value.f === 'string' &&
      typeof value.p === 'number' &&
      (value.d === 'a' || value.d === 'b') &&
      typeof value.c === 'number' &&
      Array.isArray(value.k) &&
      value.k.every((k) => typeof k === 'string')
    ) {
      return value as Cursor;
    }
  } catch {
    // fall through to the error below
  }
  throw ValidationError.field('cursor', 'This page position is not valid; open the list again from page 1.');
}

function parseOrdering<R, F extends Record<string, unknown>, O>(
  resource: ListResource<R, F, O>,
  raw: string | string[] | undefined,
): ResolvedOrder[] {
  const terms = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((part) => part.split(','))
    .map((term) => term.trim())
    .filter((term) => term !== '');
  const chosen = terms.length > 0 ? terms : [...resource.defaultOrdering];
  const allowed = Object.keys(resource.orderings);
  const problems: string[] = [];
  const orders: ResolvedOrder[] = [];
  for (const term of chosen) {
    const descending = term.startsWith('-');
    const name = descending ? term.slice(1) : term;
    const field = resource.orderings[name];
    if (!field) {
      problems.push(`Cannot order by "${name}". Fields you can order by: ${allowed.join(', ')}.`);
      continue;
    }
    if (orders.some((o) => o.name === name)) continue;
    orders.push({ name, field, descending });
  }
  if (problems.length > 0) throw new ValidationError({ ordering: problems });
  // The unique key goes last, in the direction of the last term, so the order is total.
  const last = orders[orders.length - 1];
  orders.push({ name: '__id', field: resource.idField, descending: last?.descending ?? false });
  return orders;
}

function parseFilters<R, F extends Record<string, unknown>, O>(resource: ListResource<R, F, O>, body: unknown): F {
  const input = body === undefined || body === null || body === '' ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw ValidationError.field('non_field_errors', 'The body must be a JSON object of filters.');
  }
  const withDefaults = resource.defaultFilters ? { ...resource.defaultFilters, ...(input as object) } : input;
  const result = resource.filtersSchema.safeParse(withDefaults);
  if (!result.success) throw new ValidationError(zodFieldErrors(result.error));
  return result.data;
}

function whereClause<R, F extends Record<string, unknown>, O>(
  resource: ListResource<R, F, O>,
  filters: F,
  scope: TenantScope,
): SqlFragment {
  const parts: SqlFragment[] = [];
  if (resource.tenantColumn) parts.push(tenantCondition(scope, resource.tenantColumn));
  if (resource.baseCondition) parts.push(resource.baseCondition);
  for (const key of Object.keys(filters) as (keyof F)[]) {
    const value = filters[key];
    const apply = resource.filters[key];
    if (value === undefined || value === null || !apply) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    const condition = apply(value as NonNullable<F[keyof F]>, filters);
    if (condition) parts.push(condition);
  }
  return sql.and(parts);
}

/**
 * Keyset condition: rows strictly after (or before) `keys` in the given order.
 * Uniform directions use a row comparison the planner can drive an index with; mixed
 * directions expand into the equivalent OR chain.
 */
function keysetCondition(orders: ResolvedOrder[], keys: string[], before: boolean): SqlFragment {
  const typed = orders.map((o, i) => sql`${keys[i]}::${sql.raw(o.field.type)}`);
  const greater = (o: ResolvedOrder) => o.descending === before;
  const uniform = orders.every((o) => o.descending === orders[0]?.descending);
  if (uniform && orders[0]) {
    const op = sql.raw(greater(orders[0]) ? '>' : '<');
    return sql`(${sql.join(orders.map((o) => o.field.expr))}) ${op} (${sql.join(typed)})`;
  }
  const branches = orders.map((order, i) => {
    const equalities = orders.slice(0, i).map((prev, j) => sql`${prev.field.expr} = ${typed[j]}`);
    const op = sql.raw(greater(order) ? '>' : '<');
    return sql.and([...equalities, sql`${order.field.expr} ${op} ${typed[i]}`]);
  });
  return sql.or(branches);
}

function orderClause(orders: ResolvedOrder[], reverse: boolean): SqlFragment {
  return sql.join(orders.map((o) => sql`${o.field.expr} ${sql.raw(o.descending !== reverse ? 'DESC' : 'ASC')}`));
}

function fingerprint(filters: unknown, orders: ResolvedOrder[], pageSize: number): string {
  const text = JSON.stringify([filters, orders.map((o) => `${o.descending ? '-' : ''}${o.name}`), pageSize]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

function parseQuery(query: Record<string, unknown>) {
  const result = listQuerySchema.safeParse(query);
  if (!result.success) throw new ValidationError(zodFieldErrors(result.error));
  return result.data;
}

/**
 * The condition a resource's list filters (validated as the list validates them) and the caller's
 * scope make: what a change "by filter" applies to is exactly what the list shows.
 */
export function listCondition<R, F extends Record<string, unknown>, O>(
  resource: ListResource<R, F, O>,
  body: unknown,
  scope: TenantScope,
): SqlFragment {
  return whereClause(resource, parseFilters(resource, body), scope);
}

/** Validated count of a resource for the caller's filters and scope. */
export async function countList<R, F extends Record<string, unknown>, O>(
  db: Queryable,
  resource: ListResource<R, F, O>,
  body: unknown,
  scope: TenantScope,
): Promise<number> {
  const filters = parseFilters(resource, body);
  const where = whereClause(resource, filters, scope);
  const { rows } = await db.query<{ count: number }>(
    sql`SELECT count(*)::int8 AS count FROM ${resource.from} WHERE ${where}`,
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * One page of a resource: validates the query string and the filters, applies the tenant scope,
 * counts, and fetches the page. Pages reached through `next`/`previous` carry a cursor and are
 * read by keyset (no OFFSET scan, however deep); a page asked for by number alone uses OFFSET.
 */
export async function listPage<R, F extends Record<string, unknown>, O>(
  db: Queryable,
  resource: ListResource<R, F, O>,
  request: ListRequest,
): Promise<ListAnswer<O>> {
  const query = parseQuery(request.query);
  const orders = parseOrdering(resource, query.ordering);
  const filters = parseFilters(resource, request.body);
  const pageSize = query.page_size;
  const page = query.page;
  const where = whereClause(resource, filters, request.scope);
  const print = fingerprint(filters, orders, pageSize);

  let cursor: Cursor | null = null;
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor);
    // A cursor made for other filters or another page is ignored, not trusted.
    if (decoded.f === print && decoded.p === page && decoded.k.length === orders.length) cursor = decoded;
  }
  const keysetUsable = orders.every((o) => !o.field.nullable);

  const keyColumns = sql.join(orders.map((o, i) => sql`(${o.field.expr})::text AS ${sql.raw(`__k${i}`)}`));
  const countQuery = sql`SELECT count(*)::int8 AS count FROM ${resource.from} WHERE ${where}`;
  let rows: Record<string, unknown>[];
  let count: number;
  let hasNext: boolean;
  if (cursor && keysetUsable) {
    // Keyset page: the count travels in the cursor, and one extra row tells whether a next page exists.
    const before = cursor.d === 'b';
    const condition = keysetCondition(orders, cursor.k, before);
    const result = await db.query<Record<string, unknown>>(
      sql`SELECT ${resource.select}, ${keyColumns} FROM ${resource.from}
          WHERE ${where} AND ${condition}
          ORDER BY ${orderClause(orders, before)} LIMIT ${pageSize + 1}`,
    );
    const extra = result.rows.length > pageSize;
    rows = result.rows.slice(0, pageSize);
    if (before) rows.reverse();
    count = cursor.c;
    // Walking back, the page we came from is still ahead.
    hasNext = before ? true : extra;
  } else {
    const [counted, result] = await Promise.all([
      db.query<{ count: number }>(countQuery),
      db.query<Record<string, unknown>>(
        sql`SELECT ${resource.select}, ${keyColumns} FROM ${resource.from}
            WHERE ${where}
            ORDER BY ${orderClause(orders, false)} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
      ),
    ]);
    count = Number(counted.rows[0]?.count ?? 0);
    const lastPage = Math.max(1, Math.ceil(count / pageSize));
    if (page > lastPage) {
      throw ValidationError.field(
        'page',
        count === 0
          ? `Page ${page} is past the end: nothing matches these filters.`
          : `Page ${page} is past the end: there ${lastPage === 1 ? 'is 1 page' : `are ${lastPage} pages`}.`,
      );
    }
    rows = result.rows;
    hasNext = page * pageSize < count;
  }

  const keysOf = (row: Record<string, unknown> | undefined): string[] =>
    orders.map((_, i) => String(row?.[`__k${i}`] ?? ''));
  const link = (target: number, direction: 'a' | 'b', row: Record<string, unknown> | undefined) => {
    const url = new URL(request.url);
    url.searchParams.set('page', String(target));
    url.searchParams.set('page_size', String(pageSize));
    url.searchParams.set(
      'ordering',
      orders
        .slice(0, -1)
        .map((o) => `${o.descending ? '-' : ''}${o.name}`)
        .join(','),
    );
    if (keysetUsable && row) {
      url.searchParams.set('cursor', encodeCursor({ f: print, p: target, d: direction, k: keysOf(row), c: count }));
    }
    return url.toString();
  };

  const next = hasNext ? link(page + 1, 'a', rows[rows.length - 1]) : null;
  const previous = page > 1 ? link(page - 1, 'b', rows[0]) : null;
  const results = rows.map((row) => {
    for (let i = 0; i < orders.length; i += 1) delete row[`__k${i}`];
    return resource.toItem(row as R);
  });
  return { results, count, next, previous };
}

/**
 * The escape character of every LIKE pattern built from client text. Not backslash: `'!'` reads
 * the same whatever `standard_conforming_strings` says, on PostgreSQL 15 and PGlite alike, and a
 * backslash in the text is then an ordinary character.
 */
const LIKE_ESCAPE = '!';

/** Text as a LIKE pattern that matches it literally: `%`, `_` and the escape character escaped. */
export function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `${LIKE_ESCAPE}${c}`);
}

/** `expr LIKE pattern` (ILIKE when `caseInsensitive`) with the explicit escape `likeLiteral` writes. */
export function likeMatch(expr: SqlFragment, pattern: SqlFragment | string, caseInsensitive = true): SqlFragment {
  return sql`${expr} ${sql.raw(caseInsensitive ? 'ILIKE' : 'LIKE')} ${pattern} ESCAPE ${sql.raw(`'${LIKE_ESCAPE}'`)}`;
}

/**
 * `expr` equals the value (or any of the values) exactly, written so an index on `lower(expr)` serves
 * it: the lower-case test finds the rows, the exact one keeps the value as it is written.
 */
export function sameText(expr: SqlFragment, value: string | readonly string[]): SqlFragment {
  if (typeof value === 'string') return sql`(lower(${expr}) = lower(${value}::text) AND ${expr} = ${value}::text)`;
  const lower = value.map((v) => v.toLowerCase());
  return sql`(lower(${expr}) = ANY(${lower}::text[]) AND ${expr} = ANY(${[...value]}::text[]))`;
}

/** `expr` contains `text` as it is written, in any letter case: no character of it is a wildcard. */
export function containsText(expr: SqlFragment, text: string): SqlFragment {
  return likeMatch(expr, `%${likeLiteral(text)}%`);
}

/** Filter helpers for the common shapes. */
export const filter = {
  /** Equal to a value, or to any of an array of values. */
  in:
    <T>(column: SqlFragment, cast: string) =>
    (value: T | T[]) => {
      const values = Array.isArray(value) ? value : [value];
      return values.length === 0 ? null : sql`${column} = ANY(${values}::${sql.raw(cast)}[])`;
    },
  /** Equal to one value. */
  eq:
    <T>(column: SqlFragment) =>
    (value: T) =>
      sql`${column} = ${value}`,
  /** At or after a point. */
  gte:
    <T>(column: SqlFragment, cast: string) =>
    (value: T) =>
      sql`${column} >= ${value}::${sql.raw(cast)}`,
  /** At or before a point. */
  lte:
    <T>(column: SqlFragment, cast: string) =>
    (value: T) =>
      sql`${column} <= ${value}::${sql.raw(cast)}`,
  /** Case-insensitive substring match on any of the columns; `%` and `_` match themselves. */
  search:
    (...columns: SqlFragment[]) =>
    (value: string) =>
      sql.or(columns.map((column) => containsText(column, value))),
};
