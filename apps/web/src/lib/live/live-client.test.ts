import { describe, expect, it } from 'vitest';
import { LiveClient, parseLiveEvent, type LiveEvent, type LiveSource } from './live-client';

/** An EventSource stand-in the test drives by hand. */
class FakeSource implements LiveSource {
  readyState = 0;
  closed = false;
  onopen: LiveSource['onopen'] = null;
  onerror: LiveSource['onerror'] = null;
  private readonly handlers = new Map<string, ((event: MessageEvent<string>) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: string): void {
    for (const handler of this.handlers.get(type) ?? []) handler({ data } as MessageEvent<string>);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.call(this, new Event('open'));
  }
  fail(closed: boolean): void {
    this.readyState = closed ? 2 : 0;
    this.onerror?.call(this, new Event('error'));
  }
}

function setup() {
  const sources: FakeSource[] = [];
  const client = new LiveClient((url) => {
    const source = new FakeSource(url);
    sources.push(source);
    return source;
  });
  return { client, sources };
}

describe('parseLiveEvent', () => {
  it('reads the wire shape into camelCase', () => {
    expect(parseLiveEvent('alert.created', '{"type":"alert.created","company_id":3,"ids":[7,8],"count":2}')).toEqual({
      type: 'alert.created',
      companyId: 3,
      ids: [7, 8],
      count: 2,
    });
  });

  it('refuses unknown kinds, broken JSON and missing fields', () => {
    expect(parseLiveEvent('user.created', '{"company_id":3,"ids":[],"count":0}')).toBeNull();
    expect(parseLiveEvent('alert.created', '{not json')).toBeNull();
    expect(parseLiveEvent('alert.created', '{"ids":[1],"count":1}')).toBeNull();
    expect(parseLiveEvent('alert.created', 'null')).toBeNull();
  });
});

describe('LiveClient', () => {
  it('opens one stream for all listeners and closes it when the last one leaves', () => {
    const { client, sources } = setup();
    const a: LiveEvent[] = [];
    const b: LiveEvent[] = [];
    const stopA = client.subscribe((event) => a.push(event));
    const stopB = client.subscribe((event) => b.push(event));
    expect(sources).toHaveLength(1);
    expect(sources[0]!.url).toBe('/api/live/');
    sources[0]!.emit('alert.created', '{"company_id":1,"ids":[5],"count":1}');
    expect(a.map((e) => e.ids)).toEqual([[5]]);
    expect(b).toHaveLength(1);
    stopA();
    sources[0]!.emit('incident.updated', '{"company_id":1,"ids":[9],"count":1}');
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(2);
    expect(sources[0]!.closed).toBe(false);
    stopB();
    expect(sources[0]!.closed).toBe(true);
    client.subscribe(() => undefined);
    expect(sources).toHaveLength(2);
  });

  it('ignores events it cannot read', () => {
    const { client, sources } = setup();
    const heard: LiveEvent[] = [];
    client.subscribe((event) => heard.push(event));
    sources[0]!.emit('alert.created', 'garbage');
    expect(heard).toEqual([]);
  });

  it('reports connecting, open, reconnecting and closed', () => {
    const { client, sources } = setup();
    const statuses: string[] = [];
    client.onStatus((status) => statuses.push(status));
    const stop = client.subscribe(() => undefined);
    sources[0]!.open();
    sources[0]!.fail(false);
    sources[0]!.open();
    sources[0]!.fail(true);
    stop();
    expect(statuses).toEqual(['connecting', 'open', 'connecting', 'open', 'closed']);
  });
});
