import type { BulkColumn, BulkColumnType } from './bulk';
import type { Queryable } from './database';

/**
 * JSON that is already text (a record's line exactly as it arrived, say): written as it is
 * rather than parsed and serialised again. The caller vouches that it is valid JSON.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

const SPECIAL = /[\\\n\r\t\0]/;
const SPECIALS = /[\\\n\r\t\0]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\uFFFD' };

/**
 * A value as one column of COPY's text format: backslash, line breaks and tabs escaped. NUL,
 * which PostgreSQL cannot store in text, becomes U+FFFD (as the parsers do with `\u0000`).
 */
export function copyEscape(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (ch) => ESCAPES[ch]!) : text;
}

/** An array literal (`{"a","b"}`) of text items, NULL items as NULL. */
export function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((item) =>
    item === null || item === undefined ? 'NULL' : `"${String(item).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${parts.join(',')}}`;
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
  if (rows.length === 0) return 0;
  const types = columns.map((c) => c.type);
  const lines: string[] = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let line = '';
    for (let c = 0; c < types.length; c++) {
      if (c > 0) line += '\t';
      line += copyValue(row[c], types[c]!);
    }
    lines[r] = line;
  }
  return db.copyFrom(
    table,
    columns.map((c) => c.name),
    `${lines.join('\n')}\n`,
  );
}
