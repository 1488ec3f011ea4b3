import { arrayLiteral, JsonText, type BulkColumn, type BulkColumnType } from './columns';
import type { Queryable } from './database';
import { sql } from './sql';

export type { BulkColumn, BulkColumnType };

function toText(value: unknown, type: BulkColumnType): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb' || type === 'json') return value instanceof JsonText ? value.text : JSON.stringify(value);
  if (type === 'text[]') return arrayLiteral(value as unknown[]);
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  // PostgreSQL cannot store NUL in text; it becomes U+FFFD, as on the COPY path.
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
}

/**
 * Inserts many rows with one statement per chunk: every column travels as one text array and is
 * unnested and cast on the server, so a chunk costs one round trip and a handful of parameters
 * whatever its size. Works the same on PGlite and on a PostgreSQL server.
 * Returns the number of rows inserted (rows skipped by `onConflict` are not counted).
 */
export async function bulkInsert(
  db: Queryable,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
  options: { chunkSize?: number; onConflictDoNothing?: boolean } = {},
): Promise<number> {
  const chunkSize = options.chunkSize ?? 5000;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const arrays = columns.map((column, index) => chunk.map((row) => toText(row[index], column.type)));
    const aliases = columns.map((_, index) => sql.raw(`c${index}`));
    const casts = columns.map((column, index) => sql.raw(`c${index}::${column.type}`));
    const unnest = sql.join(arrays.map((array) => sql`${array}::text[]`));
    const conflict = options.onConflictDoNothing ? sql` ON CONFLICT DO NOTHING` : sql``;
    const result = await db.query(
      sql`INSERT INTO ${sql.ident(table)} (${sql.join(columns.map((c) => sql.ident(c.name)))})
          SELECT ${sql.join(casts)} FROM unnest(${unnest}) AS u(${sql.join(aliases)})${conflict}`,
    );
    inserted += result.rowCount;
  }
  return inserted;
}
