import { allOf, anyOf, type Needles } from './needles';
import { SigmaRefusal } from './types';

/*
 * A regular-expression engine whose time is linear in the length of the text: the pattern is
 * compiled to a Thompson automaton and run as a Pike machine, every thread in step, so no text
 * can make it backtrack. It answers only whether the pattern occurs in the text (`test`), which is
 * all a rule asks. It reads the JavaScript syntax without the `u` flag — literals, escapes, `.`,
 * classes, groups, alternation, greedy and lazy quantifiers, `^`, `$`, `\b`, `\B` — with the flags
 * i, m and s; lookarounds and backreferences, which no automaton can run, are refused.
 */

type CharTest = (c: number) => boolean;
type AssertKind = 'bol' | 'eol' | 'word' | 'notword';

type Node =
  /** `lit`: the character code of a literal, which the prefilter's needles are made of. */
  | { t: 'char'; test: CharTest; lit?: number }
  | { t: 'assert'; kind: AssertKind }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number };

type Inst =
  | { op: 'char'; test: CharTest }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'assert'; kind: AssertKind }
  | { op: 'match' };

const MAX_PROGRAM = 50_000;
const MAX_COUNT = 1_000;

const isLineEnd = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

const lower = (c: number) => String.fromCharCode(c).toLowerCase().charCodeAt(0);
const upper = (c: number) => String.fromCharCode(c).toUpperCase().charCodeAt(0);

class Parser {
  private at = 0;
  constructor(
    private readonly source: string,
    private readonly ignoreCase: boolean,
    private readonly dotAll: boolean,
  ) {}

  private refuse(why: string): never {
    throw new SigmaRefusal(`regular expression '${this.source}' ${why}`);
  }

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) this.refuse(`does not compile: unmatched ')'`);
    return node;
  }

  private folded(test: CharTest): CharTest {
    return this.ignoreCase ? (c) => test(c) || test(lower(c)) || test(upper(c)) : test;
  }

  private literal(code: number): CharTest {
    if (!this.ignoreCase) return (c) => c === code;
    const l = lower(code);
    const u = upper(code);
    return (c) => c === code || c === l || c === u || lower(c) === l;
  }

  private alternation(): Node {
    const items = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { t: 'seq', items };
  }

  /** `{n}`, `{n,}`, `{n,m}` at the current place, or null when the brace is a plain character. */
  private braces(): { min: number; max: number; length: number } | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
    if (m === null) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (max < min) this.refuse('does not compile: numbers out of order in {} quantifier');
    if (min > MAX_COUNT || (max !== Infinity && max > MAX_COUNT)) {
      this.refuse(`repeats something more than ${MAX_COUNT} times, which is not supported`);
    }
    return { min, max, length: m[0].length };
  }

  private quantified(node: Node): Node {
    const c = this.source[this.at];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const braces = this.braces();
      if (braces === null) return node;
      this.at += braces.length;
      ({ min, max } = braces);
    } else return node;
    if (node.t === 'assert') this.refuse('does not compile: nothing to repeat');
    // Lazy and greedy repetitions find the same texts.
    if (this.source[this.at] === '?') this.at++;
    if ('*+?'.includes(this.source[this.at] ?? '') && this.source[this.at] !== undefined) {
      this.refuse('does not compile: nothing to repeat');
    }
    return { t: 'rep', node, min, max };
  }

  private atom(): Node {
    const s = this.source;
    const c = s[this.at]!;
    this.at++;
    switch (c) {
      case '(': {
        if (s[this.at] === '?') {
          const rest = s.slice(this.at);
          if (rest.startsWith('?:')) this.at += 2;
          else if (/^\?<[A-Za-z_$][\w$]*>/.test(rest)) this.at = s.indexOf('>', this.at) + 1;
          else if (/^\?(=|!|<=|<!)/.test(rest)) this.refuse('uses a lookaround, which is not supported');
          else this.refuse('does not compile: invalid group');
        }
        const inner = this.alternation();
        if (s[this.at] !== ')') this.refuse('does not compile: unterminated group');
        this.at++;
        return inner;
      }
      case '[':
        return { t: 'char', test: this.folded(this.charClass()) };
      case '.':
        return { t: 'char', test: this.dotAll ? () => true : not(isLineEnd) };
      case '^':
        return { t: 'assert', kind: 'bol' };
      case '$':
        return { t: 'assert', kind: 'eol' };
      case '*':
      case '+':
      case '?':
        return this.refuse('does not compile: nothing to repeat');
      case '{':
        if (this.braces() !== null) this.refuse('does not compile: nothing to repeat');
        return { t: 'char', test: this.literal(c.charCodeAt(0)), lit: c.charCodeAt(0) };
      case '\\':
        return this.escape(false) as Node;
      default:
        return { t: 'char', test: this.literal(c.charCodeAt(0)), lit: c.charCodeAt(0) };
    }
  }

  /** The escape after a backslash: an assertion (outside classes), a class or one character. */
  private escape(inClass: boolean): Node | CharTest | number {
    const s = this.source;
    const c = s[this.at];
    if (c === undefined) this.refuse('does not compile: \\ at end of pattern');
    this.at++;
    switch (c) {
      case 'd':
        return inClass ? isDigit : { t: 'char', test: isDigit };
      case 'D':
        return inClass ? not(isDigit) : { t: 'char', test: not(isDigit) };
      case 'w':
        return inClass ? isWord : { t: 'char', test: this.folded(isWord) };
      case 'W':
        return inClass ? not(isWord) : { t: 'char', test: this.folded(not(isWord)) };
      case 's':
        return inClass ? isSpace : { t: 'char', test: isSpace };
      case 'S':
        return inClass ? not(isSpace) : { t: 'char', test: not(isSpace) };
      case 'b':
        return inClass ? 8 : { t: 'assert', kind: 'word' };
      case 'B':
        return inClass ? 66 : { t: 'assert', kind: 'notword' };
      case 'k':
        return this.refuse('uses a backreference, which is not supported');
    }
    let code: number;
    if (/[1-9]/.test(c!)) this.refuse('uses a backreference, which is not supported');
    const simple: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, '0': 0 };
    const hex = (length: number) => {
      const digits = s.slice(this.at, this.at + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) return null;
      this.at += length;
      return parseInt(digits, 16);
    };
    if (Object.hasOwn(simple, c!)) code = simple[c!]!;
    else if (c === 'x') code = hex(2) ?? 120;
    else if (c === 'u') code = hex(4) ?? 117;
    else if (c === 'c' && /[A-Za-z]/.test(s[this.at] ?? '')) code = s.charCodeAt(this.at++) % 32;
    else code = c!.charCodeAt(0);
    return inClass ? code : { t: 'char', test: this.literal(code), lit: code };
  }

  private charClass(): CharTest {
    const s = this.source;
    const negated = s[this.at] === '^';
    if (negated) this.at++;
    const tests: CharTest[] = [];
    const ranges: [number, number][] = [];
    while (this.at < s.length && s[this.at] !== ']') {
      const start = this.classAtom();
      if (s[this.at] === '-' && s[this.at + 1] !== ']' && this.at + 1 < s.length && typeof start === 'number') {
        this.at++;
        const end = this.classAtom();
        if (typeof end !== 'number') {
          tests.push(end);
          ranges.push([start, start], [45, 45]);
        } else {
          if (end < start) this.refuse('does not compile: range out of order in character class');
          ranges.push([start, end]);
        }
      } else if (typeof start === 'number') ranges.push([start, start]);
      else tests.push(start);
    }
    if (s[this.at] !== ']') this.refuse('does not compile: unterminated character class');
    this.at++;
    const inRanges = (c: number) => {
      for (const [a, b] of ranges) if (c >= a && c <= b) return true;
      return false;
    };
    const test: CharTest = (c) => inRanges(c) || tests.some((t) => t(c));
    if (!negated) return test;
    // A negated class under i must not match a character whose other case is in the class.
    return this.ignoreCase ? (c) => !test(c) && !test(lower(c)) && !test(upper(c)) : not(test);
  }

  private classAtom(): number | CharTest {
    const c = this.source[this.at]!;
    this.at++;
    if (c !== '\\') return c.charCodeAt(0);
    return this.escape(true) as number | CharTest;
  }
}

function compileNode(node: Node, prog: Inst[], source: string): void {
  if (prog.length > MAX_PROGRAM) {
    throw new SigmaRefusal(`regular expression '${source}' is too large to run (over ${MAX_PROGRAM} steps)`);
  }
  switch (node.t) {
    case 'char':
      prog.push({ op: 'char', test: node.test });
      return;
    case 'assert':
      prog.push({ op: 'assert', kind: node.kind });
      return;
    case 'seq':
      for (const item of node.items) compileNode(item, prog, source);
      return;
    case 'alt': {
      const jumps: { op: 'jmp'; x: number }[] = [];
      node.items.forEach((item, i) => {
        if (i < node.items.length - 1) {
          const split: Inst = { op: 'split', x: prog.length + 1, y: 0 };
          prog.push(split);
          compileNode(item, prog, source);
          const jmp = { op: 'jmp' as const, x: 0 };
          prog.push(jmp);
          jumps.push(jmp);
          split.y = prog.length;
        } else compileNode(item, prog, source);
      });
      for (const jmp of jumps) jmp.x = prog.length;
      return;
    }
    case 'rep': {
      for (let i = 0; i < node.min; i++) compileNode(node.node, prog, source);
      if (node.max === Infinity) {
        const split: Inst = { op: 'split', x: prog.length + 1, y: 0 };
        const loop = prog.length;
        prog.push(split);
        compileNode(node.node, prog, source);
        prog.push({ op: 'jmp', x: loop });
        split.y = prog.length;
        return;
      }
      const splits: { op: 'split'; x: number; y: number }[] = [];
      for (let i = node.min; i < node.max; i++) {
        const split = { op: 'split' as const, x: prog.length + 1, y: 0 };
        prog.push(split);
        splits.push(split);
        compileNode(node.node, prog, source);
      }
      for (const split of splits) split.y = prog.length;
      return;
    }
  }
}

/**
 * Texts (lower case) of which one occurs in every text the pattern matches, or null: runs of
 * literal ASCII characters, the most selective of a sequence's, any of an alternation's.
 */
function needlesOf(node: Node): Needles {
  switch (node.t) {
    case 'char':
      return node.lit !== undefined && node.lit < 128 ? [[String.fromCharCode(node.lit).toLowerCase()]] : null;
    case 'assert':
      return null;
    case 'alt':
      return anyOf(node.items.map(needlesOf));
    case 'rep':
      return node.min >= 1 ? needlesOf(node.node) : null;
    case 'seq': {
      const candidates: Needles[] = [];
      let run = '';
      const flush = () => {
        if (run !== '') candidates.push([[run]]);
        run = '';
      };
      for (const item of node.items) {
        if (item.t === 'char' && item.lit !== undefined && item.lit < 128)
          run += String.fromCharCode(item.lit).toLowerCase();
        else {
          flush();
          candidates.push(needlesOf(item));
        }
      }
      flush();
      return allOf(candidates);
    }
  }
}

/** A compiled pattern that tells, in linear time, whether it occurs in a text. */
export class LinearRegex {
  private readonly prog: Inst[];
  private readonly multiline: boolean;
  /** Texts of which one occurs (in lower case) in every text the pattern matches; null when none are known. */
  readonly needles: Needles;

  constructor(source: string, flags: { i: boolean; m: boolean; s: boolean }) {
    const tree = new Parser(source, flags.i, flags.s).parse();
    this.needles = needlesOf(tree);
    this.prog = [];
    compileNode(tree, this.prog, source);
    this.prog.push({ op: 'match' });
    this.multiline = flags.m;
  }

  private holds(kind: AssertKind, text: string, pos: number): boolean {
    switch (kind) {
      case 'bol':
        return pos === 0 || (this.multiline && isLineEnd(text.charCodeAt(pos - 1)));
      case 'eol':
        return pos === text.length || (this.multiline && isLineEnd(text.charCodeAt(pos)));
      case 'word':
      case 'notword': {
        const before = pos > 0 && isWord(text.charCodeAt(pos - 1));
        const after = pos < text.length && isWord(text.charCodeAt(pos));
        return (before !== after) === (kind === 'word');
      }
    }
  }

  test(text: string): boolean {
    const prog = this.prog;
    const size = prog.length;
    const marks = new Int32Array(size).fill(-1);
    let current = new Int32Array(size);
    let next = new Int32Array(size);
    let currentCount = 0;
    const stack = new Int32Array(size * 2 + 2);
    // Adds the thread at pc and every thread its free moves reach, for position pos; true on a match.
    const add = (list: Int32Array, count: number, pc: number, pos: number, generation: number): number => {
      let top = 0;
      stack[top++] = pc;
      while (top > 0) {
        const at = stack[--top]!;
        if (marks[at] === generation) continue;
        marks[at] = generation;
        const inst = prog[at]!;
        switch (inst.op) {
          case 'match':
            return -1;
          case 'jmp':
            stack[top++] = inst.x;
            break;
          case 'split':
            stack[top++] = inst.y;
            stack[top++] = inst.x;
            break;
          case 'assert':
            if (this.holds(inst.kind, text, pos)) stack[top++] = at + 1;
            break;
          case 'char':
            list[count++] = at;
            break;
        }
      }
      return count;
    };
    currentCount = add(current, 0, 0, 0, 0);
    if (currentCount < 0) return true;
    for (let pos = 0; pos < text.length; pos++) {
      const c = text.charCodeAt(pos);
      const generation = pos + 1;
      let nextCount = 0;
      for (let k = 0; k < currentCount; k++) {
        const inst = prog[current[k]!] as { op: 'char'; test: CharTest };
        if (inst.test(c)) {
          nextCount = add(next, nextCount, current[k]! + 1, pos + 1, generation);
          if (nextCount < 0) return true;
        }
      }
      // A match may also start at the next position.
      nextCount = add(next, nextCount, 0, pos + 1, generation);
      if (nextCount < 0) return true;
      [current, next] = [next, current];
      currentCount = nextCount;
    }
    return false;
  }
}
