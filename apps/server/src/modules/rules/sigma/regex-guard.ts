import { SigmaRefusal } from './types';

/*
 * Regular expressions of rules run on every event they apply to, in the ingest path, on the
 * JavaScript engine, which backtracks. A pattern that repeats something which can itself match
 * the same text in more than one way — `(a+)+`, `(\w*)*`, `(a|ab)+`, `(.*,)*` — can take time
 * exponential in the length of the text, and one crafted command line would stall ingest. Such
 * patterns are refused when the rule is compiled, with the reason; everything else runs as
 * written. What is left is at worst polynomial in the length of a value, and values are bounded
 * by the ingest line limit.
 *
 * The check: a group that is repeated without an upper bound (`*`, `+`, `{n,}`) or with a large
 * one (`{n,m}`, m > 10) must not itself contain a repetition, and its alternatives must start
 * with different literal characters.
 */

const MAX_BOUNDED_REPEAT = 10;

interface GroupState {
  repeats: boolean;
  /** The first atom of each alternative so far: a character, or null for anything wider. */
  firsts: (string | null)[];
  atAlternativeStart: boolean;
}

/** The quantifier at `i`, if any: its length and whether it repeats without a small bound. */
function quantifierAt(pattern: string, i: number): { length: number; wide: boolean } | null {
  const c = pattern[i];
  if (c === '*' || c === '+') return { length: pattern[i + 1] === '?' || pattern[i + 1] === '+' ? 2 : 1, wide: true };
  if (c === '?') return { length: pattern[i + 1] === '?' ? 2 : 1, wide: false };
  if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}\??/.exec(pattern.slice(i));
    if (m === null) return null;
    const upper = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    return { length: m[0].length, wide: upper > MAX_BOUNDED_REPEAT };
  }
  return null;
}

function refuse(pattern: string, why: string): never {
  throw new SigmaRefusal(
    `regular expression '${pattern}' ${why}: it could take exponential time on some values, so it is not run (rewrite it without the nested repetition)`,
  );
}

/** Refuses a pattern that could backtrack catastrophically; see the comment above. */
export function checkRegexSafety(pattern: string, ignoreCase: boolean): void {
  const stack: GroupState[] = [{ repeats: false, firsts: [], atAlternativeStart: true }];
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
      // \d \w \s \b and the like are classes; any other escaped character is itself.
      noteAtom(/[dDwWsSbBpPuxcfnrtv0-9]/.test(next) ? null : next);
      if (/[bB]/.test(next)) {
        i = atomEnd;
        continue;
      }
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      atomEnd = j + 1;
      noteAtom(null);
    } else if (c === '(') {
      noteAtom(null);
      let j = i + 1;
      if (pattern[j] === '?') {
        const m = /^\?(?:[:=!]|<[=!]|<[A-Za-z_]\w*>|P<[A-Za-z_]\w*>)/.exec(pattern.slice(j));
        j += m === null ? 1 : m[0].length;
      }
      stack.push({ repeats: false, firsts: [], atAlternativeStart: true });
      i = j;
      continue;
    } else if (c === ')') {
      if (stack.length === 1) return; // unbalanced: the regular expression compiler says so
      closed = stack.pop()!;
    } else if (c === '|') {
      stack.at(-1)!.atAlternativeStart = true;
      i++;
      continue;
    } else if (c === '^' || c === '$') {
      i++;
      continue;
    } else {
      noteAtom(c === '.' ? null : c);
    }
    const quantifier = quantifierAt(pattern, atomEnd);
    if (quantifier === null) {
      if (closed !== null) stack.at(-1)!.repeats ||= closed.repeats;
      i = atomEnd;
      continue;
    }
    if (quantifier.wide) {
      stack.at(-1)!.repeats = true;
      if (closed !== null) {
        if (closed.repeats) refuse(pattern, 'repeats a group that itself repeats');
        const firsts = closed.firsts;
        const overlapping = firsts.includes(null) || new Set(firsts).size < firsts.length;
        if (firsts.length > 1 && overlapping) {
          refuse(pattern, 'repeats a choice whose alternatives can match the same text');
        }
      }
    } else if (closed !== null) stack.at(-1)!.repeats ||= closed.repeats;
    i = atomEnd + quantifier.length;
  }
}

/** A Sigma (PCRE-style) pattern made into a JavaScript one; refuses what JavaScript reads differently. */
export function compileSigmaRegex(pattern: string, flags: { i: boolean; m: boolean; s: boolean }): RegExp {
  let source = pattern;
  let ignoreCase = flags.i;
  let dotAll = flags.s;
  let multiline = flags.m;
  // A leading inline flag group applies to the whole pattern; JavaScript has no such syntax.
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline !== null) {
    if (inline[1]!.includes('x'))
      throw new SigmaRefusal(`regular expression '${pattern}' uses verbose mode (?x), which is not supported`);
    ignoreCase ||= inline[1]!.includes('i');
    multiline ||= inline[1]!.includes('m');
    dotAll ||= inline[1]!.includes('s');
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
  checkRegexSafety(source, ignoreCase);
  try {
    return new RegExp(source, `${ignoreCase ? 'i' : ''}${multiline ? 'm' : ''}${dotAll ? 's' : ''}`);
  } catch (error) {
    throw new SigmaRefusal(`regular expression '${pattern}' does not compile: ${(error as Error).message}`);
  }
}
