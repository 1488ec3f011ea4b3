import type { Database } from '../../db/database';
import {
  deleteOlderBatches,
  deleteOlderEvents,
  deleteOlderHashes,
  deleteUnnamedFiles,
  deleteUnnamedOriginals,
  dropPartition,
  eventTables,
  flushSightings,
  forgetPartitions,
} from '../ingest/ingest.service';
import { companyRetentions, monthlyPartitions } from './retention.repository';

export interface PruneResult {
  /** Partitions dropped whole (every company's retention had passed them). */
  droppedPartitions: string[];
  /** Rows deleted one batch at a time, for companies that keep data for less time. */
  deletedRows: number;
  /** Companies' hash sightings last seen before their retention. */
  deletedHashes: number;
  /** Files whose bytes no company's sighting or mail attachment names any more. */
  deletedFiles: number;
  /** Originals of mail messages that no stored message names any more. */
  deletedOriginals: number;
}

const DELETE_BATCH = 10_000;

/**
 * Retention: drops the monthly partitions that end before every company's retention cutoff
 * (cheap: no row is read), then deletes, in batches of 10,000 rows, the older rows of companies
 * that keep data for less time than the longest retention. Ingest batch records and a company's
 * hash sightings (warehouse/hashes) go by the same rule; then the warehouse lets go of the bytes
 * of files nobody's sighting or stored mail names any more, and the originals of mail messages
 * that are no longer stored go too. `now` is the reference time (tests
 * pass their own).
 */
export async function pruneEvents(db: Database, now: Date = new Date()): Promise<PruneResult> {
  const companies = await companyRetentions(db);
  if (companies.length === 0)
    return { droppedPartitions: [], deletedRows: 0, deletedHashes: 0, deletedFiles: 0, deletedOriginals: 0 };
  // Sightings still queued count as seen before anything is judged by its last sighting.
  await flushSightings(db);
  const longest = Math.max(...companies.map((c) => c.retention_days));
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const globalCutoff = cutoff(longest);
  const dropped: string[] = [];
  for (const table of eventTables) {
    for (const name of await monthlyPartitions(db, table)) {
      const month = name.slice(-6);
      const end = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(4, 6)), 1));
      if (end.toISOString() > globalCutoff) continue;
      await db.transaction((tx) => dropPartition(tx, table, name));
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
        const count = await deleteOlderEvents(db, table, company.id, before, DELETE_BATCH);
        deleted += count;
        if (count < DELETE_BATCH) break;
      }
    }
    await deleteOlderBatches(db, company.id, before);
    deletedHashes += await deleteOlderHashes(db, company.id, before);
  }
  const deletedFiles = await deleteUnnamedFiles(db);
  const deletedOriginals = await deleteUnnamedOriginals(db);
  return { droppedPartitions: dropped, deletedRows: deleted, deletedHashes, deletedFiles, deletedOriginals };
}
