/**
 * What the two bulk write paths share (bulk.ts: unnest inserts; copy.ts: COPY FROM STDIN): the
 * column types they know, JSON that is already text, and array literals. Imports neither of them.
 */

/** Column types the bulk paths know how to cast from text. */
export type BulkColumnType =
  | 'int4'
  | 'int8'
  | 'float8'
  | 'numeric'
  | 'bool'
  | 'text'
  | 'uuid'
  | 'inet'
  | 'timestamptz'
  | 'jsonb'
  /** Kept as sent (validated, not converted): several times cheaper to insert than jsonb. */
  | 'json'
  | 'text[]';

export interface BulkColumn {
  name: string;
  type: BulkColumnType;
}

/**
 * JSON that is already text (a record's line exactly as it arrived, say): written as it is
 * rather than parsed and serialised again. The caller vouches that it is valid JSON.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** An array literal (`{"a","b"}`) of text items, NULL items as NULL. */
export function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((item) =>
    item === null || item === undefined ? 'NULL' : `"${String(item).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${parts.join(',')}}`;
}
