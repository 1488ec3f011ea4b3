import type { Database } from '../../db/database';
import { sql } from '../../db/sql';
import { flushSightings } from '../ingest/sightings';
import { eventTables, forgetPartitions } from '../ingest/storage';

export interface PruneResult {
  /** Partitions dropped whole (every company's retention had passed them). */
  droppedPartitions: string[];
  /** Rows deleted one batch at a time, for companies that keep data for less time. */
  deletedRows: number;
  /** Companies' hash sightings last seen before their retention. */
  deletedHashes: number;
  /** Files whose bytes no company's sighting or mail attachment names any more. */
  deletedFiles: number;
}

const DELETE_BATCH = 10_000;

/**
 * Retention: drops the monthly partitions that end before every company's retention cutoff
 * (cheap: no row is read), then deletes, in batches of 10,000 rows, the older rows of companies
 * that keep data for less time than the longest retention. Ingest batch records and a company's
 * hash sightings (warehouse/hashes) go by the same rule; then the warehouse lets go of the bytes
 * of files nobody's sighting or stored mail names any more. `now` is the reference time (tests
 * pass their own).
 */
export async function pruneEvents(db: Database, now: Date = new Date()): Promise<PruneResult> {
  const { rows: companies } = await db.query<{ id: number; retention_days: number }>(
    sql`SELECT id, retention_days FROM companies ORDER BY id`,
  );
  if (companies.length === 0) return { droppedPartitions: [], deletedRows: 0, deletedHashes: 0, deletedFiles: 0 };
  // Sightings still queued count as seen before anything is judged by its last sighting.
  await flushSightings(db);
  const longest = Math.max(...companies.map((c) => c.retention_days));
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const globalCutoff = cutoff(longest);
  const dropped: string[] = [];
  for (const table of eventTables) {
    const { rows } = await db.query<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = ${table} AND c.relname ~ ${`^${table}_p[0-9]{6}$`}`);
    for (const { name } of rows) {
      const month = name.slice(-6);
      const end = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(4, 6)), 1));
      if (end.toISOString() > globalCutoff) continue;
      await db.transaction(async (tx) => {
        await tx.exec(`ALTER TABLE "${table}" DETACH PARTITION "${name}"`);
        await tx.exec(`DROP TABLE "${name}"`);
      });
      dropped.push(name);
    }
  }
  if (dropped.length > 0) forgetPartitions();
  let deleted = 0;
  let deletedHashes = 0;
  for (const company of companies) {
    const before = cutoff(company.retention_days);
    for (const table of eventTables) {
      for (;;) {
        const result = await db.query(sql`
          DELETE FROM ${sql.ident(table)} WHERE (company_id, ts, id) IN (
            SELECT company_id, ts, id FROM ${sql.ident(table)}
            WHERE company_id = ${company.id} AND ts < ${before}::timestamptz LIMIT ${DELETE_BATCH})`);
        deleted += result.rowCount;
        if (result.rowCount < DELETE_BATCH) break;
      }
    }
    await db.query(
      sql`DELETE FROM ingest_batches WHERE company_id = ${company.id} AND received_at < ${before}::timestamptz`,
    );
    const hashes = await db.query(
      sql`DELETE FROM warehouse_hashes WHERE company_id = ${company.id} AND last_seen < ${before}::timestamptz`,
    );
    deletedHashes += hashes.rowCount;
  }
  const files = await db.query(sql`
    DELETE FROM warehouse_files f
    WHERE NOT EXISTS (SELECT 1 FROM warehouse_hashes h WHERE h.sha256 = f.sha256)
      AND NOT EXISTS (SELECT 1 FROM mail_attachments a WHERE a.sha256 = f.sha256)`);
  return { droppedPartitions: dropped, deletedRows: deleted, deletedHashes, deletedFiles: files.rowCount };
}
