import { SigmaRefusal } from './types';
import { hasWildcards, literalOf, parseSigmaString, type Piece } from './wildcards';

/*
 * The modifiers that change a rule's value before it is compared: base64, base64offset, the
 * UTF-16 encodings, windash and expand. Each takes a value (its pieces) to one or more values.
 */

export const TRANSFORMS = new Set([
  'base64',
  'base64offset',
  'wide',
  'utf16le',
  'utf16be',
  'utf16',
  'windash',
  'expand',
]);

/** A value between transforms: Sigma text, or bytes (after an UTF-16 encoding, before base64). */
export type Stage = { kind: 'text'; pieces: Piece[] } | { kind: 'bytes'; bytes: Buffer };

/** At most this many variants of one value (windash over many dashes multiplies them). */
const MAX_VARIANTS = 256;

const DASHES = ['-', '/', '\u2013', '\u2014', '\u2015'];

function bytesOf(stage: Stage, modifier: string, field: string): Buffer {
  if (stage.kind === 'bytes') return stage.bytes;
  if (hasWildcards(stage.pieces)) {
    throw new SigmaRefusal(`the value of '${field}' holds wildcards, which cannot be encoded by '${modifier}'`);
  }
  return Buffer.from(literalOf(stage.pieces), 'utf8');
}

function utf16(stage: Stage, modifier: string, field: string): Stage {
  if (stage.kind === 'bytes') {
    throw new SigmaRefusal(`'${modifier}' in '${field}' follows another encoding; it must encode text`);
  }
  if (hasWildcards(stage.pieces)) {
    throw new SigmaRefusal(`the value of '${field}' holds wildcards, which cannot be encoded by '${modifier}'`);
  }
  const le = Buffer.from(literalOf(stage.pieces), 'utf16le');
  if (modifier === 'utf16be') return { kind: 'bytes', bytes: le.swap16() };
  if (modifier === 'utf16') return { kind: 'bytes', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), le]) };
  return { kind: 'bytes', bytes: le };
}

const text = (value: string): Stage => ({ kind: 'text', pieces: value === '' ? [] : [value] });

/** The three base64 forms of the bytes at each offset, with the characters that depend on the neighbours cut off. */
export function base64Offsets(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = [0, 2, 3][shift]!;
    const cut = [0, 3, 2][(bytes.length + shift) % 3]!;
    out.push(encoded.slice(start, encoded.length - cut));
  }
  return out;
}

/** windash: each dash or slash that starts a word, in every dash form Windows accepts for options. */
function windash(stage: Stage): Stage[] {
  if (stage.kind === 'bytes') throw new SigmaRefusal("'windash' must come before any encoding");
  let variants: Piece[][] = [[]];
  for (const piece of stage.pieces) {
    if (typeof piece !== 'string') {
      for (const v of variants) v.push(piece);
      continue;
    }
    const parts = piece.split(/(?<![\w])([-/])(?=\w)/);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i % 2 === 0) {
        for (const v of variants) v.push(part);
      } else {
        variants = variants.flatMap((v) => DASHES.map((d) => [...v, d]));
        if (variants.length > MAX_VARIANTS) {
          throw new SigmaRefusal(`'windash' makes more than ${MAX_VARIANTS} variants of one value`);
        }
      }
    }
  }
  // Adjacent literal pieces are joined again, so that the matcher sees one text.
  return variants.map((pieces) => {
    const joined: Piece[] = [];
    for (const p of pieces) {
      const last = joined.at(-1);
      if (p === '') continue;
      if (typeof p === 'string' && typeof last === 'string') joined[joined.length - 1] = last + p;
      else joined.push(p);
    }
    return { kind: 'text', pieces: joined };
  });
}

/** Applies one transform to each value. */
export function applyTransform(
  modifier: string,
  stages: Stage[],
  field: string,
  placeholders: ReadonlyMap<string, readonly string[]>,
  raw: readonly string[],
): Stage[] {
  switch (modifier) {
    case 'base64':
      return stages.map((s) => text(bytesOf(s, modifier, field).toString('base64')));
    case 'base64offset':
      return stages.flatMap((s) => base64Offsets(bytesOf(s, modifier, field)).map(text));
    case 'wide':
    case 'utf16le':
    case 'utf16be':
    case 'utf16':
      return stages.map((s) => utf16(s, modifier, field));
    case 'windash':
      return stages.flatMap(windash);
    case 'expand':
      return raw.flatMap((value) => expand(value, field, placeholders));
    default:
      throw new SigmaRefusal(`unknown modifier '${modifier}' in field '${field}'`);
  }
}

/** expand: `%name%` replaced by each value configured for the placeholder. */
function expand(value: string, field: string, placeholders: ReadonlyMap<string, readonly string[]>): Stage[] {
  let results = [''];
  const parts = value.split(/%([A-Za-z0-9_.-]+)%/);
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      results = results.map((r) => r + parts[i]);
      continue;
    }
    const values = placeholders.get(parts[i]!);
    if (values === undefined || values.length === 0) {
      throw new SigmaRefusal(
        `placeholder '%${parts[i]}%' in '${field}' has no value configured, so the rule cannot run`,
      );
    }
    results = results.flatMap((r) => values.map((v) => r + v));
    if (results.length > MAX_VARIANTS) throw new SigmaRefusal(`'expand' makes more than ${MAX_VARIANTS} values`);
  }
  return results.map((r) => ({ kind: 'text', pieces: parseSigmaString(r) }));
}

/** The text a value ends as: bytes not encoded again are read as Latin-1, one character a byte. */
export function finalPieces(stage: Stage): Piece[] {
  return stage.kind === 'text' ? stage.pieces : stage.bytes.length === 0 ? [] : [stage.bytes.toString('latin1')];
}
