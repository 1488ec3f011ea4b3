import type { Queryable } from '../../db/database';
import type { Detection } from './detections';
import type { StoredEvent } from './stored-events';

/** What a detection stage is told about the batch besides its events. */
export interface DetectionContext {
  /** The company the batch belongs to (a batch is one company's events). */
  readonly companyId: number;
  /**
   * The batch's open transaction, for a stage that must read the database. Most stages match in
   * memory only: ingest throughput depends on it, so a stage that queries must do so once per
   * batch, never per event.
   */
  readonly tx: Queryable;
}

/**
 * A detection stage: reads the stored events of one batch and answers what it finds in them,
 * one Detection per finding (deduplication happens later, when alerts are raised). A stage knows
 * nothing of the other stages nor of what happens to its detections, keeps no module-level
 * mutable state (what it needs, such as the indicator index, it is given when it is built), and
 * runs inside the batch's transaction, so it must not call out of the process.
 *
 * Stages run in the order of the list the composition root (app.ts) gives the pipeline; adding
 * one (Sigma, YARA) is one more entry there.
 */
export interface DetectionStage {
  /** Short name, for logs and measurements: 'suricata', 'indicators'… */
  readonly name: string;
  detect(ctx: DetectionContext, events: readonly StoredEvent[]): Detection[] | Promise<Detection[]>;
}
