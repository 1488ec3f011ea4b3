import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { EventTable } from './storage';

// What retention deletes of what ingest stored: events, batch records, hash sightings and the
// warehouse's bytes. The events module decides when (events/retention.ts).

/** Detaches and drops one monthly partition (its name comes from the table's list of partitions). */
export async function dropPartition(tx: Queryable, table: EventTable, partition: string): Promise<void> {
  // Both names are plain identifiers (sql.ident refuses anything else).
  sql.ident(table);
  sql.ident(partition);
  await tx.exec(`ALTER TABLE "${table}" DETACH PARTITION "${partition}"`);
  await tx.exec(`DROP TABLE "${partition}"`);
}

/** Deletes at most `limit` of a company's events older than `before`; answers how many went. */
export async function deleteOlderEvents(
  db: Queryable,
  table: EventTable,
  companyId: number,
  before: string,
  limit: number,
): Promise<number> {
  const result = await db.query(sql`
    DELETE FROM ${sql.ident(table)} WHERE (company_id, ts, id) IN (
      SELECT company_id, ts, id FROM ${sql.ident(table)}
      WHERE company_id = ${companyId} AND ts < ${before}::timestamptz LIMIT ${limit})`);
  return result.rowCount;
}

/** Deletes a company's ingest batch records received before `before`. */
export async function deleteOlderBatches(db: Queryable, companyId: number, before: string): Promise<void> {
  await db.query(
    sql`DELETE FROM ingest_batches WHERE company_id = ${companyId} AND received_at < ${before}::timestamptz`,
  );
}

/** Deletes a company's hash sightings last seen before `before`; answers how many went. */
export async function deleteOlderHashes(db: Queryable, companyId: number, before: string): Promise<number> {
  const result = await db.query(
    sql`DELETE FROM warehouse_hashes WHERE company_id = ${companyId} AND last_seen < ${before}::timestamptz`,
  );
  return result.rowCount;
}

/** Deletes the bytes of files that no sighting or stored mail attachment names any more. */
export async function deleteUnnamedFiles(db: Queryable): Promise<number> {
  const result = await db.query(sql`
    DELETE FROM warehouse_files f
    WHERE NOT EXISTS (SELECT 1 FROM warehouse_hashes h WHERE h.sha256 = f.sha256)
      AND NOT EXISTS (SELECT 1 FROM mail_attachments a WHERE a.sha256 = f.sha256)`);
  return result.rowCount;
}

/** Deletes the originals of mail messages that no stored message names any more. */
export async function deleteUnnamedOriginals(db: Queryable): Promise<number> {
  const result = await db.query(sql`
    DELETE FROM mail_originals o
    WHERE NOT EXISTS (SELECT 1 FROM mail_messages m WHERE m.original_sha256 = o.sha256)`);
  return result.rowCount;
}
