/*
 * Sigma strings: text with the wildcards `*` (any run of characters) and `?` (one character),
 * where `\*`, `\?` and `\\` stand for the characters themselves and a backslash before anything
 * else is a plain backslash (`C:\Windows` means what it says).
 *
 * Matching never backtracks over the text more than once per segment: the text between two `*`
 * is searched leftmost, which is exact for these wildcards, so a value is matched in time linear
 * in its length times the pattern's.
 */

/** `*` */
export const STAR = 0;
/** `?` */
export const ONE = 1;
/** A piece of a Sigma string: literal text, or a wildcard. */
export type Piece = string | typeof STAR | typeof ONE;

/** Reads a Sigma string into literal pieces and wildcards. */
export function parseSigmaString(raw: string): Piece[] {
  const pieces: Piece[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') pieces.push(literal);
    literal = '';
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      const next = raw[i + 1];
      if (next === '*' || next === '?' || next === '\\') {
        literal += next;
        i++;
      } else literal += c;
    } else if (c === '*' || c === '?') {
      flush();
      // Two stars in a row mean one.
      if (!(c === '*' && pieces.at(-1) === STAR)) pieces.push(c === '*' ? STAR : ONE);
    } else literal += c;
  }
  flush();
  return pieces;
}

export const hasWildcards = (pieces: readonly Piece[]): boolean => pieces.some((p) => typeof p !== 'string');

/** The pieces' literal text (only for pieces without wildcards). */
export const literalOf = (pieces: readonly Piece[]): string => pieces.join('');

/** A run of characters between two `*`: literal characters, `?` written as null. */
type Segment = readonly (string | null)[];

function segmentsOf(pieces: readonly Piece[]): Segment[] {
  const segments: (string | null)[][] = [[]];
  for (const piece of pieces) {
    if (piece === STAR) segments.push([]);
    else if (piece === ONE) segments.at(-1)!.push(null);
    else segments.at(-1)!.push(...piece);
  }
  return segments;
}

function matchAt(text: string, at: number, segment: Segment): boolean {
  for (let k = 0; k < segment.length; k++) {
    const c = segment[k];
    if (c !== null && text[at + k] !== c) return false;
  }
  return true;
}

/** The leftmost place at or after `from`, ending by `limit`, where the segment matches; -1 when none. */
function find(text: string, segment: Segment, from: number, limit: number): number {
  const first = segment[0];
  for (let at = from; at + segment.length <= limit; at++) {
    if (first !== null && first !== undefined) {
      at = text.indexOf(first, at);
      if (at < 0 || at + segment.length > limit) return -1;
    }
    if (matchAt(text, at, segment)) return at;
  }
  return -1;
}

/** A matcher of the whole text against a pattern with wildcards. */
export function globMatcher(pieces: readonly Piece[]): (text: string) => boolean {
  const segments = segmentsOf(pieces);
  const first = segments[0]!;
  if (segments.length === 1) return (text) => text.length === first.length && matchAt(text, 0, first);
  const last = segments.at(-1)!;
  const middle = segments.slice(1, -1).filter((s) => s.length > 0);
  const fixed = first.length + last.length + middle.reduce((n, s) => n + s.length, 0);
  return (text) => {
    if (text.length < fixed || !matchAt(text, 0, first)) return false;
    const end = text.length - last.length;
    if (!matchAt(text, end, last)) return false;
    let at = first.length;
    for (const segment of middle) {
      const found = find(text, segment, at, end);
      if (found < 0) return false;
      at = found + segment.length;
    }
    return true;
  };
}

/**
 * A matcher for a pattern, with the fast cases for plain text, `text*`, `*text` and `*text*`.
 * The text given to it must already be in the case the pattern is in.
 */
export function patternMatcher(pieces: readonly Piece[]): (text: string) => boolean {
  const inner = pieces.slice(pieces[0] === STAR ? 1 : 0, pieces.at(-1) === STAR && pieces.length > 1 ? -1 : undefined);
  if (!hasWildcards(inner)) {
    const literal = literalOf(inner);
    const leading = pieces[0] === STAR;
    const trailing = pieces.length > 1 && pieces.at(-1) === STAR;
    if (leading && trailing) return (text) => text.includes(literal);
    if (leading) return (text) => text.endsWith(literal);
    if (trailing) return (text) => text.startsWith(literal);
    return (text) => text === literal;
  }
  return globMatcher(pieces);
}

/** The longest literal run every match must contain (in the pattern's case); null when none. */
export function longestLiteral(pieces: readonly Piece[]): string | null {
  let best: string | null = null;
  for (const piece of pieces) {
    if (typeof piece === 'string' && (best === null || piece.length > best.length)) best = piece;
  }
  return best;
}

/** The pieces with their literal text in lower case. */
export const lowerPieces = (pieces: readonly Piece[]): Piece[] =>
  pieces.map((p) => (typeof p === 'string' ? p.toLowerCase() : p));
