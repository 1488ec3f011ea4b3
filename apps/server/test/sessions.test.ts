import { createHash } from 'node:crypto';
import type { ListAnswer, UserSession } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { Errors } from './helpers/auth-helpers';
import { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
});
afterAll(async () => {
  await t?.close();
});

/** A browser with its own user agent, signed in as `username`. */
async function browser(username: string, password: string, agent: string): Promise<TestClient> {
  const client = new TestClient(t.url);
  const original = client.request.bind(client);
  client.request = (method, path, options = {}) =>
    original(method, path, { ...options, headers: { 'user-agent': agent, ...options.headers } });
  await client.signIn(username, password);
  return client;
}

describe('my sessions', () => {
  it("lists only the caller's open sessions, with an opaque id and which one is current", async () => {
    const user = await buildUser(t.db, { username: 'sara', companyId: alpha });
    const other = await buildUser(t.db, { username: 'tom', companyId: alpha });
    const firefox = await browser('sara', user.password, 'Firefox/140');
    const chrome = await browser('sara', user.password, 'Chrome/139');
    const ended = await browser('sara', user.password, 'Safari/18');
    await ended.delete('/api/auth/');
    await browser('tom', other.password, 'Edge/130');

    const list = await firefox.post<ListAnswer<UserSession>>('/api/sessions/check/', {});
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    for (const session of list.body.results) {
      expect(Object.keys(session).sort()).toEqual(['created_at', 'current', 'id', 'ip', 'last_seen_at', 'user_agent']);
      expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(session.ip).toBe('127.0.0.1');
    }
    expect(list.body.results.filter((s) => s.current).map((s) => s.user_agent)).toEqual(['Firefox/140']);
    expect(list.body.results.map((s) => s.user_agent).sort()).toEqual(['Chrome/139', 'Firefox/140']);
    // The id is not the stored hash of the cookie, nor the cookie.
    const hash = createHash('sha256').update(firefox.cookie('vigil_session')!).digest('hex');
    expect(JSON.stringify(list.body)).not.toContain(hash.slice(0, 16));
    expect(JSON.stringify(list.body)).not.toContain(firefox.cookie('vigil_session'));

    expect((await chrome.post('/api/sessions/count/', {})).body).toEqual({ count: 2 });
    const searched = await chrome.post<ListAnswer<UserSession>>('/api/sessions/check/', { search: 'fire' });
    expect(searched.body.results.map((s) => s.user_agent)).toEqual(['Firefox/140']);
    const current = await chrome.post<ListAnswer<UserSession>>('/api/sessions/check/', { current: true });
    expect(current.body.results.map((s) => s.user_agent)).toEqual(['Chrome/139']);
    const ordered = await chrome.post<ListAnswer<UserSession>>('/api/sessions/check/?ordering=created_at', {});
    expect(ordered.body.results.map((s) => s.user_agent)).toEqual(['Firefox/140', 'Chrome/139']);
    const paged = await chrome.post<ListAnswer<UserSession>>('/api/sessions/check/?page_size=1', {});
    expect(paged.body.results).toHaveLength(1);
    expect(paged.body.next).toContain('page=2');
    const next = await chrome.post<ListAnswer<UserSession>>(paged.body.next!, {});
    expect(next.body.results).toHaveLength(1);
    expect(next.body.results[0]?.id).not.toBe(paged.body.results[0]?.id);
  });

  it('refuses bad filters and orderings with field errors', async () => {
    const user = await buildUser(t.db, { username: 'uri', companyId: alpha });
    const client = await browser('uri', user.password, 'Test/1');
    const unknown = await client.post<Errors>('/api/sessions/check/', { user_id: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty('user_id');
    const ordering = await client.post<Errors>('/api/sessions/check/?ordering=ip', {});
    expect(ordering.status).toBe(400);
    expect(ordering.body.errors).toHaveProperty('ordering');
    expect((await t.client().post('/api/sessions/check/', {})).status).toBe(401);
  });

  it("ends one session by id, and answers 404 for someone else's or an unknown one", async () => {
    const user = await buildUser(t.db, { username: 'vera', companyId: alpha });
    const other = await buildUser(t.db, { username: 'walt', companyId: alpha });
    const laptop = await browser('vera', user.password, 'Laptop/1');
    const phone = await browser('vera', user.password, 'Phone/1');
    const walt = await browser('walt', other.password, 'Walt/1');
    const mine = await laptop.post<ListAnswer<UserSession>>('/api/sessions/check/', {});
    const phoneId = mine.body.results.find((s) => s.user_agent === 'Phone/1')!.id;
    const waltId = (await walt.post<ListAnswer<UserSession>>('/api/sessions/check/', {})).body.results[0]!.id;

    expect((await laptop.delete(`/api/sessions/${waltId}/`)).status).toBe(404);
    expect((await laptop.delete('/api/sessions/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
    expect((await laptop.delete('/api/sessions/not-a-uuid/')).status).toBe(404);
    expect((await walt.post('/api/sessions/count/', {})).status).toBe(200);

    const ended = await laptop.delete(`/api/sessions/${phoneId}/`);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 1 });
    expect((await phone.post('/api/sessions/count/', {})).status).toBe(401);
    expect((await laptop.delete(`/api/sessions/${phoneId}/`)).status).toBe(404);
    const { rows } = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int8 AS n FROM system_logs WHERE action = 'end_session' AND object_id = ${phoneId}`,
    );
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('ends every session but the current one', async () => {
    const user = await buildUser(t.db, { username: 'xavi', companyId: alpha });
    const keep = await browser('xavi', user.password, 'Keep/1');
    const others = [await browser('xavi', user.password, 'A/1'), await browser('xavi', user.password, 'B/1')];
    const answer = await keep.delete('/api/sessions/');
    expect(answer.body).toEqual({ ended: 2 });
    for (const client of others) expect((await client.post('/api/sessions/count/', {})).status).toBe(401);
    expect((await keep.post('/api/sessions/count/', {})).body).toEqual({ count: 1 });
    expect((await keep.delete('/api/sessions/')).body).toEqual({ ended: 0 });
  });

  it('does not list expired or idle sessions', async () => {
    const user = await buildUser(t.db, { username: 'yara', companyId: alpha });
    const client = await browser('yara', user.password, 'Now/1');
    await browser('yara', user.password, 'Old/1');
    await browser('yara', user.password, 'Idle/1');
    await t.db.query(sql`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_agent = 'Old/1'`);
    await t.db.query(sql`UPDATE sessions SET last_seen_at = now() - interval '1 day' WHERE user_agent = 'Idle/1'`);
    const list = await client.post<ListAnswer<UserSession>>('/api/sessions/check/', {});
    expect(list.body.results.map((s) => s.user_agent)).toEqual(['Now/1']);
  });
});
