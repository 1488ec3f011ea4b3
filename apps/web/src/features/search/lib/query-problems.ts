import { checkQuery, parseQuery, type QueryProblem, type SearchKind } from '@vigil/contract/query';

/** The first problem of a query for the kinds chosen (parse, then fields and values), or null when it can run. */
export function queryProblem(query: string, kinds: readonly SearchKind[]): QueryProblem | null {
  const parsed = parseQuery(query);
  if (!parsed.ok) return parsed.problem;
  if (parsed.ast === null || kinds.length === 0) return null;
  return checkQuery(parsed.ast, kinds)[0] ?? null;
}

/** The word being typed at the cursor, where a field name may start: its text and where it starts. */
export function wordAtCursor(query: string, cursor: number): { word: string; start: number } | null {
  let start = cursor;
  while (start > 0 && /[\p{L}\p{N}_.]/u.test(query[start - 1]!)) start--;
  const word = query.slice(start, cursor);
  // A field name starts a term: after the start, a space, or an opening parenthesis.
  if (start > 0 && !/[\s(]/.test(query[start - 1]!)) return null;
  return { word, start };
}

/** After `field:` (and spaces), the field whose value is being typed and the value so far. */
export function valueAtCursor(query: string, cursor: number): { field: string; typed: string; start: number } | null {
  const before = query.slice(0, cursor);
  const match = /(?:^|[\s(])([\p{L}\p{N}_.]+)\s*:\s*([^\s():"]*)$/u.exec(before);
  if (!match) return null;
  return { field: match[1]!, typed: match[2]!, start: cursor - match[2]!.length };
}
