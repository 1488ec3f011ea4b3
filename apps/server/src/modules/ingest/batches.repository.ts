import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { BatchKind, Rejection } from './batch';

/** The answer of a batch stored before under the same Idempotency-Key, if any. */
export async function findBatch(
  db: Queryable,
  companyId: number,
  kind: BatchKind,
  key: string,
): Promise<{ accepted: number; rejected: Rejection[]; batch_id: number } | null> {
  const { rows } = await db.query<{ id: number; accepted: number; rejected: Rejection[] }>(sql`
    SELECT id, accepted, rejected FROM ingest_batches
    WHERE company_id = ${companyId} AND kind = ${kind} AND idempotency_key = ${key}`);
  const row = rows[0];
  if (!row) return null;
  return { accepted: row.accepted, rejected: row.rejected, batch_id: Number(row.id) };
}

/** A batch's record: who sent it, under which key, and its answer (kept for retries). */
export interface BatchRecord {
  companyId: number;
  kind: BatchKind;
  idempotencyKey: string | null;
  tokenId: number | null;
  accepted: number;
  rejected: Rejection[];
}

/**
 * The batch record and `count` ids from the event table's sequence (`sequence`, or none), in one
 * round trip. Answers null when a batch with the same Idempotency-Key is stored already
 * (committed meanwhile by a concurrent retry, which the insert waits for).
 */
export async function insertBatch(
  tx: Queryable,
  batch: BatchRecord,
  ids: { sequence: string | null; count: number },
): Promise<{ id: number; ids: number[] | null } | null> {
  const { sequence, count } = ids;
  const { rows } = await tx.query<{ id: number; ids: number[] | null }>(sql`
    WITH b AS (
      INSERT INTO ingest_batches (company_id, kind, idempotency_key, token_id, accepted, rejected)
      VALUES (${batch.companyId}, ${batch.kind}, ${batch.idempotencyKey}, ${batch.tokenId}, ${batch.accepted}, ${JSON.stringify(batch.rejected)}::jsonb)
      ON CONFLICT DO NOTHING
      RETURNING id)
    SELECT b.id, CASE WHEN ${sequence}::text IS NULL THEN NULL
      ELSE ARRAY(SELECT nextval(${sequence}::regclass) FROM generate_series(1, ${count}::int4)) END AS ids
    FROM b`);
  return rows[0] ?? null;
}
