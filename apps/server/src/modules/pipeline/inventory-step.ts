import type { DetectionContext } from './detection-stage';
import type { StoredEvent } from './stored-events';

/**
 * A step that keeps what the events say about the company's estate (assets and the addresses
 * they held) up to date. It runs last in the batch's transaction, after the detection stages and
 * the alerts they raise, so a lock it takes is held only until the commit; it finds nothing and
 * writes only its own tables. Like a detection stage it makes
 * a fixed number of statements per batch, never one per event, keeps no module-level state and
 * never calls out of the process; it must be idempotent (the same events twice change nothing).
 */
export interface InventoryStep {
  /** Short name, for logs and measurements: 'assets'. */
  readonly name: string;
  run(ctx: DetectionContext, events: readonly StoredEvent[]): Promise<void>;
}
