import { searchKinds, type SearchKind } from '@vigil/contract/query';

/** A whole search as the URL holds it, so a search can be shared by its address. */
export interface SearchState {
  kinds: SearchKind[];
  query: string;
  /** ISO instants; absent means the default window (the last 24 hours, ending now). */
  from: string | undefined;
  to: string | undefined;
}

/** The window a search without times covers. */
export const DEFAULT_WINDOW_MS = 24 * 60 * 60 * 1000;

const isKind = (value: string): value is SearchKind => (searchKinds as readonly string[]).includes(value);
const isInstant = (value: string | null): value is string => value !== null && !Number.isNaN(Date.parse(value));

/** Reads `?kind=network&kind=endpoint&q=…&from=…&to=…`; unknown kinds and bad times are left out, kinds in a fixed order. */
export function readSearchState(params: URLSearchParams): SearchState {
  const named = new Set(params.getAll('kind').filter(isKind));
  const kinds = searchKinds.filter((kind) => named.has(kind));
  const from = params.get('from');
  const to = params.get('to');
  return {
    kinds: kinds.length > 0 ? kinds : ['network', 'endpoint'],
    query: params.get('q') ?? '',
    from: isInstant(from) ? from : undefined,
    to: isInstant(to) ? to : undefined,
  };
}

/** The URL query of a search (kinds in a fixed order, so one search has one address). */
export function writeSearchState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  for (const kind of searchKinds) if (state.kinds.includes(kind)) params.append('kind', kind);
  if (state.query) params.set('q', state.query);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  return params;
}

/** The time range a search runs over: the URL's, or the default window ending `now`. */
export function effectiveRange(state: SearchState, now: number): { from: string; to: string } {
  const to = state.to ?? new Date(now).toISOString();
  const from = state.from ?? new Date(Date.parse(to) - DEFAULT_WINDOW_MS).toISOString();
  return { from, to };
}

/** A value as the query language reads it back: bare when it can be, else quoted with escapes. */
export function written(value: string): string {
  const plain = /^[^\s"():<>[\]{}\\*?]+$/.test(value) && !/^(and|or|not|to)$/i.test(value);
  return plain ? value : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The query with `field: value` added (and-ed), quoting the value when it needs it: a pivot from a result. */
export function withTerm(query: string, field: string, value: string): string {
  return withPart(query, `${field}: ${written(value)}`);
}

/** The query with a value to find in any text field added (and-ed), quoted when it needs it. */
export function withText(query: string, value: string): string {
  return withPart(query, written(value));
}

function withPart(query: string, term: string): string {
  const trimmed = query.trim();
  if (!trimmed) return term;
  // An `or` at the top would bind the new term to its last part only: parenthesise what was there.
  return /\bor\b/i.test(trimmed) ? `(${trimmed}) and ${term}` : `${trimmed} and ${term}`;
}
