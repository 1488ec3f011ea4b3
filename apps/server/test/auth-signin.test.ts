import { createHash } from 'node:crypto';
import type { ApiToken, AuthState } from '@vigil/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { unlockUser } from '../src/modules/users/users.service';
import { auditActions, userRow, type Detail, type Errors } from './helpers/auth-helpers';
import { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

const BAD = { errors: { non_field_errors: ['The username or password is not correct.'] } };

let t: TestApp;
let alpha: number;
let beta: number;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_FAILURES: '3', LOGIN_LOCKOUT_MINUTES: '15', LOGIN_IP_MAX_FAILURES: '8' });
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
});
afterAll(async () => {
  await t?.close();
});
// Every test here signs in from 127.0.0.1: start each with a clean per-address record.
beforeEach(async () => {
  await t.db.query(sql`DELETE FROM auth_failures`);
});

async function signIn(client: TestClient, username: string, password: string) {
  return client.post<AuthState & Errors>('/api/auth/', { username, password });
}

describe('lock-out after repeated failures', () => {
  it('answers unknown users, wrong passwords and locked accounts alike, and audits the lock', async () => {
    const carol = await buildUser(t.db, { username: 'carol', companyId: alpha });
    const client = t.client();
    const unknown = await signIn(client, 'nobody-here', 'whatever-1');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(BAD);
    for (let i = 0; i < 3; i += 1) {
      const wrong = await signIn(client, 'carol', `wrong-${i}`);
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual(BAD);
    }
    // Locked now: even the right password gets the same answer.
    const locked = await signIn(client, 'carol', carol.password);
    expect(locked.status).toBe(400);
    expect(locked.body).toEqual(BAD);
    const row = await userRow<{ locked_until: Date | null }>(t.db, carol.id);
    expect(row.locked_until!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(await auditActions(t.db, carol.id)).toEqual([
      'login_failed',
      'login_failed',
      'login_failed',
      'lock',
      'login_refused',
    ]);
    const { rows } = await t.db.query<{ changes: Record<string, { after: unknown }>; ip: string }>(
      sql`SELECT changes, ip FROM system_logs WHERE action = 'login_refused' AND object_id = ${String(carol.id)}`,
    );
    expect(rows[0]?.changes.reason?.after).toBe('locked');
    expect(rows[0]?.ip).toBe('127.0.0.1');
  });

  it('lets an administrator of the company clear the lock-out, and nobody else', async () => {
    const dave = await buildUser(t.db, { username: 'dave', companyId: alpha });
    await t.db.query(
      sql`UPDATE users SET locked_until = now() + interval '1 hour', failed_logins = 2 WHERE id = ${dave.id}`,
    );
    await buildUser(t.db, {
      username: 'alpha-admin',
      companyId: alpha,
      permissions: [{ basename: 'users', actions: ['view', 'change'] }],
    });
    await buildUser(t.db, {
      username: 'beta-admin',
      companyId: beta,
      permissions: [{ basename: 'users', actions: ['view', 'change'] }],
    });
    await buildUser(t.db, {
      username: 'alpha-viewer',
      companyId: alpha,
      permissions: [{ basename: 'users', actions: ['view'] }],
    });
    const betaAdmin = t.client();
    await betaAdmin.signIn('beta-admin', 'User-password-1');
    expect((await betaAdmin.post(`/api/users/${dave.id}/unlock/`)).status).toBe(404);
    const viewer = t.client();
    await viewer.signIn('alpha-viewer', 'User-password-1');
    expect((await viewer.post(`/api/users/${dave.id}/unlock/`)).status).toBe(403);
    expect((await signIn(t.client(), 'dave', dave.password)).status).toBe(400);

    const alphaAdmin = t.client();
    await alphaAdmin.signIn('alpha-admin', 'User-password-1');
    expect((await alphaAdmin.post('/api/users/999999/unlock/')).status).toBe(404);
    expect((await alphaAdmin.post('/api/users/abc/unlock/')).status).toBe(404);
    const unlocked = await alphaAdmin.post(`/api/users/${dave.id}/unlock/`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toEqual({ locked: false });
    expect(await auditActions(t.db, dave.id)).toContain('unlock');
    expect((await signIn(t.client(), 'dave', dave.password)).status).toBe(200);
  });

  it('exports unlockUser for the command line and other callers', async () => {
    const erin = await buildUser(t.db, { username: 'erin', companyId: alpha });
    await t.db.query(sql`UPDATE users SET locked_until = now() + interval '1 hour' WHERE id = ${erin.id}`);
    expect(await unlockUser(t.db, erin.id)).toBe(true);
    expect(await unlockUser(t.db, erin.id)).toBe(false);
    expect(await unlockUser(t.db, 987654)).toBe(false);
    expect((await signIn(t.client(), 'erin', erin.password)).status).toBe(200);
  });

  it('counts consecutive failures only: a success starts again, and notes the time', async () => {
    const fred = await buildUser(t.db, { username: 'fred', companyId: alpha });
    for (let round = 0; round < 2; round += 1) {
      await signIn(t.client(), 'fred', 'wrong-a');
      await signIn(t.client(), 'fred', 'wrong-b');
      expect((await userRow<{ failed_logins: number }>(t.db, fred.id)).failed_logins).toBe(2);
      expect((await signIn(t.client(), 'fred', fred.password)).status).toBe(200);
      const row = await userRow<{ failed_logins: number; last_login_at: Date | null }>(t.db, fred.id);
      expect(row.failed_logins).toBe(0);
      expect(row.last_login_at).not.toBeNull();
    }
  });

  it('ends a lock-out by itself once its time has passed', async () => {
    const gina = await buildUser(t.db, { username: 'gina', companyId: alpha });
    for (let i = 0; i < 3; i += 1) await signIn(t.client(), 'gina', 'wrong');
    expect((await signIn(t.client(), 'gina', gina.password)).status).toBe(400);
    await t.db.query(sql`UPDATE users SET locked_until = now() - interval '1 second' WHERE id = ${gina.id}`);
    expect((await signIn(t.client(), 'gina', gina.password)).status).toBe(200);
  });
});

describe('per-address limit', () => {
  it('answers 429 with a clear message after too many failures from one address, whoever they name', async () => {
    const hank = await buildUser(t.db, { username: 'hank', companyId: alpha });
    for (let i = 0; i < 8; i += 1) {
      expect((await signIn(t.client(), `ghost-${i}`, 'whatever-1')).status).toBe(400);
    }
    const limited = await signIn(t.client(), 'hank', hank.password);
    expect(limited.status).toBe(429);
    expect((limited.body as unknown as Detail).detail).toMatch(/Too many failed sign-in attempts.*15 minutes/);
    // Failures older than the window stop counting.
    await t.db.query(sql`UPDATE auth_failures SET at = now() - interval '16 minutes'`);
    expect((await signIn(t.client(), 'hank', hank.password)).status).toBe(200);
  });
});

describe('IP allow-list', () => {
  it('refuses sign-in from an address outside the list with the usual answer, and audits why', async () => {
    const ivan = await buildUser(t.db, { username: 'ivan', companyId: alpha });
    await t.db.query(sql`UPDATE users SET ip_whitelist = ${['10.0.0.0/8', '2001:db8::/32']} WHERE id = ${ivan.id}`);
    const refused = await signIn(t.client(), 'ivan', ivan.password);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(BAD);
    const { rows } = await t.db.query<{ changes: Record<string, { after: unknown }> }>(
      sql`SELECT changes FROM system_logs WHERE action = 'login_refused' AND object_id = ${String(ivan.id)}`,
    );
    expect(rows[0]?.changes.reason?.after).toBe('ip_not_allowed');
    // The address in a listed range (IPv4 here) may sign in.
    await t.db.query(sql`UPDATE users SET ip_whitelist = ${['2001:db8::/32', '127.0.0.0/8']} WHERE id = ${ivan.id}`);
    expect((await signIn(t.client(), 'ivan', ivan.password)).status).toBe(200);
  });

  it('checks every request: a session or a key used from elsewhere gets 403 ip_not_allowed', async () => {
    const judy = await buildUser(t.db, { username: 'judy', companyId: alpha, privileged: { api_tokens: true } });
    const client = t.client();
    await client.signIn('judy', judy.password);
    const token = (await client.post<ApiToken>('/api/users/me/token/')).body.token;
    expect((await client.post('/api/sessions/count/', {})).status).toBe(200);
    await t.db.query(sql`UPDATE users SET ip_whitelist = ${['192.0.2.0/24']} WHERE id = ${judy.id}`);
    const refused = await client.post<Detail>('/api/sessions/count/', {});
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ip_not_allowed');
    const viaToken = await t.client().request<Detail>('POST', '/api/sessions/count/', {
      body: {},
      headers: { authorization: `Token ${token}` },
    });
    expect(viaToken.status).toBe(403);
    expect(viaToken.body.code).toBe('ip_not_allowed');
    // The sign-in page still loads; it just does not see a signed-in user.
    const state = await client.get<AuthState>('/api/auth/');
    expect(state.status).toBe(200);
    expect(state.body.authenticated).toBe(false);
  });
});

describe('sessions that no longer count', () => {
  it('answers 401 for an expired, an idle and an ended session', async () => {
    const kate = await buildUser(t.db, { username: 'kate', companyId: alpha });
    const hashOf = (client: TestClient) => createHash('sha256').update(client.cookie('vigil_session')!).digest('hex');

    const expired = t.client();
    await expired.signIn('kate', kate.password);
    await t.db.query(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${hashOf(expired)}`);
    expect((await expired.post('/api/sessions/count/', {})).status).toBe(401);
    expect((await expired.get<AuthState>('/api/auth/')).body.authenticated).toBe(false);

    const idle = t.client();
    await idle.signIn('kate', kate.password);
    await t.db.query(sql`UPDATE sessions SET last_seen_at = now() - interval '13 hours' WHERE id = ${hashOf(idle)}`);
    expect((await idle.post('/api/sessions/count/', {})).status).toBe(401);

    const ended = t.client();
    await ended.signIn('kate', kate.password);
    const cookie = ended.cookie('vigil_session')!;
    expect((await ended.delete('/api/auth/')).status).toBe(200);
    ended.setCookie('vigil_session', cookie);
    expect((await ended.post('/api/sessions/count/', {})).status).toBe(401);

    // A session that is used stays alive.
    const active = t.client();
    await active.signIn('kate', kate.password);
    expect((await active.post('/api/sessions/count/', {})).status).toBe(200);
  });

  it('gives a new session id at each sign-in and ends the previous one', async () => {
    const leo = await buildUser(t.db, { username: 'leo', companyId: alpha });
    const client = t.client();
    await client.signIn('leo', leo.password);
    const first = client.cookie('vigil_session')!;
    await client.signIn('leo', leo.password);
    const second = client.cookie('vigil_session')!;
    expect(second).not.toBe(first);
    const stale = new TestClient(t.url);
    stale.setCookie('vigil_session', first);
    expect((await stale.post('/api/sessions/count/', {})).status).toBe(401);
  });
});

describe('API tokens', () => {
  it('are only made for a superuser or a user granted the api_tokens privilege', async () => {
    const noah = await buildUser(t.db, { username: 'noah', companyId: alpha });
    const browser = t.client();
    await browser.signIn('noah', noah.password);
    const refused = await browser.post<{ detail: string }>('/api/users/me/token/');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/API tokens/);
    expect((await userRow<{ token_hash: string | null }>(t.db, noah.id)).token_hash).toBeNull();
    await t.db.query(sql`UPDATE users SET privileged_settings = '{"api_tokens": true}'::jsonb WHERE id = ${noah.id}`);
    expect((await browser.post('/api/users/me/token/')).status).toBe(200);
  });

  it('shows the key once, stores only its hash, authenticates without cookies or CSRF, and revokes', async () => {
    const mia = await buildUser(t.db, {
      username: 'mia',
      companyId: alpha,
      permissions: [{ basename: 'system_logs', actions: ['view'] }],
      privileged: { api_tokens: true },
    });
    const browser = t.client();
    await browser.signIn('mia', mia.password);
    const created = await browser.post<ApiToken>('/api/users/me/token/');
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { token, token_creation_ts } = created.body;
    expect(token).toMatch(/^vigil_[A-Za-z0-9_-]{43}$/);
    expect(new Date(token_creation_ts).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const row = await userRow<{ token_hash: string }>(t.db, mia.id);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    const machine = new TestClient(t.url);
    machine.csrf = false;
    const auth = { authorization: `Token ${token}` };
    const state = await machine.get<AuthState>('/api/auth/', auth);
    expect(state.body.user?.username).toBe('mia');
    expect(state.body.user?.two_factor_passed).toBe(true);
    const list = await machine.request('POST', '/api/system_logs/check/', { body: {}, headers: auth });
    expect(list.status).toBe(200);

    // A new key replaces the old one.
    const second = (await browser.post<ApiToken>('/api/users/me/token/')).body.token;
    expect(second).not.toBe(token);
    expect((await machine.request('POST', '/api/sessions/count/', { body: {}, headers: auth })).status).toBe(401);
    const auth2 = { authorization: `Token ${second}` };
    expect((await machine.request('POST', '/api/sessions/count/', { body: {}, headers: auth2 })).status).toBe(200);

    expect((await browser.delete('/api/users/me/token/')).body).toEqual({ token_creation_ts: null });
    const revoked = await machine.request<Detail>('POST', '/api/sessions/count/', { body: {}, headers: auth2 });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('invalid_token');
    expect((await machine.get('/api/auth/', auth2)).status).toBe(401);
    expect((await machine.get('/api/auth/', { authorization: 'Token vigil_unknown' })).status).toBe(401);
    expect((await machine.get('/api/auth/', { authorization: 'Token ' })).status).toBe(401);
    expect(await auditActions(t.db, mia.id)).toEqual(expect.arrayContaining(['create_token', 'revoke_token']));
  });

  it('never lets a key header carry a cookie session past the anti-forgery check', async () => {
    const nina = await buildUser(t.db, { username: 'nina', companyId: alpha });
    const client = t.client();
    await client.signIn('nina', nina.password);
    client.csrf = false;
    const answer = await client.request('POST', '/api/users/me/token/', {
      headers: { authorization: 'Token not-a-real-key' },
    });
    expect(answer.status).toBe(401);
    expect((await userRow<{ token_hash: string | null }>(t.db, nina.id)).token_hash).toBeNull();
  });
});

describe('anti-forgery on every unsafe route', () => {
  const unsafe = () =>
    t.app.guardedRoutes
      .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && r.url.startsWith('/api/'))
      // Sensors' ingest endpoints take only an `Authorization: Bearer` key and ignore cookies, so
      // there is no session to forge (test/ingest.test.ts checks they refuse anything but a key).
      .filter((r) => !/^\/api\/ingest\/(network|endpoint|mail)\/$/.test(r.url))
      .map((r) => ({
        method: r.method,
        path: r.url.replace(/:(\w+)/g, (_, name: string) => (name === 'token' ? 'abc' : '1')),
      }));

  it('covers a meaningful set of routes', () => {
    expect(unsafe().length).toBeGreaterThan(15);
    expect(unsafe().map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/',
        'DELETE /api/auth/',
        'POST /api/users/password/change/',
        'DELETE /api/sessions/',
      ]),
    );
  });

  it('answers 403 without X-CSRFToken, or with a wrong one, signed in or not', async () => {
    const admin = await t.admin();
    admin.csrf = false;
    const anonymous = t.client();
    anonymous.csrf = false;
    await anonymous.get('/api/auth/');
    const problems: string[] = [];
    for (const route of unsafe()) {
      for (const [who, client, headers] of [
        ['admin without header', admin, {}],
        ['admin with a wrong header', admin, { 'x-csrftoken': 'forged' }],
        ['anonymous without header', anonymous, {}],
      ] as const) {
        const answer = await client.request<Detail>(route.method, route.path, { body: {}, headers });
        if (answer.status !== 403 || answer.body.code !== 'csrf_failed') {
          problems.push(`${route.method} ${route.path} (${who}): ${answer.status}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The administrator's session is intact: nothing was done.
    admin.csrf = true;
    expect((await admin.get<AuthState>('/api/auth/')).body.authenticated).toBe(true);
  });
});
