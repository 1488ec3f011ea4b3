import type { IngestAnswer } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { findBatch, type BatchInput } from '../ingest/ingest.service';
import type { SoftwareInventoryItem } from '../ingest/parsers';
import type { LiveEvent } from '../live/live.bus';
import type { DetectionStage } from './detection-stage';
import type { Detection, NewAlert } from './detections';
import type { StoredEvent } from './stored-events';
import { acceptedOf, DuplicateBatch, prepareBatch, storeBatch } from './store-batch';

/**
 * The detection pipeline. A batch goes, in ONE transaction,
 *
 *   store → inventory (endpoint batches) → detect (each detection stage in turn) → raise → group → match
 *
 * and, once committed, → publish. Every stage is a function or object it is given when it is
 * built (app.ts, the composition root, wires alerts, incidents, matchers, the indicator index and
 * the live bus in); the pipeline imports none of those modules, and the stages share nothing but
 * the writes of the tables' owners (grouping and matchers change alerts through the alerts
 * service), so each can be built and tested on its own. It keeps no state between batches.
 */

/** Raises and deduplicates alerts from detections in the caller's transaction (alerts/raise-alerts.ts). */
export type RaiseStage = (
  tx: Queryable,
  detections: readonly Detection[],
) => Promise<{ created: NewAlert[]; updated: number[]; live: LiveEvent[] }>;

/** Acts on the new alerts of a batch in its transaction: incident grouping, matchers. */
export type NewAlertStage = (tx: Queryable, alerts: readonly NewAlert[]) => Promise<{ live: LiveEvent[] }>;

/**
 * Records what an endpoint batch tells of the estate in its transaction: the packages of its
 * inventory lines and the products of the process images its events ran (software/record.ts).
 */
export type InventoryStage = (
  tx: Queryable,
  companyId: number,
  batch: { items: readonly SoftwareInventoryItem[]; stored: readonly StoredEvent[]; receivedAt: string },
) => Promise<void>;

/** What the pipeline is built from. */
export interface PipelineParts {
  db: Database;
  /** Software inventory of endpoint batches, after the store step. */
  inventory?: InventoryStage;
  /** Run on every batch, in this order; adding a detection engine is one more entry. */
  detectionStages: readonly DetectionStage[];
  raise: RaiseStage;
  /** Incident grouping of the new alerts (incidents/grouping.ts). */
  group: NewAlertStage;
  /** Matchers over the new alerts (matchers/apply-matchers.ts). */
  match: NewAlertStage;
  /** Publishes live updates once their transaction has committed; must not throw. */
  publish: (live: LiveEvent[]) => Promise<void>;
}

/** What raising a set of detections came to. */
export interface DetectionOutcome {
  /** Alerts raised. */
  created: number[];
  /** Existing alerts the detections were folded into. */
  updated: number[];
  /** Live updates to publish once the transaction has committed (alerts, then incidents). */
  live: LiveEvent[];
}

export interface BatchResult extends IngestAnswer {
  /** The batch had been stored before under the same Idempotency-Key; this is its answer. */
  duplicate: boolean;
  /** Detections the batch produced. */
  detections: number;
  /** Alerts raised and alerts the batch's detections were folded into. */
  alerts: { created: number[]; updated: number[] };
  /** Live updates published after the batch committed. */
  live: LiveEvent[];
}

export interface DetectionPipeline {
  /** The names of the detection stages, in the order they run. */
  readonly stageNames: readonly string[];
  /**
   * Runs one ingested batch through the whole pipeline. Resolves only once committed (so an answer
   * sent from it acknowledges a durable batch) and its live updates published. A batch whose
   * Idempotency-Key is stored already answers that batch's result and stores nothing.
   */
  runBatch(input: BatchInput): Promise<BatchResult>;
  /**
   * Raise → group → match for detections found outside a batch (retro-hunt), in the caller's
   * transaction, exactly as for a batch. The caller publishes `live` after commit (`publish`).
   */
  raise(tx: Queryable, detections: readonly Detection[]): Promise<DetectionOutcome>;
  /** Publishes live updates of a committed transaction (never throws). */
  publish(live: LiveEvent[]): Promise<void>;
}

const nothingRaised = (): DetectionOutcome => ({ created: [], updated: [], live: [] });

export function createDetectionPipeline(parts: PipelineParts): DetectionPipeline {
  const { db, detectionStages, publish } = parts;

  const raise = async (tx: Queryable, detections: readonly Detection[]): Promise<DetectionOutcome> => {
    if (detections.length === 0) return nothingRaised();
    const raised = await parts.raise(tx, detections);
    const grouped = await parts.group(tx, raised.created);
    const matched = await parts.match(tx, raised.created);
    return {
      created: raised.created.map((a) => a.id),
      updated: raised.updated,
      live: [...raised.live, ...grouped.live, ...matched.live],
    };
  };

  const runBatch = async (input: BatchInput): Promise<BatchResult> => {
    const { companyId, kind, idempotencyKey } = input;
    const receivedAt = new Date().toISOString();
    await prepareBatch(db, input, receivedAt);
    let result: BatchResult;
    try {
      result = await db.transaction(async (tx) => {
        const { batchId, stored } = await storeBatch(tx, input, receivedAt);
        if (input.kind === 'endpoint' && parts.inventory) {
          await parts.inventory(tx, companyId, { items: input.inventory ?? [], stored, receivedAt });
        }
        const detections: Detection[] = [];
        const ctx = { companyId, tx };
        for (const stage of detectionStages) detections.push(...(await stage.detect(ctx, stored)));
        const raised = await raise(tx, detections);
        return {
          accepted: acceptedOf(input),
          rejected: input.rejected,
          batch_id: batchId,
          duplicate: false,
          detections: detections.length,
          alerts: { created: raised.created, updated: raised.updated },
          live: raised.live,
        };
      });
    } catch (error) {
      if (error instanceof DuplicateBatch && idempotencyKey !== null) {
        const existing = await findBatch(db, companyId, kind, idempotencyKey);
        if (existing)
          return { ...existing, duplicate: true, detections: 0, alerts: { created: [], updated: [] }, live: [] };
      }
      throw error;
    }
    // Committed: tell the consoles about new alerts and incidents.
    if (result.live.length > 0) await publish(result.live);
    return result;
  };

  return { stageNames: detectionStages.map((stage) => stage.name), runBatch, raise, publish };
}
