import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database';
import { sql } from '../../db/sql';
import { IndicatorIndex, type IndexedIndicator, type IndicatorIndexSource } from './indicator-index';
import { loadLiveIndicators } from './indicators.repository';

/** NOTIFY channel on which a process that changed indicators tells the others to rebuild. */
export const INDICATORS_CHANNEL = 'vigil_indicators';

/**
 * Holds one app's matching index (made once by the composition root; ingest, retro-hunt and event
 * verdicts read it through `current()`) and keeps it in step with the indicators table: loaded at
 * start, rebuilt after every committed indicator write here, and on a PostgreSQL server rebuilt
 * when another process announces a change through NOTIFY. Rebuilds are single-flight: writes that arrive while
 * one runs are covered by one more rebuild after it, never by one each.
 */
export class IndicatorIndexService implements IndicatorIndexSource {
  private index = new IndicatorIndex();
  private running: Promise<void> | null = null;
  private again = false;
  private stopListening: (() => Promise<void>) | null = null;
  /** Marks this process's own notifications, which it has acted on already. */
  private readonly origin = randomUUID();

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** The index to match against now (empty until `start` has loaded it). */
  current(): IndicatorIndex {
    return this.index;
  }

  /** Rebuilds the index from the database; resolves when a rebuild that started after this call is done. */
  async reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      // Wait for the current rebuild and the one queued after it.
      while (this.running) await this.running;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          this.index = new IndicatorIndex(await loadLiveIndicators(this.db));
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    await this.running;
  }

  /**
   * Call after an indicator write has committed: applies it here (the indicators written and the
   * ids deleted; a full rebuild when not given) and tells the other processes to rebuild.
   */
  async changed(delta?: { upserted: readonly IndexedIndicator[]; removed: readonly number[] }): Promise<void> {
    if (delta && !this.running) this.index = this.index.withChanges(delta.upserted, delta.removed);
    else await this.reload();
    if (this.db.kind === 'server') {
      await this.db.query(sql`SELECT pg_notify(${INDICATORS_CHANNEL}, ${this.origin})`).catch(this.onError);
    }
  }

  async start(): Promise<void> {
    await this.reload();
    this.stopListening = await this.db.listen(INDICATORS_CHANNEL, (payload) => {
      if (payload !== this.origin) this.reload().catch(this.onError);
    });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = null;
    if (this.running) await this.running.catch(() => undefined);
  }
}
