import type { EndpointEvent, IngestAnswer, NetworkEvent } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { raiseAlerts } from '../alerts/raise-alerts';
import { indicatorDetections } from '../indicators/indicator-detections';
import type { ParsedMailMessage } from '../ingest/parsers';
import { recordSightings, type Sighting } from '../ingest/sightings';
import { ensurePartitions, storeEndpointEvents, storeMail, storeNetworkEvents } from '../ingest/storage';
import type { Detection } from './detections';
import type { StoredEvent } from './stored-events';
import type { LiveEvent } from '../live/live.bus';
import { suricataDetections } from './suricata-stage';

export type BatchKind = 'network' | 'endpoint' | 'mail';

export interface Rejection {
  line: number;
  reason: string;
}

/** One parsed ingest request, ready to be stored. */
export type BatchInput = {
  companyId: number;
  tokenId: number | null;
  idempotencyKey: string | null;
  rejected: Rejection[];
} &
  /** `texts`: the lines the events were read from, one per event, stored as they arrived. */
  (
    | { kind: 'network'; events: NetworkEvent[]; texts?: string[] }
    | { kind: 'endpoint'; events: EndpointEvent[]; texts?: string[] }
    | { kind: 'mail'; message: ParsedMailMessage | null }
  );

export interface BatchResult extends IngestAnswer {
  /** The batch had been stored before under the same Idempotency-Key; this is its answer. */
  duplicate: boolean;
  /** Detections the batch produced. */
  detections: number;
  /** Alerts raised and alerts the batch's detections were folded into. */
  alerts: { created: number[]; updated: number[] };
  /** Live updates to publish now that the batch has committed. */
  live: LiveEvent[];
}

/** A detection stage: reads the stored events of a batch, finds what it finds. */
export interface DetectionStage {
  name: string;
  detect(companyId: number, events: readonly StoredEvent[]): Detection[] | Promise<Detection[]>;
}

/** The detection stages run on every batch, in order, inside the batch's transaction. */
export const detectionStages: DetectionStage[] = [
  { name: 'suricata', detect: (_company, events) => suricataDetections(events) },
  // Policy indicators, from the in-memory index (no database round trip per event).
  { name: 'indicators', detect: (company, events) => indicatorDetections(company, events) },
];

/** What receives the detections inside the transaction: raise and deduplicate alerts (then group, match). */
export type AlertStage = (
  tx: Queryable,
  detections: readonly Detection[],
) => Promise<{ created: number[]; updated: number[]; live: LiveEvent[] }>;

export const alertStage: AlertStage = (tx, detections) => raiseAlerts(tx, detections);

class DuplicateBatch extends Error {}

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

async function findBatch(db: Queryable, companyId: number, kind: BatchKind, key: string): Promise<BatchResult | null> {
  const { rows } = await db.query<{ id: number; accepted: number; rejected: Rejection[] }>(sql`
    SELECT id, accepted, rejected FROM ingest_batches
    WHERE company_id = ${companyId} AND kind = ${kind} AND idempotency_key = ${key}`);
  const row = rows[0];
  if (!row) return null;
  return {
    accepted: row.accepted,
    rejected: row.rejected,
    batch_id: Number(row.id),
    duplicate: true,
    detections: 0,
    alerts: { created: [], updated: [] },
    live: [],
  };
}

/**
 * Runs one batch through the pipeline in ONE transaction: the batch record (its answer, for
 * retries), the events (with their ids), detections, alerts. Resolves only once committed, so an
 * answer sent from it is an acknowledgement that the batch is durable. A batch with an
 * Idempotency-Key already stored answers the stored batch's result and stores nothing.
 */
export async function runBatch(db: Database, input: BatchInput): Promise<BatchResult> {
  const { companyId, kind, idempotencyKey } = input;
  const receivedAt = new Date().toISOString();
  const accepted = input.kind === 'mail' ? (input.message ? 1 : 0) : input.events.length;
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
    await ensurePartitions(db, 'mail_messages', [receivedAt]);
    await ensurePartitions(db, 'mail_attachments', [receivedAt]);
  }
  try {
    return await db.transaction(async (tx) => {
      // The batch record and the events' ids in one round trip. A batch already stored under the
      // same key (committed meanwhile by a concurrent retry, which this insert waits for) yields no row.
      const sequence = input.kind === 'mail' ? null : `${input.kind}_events_id_seq`;
      const count = input.kind === 'mail' ? 0 : input.events.length;
      const { rows } = await tx.query<{ id: number; ids: number[] | null }>(sql`
        WITH b AS (
          INSERT INTO ingest_batches (company_id, kind, idempotency_key, token_id, accepted, rejected)
          VALUES (${companyId}, ${kind}, ${idempotencyKey}, ${input.tokenId}, ${accepted}, ${JSON.stringify(input.rejected)}::jsonb)
          ON CONFLICT DO NOTHING
          RETURNING id)
        SELECT b.id, CASE WHEN ${sequence}::text IS NULL THEN NULL
          ELSE ARRAY(SELECT nextval(${sequence}::regclass) FROM generate_series(1, ${count}::int4)) END AS ids
        FROM b`);
      const batchId = rows[0]?.id;
      if (batchId === undefined) throw new DuplicateBatch();
      const ids = (rows[0]?.ids ?? []).map(Number);
      const stored: StoredEvent[] = [];
      if (input.kind === 'network') {
        const files: Sighting[] = [];
        const refs = await storeNetworkEvents(tx, companyId, batchId, input.events, ids, input.texts);
        for (let i = 0; i < refs.length; i++) {
          const { id, ts, event } = refs[i]!;
          stored.push({ kind: 'network', companyId, id, ts, event });
          const file = event.fileinfo;
          if (file?.sha256) files.push(sighting(file.sha256, file.md5, file.sha1, file.filename, 'network', id, ts));
        }
        // Files Suricata saw on the wire: the company's sightings (no bytes) in warehouse/hashes.
        await recordSightings(tx, companyId, files);
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
        const mail = await storeMail(tx, companyId, batchId, receivedAt, input.message);
        const event = {
          ...input.message,
          attachments: input.message.attachments.map(({ content: _content, ...meta }) => meta),
        };
        stored.push({ kind: 'mail', companyId, id: mail.id, ts: mail.ts, event });
      }
      const detections: Detection[] = [];
      for (const stage of detectionStages) detections.push(...(await stage.detect(companyId, stored)));
      const raised = detections.length > 0 ? await alertStage(tx, detections) : { created: [], updated: [], live: [] };
      return {
        accepted,
        rejected: input.rejected,
        batch_id: Number(batchId),
        duplicate: false,
        detections: detections.length,
        alerts: { created: raised.created, updated: raised.updated },
        live: raised.live,
      };
    });
  } catch (error) {
    if (error instanceof DuplicateBatch && idempotencyKey !== null) {
      const existing = await findBatch(db, companyId, kind, idempotencyKey);
      if (existing) return existing;
    }
    throw error;
  }
}
