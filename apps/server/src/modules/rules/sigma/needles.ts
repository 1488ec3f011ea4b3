/*
 * Needles: what the prefilter looks for. A search's needles are texts of which at least one
 * appears (in lower case) in the text of every event the search matches; null when no such
 * texts are known, and the search must then be run on every event its rule applies to.
 */

export type Needles = readonly string[] | null;

/** How selective needles are: the shorter the shortest, the more events carry one. */
function score(needles: readonly string[]): number {
  return needles.reduce((min, n) => Math.min(min, n.length), Infinity) * 1000 - Math.min(needles.length, 999);
}

/** Needles of a search that needs all of its parts: any one part's needles will do; the best is kept. */
export function allOf(parts: readonly Needles[]): Needles {
  let best: Needles = null;
  for (const part of parts) {
    if (part !== null && part.length > 0 && (best === null || score(part) > score(best))) best = part;
  }
  return best;
}

/** Needles of a search that needs any one of its parts: every part must have needles. */
export function anyOf(parts: readonly Needles[]): Needles {
  if (parts.length === 0) return null;
  const out = new Set<string>();
  for (const part of parts) {
    if (part === null || part.length === 0) return null;
    for (const needle of part) out.add(needle);
  }
  return [...out];
}

/** A needle from literal text: lower case; empty text is no needle. */
export const needleOf = (literal: string | null): Needles =>
  literal === null || literal === '' ? null : [literal.toLowerCase()];
