import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database';
import { sql } from '../../db/sql';

export const liveEventTypes = ['alert.created', 'alert.updated', 'incident.created', 'incident.updated'] as const;
export type LiveEventType = (typeof liveEventTypes)[number];

/** One live update: what happened to which objects of one company. */
export interface LiveEvent {
  type: LiveEventType;
  company_id: number;
  /** Ids of the objects (at most MAX_IDS; `count` says how many there were). */
  ids: number[];
  count: number;
}

/** NOTIFY channel that carries live events between server processes. */
export const LIVE_CHANNEL = 'vigil_live';
const MAX_IDS = 500;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7000;

/** Groups (type, company, id) triples into events, one per type and company, ids capped. */
export function liveEvents(type: LiveEventType, items: readonly { company_id: number; id: number }[]): LiveEvent[] {
  const byCompany = new Map<number, number[]>();
  for (const item of items) {
    const ids = byCompany.get(item.company_id) ?? [];
    ids.push(item.id);
    byCompany.set(item.company_id, ids);
  }
  return [...byCompany].map(([company_id, ids]) => ({
    type,
    company_id,
    ids: ids.slice(0, MAX_IDS),
    count: ids.length,
  }));
}

type Subscriber = (event: LiveEvent) => void;

function isLiveEvent(value: unknown): value is LiveEvent {
  const v = value as Partial<LiveEvent> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.type === 'string' &&
    (liveEventTypes as readonly string[]).includes(v.type) &&
    typeof v.company_id === 'number' &&
    Array.isArray(v.ids) &&
    typeof v.count === 'number'
  );
}

/**
 * The in-process event bus of live updates. `publish` is called after a change has committed;
 * subscribers in this process hear it at once, and on a PostgreSQL server the events also go out
 * through NOTIFY so the clients of other server processes hear them (each process ignores its own).
 */
export class LiveBus {
  private readonly subscribers = new Set<Subscriber>();
  private readonly origin = randomUUID();
  private stopListening: (() => Promise<void>) | null = null;

  constructor(private readonly db: Database) {}

  /** Starts hearing other processes' events (PostgreSQL server only). */
  async start(): Promise<void> {
    if (this.db.kind !== 'server' || this.stopListening) return;
    this.stopListening = await this.db.listen(LIVE_CHANNEL, (payload) => {
      try {
        const message = JSON.parse(payload) as { o?: unknown; e?: unknown };
        if (message.o === this.origin || !Array.isArray(message.e)) return;
        for (const event of message.e) if (isLiveEvent(event)) this.deliver(event);
      } catch {
        // Not ours to understand; ignore.
      }
    });
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = null;
    await stop?.();
  }

  /** Hears every event published in this process or (on a server database) in any other. */
  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Publishes events of changes that have committed. Never throws: live updates are best effort. */
  async publish(events: readonly LiveEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const event of events) this.deliver(event);
    if (this.db.kind !== 'server') return;
    // Chunks that stay under NOTIFY's payload limit.
    const chunks: LiveEvent[][] = [];
    let current: LiveEvent[] = [];
    let size = 0;
    for (const event of events) {
      const length = JSON.stringify(event).length;
      if (current.length > 0 && size + length > MAX_PAYLOAD) {
        chunks.push(current);
        current = [];
        size = 0;
      }
      current.push(event);
      size += length;
    }
    if (current.length > 0) chunks.push(current);
    try {
      for (const chunk of chunks) {
        await this.db.query(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify({ o: this.origin, e: chunk })})`);
      }
    } catch {
      // Other processes miss this update; their clients refresh on the next one.
    }
  }

  private deliver(event: LiveEvent): void {
    for (const subscriber of this.subscribers) {
      try {
        subscriber(event);
      } catch {
        // One broken subscriber must not silence the others.
      }
    }
  }
}
