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
  /** `text`: the JSON the event was read from (`\u0000` escapes made U+FFFD), stored as the record as it arrived. */
  { line: number; ok: true; event: T; text: string } | { line: number; ok: false; reason: string };

/** Turns one parsed JSON object into an event; throws FieldError for a field it cannot read. */
export type Normalise<T> = (record: JsonObject, text: string) => T;

interface SourceLine {
  line: number;
  /** The line without its break; null when it is longer than the limit. */
  text: string | null;
  bytes: number;
}

const BLANK = /^[ \t\r]*$/;

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
        yield { line, text: null, bytes: Buffer.byteLength(body.slice(start, stop)) };
      } else {
        const text = body.slice(start, stop);
        const bytes = length * 3 > maxLineBytes ? Buffer.byteLength(text) : length;
        if (bytes > maxLineBytes) yield { line, text: null, bytes };
        else if (!BLANK.test(text)) yield { line, text, bytes };
      }
      start = end + 1;
    }
    return;
  }
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  for (let line = 1; start <= buf.length; line++) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    const stop = end > start && buf[end - 1] === 13 ? end - 1 : end;
    const bytes = stop - start;
    if (bytes > maxLineBytes) yield { line, text: null, bytes };
    else {
      const text = buf.toString('utf8', start, stop);
      if (!BLANK.test(text)) yield { line, text, bytes };
    }
    start = end + 1;
  }
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
  for (const { line, text, bytes } of splitLines(body, maxLineBytes)) {
    if (text === null) {
      results.push({
        line,
        ok: false,
        reason: `line ${line}: ${bytes.toLocaleString('en-US')} bytes long, over the limit of ${maxLineBytes.toLocaleString('en-US')} bytes per line`,
      });
    } else results.push(parseJsonLine(text, line, normalise));
  }
  return results;
}

function failed(line: number, reason: string): { line: number; ok: false; reason: string } {
  return { line, ok: false, reason: `line ${line}: ${reason}` };
}

/** Parses one line (without its line break) into an event or a reason. Never throws. */
export function parseJsonLine<T>(text: string, line: number, normalise: Normalise<T>): LineResult<T> {
  const source = withoutNulEscapes(text);
  let record: unknown;
  try {
    record = JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failed(line, `not valid JSON (${message.length > 160 ? `${message.slice(0, 160)}…` : message})`);
  }
  if (!isObject(record)) {
    const found = Array.isArray(record) ? 'a list' : record === null ? 'null' : `a ${typeof record}`;
    return failed(line, `expected a JSON object, found ${found}`);
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
 * JSON text with every `\u0000` escape replaced by `\ufffd`: PostgreSQL's text and jsonb cannot
 * hold NUL, and an attacker's user agent may well contain one. A raw NUL byte is not valid JSON.
 */
function withoutNulEscapes(text: string): string {
  if (!text.includes('\\u0000')) return text;
  return text.replace(/(\\+)u0000/g, (match, slashes: string) =>
    slashes.length % 2 === 1 ? `${slashes.slice(1)}\\ufffd` : match,
  );
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
