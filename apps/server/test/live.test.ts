import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveBus, type LiveEvent } from '../src/modules/live/live.bus';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let viewer: TestClient;

beforeAll(async () => {
  t = await startTestApp({ LIVE_HEARTBEAT_SECONDS: '1' });
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  const user = await buildUser(t.db, {
    username: 'alpha-viewer',
    companyId: alpha,
    permissions: [
      { basename: 'alerts', actions: ['view'] },
      { basename: 'incidents', actions: ['view'] },
    ],
  });
  viewer = t.client();
  await viewer.signIn(user.username, user.password);
});
afterAll(async () => {
  await t?.close();
});

/** Reads server-sent text until `until` is satisfied or the stream ends. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, until: (text: string) => boolean) {
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) return { text, done: true };
    text += decoder.decode(value, { stream: true });
  }
  return { text, done: false };
}

describe('live updates', () => {
  it('refuses a caller who is not signed in', async () => {
    expect((await t.client().get('/api/live/')).status).toBe(401);
  });

  it('reaches the buses of other server processes through NOTIFY (PostgreSQL server only)', async () => {
    if (t.db.kind !== 'server') return;
    const other = new LiveBus(t.db);
    await other.start();
    const heard: LiveEvent[] = [];
    const got = new Promise<void>((resolve) =>
      other.subscribe((event) => {
        heard.push(event);
        resolve();
      }),
    );
    const event: LiveEvent = { type: 'incident.updated', company_id: alpha, ids: [42], count: 1 };
    await t.app.live.publish([event]);
    await got;
    await other.stop();
    expect(heard).toEqual([event]);
  });

  it('streams events of the user’s companies only, with heartbeats, and ends on shutdown', async () => {
    const response = await fetch(`${t.url}/api/live/`, {
      headers: { cookie: `vigil_session=${viewer.cookie('vigil_session')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    await readUntil(reader, (text) => text.includes(': connected'));

    const theirs = await raise(t.db, [buildDetection(beta, { ruleId: '7001', ip: '10.0.0.1' })]);
    await t.app.live.publish(theirs.live);
    const ours = await raise(t.db, [buildDetection(alpha, { ruleId: '7002', ip: '10.0.0.2' })]);
    await t.app.live.publish(ours.live);
    const { text } = await readUntil(reader, (s) => s.includes('event: alert.created') && s.includes(': heartbeat'));
    const events = text
      .split('\n\n')
      .filter((block) => block.startsWith('event: '))
      .map((block) => JSON.parse(block.split('\ndata: ')[1] ?? '{}') as { company_id: number; ids: number[] });
    expect(events).toEqual([{ type: 'alert.created', company_id: alpha, ids: ours.created, count: 1 }]);

    const patched = await (await t.admin()).patch(`/api/alerts/${ours.created[0]}/`, { status: 'in_progress' });
    expect(patched.status).toBe(200);
    const updated = await readUntil(reader, (s) => s.includes('event: alert.updated'));
    expect(updated.text).toContain(`"company_id":${alpha}`);

    await t.app.close();
    const end = await readUntil(reader, () => false);
    expect(end.done).toBe(true);
  });
});
