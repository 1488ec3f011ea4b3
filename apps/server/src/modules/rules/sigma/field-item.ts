import { BlockList, isIP } from 'node:net';
import { allOf, anyOf, needleOf, type Needles } from './needles';
import { compileSigmaRegex } from './regex-guard';
import { TRANSFORMS, applyTransform, finalPieces, type Stage } from './transforms';
import { SigmaRefusal, type EventView } from './types';
import { STAR, longestLiteral, lowerPieces, parseSigmaString, patternMatcher, type Piece } from './wildcards';

/*
 * One `Field|modifier|…: value(s)` of a search, compiled into a test of an event and the
 * needles the prefilter uses for it. Text comparisons ignore case unless the `cased` modifier
 * is given; `re` is case-sensitive unless its `i` flag is.
 */

export interface CompiledItem {
  test(view: EventView): boolean;
  readonly needles: Needles;
  /** The event fields the item reads. */
  readonly fields: readonly string[];
}

export interface CompileOptions {
  /** Values of `%placeholder%`s for the `expand` modifier. */
  readonly placeholders: ReadonlyMap<string, readonly string[]>;
}

const MATCHES = new Set([
  'contains',
  'startswith',
  'endswith',
  're',
  'cidr',
  'exists',
  'lt',
  'lte',
  'gt',
  'gte',
  'fieldref',
]);
const FLAGS = new Set(['all', 'cased', 'i', 'm', 's']);
const REGEX_FLAGS = new Set(['i', 'm', 's']);

type Scalar = string | number | boolean | null;

function scalars(value: unknown, key: string): Scalar[] {
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (item !== null && typeof item === 'object') {
      throw new SigmaRefusal(`the value of '${key}' must be text, a number or a list of them`);
    }
  }
  return items as Scalar[];
}

/** A test of one text value, with its needle. */
interface ValueTest {
  test(text: string): boolean;
  needles: Needles;
}

function textTest(pieces: readonly Piece[], cased: boolean): ValueTest {
  const ready = cased ? pieces : lowerPieces(pieces);
  return { test: patternMatcher(ready), needles: needleOf(longestLiteral(ready)) };
}

function wrap(pieces: Piece[], match: string | null): Piece[] {
  const out = [...pieces];
  if ((match === 'contains' || match === 'endswith') && out[0] !== STAR) out.unshift(STAR);
  if ((match === 'contains' || match === 'startswith') && out.at(-1) !== STAR) out.push(STAR);
  return out;
}

/** Splits `Field|mod|mod` and checks the modifiers: names, conflicts, and what needs what. */
export function readKey(key: string): {
  field: string;
  transforms: string[];
  match: string | null;
  flags: Set<string>;
} {
  const [field = '', ...modifiers] = key.split('|');
  const transforms: string[] = [];
  const flags = new Set<string>();
  let match: string | null = null;
  for (const modifier of modifiers) {
    if (TRANSFORMS.has(modifier)) transforms.push(modifier);
    else if (FLAGS.has(modifier)) flags.add(modifier);
    else if (MATCHES.has(modifier)) {
      if (match !== null && !(modifier === 'fieldref' || match === 'fieldref')) {
        throw new SigmaRefusal(
          `'${key}' combines the modifiers '${match}' and '${modifier}'; only one comparison can apply`,
        );
      }
      match = match === 'fieldref' ? `fieldref:${modifier}` : match !== null ? `fieldref:${match}` : modifier;
    } else throw new SigmaRefusal(`unknown modifier '${modifier}' in field '${key}'`);
  }
  for (const flag of REGEX_FLAGS) {
    if (flags.has(flag) && match !== 're')
      throw new SigmaRefusal(`modifier '${flag}' in '${key}' is a flag of 're' and needs it`);
  }
  if (transforms.includes('expand') && transforms[0] !== 'expand') {
    throw new SigmaRefusal(`'expand' in '${key}' must come before the other modifiers`);
  }
  return { field, transforms, match, flags };
}

function ipTest(cidrs: readonly Scalar[], key: string): (text: string) => boolean {
  const list = new BlockList();
  for (const value of cidrs) {
    const text = String(value);
    const [address = '', prefix] = text.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new SigmaRefusal(`'${text}' in '${key}' is not a network address range (CIDR)`);
    }
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return (text) => {
    const family = isIP(text);
    return family !== 0 && list.check(text, family === 6 ? 'ipv6' : 'ipv4');
  };
}

function numberTest(match: string, values: readonly Scalar[], key: string): (text: string) => boolean {
  if (values.length !== 1 || typeof values[0] !== 'number') {
    throw new SigmaRefusal(`'${key}' compares numbers and needs one number`);
  }
  const bound = values[0];
  const compare = {
    lt: (n: number) => n < bound,
    lte: (n: number) => n <= bound,
    gt: (n: number) => n > bound,
    gte: (n: number) => n >= bound,
  }[match as 'lt'];
  return (text) => {
    const n = text.trim() === '' ? NaN : Number(text);
    return !Number.isNaN(n) && compare(n);
  };
}

/** Any value of the field passes the test. */
const some = (view: EventView, field: string, cased: boolean, test: (text: string) => boolean): boolean => {
  const values = view.strings(field, cased);
  if (values === undefined) return false;
  for (const v of values) if (test(v)) return true;
  return false;
};

/** Compiles one field item; `key` is the field with its modifiers. */
export function compileFieldItem(key: string, value: unknown, options: CompileOptions): CompiledItem {
  const { field, transforms, match, flags } = readKey(key);
  if (field === '') throw new SigmaRefusal(`'${key}' names no field`);
  const values = scalars(value, key);
  if (values.length === 0) throw new SigmaRefusal(`'${key}' has an empty list of values`);
  const cased = flags.has('cased');
  const all = flags.has('all') && values.length > 1;

  if (match === 'exists') {
    if (values.length !== 1 || typeof values[0] !== 'boolean') throw new SigmaRefusal(`'${key}' needs true or false`);
    const wanted = values[0];
    return { test: (view) => (view.get(field) !== undefined) === wanted, needles: null, fields: [field] };
  }
  if (match?.startsWith('fieldref')) {
    const other = values.map((v) => String(v));
    const kind = match.split(':')[1] ?? null;
    const test = (a: string, b: string) =>
      kind === 'contains'
        ? a.includes(b)
        : kind === 'startswith'
          ? a.startsWith(b)
          : kind === 'endswith'
            ? a.endsWith(b)
            : a === b;
    const one = (view: EventView, ref: string) => {
      const mine = view.strings(field, cased);
      const theirs = view.strings(ref, cased);
      return mine !== undefined && theirs !== undefined && mine.some((a) => theirs.some((b) => test(a, b)));
    };
    return {
      test: all ? (view) => other.every((ref) => one(view, ref)) : (view) => other.some((ref) => one(view, ref)),
      needles: null,
      fields: [field, ...other],
    };
  }

  let tests: ValueTest[];
  if (match === 're') {
    if (transforms.length > 0) throw new SigmaRefusal(`'${key}' encodes a regular expression, which is not supported`);
    tests = values.map((v) => {
      if (typeof v !== 'string') throw new SigmaRefusal(`'${key}' needs a regular expression as text`);
      return compileSigmaRegex(v, { i: flags.has('i'), m: flags.has('m'), s: flags.has('s') });
    });
    // Regular expressions see the value as it is, in its own case.
    return itemOf(field, tests, all, false, true);
  }
  if (match === 'cidr') return itemOf(field, [{ test: ipTest(values, key), needles: null }], false, false, true);
  if (match === 'lt' || match === 'lte' || match === 'gt' || match === 'gte') {
    return itemOf(field, [{ test: numberTest(match, values, key), needles: null }], false, false, true);
  }

  const nulls = values.some((v) => v === null);
  const present = values.filter((v) => v !== null).map(String);
  // Each value of the rule becomes one test; its variants (windash, base64offset, expand) are alternatives.
  tests = present.map((value) => {
    let stages: Stage[] = [{ kind: 'text', pieces: parseSigmaString(value) }];
    for (const transform of transforms) stages = applyTransform(transform, stages, key, options.placeholders, [value]);
    const variants = stages.map((s) => textTest(wrap(finalPieces(s), match), cased));
    if (variants.length === 1) return variants[0]!;
    return {
      test: (text: string) => variants.some((v) => v.test(text)),
      needles: anyOf(variants.map((v) => v.needles)),
    };
  });
  if (nulls && all) throw new SigmaRefusal(`'${key}' asks for all of a list that holds null`);
  return itemOf(field, tests, all, nulls, cased);
}

function itemOf(field: string, tests: ValueTest[], all: boolean, nulls: boolean, cased: boolean): CompiledItem {
  const needles = all ? allOf(tests.map((t) => t.needles)) : nulls ? null : anyOf(tests.map((t) => t.needles));
  const isNull = (view: EventView) => {
    const v = view.get(field);
    return v === undefined || v.every((x) => x === null);
  };
  let test: (view: EventView) => boolean;
  if (all) test = (view) => tests.every((t) => some(view, field, cased, t.test));
  else if (tests.length === 1 && !nulls) {
    const only = tests[0]!.test;
    test = (view) => some(view, field, cased, only);
  } else test = (view) => (nulls && isNull(view)) || tests.some((t) => some(view, field, cased, t.test));
  return { test, needles, fields: [field] };
}
