import { allOf, anyOf, type Needles } from './needles';
import { SigmaRefusal, type EventView } from './types';

/*
 * The condition of a rule: search names joined by `and`, `or`, `not` and parentheses, and the
 * quantifiers `1 of name*`, `all of name*`, `1 of them`, `all of them` (`them` leaves out names
 * starting with an underscore). `not` binds tighter than `and`, `and` tighter than `or`.
 */

export interface CompiledSearch {
  test(view: EventView): boolean;
  readonly needles: Needles;
}

export interface CompiledCondition {
  test(view: EventView): boolean;
  readonly needles: Needles;
}

type Token = { kind: 'word'; text: string } | { kind: '(' | ')' };

function tokenize(condition: string): Token[] {
  if (condition.includes('|')) {
    throw new SigmaRefusal('aggregations in the condition (`| count() …`) need correlation, which is not supported');
  }
  const tokens: Token[] = [];
  const re = /\s*(\(|\)|[^\s()]+)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(condition)) !== null) {
    const t = m[1]!;
    tokens.push(t === '(' || t === ')' ? { kind: t } : { kind: 'word', text: t });
    end = re.lastIndex;
  }
  if (condition.slice(end).trim() !== '') throw new SigmaRefusal(`the condition '${condition}' does not parse`);
  return tokens;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'of', 'them']);

/** Search names a pattern (`selection_*`, `them`) stands for. */
function namesFor(pattern: string, searches: ReadonlyMap<string, CompiledSearch>, condition: string): string[] {
  const names = [...searches.keys()];
  let found: string[];
  if (pattern === 'them') found = names.filter((n) => !n.startsWith('_'));
  else if (pattern.includes('*')) {
    const prefixRe = new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    found = names.filter((n) => prefixRe.test(n));
  } else found = searches.has(pattern) ? [pattern] : [];
  if (found.length === 0) {
    throw new SigmaRefusal(`the condition '${condition}' names '${pattern}', which matches no search of the detection`);
  }
  return found;
}

/** Parses and compiles one condition over the compiled searches. */
export function compileCondition(condition: string, searches: ReadonlyMap<string, CompiledSearch>): CompiledCondition {
  const tokens = tokenize(condition);
  let at = 0;
  const fail = (what: string): never => {
    throw new SigmaRefusal(`the condition '${condition}' does not parse: ${what}`);
  };
  const word = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toLowerCase() : null);

  function orExpr(): CompiledCondition {
    const parts = [andExpr()];
    while (word(tokens[at]) === 'or') {
      at++;
      parts.push(andExpr());
    }
    return parts.length === 1 ? parts[0]! : or(parts);
  }
  function andExpr(): CompiledCondition {
    const parts = [notExpr()];
    while (word(tokens[at]) === 'and') {
      at++;
      parts.push(notExpr());
    }
    return parts.length === 1 ? parts[0]! : and(parts);
  }
  function notExpr(): CompiledCondition {
    if (word(tokens[at]) === 'not') {
      at++;
      const inner = notExpr();
      return { test: (view) => !inner.test(view), needles: null };
    }
    return atom();
  }
  function atom(): CompiledCondition {
    const token = tokens[at];
    if (token === undefined) return fail('it ends too early');
    if (token.kind === '(') {
      at++;
      const inner = orExpr();
      if (tokens[at]?.kind !== ')') fail('a parenthesis is not closed');
      at++;
      return inner;
    }
    if (token.kind !== 'word') return fail('a closing parenthesis has no opening one');
    const text = token.text;
    const lower = text.toLowerCase();
    if (word(tokens[at + 1]) === 'of') {
      const pattern = tokens[at + 2];
      if (pattern?.kind !== 'word') return fail(`'${text} of' names nothing`);
      at += 3;
      const selected = namesFor(pattern.text, searches, condition).map((n) => searches.get(n)!);
      if (lower === 'all') return and(selected);
      if (lower === 'any' || lower === '1') return or(selected);
      if (/^\d+$/.test(lower) && Number(lower) > 0) return atLeast(Number(lower), selected);
      return fail(`'${text} of' is not a quantifier (1 of, all of)`);
    }
    if (KEYWORDS.has(lower)) return fail(`'${text}' is out of place`);
    at++;
    const search = searches.get(text);
    if (search === undefined) {
      throw new SigmaRefusal(`the condition '${condition}' names '${text}', which is not a search of the detection`);
    }
    return search;
  }

  const result = orExpr();
  if (at < tokens.length)
    fail(`unexpected '${tokens[at]!.kind === 'word' ? (tokens[at] as { text: string }).text : tokens[at]!.kind}'`);
  return result;
}

function and(parts: readonly CompiledCondition[]): CompiledCondition {
  return { test: (view) => parts.every((p) => p.test(view)), needles: allOf(parts.map((p) => p.needles)) };
}

function or(parts: readonly CompiledCondition[]): CompiledCondition {
  return { test: (view) => parts.some((p) => p.test(view)), needles: anyOf(parts.map((p) => p.needles)) };
}

function atLeast(count: number, parts: readonly CompiledCondition[]): CompiledCondition {
  if (count > parts.length) throw new SigmaRefusal(`the condition asks for ${count} of ${parts.length} searches`);
  return {
    test: (view) => {
      let n = 0;
      for (const p of parts) if (p.test(view) && ++n >= count) return true;
      return false;
    },
    // Any one of the searches that match must: the needles of all of them together.
    needles: anyOf(parts.map((p) => p.needles)),
  };
}
