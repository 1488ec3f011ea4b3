/*
 * Needles: what the prefilter looks for. A search's needles are clauses, all of which hold in the
 * text (in lower case) of every event the search matches: each clause lists texts of which at
 * least one appears. `[['\\powershell.exe'], ['-enc', '-encodedcommand']]` reads "powershell.exe,
 * and -enc or -encodedcommand". Null when no such texts are known: the search must then be run on
 * every event its rule applies to. The engine looks for every needle of every clause at once, and
 * evaluates a rule only on events where each of its clauses has a needle present.
 */

export type Clause = readonly string[];
export type Needles = readonly Clause[] | null;

/** Clauses kept per search: more would cost memory and checks for little more selectivity. */
const MAX_CLAUSES = 8;
/** Needles of one clause: a clause longer than this is not worth its entries in the automaton. */
const MAX_CLAUSE_NEEDLES = 200;

/** How selective a clause is: the shorter its shortest needle and the more needles, the more events carry one. */
function score(clause: Clause): number {
  return clause.reduce((min, n) => Math.min(min, n.length), Infinity) * 1000 - Math.min(clause.length, 999);
}

const key = (clause: Clause) => [...clause].sort().join('\u0000');

/**
 * The most selective clauses, distinct, at most MAX_CLAUSES. A clause of one-character needles is
 * kept too: it brings in no rule (the engine triggers on rarer clauses), but it spares the costly
 * evaluation of a rule on the many events that lack all of its characters.
 */
function best(clauses: readonly Clause[]): Needles {
  const distinct = new Map<string, Clause>();
  for (const clause of clauses) if (clause.length > 0) distinct.set(key(clause), clause);
  if (distinct.size === 0) return null;
  return [...distinct.values()].sort((a, b) => score(b) - score(a)).slice(0, MAX_CLAUSES);
}

/** Needles of a search that needs all of its parts: every part's clauses hold. */
export function allOf(parts: readonly Needles[]): Needles {
  const clauses: Clause[] = [];
  for (const part of parts) if (part !== null) clauses.push(...part);
  return best(clauses);
}

/**
 * Needles of a search that needs any one of its parts: every part must have needles. The clauses
 * are those of the parts' conjunctions multiplied out (one clause of each part, joined), kept to
 * the most selective when there would be too many.
 */
export function anyOf(parts: readonly Needles[]): Needles {
  if (parts.length === 0) return null;
  let product: string[][] = [[]];
  for (const part of parts) {
    if (part === null || part.length === 0) return null;
    // Each part's best clauses first; as many as keep the product within MAX_CLAUSES.
    const room = Math.max(1, Math.floor(MAX_CLAUSES / product.length));
    const next: string[][] = [];
    for (const clause of part.slice(0, room)) for (const joined of product) next.push([...joined, ...clause]);
    product = next;
  }
  const clauses = product
    .map((clause) => [...new Set(clause)])
    .filter((clause) => clause.length <= MAX_CLAUSE_NEEDLES || product.length === 1);
  return best(clauses.length > 0 ? clauses : [[...new Set(product[0]!)]]);
}

/** A needle from literal text: lower case; empty text is no needle. */
export const needleOf = (literal: string | null): Needles =>
  literal === null || literal === '' ? null : [[literal.toLowerCase()]];
