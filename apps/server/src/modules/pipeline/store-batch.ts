import type { Database, Queryable } from '../../db/database';
import {
  ensurePartitions,
  insertBatch,
  recordSightings,
  separateStats,
  storeEndpointEvents,
  storeMail,
  storeNetworkEvents,
  storeSensorHealth,
  type BatchInput,
  type Sighting,
} from '../ingest/ingest.service';
import type { StoredEvent } from './stored-events';

/**
 * The store step of the pipeline: the batch record and its events, in the batch's transaction,
 * handed on as StoredEvents (with the ids and times they were stored under) for the detection stages.
 */

/** Thrown inside the transaction when a batch with the same Idempotency-Key is stored already. */
export class DuplicateBatch extends Error {}

/** A sighting of a file an event names (built field by field: this runs for most events). */
function sighting(
  sha256: string,
  md5: string | null,
  sha1: string | null,
  filename: string | null,
  eventKind: Sighting['eventKind'],
  eventId: number,
  ts: string,
): Sighting {
  return { sha256, md5, sha1, filename, eventKind, eventId, ts };
}

/** How many events a batch brings: its events, or the one mail message that could be read. */
export function acceptedOf(input: BatchInput): number {
  if (input.kind === 'mail') return input.message ? 1 : 0;
  return input.events.length + (input.kind === 'endpoint' ? (input.inventoryLines ?? 0) : 0);
}

/**
 * Before the batch's transaction: the monthly partitions its events need, each made in its own
 * short transaction.
 */
export async function prepareBatch(db: Database, input: BatchInput, receivedAt: string): Promise<void> {
  if (input.kind === 'network')
    await ensurePartitions(
      db,
      'network_events',
      input.events.map((e) => e.timestamp),
    );
  else if (input.kind === 'endpoint')
    await ensurePartitions(
      db,
      'endpoint_events',
      input.events.map((e) => e.timestamp),
    );
  else if (input.message) {
    const arrived = input.receivedAt ?? receivedAt;
    await ensurePartitions(db, 'mail_messages', [arrived]);
    await ensurePartitions(db, 'mail_attachments', [arrived]);
  }
}

/**
 * Inside the batch's transaction: the batch record (its answer, for retries), the events with
 * their ids, and the hash sightings of the files they name. Throws DuplicateBatch when a batch
 * with the same Idempotency-Key is stored already (committed meanwhile by a concurrent retry,
 * which the insert waits for).
 */
export async function storeBatch(
  tx: Queryable,
  input: BatchInput,
  receivedAt: string,
): Promise<{ batchId: number; stored: StoredEvent[] }> {
  const { companyId, kind, idempotencyKey } = input;
  const accepted = acceptedOf(input);
  // A sensor's stats records are its health, not network events: they are kept apart.
  const network = input.kind === 'network' ? separateStats(input.events, input.texts) : null;
  // The batch record and the events' ids in one round trip.
  const sequence = input.kind === 'mail' ? null : `${input.kind}_events_id_seq`;
  const count = input.kind === 'mail' ? 0 : (network ?? input).events.length;
  const record = await insertBatch(
    tx,
    { companyId, kind, idempotencyKey, tokenId: input.tokenId, accepted, rejected: input.rejected },
    { sequence, count },
  );
  if (!record) throw new DuplicateBatch();
  const batchId = record.id;
  const ids = (record.ids ?? []).map(Number);
  const stored: StoredEvent[] = [];
  if (input.kind === 'network') {
    const { events, texts, stats } = network ?? separateStats(input.events, input.texts);
    const files: Sighting[] = [];
    const refs = await storeNetworkEvents(tx, companyId, batchId, events, ids, texts);
    for (let i = 0; i < refs.length; i++) {
      const { id, ts, event } = refs[i]!;
      stored.push({ kind: 'network', companyId, id, ts, event });
      const file = event.fileinfo;
      if (file?.sha256) files.push(sighting(file.sha256, file.md5, file.sha1, file.filename, 'network', id, ts));
    }
    // Files Suricata saw on the wire: the company's sightings (no bytes) in warehouse/hashes.
    await recordSightings(tx, companyId, files);
    await storeSensorHealth(tx, companyId, input.tokenId, stats);
  } else if (input.kind === 'endpoint') {
    const files: Sighting[] = [];
    const refs = await storeEndpointEvents(tx, companyId, batchId, input.events, ids, input.texts);
    for (let i = 0; i < refs.length; i++) {
      const { id, ts, event } = refs[i]!;
      stored.push({ kind: 'endpoint', companyId, id, ts, event });
      // Executables that ran and files written on hosts: sightings (no bytes) in warehouse/hashes.
      const { process, file } = event;
      const ran = process?.hash;
      if (ran?.sha256)
        files.push(
          sighting(ran.sha256, ran.md5, ran.sha1, process?.name ?? process?.executable ?? null, 'endpoint', id, ts),
        );
      const written = file?.hash;
      if (written?.sha256)
        files.push(
          sighting(written.sha256, written.md5, written.sha1, file?.name ?? file?.path ?? null, 'endpoint', id, ts),
        );
    }
    await recordSightings(tx, companyId, files);
  } else if (input.message) {
    const mail = await storeMail(tx, companyId, batchId, input.receivedAt ?? receivedAt, input.message);
    const { original: _original, ...message } = input.message;
    const event = {
      ...message,
      attachments: message.attachments.map(({ content: _content, ...meta }) => meta),
    };
    stored.push({ kind: 'mail', companyId, id: mail.id, ts: mail.ts, event });
  }
  return { batchId: Number(batchId), stored };
}
