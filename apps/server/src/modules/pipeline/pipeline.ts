import type { IngestAnswer } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { findBatch, type BatchInput } from '../ingest/ingest.service';
import type { SoftwareInventoryItem } from '../ingest/parsers';
import type { LiveEvent } from '../live/live.bus';
import type { DetectionStage } from './detection-stage';
import type { Detection, NewAlert } from './detections';
import type { InventoryStep } from './inventory-step';
import { acceptedOf, DuplicateBatch, prepareBatch, storeBatch } from './store-batch';
import type { StoredEvent } from './stored-events';

/**
 * The detection pipeline. A batch goes, in ONE transaction,
 *
 *   store → software (endpoint batches) → detect (each detection stage in turn) → raise → group →
 *   match → inventory (assets)
 *
 * and, once committed, → publish. Every stage is a function or object it is given when it is
 * built (app.ts, the composition root, wires alerts, incidents, matchers, the indicator index and
 * the live bus in); the pipeline imports none of those modules, and the stages share nothing but
 * the writes of the tables' owners (grouping and matchers change alerts through the alerts
 * service), so each can be built and tested on its own.
 *
 * Batches of one company that arrive while two transactions of its batches are in flight wait,
 * and the next transaction takes those of one kind together (up to MAX_COMBINED_EVENTS events):
 * stored, detected on and raised in one transaction, answered each with its own record once it
 * has committed. Alerts that many batches fold into (a noisy rule on every host) are then
 * updated once per transaction, not once per batch with each batch waiting for the previous one's
 * commit on the same rows. A transaction of several batches that fails is run again batch by
 * batch, so one batch's trouble (a retried Idempotency-Key, a bad record) stays its own. That
 * queue is all the state the pipeline keeps between batches.
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
export type SoftwareInventoryStage = (
  tx: Queryable,
  companyId: number,
  batch: { items: readonly SoftwareInventoryItem[]; stored: readonly StoredEvent[]; receivedAt: string },
) => Promise<void>;

/** What the pipeline is built from. */
export interface PipelineParts {
  db: Database;
  /** Run on every batch last before the commit, in this order: what the events say about the estate. */
  inventorySteps: readonly InventoryStep[];
  /** Software inventory of endpoint batches, right after the store step (software/record.ts). */
  software?: SoftwareInventoryStage;
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

/**
 * Batches of one company and kind that wait together are stored in one transaction, at most this
 * many events in it.
 */
const MAX_COMBINED_EVENTS = 8_000;
/** Transactions of one company's batches in flight at once, in one process. */
const MAX_IN_FLIGHT = 2;

interface Waiting {
  input: BatchInput;
  receivedAt: string;
  resolve: (result: BatchResult) => void;
  reject: (error: unknown) => void;
}

/** One company's batches: those waiting, and how many transactions of its batches are in flight. */
interface Lane {
  waiting: Waiting[];
  running: number;
}

export function createDetectionPipeline(parts: PipelineParts): DetectionPipeline {
  const { db, inventorySteps, detectionStages, publish } = parts;

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

  /**
   * Stores batches of one company in one transaction, detects on all their events and raises
   * once: a batch's answer, and the alerts raised or updated by its transaction.
   */
  const runTogether = async (batches: readonly Waiting[]): Promise<BatchResult[]> => {
    const { companyId } = batches[0]!.input;
    for (const b of batches) await prepareBatch(db, b.input, b.receivedAt);
    const results = await db.transaction(async (tx) => {
      const stored: StoredEvent[] = [];
      const records: { batchId: number; from: number; to: number }[] = [];
      for (const b of batches) {
        const one = await storeBatch(tx, b.input, b.receivedAt);
        if (b.input.kind === 'endpoint' && parts.software)
          await parts.software(tx, companyId, {
            items: b.input.inventory ?? [],
            stored: one.stored,
            receivedAt: b.receivedAt,
          });
        records.push({ batchId: one.batchId, from: stored.length, to: stored.length + one.stored.length });
        for (const e of one.stored) stored.push(e);
      }
      const detections: Detection[] = [];
      const ctx = { companyId, tx };
      for (const stage of detectionStages) for (const d of await stage.detect(ctx, stored)) detections.push(d);
      const raised = await raise(tx, detections);
      // Last in the transaction: a step's per-company lock is then held only until the commit.
      for (const step of inventorySteps) await step.run(ctx, stored);
      // Each batch's own detections, by the events they came from.
      const counts = records.length === 1 ? [detections.length] : records.map(() => 0);
      if (records.length > 1) {
        const position = new Map<string, number>();
        stored.forEach((e, i) => position.set(`${e.kind}:${e.id}`, i));
        for (const d of detections) {
          const at = position.get(`${d.event.kind}:${d.event.id}`);
          const index = at === undefined ? -1 : records.findIndex((r) => at >= r.from && at < r.to);
          if (index >= 0) counts[index]! += 1;
        }
      }
      return batches.map((b, i): BatchResult => ({
        accepted: acceptedOf(b.input),
        rejected: b.input.rejected,
        batch_id: records[i]!.batchId,
        duplicate: false,
        detections: counts[i]!,
        alerts: { created: raised.created, updated: raised.updated },
        // Published once for the transaction, below.
        live: i === 0 ? raised.live : [],
      }));
    });
    // Committed: tell the consoles about new alerts and incidents.
    const live = results[0]!.live;
    if (live.length > 0) await publish(live);
    return results;
  };

  /** One batch in its own transaction; a batch stored before under its key answers as then. */
  const runAlone = async (waiting: Waiting): Promise<BatchResult> => {
    const { companyId, kind, idempotencyKey } = waiting.input;
    try {
      return (await runTogether([waiting]))[0]!;
    } catch (error) {
      if (error instanceof DuplicateBatch && idempotencyKey !== null) {
        const existing = await findBatch(db, companyId, kind, idempotencyKey);
        if (existing)
          return { ...existing, duplicate: true, detections: 0, alerts: { created: [], updated: [] }, live: [] };
      }
      throw error;
    }
  };

  const run = async (batches: Waiting[]): Promise<void> => {
    if (batches.length > 1) {
      let results: BatchResult[] | null = null;
      try {
        results = await runTogether(batches);
      } catch {
        // A retried key, or any other failure: each batch alone, so one batch's trouble is its own.
        results = null;
      }
      if (results) {
        batches.forEach((b, i) => b.resolve(results[i]!));
        return;
      }
    }
    for (const b of batches) {
      try {
        b.resolve(await runAlone(b));
      } catch (error) {
        b.reject(error);
      }
    }
  };

  // Per company: its batches' transactions in flight, and those waiting for one.
  const lanes = new Map<number, Lane>();
  const pump = (companyId: number, lane: Lane) => {
    while (lane.running < MAX_IN_FLIGHT && lane.waiting.length > 0) {
      // The first waiting batch, and those of its kind after it that fit.
      const first = lane.waiting[0]!;
      const together: Waiting[] = [];
      let events = 0;
      lane.waiting = lane.waiting.filter((w) => {
        const n = acceptedOf(w.input);
        const fits =
          w === first ||
          (w.input.kind === first.input.kind &&
            w.input.kind !== 'mail' &&
            events + n <= MAX_COMBINED_EVENTS &&
            !together.some(
              (t) => t.input.idempotencyKey !== null && t.input.idempotencyKey === w.input.idempotencyKey,
            ));
        if (!fits) return true;
        together.push(w);
        events += n;
        return false;
      });
      lane.running++;
      void run(together).finally(() => {
        lane.running--;
        if (lane.running === 0 && lane.waiting.length === 0) lanes.delete(companyId);
        else pump(companyId, lane);
      });
    }
  };

  const runBatch = (input: BatchInput): Promise<BatchResult> =>
    new Promise<BatchResult>((resolve, reject) => {
      const receivedAt = new Date().toISOString();
      let lane = lanes.get(input.companyId);
      if (lane === undefined) lanes.set(input.companyId, (lane = { waiting: [], running: 0 }));
      lane.waiting.push({ input, receivedAt, resolve, reject });
      pump(input.companyId, lane);
    });

  return { stageNames: detectionStages.map((stage) => stage.name), runBatch, raise, publish };
}
