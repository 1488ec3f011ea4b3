/**
 * Live updates from `GET /api/live/` (server-sent events): one stream per browser tab, opened while
 * anything listens and closed when the last listener leaves. The browser reconnects by itself
 * (the server asks for a 5 s retry); listeners hear every event of the kinds they asked for.
 */

import { endpoints } from '@vigil/contract/client';

export const liveEventTypes = ['alert.created', 'alert.updated', 'incident.created', 'incident.updated'] as const;
export type LiveEventType = (typeof liveEventTypes)[number];

/** One live update: what happened to which objects of one company (ids capped at 500; `count` is the total). */
export interface LiveEvent {
  type: LiveEventType;
  companyId: number;
  ids: number[];
  count: number;
}

export type LiveListener = (event: LiveEvent) => void;
export type LiveStatus = 'closed' | 'connecting' | 'open';

/** What the client needs of an EventSource (the browser's, or a fake in tests). */
export interface LiveSource {
  readonly readyState: number;
  onopen: ((this: LiveSource, ev: Event) => unknown) | null;
  onerror: ((this: LiveSource, ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export type LiveSourceFactory = (url: string) => LiveSource;

export const LIVE_URL = endpoints.live.stream.path;

/** A live event from its JSON data, or null when the data is not one. */
export function parseLiveEvent(type: string, data: string): LiveEvent | null {
  if (!(liveEventTypes as readonly string[]).includes(type)) return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const wire = value as { company_id?: unknown; ids?: unknown; count?: unknown };
  if (typeof wire.company_id !== 'number' || !Array.isArray(wire.ids) || typeof wire.count !== 'number') return null;
  const ids = wire.ids.filter((id): id is number => typeof id === 'number');
  return { type: type as LiveEventType, companyId: wire.company_id, ids, count: wire.count };
}

export class LiveClient {
  private source: LiveSource | null = null;
  private readonly listeners = new Set<LiveListener>();
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();
  private current: LiveStatus = 'closed';

  constructor(
    private readonly factory: LiveSourceFactory,
    private readonly url = LIVE_URL,
  ) {}

  get status(): LiveStatus {
    return this.current;
  }

  /** Starts hearing events; the returned function stops. The stream opens with the first listener. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    if (!this.source) this.open();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.current) return;
    this.current = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  private open(): void {
    const source = this.factory(this.url);
    this.source = source;
    this.setStatus('connecting');
    source.onopen = () => this.setStatus('open');
    // EventSource retries on its own; CLOSED means the server refused (e.g. signed out).
    source.onerror = () => this.setStatus(source.readyState === 2 ? 'closed' : 'connecting');
    for (const type of liveEventTypes) {
      source.addEventListener(type, (message) => {
        const event = parseLiveEvent(type, message.data);
        if (!event) return;
        for (const listener of [...this.listeners]) listener(event);
      });
    }
  }

  private close(): void {
    this.source?.close();
    this.source = null;
    this.setStatus('closed');
  }
}

let shared: LiveClient | null = null;

/** The tab's one live client (over the browser's EventSource, with the session cookie). */
export function liveClient(): LiveClient {
  shared ??= new LiveClient((url) => new EventSource(url, { withCredentials: true }) as unknown as LiveSource);
  return shared;
}
