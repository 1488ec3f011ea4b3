/**
 * The search query language's syntax tree (docs/query-language.md). Every node and value keeps where
 * it stands in the query text (`start` inclusive, `end` exclusive, 0-based UTF-16 offsets), so a
 * problem found after parsing (an unknown field, a value of the wrong type) is reported at its place.
 */

/** A piece of a term: literal text (escapes already resolved) or a wildcard of a bare term. */
export type TermPart = { literal: string } | { wildcard: '*' | '?' };

/** A value as written: a bare word (which may hold wildcards) or a quoted phrase (never wildcards). */
export interface Term {
  parts: TermPart[];
  quoted: boolean;
  start: number;
  end: number;
}

/** The right side of `field: …`: one term, or terms combined in parentheses, e.g. `port: (80 or 443)`. */
export type ValueExpr =
  | ({ type: 'value' } & Term)
  | { type: 'valueOr' | 'valueAnd'; items: ValueExpr[]; start: number; end: number }
  | { type: 'valueNot'; item: ValueExpr; start: number; end: number };

export type CompareOp = '>' | '>=' | '<' | '<=';

/** Where a field name stands in the query. */
export interface FieldRef {
  name: string;
  start: number;
  end: number;
}

export type QueryNode =
  | { type: 'and' | 'or'; children: QueryNode[]; start: number; end: number }
  | { type: 'not'; child: QueryNode; start: number; end: number }
  /** `field: value` or `field: (a or b)`. */
  | { type: 'match'; field: FieldRef; value: ValueExpr; start: number; end: number }
  /** `field > value` and the other comparisons. */
  | { type: 'compare'; field: FieldRef; op: CompareOp; value: Term; start: number; end: number }
  /** `field: [from to to]`; either end may be `*` (open). Both ends are included. */
  | { type: 'range'; field: FieldRef; from: Term | null; to: Term | null; start: number; end: number }
  /** `field: *`: the field has a value. */
  | { type: 'exists'; field: FieldRef; start: number; end: number }
  /** A word or phrase with no field: searched in the kind's free-text fields. */
  | { type: 'text'; value: Term; start: number; end: number };

/** A problem with a query, at a place in its text. */
export interface QueryProblem {
  /** 0-based offset of the first character at fault (the text's length when the query ends too soon). */
  position: number;
  /** Where the problem ends (exclusive), for underlining; equal to `position` when it is a point. */
  end: number;
  /** What is wrong and what was expected, in English (the console words it in the interface language by `code`). */
  message: string;
  /** A stable name of the problem for the console's own words, with `detail` values for its placeholders. */
  code: QueryProblemCode;
  detail?: Record<string, string>;
}

export type QueryProblemCode =
  | 'unexpected_end'
  | 'unexpected_token'
  | 'unclosed_quote'
  | 'unclosed_paren'
  | 'bad_escape'
  | 'empty_query'
  | 'unknown_field'
  | 'type_mismatch'
  | 'bad_value'
  | 'wildcard_not_allowed'
  | 'too_complex';

/** The text of a term with wildcards written back (`*`, `?`), for messages and for the console. */
export function termText(term: Pick<Term, 'parts'>): string {
  return term.parts.map((part) => ('literal' in part ? part.literal : part.wildcard)).join('');
}

/** Whether a term holds a wildcard. */
export function hasWildcard(term: Pick<Term, 'parts'>): boolean {
  return term.parts.some((part) => 'wildcard' in part);
}
