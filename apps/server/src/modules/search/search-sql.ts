import {
  certificateSerialKey,
  freeTextFields,
  parseIpValue,
  parseNumberValue,
  parseTimeValue,
  searchFields,
  termText,
  type CompareOp,
  type FieldRef,
  type QueryNode,
  type QueryProblemCode,
  type SearchField,
  type SearchKind,
  type Term,
  type ValueExpr,
} from '@vigil/contract';
import { sql, type SqlFragment } from '../../db/sql';
import { likeLiteral, likeMatch } from '../../list/list-engine';
import { printable, unstorableText } from '../../safe-text';

/*
 * A checked query (see checkQuery) compiled to the WHERE condition of one kind's table. Field names
 * come only from the catalogue (`searchFields`) and map to fixed column expressions; every value the
 * query holds is a parameter. The rows of kind K are read as `<table of K> e`.
 */

/** A kind's table, as `e`, and the column its time range and ordering use. */
export const searchTables: Record<SearchKind, { from: SqlFragment; ts: SqlFragment }> = {
  network: { from: sql`network_events e`, ts: sql`e.ts` },
  endpoint: { from: sql`endpoint_events e`, ts: sql`e.ts` },
  mail: { from: sql`mail_messages e`, ts: sql`e.ts` },
  alerts: { from: sql`alerts e`, ts: sql`e.first_seen` },
};

/** Fields whose column has another name, or that read several columns (any of them may match). */
const renamed: { [K in SearchKind]?: Record<string, readonly string[]> } = {
  network: { ip: ['src_ip', 'dest_ip'] },
  mail: { recipient: ['recipients'], url: ['urls'] },
  alerts: { ts: ['first_seen'] },
};

/** The column expressions a field of a kind reads; null for a name the kind does not have. */
export function fieldColumns(kind: SearchKind, name: string): { field: SearchField; columns: SqlFragment[] } | null {
  const fields: Record<string, SearchField> = searchFields[kind];
  if (!Object.hasOwn(fields, name)) return null;
  const columnNames = renamed[kind]?.[name] ?? [name];
  return { field: fields[name]!, columns: columnNames.map((column) => sql.ident(`e.${column}`)) };
}

/** Stored forms some keywords are kept in: an exact value is looked for in the same form. */
const keywordKeys: Record<string, (value: string) => string> = {
  tls_serial: (value) => certificateSerialKey(value) ?? value,
  dhcp_mac: (value) =>
    value
      .toLowerCase()
      .replace(/[^0-9a-f]/g, '')
      .replace(/(..)(?!$)/g, '$1:'),
};

/**
 * Keywords the pipeline keeps lower-cased (mail addresses, a TLS serial's key, a MAC): `col = lower(value)`
 * is then the same test as comparing without case, and their column indexes serve it.
 */
const storedLowerCase: { [K in SearchKind]?: ReadonlySet<string> } = {
  network: new Set(['tls_serial', 'dhcp_mac']),
  mail: new Set(['sender', 'recipient']),
};

/**
 * The text of a row a kind's trigram index covers (migration search_text_indexes): its free-text
 * columns joined by spaces, written exactly as the index's expression so the planner matches it.
 * A match on one of those columns is also a match of this text, so `text ILIKE '%…%'` is added
 * before the column's own condition: the index finds the few candidate rows, the column decides.
 */
export function searchTextOf(kind: SearchKind): SqlFragment | null {
  if (kind !== 'endpoint' && kind !== 'network') return null;
  return sql.raw(`(${freeTextFields[kind].map((column) => `coalesce(e.${column}, '')`).join(" || ' ' || ")})`);
}

/**
 * The condition with the trigram prefilter of its kind's text before it, when the field (null: free
 * text, every field of it) is in that text; `contained` is the term's pattern with `%` at both ends.
 */
function withTextPrefilter(
  context: Context,
  name: string | null,
  contained: string,
  condition: SqlFragment,
): SqlFragment {
  const text = searchTextOf(context.kind);
  const covered: readonly string[] = freeTextFields[context.kind];
  if (text === null || (name !== null && !covered.includes(name))) return condition;
  return sql`(${likeMatch(text, contained)} AND ${condition})`;
}

/** A query the compiler cannot turn into SQL (a value of the wrong form, a field the kind lacks). */
export class SearchCompileError extends Error {
  constructor(
    readonly position: number,
    readonly end: number,
    message: string,
    readonly code: QueryProblemCode,
  ) {
    super(message);
    this.name = 'SearchCompileError';
  }
}

const comparisons: Record<CompareOp, SqlFragment> = {
  '>': sql.raw('>'),
  '>=': sql.raw('>='),
  '<': sql.raw('<'),
  '<=': sql.raw('<='),
};

/** Conditions joined by OR / AND, in parentheses of their own so they nest anywhere. */
const anyOf = (parts: readonly SqlFragment[]) => (parts.length === 1 ? parts[0]! : sql`(${sql.or(parts)})`);
const allOf = (parts: readonly SqlFragment[]) => (parts.length === 1 ? parts[0]! : sql`(${sql.and(parts)})`);

/** `x IS NOT TRUE`: NOT that also keeps the rows where `x` is unknown (a field without a value). */
const not = (condition: SqlFragment) => sql`(${condition}) IS NOT TRUE`;

/** A term's text as a LIKE pattern: literal parts escaped, `*` → `%`, `?` → `_`. */
function likePattern(term: Term, contained: boolean): string {
  const body = term.parts
    .map((part) => ('literal' in part ? likeLiteral(part.literal) : part.wildcard === '*' ? '%' : '_'))
    .join('');
  return contained ? `%${body}%` : body;
}

const wildcarded = (term: Term) => !term.quoted && term.parts.some((part) => 'wildcard' in part);

interface Context {
  kind: SearchKind;
  now: Date;
}

interface ResolvedField {
  name: string;
  field: SearchField;
  columns: SqlFragment[];
}

/**
 * The condition on a field: `condition(column)` on each of its columns, any of them matching; on a
 * many-valued column, on each element (`EXISTS` over `unnest`).
 */
function onField(target: ResolvedField, condition: (value: SqlFragment) => SqlFragment): SqlFragment {
  const parts = target.columns.map((column) =>
    target.field.many
      ? sql`EXISTS (SELECT 1 FROM unnest(${column}) AS v(x) WHERE ${condition(sql`v.x`)})`
      : condition(column),
  );
  return anyOf(parts);
}

function resolve(ref: FieldRef, context: Context): ResolvedField {
  const found = fieldColumns(context.kind, ref.name);
  if (!found) {
    throw new SearchCompileError(
      ref.start,
      ref.end,
      `Unknown field "${printable(ref.name, 60)}" for ${context.kind}.`,
      'unknown_field',
    );
  }
  return { name: ref.name, ...found };
}

function badValue(term: Term, message: string): never {
  throw new SearchCompileError(term.start, term.end, message, 'bad_value');
}

function literalText(term: Term): string {
  const text = termText(term);
  if (unstorableText(text) !== null) badValue(term, 'A value may not hold a NUL character or half a surrogate pair.');
  return text;
}

function noWildcard(term: Term, target: ResolvedField): void {
  if (wildcarded(term)) {
    throw new SearchCompileError(
      term.start,
      term.end,
      `Field "${target.name}" (${target.field.type}) takes no wildcards.`,
      'wildcard_not_allowed',
    );
  }
}

/** A typed parameter of a number, time or address value, for comparisons and ranges. */
function typedValue(term: Term, target: ResolvedField, context: Context): SqlFragment {
  noWildcard(term, target);
  const text = literalText(term);
  switch (target.field.type) {
    case 'number': {
      const value = parseNumberValue(text);
      if (value === null) badValue(term, `"${printable(text, 60)}" is not a number.`);
      // An integer past int8 (or a fraction) compares as numeric rather than failing the cast.
      return Number.isSafeInteger(value) ? sql`${value}::int8` : sql`${value}::numeric`;
    }
    case 'time': {
      const value = parseTimeValue(text, context.now);
      if (value === null) badValue(term, `"${printable(text, 60)}" is not a time (2026-11-29T10:00:00Z, now-15m).`);
      return sql`${value.toISOString()}::timestamptz`;
    }
    case 'ip': {
      const value = parseIpValue(text);
      if (value === null || value.prefix !== null)
        badValue(term, `"${printable(text, 60)}" is not an address to compare with.`);
      return sql`${value.address}::inet`;
    }
    default:
      throw new SearchCompileError(
        term.start,
        term.end,
        `Field "${target.name}" (${target.field.type}) cannot be compared or ranged.`,
        'type_mismatch',
      );
  }
}

/** `field: term`. */
function termCondition(term: Term, target: ResolvedField, context: Context): SqlFragment {
  switch (target.field.type) {
    case 'keyword': {
      if (wildcarded(term)) {
        literalText(term);
        const pattern = likePattern(term, false);
        return withTextPrefilter(
          context,
          target.name,
          likePattern(term, true),
          onField(target, (column) => likeMatch(column, pattern)),
        );
      }
      const text = literalText(term);
      const key = keywordKeys[target.name]?.(text) ?? text;
      if (storedLowerCase[context.kind]?.has(target.name))
        return onField(target, (column) => sql`${column} = lower(${key}::text)`);
      return onField(target, (column) => sql`lower(${column}) = lower(${key}::text)`);
    }
    case 'text': {
      literalText(term);
      const pattern = likePattern(term, true);
      return withTextPrefilter(
        context,
        target.name,
        pattern,
        onField(target, (column) => likeMatch(column, pattern)),
      );
    }
    case 'ip': {
      noWildcard(term, target);
      const text = literalText(term);
      const value = parseIpValue(text);
      if (value === null) badValue(term, `"${printable(text, 60)}" is not an IP address or CIDR block.`);
      const block = value.prefix === null ? value.address : `${value.address}/${value.prefix}`;
      return onField(target, (column) => sql`${column} <<= ${block}::inet`);
    }
    case 'number':
    case 'time':
      // A number, or one instant exactly (a date alone is its midnight UTC), as the query language says.
      return onField(target, (column) => sql`${column} = ${typedValue(term, target, context)}`);
    case 'boolean': {
      noWildcard(term, target);
      const text = literalText(term).toLowerCase();
      if (text !== 'true' && text !== 'false') badValue(term, 'A yes-or-no field takes true or false.');
      return onField(target, (column) => sql`${column} = ${text === 'true'}::boolean`);
    }
  }
}

function valueCondition(value: ValueExpr, target: ResolvedField, context: Context): SqlFragment {
  switch (value.type) {
    case 'value':
      return termCondition(value, target, context);
    case 'valueOr':
      return anyOf(value.items.map((item) => valueCondition(item, target, context)));
    case 'valueAnd':
      return allOf(value.items.map((item) => valueCondition(item, target, context)));
    case 'valueNot':
      return not(valueCondition(value.item, target, context));
  }
}

/** `field: *`: a value that is not null, not empty text, not an empty list. */
function existsCondition(target: ResolvedField): SqlFragment {
  const parts = target.columns.map((column) => {
    if (target.field.many) return sql`cardinality(${column}) > 0`;
    if (target.field.type === 'keyword' || target.field.type === 'text') return sql`${column} <> ''`;
    return sql`${column} IS NOT NULL`;
  });
  return anyOf(parts);
}

/** A word with no field: contained in any of the kind's free-text fields. */
function freeTextCondition(term: Term, context: Context): SqlFragment {
  literalText(term);
  const pattern = likePattern(term, true);
  const names: readonly string[] = freeTextFields[context.kind];
  const anyField = anyOf(
    names.map((name) => {
      const target = { name, ...fieldColumns(context.kind, name)! };
      return onField(target, (column) => likeMatch(column, pattern));
    }),
  );
  return withTextPrefilter(context, null, pattern, anyField);
}

function nodeCondition(node: QueryNode, context: Context): SqlFragment {
  switch (node.type) {
    case 'and':
      return allOf(node.children.map((child) => nodeCondition(child, context)));
    case 'or':
      return anyOf(node.children.map((child) => nodeCondition(child, context)));
    case 'not':
      return not(nodeCondition(node.child, context));
    case 'match':
      return valueCondition(node.value, resolve(node.field, context), context);
    case 'compare': {
      const target = resolve(node.field, context);
      const value = typedValue(node.value, target, context);
      return onField(target, (column) => sql`${column} ${comparisons[node.op]} ${value}`);
    }
    case 'range': {
      const target = resolve(node.field, context);
      const from = node.from && typedValue(node.from, target, context);
      const to = node.to && typedValue(node.to, target, context);
      return onField(target, (column) => {
        const bounds = [...(from ? [sql`${column} >= ${from}`] : []), ...(to ? [sql`${column} <= ${to}`] : [])];
        return bounds.length === 0 ? sql`${column} IS NOT NULL` : allOf(bounds);
      });
    }
    case 'exists':
      return existsCondition(resolve(node.field, context));
    case 'text':
      return freeTextCondition(node.value, context);
  }
}

/**
 * The WHERE condition a checked query makes on the rows of `kind` (`TRUE` for the empty query).
 * Relative times (`now-15m`) count from `now`. Throws SearchCompileError, at its place in the
 * query, for what checkQuery let through but cannot be compiled.
 */
export function compileSearchQuery(ast: QueryNode | null, kind: SearchKind, now: Date): SqlFragment {
  return ast === null ? sql`TRUE` : nodeCondition(ast, { kind, now });
}
