import { arrayLiteral, JsonText, type BulkColumn, type BulkColumnType } from './columns';
import type { Queryable } from './database';

export { arrayLiteral, JsonText };

const SPECIAL = /[\\\n\r\t\0]/;
const CONTROL = /[\n\r\t\0]/;
const CONTROLS = /[\n\r\t\0]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\uFFFD' };

/**
 * A value as one column of COPY's text format: backslash, line breaks and tabs escaped. NUL,
 * which PostgreSQL cannot store in text, becomes U+FFFD (as the parsers do with `\u0000`).
 */
export function copyEscape(text: string): string {
  if (!SPECIAL.test(text)) return text;
  const escaped = text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
  return CONTROL.test(escaped) ? escaped.replace(CONTROLS, (ch) => ESCAPES[ch]!) : escaped;
}

/**
 * JSON text (valid JSON: JSON.stringify's output, or a line JSON.parse accepted) in COPY text
 * format. Such text holds no control characters but whitespace between tokens, so a search for
 * four characters does what copyEscape's scan does.
 */
export function copyJson(json: string): string {
  let text = json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
  if (text.includes('\t')) text = text.replaceAll('\t', '\\t');
  if (text.includes('\r')) text = text.replaceAll('\r', '\\r');
  if (text.includes('\n')) text = text.replaceAll('\n', '\\n');
  return text;
}

/** A text column in COPY text format: escaped, or `\N` for NULL. */
export function copyText(value: string | null | undefined): string {
  return value === null || value === undefined ? '\\N' : copyEscape(value);
}

/** A number column in COPY text format, or `\N` for NULL. */
export function copyNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '\\N' : String(value);
}

/** One value in COPY text format (escaped), or `\N` for NULL. */
export function copyValue(value: unknown, type: BulkColumnType): string {
  if (value === null || value === undefined) return '\\N';
  switch (type) {
    case 'int4':
    case 'int8':
    case 'float8':
    case 'numeric':
      return String(value);
    case 'bool':
      return value ? 't' : 'f';
    case 'timestamptz':
      return value instanceof Date ? value.toISOString() : copyEscape(String(value));
    case 'json':
    case 'jsonb':
      return copyEscape(value instanceof JsonText ? value.text : JSON.stringify(value));
    case 'text[]':
      return copyEscape(arrayLiteral(value as unknown[]));
    default:
      return copyEscape(String(value));
  }
}

/**
 * Inserts rows with `COPY … FROM STDIN` — PostgreSQL's fastest way in: no statement to plan, no
 * parameters to escape and unnest, every value read straight by its column's input function.
 * Rows are in the order of `columns`; values as `bulkInsert` takes them (JsonText for ready JSON).
 * Takes part in the caller's transaction; one bad value fails the whole copy (nothing half-stored).
 * Returns the number of rows copied.
 */
export async function copyRows(
  db: Queryable,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
): Promise<number> {
  const types = columns.map((c) => c.type);
  const out = new CopyWriter();
  for (const row of rows) {
    for (let c = 0; c < types.length; c++) {
      if (c > 0) out.write('\t');
      out.write(copyValue(row[c], types[c]!));
    }
    out.endRow();
  }
  return copyWritten(
    db,
    table,
    columns.map((c) => c.name),
    out,
  );
}

/**
 * Rows in COPY's text format written straight into one growing buffer of UTF-8: no string of
 * the whole batch is built and converted afterwards. Write a row's columns (escaped with
 * copyText/copyNumber/copyEscape/copyJson, tab-separated), then end the row with `endRow`.
 */
export class CopyWriter {
  private buffer: Buffer;
  private length = 0;
  /** Rows ended so far. */
  rows = 0;

  constructor(expectedBytes = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(Math.max(1024, expectedBytes));
  }

  /** Appends text already in COPY format (escaped). */
  write(text: string): this {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const room = text.length * 3;
    if (this.length + room > this.buffer.length) this.grow(room);
    this.length += this.buffer.write(text, this.length);
    return this;
  }

  /** Ends the current row. */
  endRow(): void {
    if (this.length + 1 > this.buffer.length) this.grow(1);
    this.buffer[this.length++] = 10;
    this.rows += 1;
  }

  /** What was written, as COPY data. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private grow(needed: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + needed));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
}

/**
 * `COPY … FROM STDIN` of the rows a CopyWriter holds (columns in the order of `columns`).
 * Takes part in the caller's transaction. Returns the rows copied.
 */
export async function copyWritten(
  db: Queryable,
  table: string,
  columns: readonly string[],
  rows: CopyWriter,
): Promise<number> {
  if (rows.rows === 0) return 0;
  return db.copyFrom(table, columns, rows.bytes());
}
