import type { Needles } from './needles';
import { LinearRegex } from './regex-vm';
import { SigmaRefusal } from './types';

/*
 * Regular expressions of rules run on every event they apply to, in the ingest path, so no value
 * may make one run long. JavaScript's own engine backtracks: a pattern that repeats something
 * which can itself match the same text in several ways — `(a+)+`, `(\w*)*`, `(a|ab)+`, `(.*\))+`
 * — takes time exponential in the length of the text, and even a plain `.+x.+y` takes time
 * polynomial in it (each wide repetition multiplies the work by the length).
 *
 * So every pattern also gets a linear-time automaton (regex-vm.ts), and the two are used as
 * follows: a pattern whose repetitions could explode is only ever run on the automaton; any other
 * runs on JavaScript's engine for values short enough that its worst case stays within a fixed
 * budget of steps (the budget's root of degree "wide repetitions + 1"), and on the automaton for
 * longer ones. The answer is the same either way; only the time differs. A pattern the automaton
 * cannot run (lookarounds, backreferences) is refused.
 */

/** Steps JavaScript's engine may take at worst on one value before the automaton is used instead. */
const STEP_BUDGET = 2_000_000;
/** Repetitions bounded by at most this many count as constant work. */
const MAX_BOUNDED_REPEAT = 10;

interface GroupState {
  repeats: boolean;
  /** The first atom of each alternative so far: a character, or null for anything wider. */
  firsts: (string | null)[];
  atAlternativeStart: boolean;
}

/** What the patterns' repetitions can cost on the backtracking engine. */
export interface RegexRisk {
  /** A repeated group that repeats or offers overlapping alternatives: time exponential in the text. */
  readonly exponential: boolean;
  /** Repetitions without a small bound: the degree of the worst-case polynomial, less one. */
  readonly wide: number;
}

/** The quantifier at `i`, if any: its length and whether it repeats without a small bound. */
function quantifierAt(pattern: string, i: number): { length: number; wide: boolean } | null {
  const c = pattern[i];
  if (c === '*' || c === '+') return { length: pattern[i + 1] === '?' ? 2 : 1, wide: true };
  if (c === '?') return { length: pattern[i + 1] === '?' ? 2 : 1, wide: false };
  if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}\??/.exec(pattern.slice(i));
    if (m === null) return null;
    const upper = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    return { length: m[0].length, wide: upper > MAX_BOUNDED_REPEAT };
  }
  return null;
}

/** Reads how a pattern's repetitions could make a backtracking engine work. */
export function regexRisk(pattern: string, ignoreCase: boolean): RegexRisk {
  const stack: GroupState[] = [{ repeats: false, firsts: [], atAlternativeStart: true }];
  let exponential = false;
  let wide = 0;
  const noteAtom = (first: string | null) => {
    const top = stack.at(-1)!;
    if (top.atAlternativeStart) {
      top.firsts.push(first === null ? null : ignoreCase ? first.toLowerCase() : first);
      top.atAlternativeStart = false;
    }
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    let atomEnd = i + 1;
    let closed: GroupState | null = null;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      atomEnd = i + 2;
      if (/[bB]/.test(next)) {
        i = atomEnd;
        continue;
      }
      // \d \w \s and the like are classes; any other escaped character is itself.
      noteAtom(/[dDwWsSpPuxcfnrtv0-9]/.test(next) ? null : next);
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      atomEnd = j + 1;
      noteAtom(null);
    } else if (c === '(') {
      noteAtom(null);
      let j = i + 1;
      if (pattern[j] === '?') {
        const m = /^\?(?:[:=!]|<[=!]|<[A-Za-z_]\w*>)/.exec(pattern.slice(j));
        j += m === null ? 1 : m[0].length;
      }
      stack.push({ repeats: false, firsts: [], atAlternativeStart: true });
      i = j;
      continue;
    } else if (c === ')') {
      if (stack.length === 1) return { exponential: true, wide }; // unbalanced: the compilers say why
      closed = stack.pop()!;
    } else if (c === '|') {
      stack.at(-1)!.atAlternativeStart = true;
      i++;
      continue;
    } else if (c === '^' || c === '$') {
      i++;
      continue;
    } else noteAtom(c === '.' ? null : c);
    const quantifier = quantifierAt(pattern, atomEnd);
    if (quantifier === null) {
      if (closed !== null) stack.at(-1)!.repeats ||= closed.repeats;
      i = atomEnd;
      continue;
    }
    if (quantifier.wide) {
      wide++;
      stack.at(-1)!.repeats = true;
      if (closed !== null) {
        const firsts = closed.firsts;
        const overlapping = firsts.length > 1 && (firsts.includes(null) || new Set(firsts).size < firsts.length);
        if (closed.repeats || overlapping) exponential = true;
      }
    } else if (closed !== null) stack.at(-1)!.repeats ||= closed.repeats;
    i = atomEnd + quantifier.length;
  }
  return { exponential, wide };
}

/** The longest value JavaScript's engine is given for a pattern of this risk; longer ones go to the automaton. */
export function backtrackingLimit(risk: RegexRisk): number {
  if (risk.exponential) return -1;
  if (risk.wide === 0) return Infinity;
  return Math.floor(STEP_BUDGET ** (1 / (risk.wide + 1)));
}

/**
 * A Sigma (PCRE-style) pattern as a test of a text that never runs long; refuses what JavaScript
 * would read differently and what the automaton cannot run.
 */
export function compileSigmaRegex(
  pattern: string,
  flags: { i: boolean; m: boolean; s: boolean },
): { test: (text: string) => boolean; needles: Needles } {
  let source = pattern;
  const f = { ...flags };
  // A leading inline flag group applies to the whole pattern; JavaScript has no such syntax.
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline !== null) {
    if (inline[1]!.includes('x')) {
      throw new SigmaRefusal(`regular expression '${pattern}' uses verbose mode (?x), which is not supported`);
    }
    f.i ||= inline[1]!.includes('i');
    f.m ||= inline[1]!.includes('m');
    f.s ||= inline[1]!.includes('s');
    source = source.slice(inline[0].length);
  }
  if (/\(\?[imsx-]+[:)]/.test(source)) {
    throw new SigmaRefusal(`regular expression '${pattern}' changes flags inside the pattern, which is not supported`);
  }
  if (/\(\?>|[*+?}]\+/.test(source)) {
    throw new SigmaRefusal(
      `regular expression '${pattern}' uses atomic groups or possessive quantifiers, which are not supported`,
    );
  }
  // Python's named groups and anchors in JavaScript's words.
  source = source
    .replaceAll('(?P<', '(?<')
    .replaceAll(/(?<!\\)\\A/g, '^')
    .replaceAll(/(?<!\\)\\Z/g, '$');
  let regex: RegExp;
  try {
    regex = new RegExp(source, `${f.i ? 'i' : ''}${f.m ? 'm' : ''}${f.s ? 's' : ''}`);
  } catch (error) {
    throw new SigmaRefusal(`regular expression '${pattern}' does not compile: ${(error as Error).message}`);
  }
  const linear = new LinearRegex(source, f);
  const limit = backtrackingLimit(regexRisk(source, f.i));
  return {
    test: (text) => (text.length <= limit ? regex.test(text) : linear.test(text)),
    needles: linear.needles,
  };
}
