import type { Database, Queryable } from '../../db/database';
import { copyEscape, copyText, copyWritten, CopyWriter } from '../../db/copy';
import { sql } from '../../db/sql';

/** A hash a company saw, with or without the file's bytes. */
export interface Sighting {
  sha256: string;
  md5: string | null;
  sha1: string | null;
  filename: string | null;
  eventKind: 'mail' | 'network' | 'endpoint';
  eventId: number;
  /** When the event that saw it happened. */
  ts: string;
}

/** The queue's columns, in the order recordSightings writes them. */
const queueColumnNames = [
  'company_id',
  'sha256',
  'md5',
  'sha1',
  'filename',
  'event_kind',
  'event_id',
  'sightings',
  'first_seen',
  'last_seen',
];

/**
 * Queues a company's sightings of hashes in the caller's transaction (they commit with the events
 * that saw them). Appending never waits on another batch; `flushSightings` folds the queue into
 * warehouse/hashes (how often, where first and last).
 */
export async function recordSightings(tx: Queryable, companyId: number, sightings: readonly Sighting[]): Promise<void> {
  if (sightings.length === 0) return;
  // One row per hash and batch: the latest sighting names the event, the count says how many.
  const byHash = new Map<string, { latest: Sighting; first: string; n: number }>();
  for (const s of sightings) {
    const known = byHash.get(s.sha256);
    if (!known) byHash.set(s.sha256, { latest: s, first: s.ts, n: 1 });
    else {
      known.n += 1;
      if (s.ts >= known.latest.ts) known.latest = { ...s, filename: s.filename ?? known.latest.filename };
      if (s.ts < known.first) known.first = s.ts;
    }
  }
  const out = new CopyWriter(byHash.size * 256);
  for (const { latest, first, n } of byHash.values()) {
    out.write(
      `${companyId}\t${copyEscape(latest.sha256)}\t${copyText(latest.md5)}\t${copyText(latest.sha1)}\t${copyText(latest.filename)}\t${latest.eventKind}\t${latest.eventId}\t${n}\t${copyEscape(first)}\t${copyEscape(latest.ts)}`,
    );
    out.endRow();
  }
  await copyWritten(tx, 'warehouse_sightings_queue', queueColumnNames, out);
}

/** Advisory lock key of the one writer that folds the queue (any constant unique to this use). */
const FLUSH_LOCK = 7_314_205_001;

/**
 * Folds every committed queued sighting into warehouse_hashes, in one transaction: the queue rows
 * are deleted as they are counted, so each is counted exactly once even if two processes flush at
 * the same time (the second waits for the first). Rows of batches still in flight stay for the
 * next flush. Answers how many queued rows were folded.
 */
export async function flushSightings(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT pg_advisory_xact_lock(${FLUSH_LOCK}::int8)`);
    const { rowCount } = await tx.query(sql`
      WITH taken AS (
        DELETE FROM warehouse_sightings_queue RETURNING *
      ), folded AS (
        SELECT company_id, sha256, max(md5) AS md5, max(sha1) AS sha1,
               (array_agg(filename ORDER BY id DESC) FILTER (WHERE filename IS NOT NULL))[1] AS filename,
               array_agg(DISTINCT event_kind ORDER BY event_kind) AS sources,
               sum(sightings)::int8 AS sightings,
               (array_agg(event_kind ORDER BY last_seen DESC, id DESC))[1] AS last_event_kind,
               (array_agg(event_id ORDER BY last_seen DESC, id DESC))[1] AS last_event_id,
               min(first_seen) AS first_seen, max(last_seen) AS last_seen
        FROM taken GROUP BY company_id, sha256
      )
      INSERT INTO warehouse_hashes AS h
        (company_id, sha256, md5, sha1, filename, sources, sightings, last_event_kind, last_event_id, first_seen, last_seen)
      SELECT company_id, sha256, md5, sha1, filename, sources, sightings, last_event_kind, last_event_id, first_seen, last_seen
      FROM folded ORDER BY company_id, sha256
      ON CONFLICT (company_id, sha256) DO UPDATE SET
        sightings = h.sightings + excluded.sightings,
        sources = ARRAY(SELECT DISTINCT s FROM unnest(h.sources || excluded.sources) AS s ORDER BY s),
        filename = coalesce(excluded.filename, h.filename),
        md5 = coalesce(h.md5, excluded.md5),
        sha1 = coalesce(h.sha1, excluded.sha1),
        last_event_kind = CASE WHEN excluded.last_seen >= h.last_seen THEN excluded.last_event_kind ELSE h.last_event_kind END,
        last_event_id = CASE WHEN excluded.last_seen >= h.last_seen THEN excluded.last_event_id ELSE h.last_event_id END,
        first_seen = least(h.first_seen, excluded.first_seen),
        last_seen = greatest(h.last_seen, excluded.last_seen)`);
    return rowCount;
  });
}

/**
 * Folds the sightings queue every `intervalMs` in the background (readers of warehouse/hashes
 * also fold before they read, so what they show is never behind what was acknowledged).
 */
export class SightingsFolder {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private next: Promise<unknown> | null = null;

  constructor(
    private readonly db: Database,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.fold().catch(this.onError), this.intervalMs);
    this.timer.unref();
  }

  /**
   * Folds everything committed before the call. A run already under way may have started before
   * the caller's rows committed, so the caller waits for the run after it; callers arriving
   * meanwhile share that one.
   */
  fold(): Promise<unknown> {
    if (this.next) return this.next;
    const before = this.running ?? Promise.resolve();
    const next = before
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        const run = flushSightings(this.db).finally(() => {
          if (this.running === run) this.running = null;
        });
        this.running = run;
        return run;
      });
    this.next = next;
    return next;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.next?.catch(() => undefined);
    await this.running?.catch(() => undefined);
  }
}
