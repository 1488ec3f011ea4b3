import { isUtf8 } from 'node:buffer';
import { printable } from '../../../safe-text';
import { FieldError, isObject, type JsonObject } from './values';

/** Longest line a JSON-lines body may carry unless the caller says otherwise: 1 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 1_048_576;

export interface LineParseOptions {
  /** Longest line in bytes of UTF-8 (without its line break); longer lines are refused. */
  maxLineBytes?: number;
}

/**
 * What became of one non-blank line: its event, or a reason a person can act on that starts with
 * the line number (`line 7: not valid JSON (…)`). Line numbers count every line from 1, blank
 * ones included, so they match what an editor shows.
 */
export type LineResult<T> =
  /** `text`: the JSON the event was read from (`\u0000` and lone surrogate escapes made U+FFFD), stored as the record as it arrived. */
  { line: number; ok: true; event: T; text: string } | { line: number; ok: false; reason: string };

/** Turns one parsed JSON object into an event; throws FieldError for a field it cannot read. */
export type Normalise<T> = (record: JsonObject, text: string) => T;

/** A non-blank line of a body: its text, or why it cannot be read as text at all. */
type SourceLine = { line: number; text: string } | { line: number; text: null; reason: string };

const BLANK = /^[ \t\r]*$/;

const fmt = (n: number): string => n.toLocaleString('en-US');
const overLimit = (bytes: number, maxLineBytes: number): string =>
  `${fmt(bytes)} bytes long, over the limit of ${fmt(maxLineBytes)} bytes per line`;

/** The non-blank lines of a body, split on LF with an optional CR before it; a leading BOM is dropped. */
function* splitLines(body: string | Uint8Array, maxLineBytes: number): Generator<SourceLine> {
  if (typeof body === 'string') {
    let start = body.charCodeAt(0) === 0xfeff ? 1 : 0;
    for (let line = 1; start <= body.length; line++) {
      let end = body.indexOf('\n', start);
      if (end < 0) end = body.length;
      const stop = end > start && body.charCodeAt(end - 1) === 13 ? end - 1 : end;
      const length = stop - start;
      if (length > maxLineBytes) {
        yield { line, text: null, reason: overLimit(Buffer.byteLength(body.slice(start, stop)), maxLineBytes) };
      } else {
        const text = body.slice(start, stop);
        const bytes = length * 3 > maxLineBytes ? Buffer.byteLength(text) : length;
        if (bytes > maxLineBytes) yield { line, text: null, reason: overLimit(bytes, maxLineBytes) };
        else if (!BLANK.test(text)) yield { line, text };
      }
      start = end + 1;
    }
    return;
  }
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  // LF never occurs inside a UTF-8 character, so a body that is UTF-8 has only UTF-8 lines: one
  // check of the whole body, and a check per line only when it fails.
  const allUtf8 = isUtf8(buf);
  for (let line = 1; start <= buf.length; line++) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    const stop = end > start && buf[end - 1] === 13 ? end - 1 : end;
    const bytes = stop - start;
    if (bytes > maxLineBytes) yield { line, text: null, reason: overLimit(bytes, maxLineBytes) };
    else if (!allUtf8 && !isUtf8(buf.subarray(start, stop))) {
      yield { line, text: null, reason: notUtf8(buf.subarray(start, stop)) };
    } else {
      const text = buf.toString('utf8', start, stop);
      if (!BLANK.test(text)) yield { line, text };
    }
    start = end + 1;
  }
}

/** The offset of the first byte of `bytes` that does not begin or continue a UTF-8 character, or -1. */
export function firstNonUtf8Byte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const size = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (size === 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points above U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < size; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += size;
  }
  return -1;
}

const hex = (b: number): string => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Why a line that is not UTF-8 is refused: what it looks like and where it stops being text. */
function notUtf8(bytes: Buffer): string {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    return 'gzip-compressed data, not text: send the lines uncompressed, as UTF-8 JSON';
  }
  const at = firstNonUtf8Byte(bytes);
  const where = at < 0 ? '' : `: byte ${fmt(at + 1)} (${hex(bytes[at]!)}) does not belong to a UTF-8 character`;
  return `not UTF-8 text${where}; send JSON lines in UTF-8 (binary data or another encoding?)`;
}

/**
 * Parses a JSON-lines body record by record. Never throws: whatever a line holds, it comes back
 * as an event or with a reason.
 */
export function parseJsonLines<T>(
  body: string | Uint8Array,
  options: LineParseOptions,
  normalise: Normalise<T>,
): LineResult<T>[] {
  const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const maxLineBytes = Number.isFinite(limit) && limit >= 0 ? limit : DEFAULT_MAX_LINE_BYTES;
  const results: LineResult<T>[] = [];
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return results;
  for (const source of splitLines(body, maxLineBytes)) {
    if (source.text === null) results.push(failed(source.line, source.reason));
    else results.push(parseJsonLine(source.text, source.line, normalise));
  }
  return results;
}

/**
 * A refused line. Its reason may quote the line (a JSON error, a field's value): whatever it
 * quotes is written out printably, so a reason is always text that can be stored and shown.
 */
function failed(line: number, reason: string): { line: number; ok: false; reason: string } {
  return { line, ok: false, reason: `line ${line}: ${printable(reason, 300)}` };
}

/** The first control character in a line of text (tab and CR are JSON's own spacing), as a reason. */
function controlCharacter(text: string): string | null {
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c >= 0x20 || c === 9 || c === 13) continue;
    const code = c.toString(16).toUpperCase().padStart(4, '0');
    return `not JSON text: it holds the control character U+${code} at character ${fmt(at + 1)} (binary data?); send one JSON object per line, as UTF-8 text`;
  }
  return null;
}

/** Parses one line (without its line break) into an event or a reason. Never throws. */
export function parseJsonLine<T>(text: string, line: number, normalise: Normalise<T>): LineResult<T> {
  const source = storableEscapes(text);
  let record: unknown;
  try {
    record = JSON.parse(source);
  } catch (error) {
    // JSON refuses raw control characters; say so rather than quote them through the JSON error.
    const control = controlCharacter(source);
    if (control !== null) return failed(line, control);
    const message = error instanceof Error ? error.message : String(error);
    return failed(line, `not valid JSON (${printable(message, 160)})`);
  }
  if (!isObject(record)) {
    const found = Array.isArray(record) ? 'a list' : record === null ? 'null' : `a ${typeof record}`;
    return failed(line, `expected a JSON object, found ${found}`);
  }
  // Each level takes two characters at least: a shorter line cannot nest too deep.
  if (source.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(record, MAX_JSON_DEPTH)) {
    return failed(
      line,
      `nested more than ${MAX_JSON_DEPTH} levels deep; no event record is, and the database refuses such JSON`,
    );
  }
  try {
    return { line, ok: true, event: normalise(record, source), text: source };
  } catch (error) {
    if (error instanceof FieldError) return failed(line, error.message);
    // A bug of ours, not the sender's: say so rather than fail the batch.
    return failed(
      line,
      `could not be read (internal error: ${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/**
 * How deep objects and lists may nest in a line. Real records nest a few levels; PostgreSQL's JSON
 * reader runs out of stack some thousands of levels down (with its default 2 MB stack), which
 * would fail the whole batch.
 */
export const MAX_JSON_DEPTH = 512;

/** Whether objects and lists nest more than `levels` deep; never recurses more than `levels` calls. */
function nestedDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestedDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestedDeeperThan((value as JsonObject)[key], levels - 1)) return true;
  return false;
}

const hexDigit = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;

/** The code unit of a `\uXXXX` escape whose `u` is at `at`, or -1 when it is not one. */
function escapedUnit(text: string, at: number): number {
  if (text.charCodeAt(at) !== 117) return -1;
  let unit = 0;
  for (let k = 1; k <= 4; k++) {
    const d = hexDigit(text.charCodeAt(at + k));
    if (d < 0) return -1;
    unit = unit * 16 + d;
  }
  return unit;
}

/**
 * JSON text with every escape PostgreSQL cannot store replaced by `\ufffd`: `\u0000` (its text
 * cannot hold NUL, and an attacker's user agent may well contain one) and half of a surrogate pair
 * written alone (`\ud800`, which its JSON types refuse). Raw NUL is not valid JSON, and raw
 * surrogates cannot come from UTF-8, so escapes are all there is to mend.
 */
function storableEscapes(text: string): string {
  // Windows paths put `\u` in many lines (`C:\\Users`); only these escapes can need mending.
  if (!text.includes('\\u0000') && !text.includes('\\ud') && !text.includes('\\uD')) return text;
  let out = '';
  let copied = 0;
  for (let i = text.indexOf('\\'); i >= 0; i = text.indexOf('\\', i)) {
    const unit = escapedUnit(text, i + 1);
    if (unit < 0) {
      i += 2; // `\\`, `\"`, `\n`…: the character after the backslash is escaped, whatever it is
      continue;
    }
    let length = 6;
    let storable = unit !== 0 && (unit < 0xd800 || unit > 0xdfff);
    if (unit >= 0xd800 && unit <= 0xdbff && text.charCodeAt(i + 6) === 92) {
      const low = escapedUnit(text, i + 7);
      if (low >= 0xdc00 && low <= 0xdfff) {
        storable = true;
        length = 12;
      }
    }
    if (!storable) {
      out += `${text.slice(copied, i)}\\ufffd`;
      copied = i + 6;
    }
    i += length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const isJsonSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * The number of a top-level key exactly as written in valid JSON text, for numbers JSON.parse
 * would round (EVE flow ids are 64-bit). Null when the key is absent or its value is not a number.
 * With duplicate keys the last wins, as in JSON.parse.
 */
export function rawTopLevelNumber(text: string, key: string): string | null {
  let depth = 0;
  let found: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) {
          escaped = true;
          i++;
        } else if (d === 34) break;
      }
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 58) continue;
      const name = escaped ? decodeJsonString(text.slice(start, i + 1)) : text.slice(start + 1, i);
      if (name !== key) continue;
      j++;
      while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
      const number = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(j, j + 400));
      found = number === null ? null : number[0];
      i = j - 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return found;
}

function decodeJsonString(literal: string): string | null {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
