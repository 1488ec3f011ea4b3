import type { ApiToken, Role } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { FLOW } from '../src/modules/ingest/parsers/fixtures/eve';
import { TestClient } from './helpers/http-client';
import { startServerProcess, type ServerProcess } from './helpers/server-process';
import { ADMIN, buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/**
 * The permission matrix, "another process revoked it": two server processes on one PostgreSQL
 * database, each remembering credentials for a minute. What is revoked through one is refused by
 * the other from the moment the revocation is answered: no waiting, no retry. Every case first
 * makes the other process remember the thing, so only a revocation that reaches it can pass, and
 * cuts the processes' notification connections (as a network hiccup would): a revocation must not
 * depend on a message that can be lost or late. (An embedded database belongs to one process.)
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL);

let t: TestApp;
let other: ServerProcess;
let admin: TestClient;
let alpha: number;

/** A client of the other process that carries the cookies of `client` (the same browser). */
function sameBrowserOnOther(client: TestClient): TestClient {
  const twin = new TestClient(other.url);
  for (const name of ['vigil_session', 'csrf_token']) {
    const value = client.cookie(name);
    if (value) twin.setCookie(name, value);
  }
  return twin;
}

/** Ends every LISTEN connection of the test database, as a dropped connection would (they reconnect). */
async function dropNotificationConnections(): Promise<void> {
  await t.db.query(sql`
    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`);
}

async function signedIn(username: string, permissions: { basename: string; actions: string[] }[]) {
  const user = await buildUser(t.db, { username, companyId: alpha, permissions, privileged: { api_tokens: true } });
  const client = t.client();
  await client.signIn(user.username, user.password);
  return { user, client };
}

describe.runIf(onServer)('permission matrix: another process revoked it', () => {
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: '60' });
    other = await startServerProcess({
      DATABASE_URL: t.databaseUrl!,
      AUTH_CACHE_SECONDS: '60',
      JOBS_POLL_MS: '0',
      VIGIL_ADMIN_USERNAME: ADMIN.username,
      VIGIL_ADMIN_PASSWORD: ADMIN.password,
    });
    admin = await t.admin();
    alpha = await buildCompany(t.db, 'Alpha Bank');
  }, 180_000);

  afterAll(async () => {
    if (other) {
      other.child.kill('SIGTERM');
      await other.exited;
    }
    await t?.close();
  });

  it('refuses a revoked ingest key at once', async () => {
    const created = await admin.post<{ id: number; key: string }>('/api/ingest/tokens/', {
      name: 'sensor',
      company_id: alpha,
    });
    expect(created.status).toBe(201);
    const send = () =>
      fetch(`${other.url}/api/ingest/network/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.body.key}`, 'content-type': 'application/x-ndjson' },
        body: JSON.stringify(FLOW),
      });
    expect((await send()).status).toBe(200);
    await dropNotificationConnections();
    expect((await admin.delete(`/api/ingest/tokens/${created.body.id}/`)).status).toBe(204);
    expect((await send()).status).toBe(401);
  });

  it('refuses a signed-out session, and the sessions of an archived user, at once', async () => {
    const { client } = await signedIn('leaving', []);
    const twin = sameBrowserOnOther(client);
    expect((await twin.get('/api/users/me/')).status).toBe(200);
    await dropNotificationConnections();
    expect((await client.delete('/api/auth/')).status).toBe(200);
    expect((await twin.get('/api/users/me/')).status).toBe(401);

    const archived = await signedIn('archived', []);
    const archivedTwin = sameBrowserOnOther(archived.client);
    expect((await archivedTwin.get('/api/users/me/')).status).toBe(200);
    await dropNotificationConnections();
    expect((await admin.delete('/api/users/', { ids: [archived.user.id] })).status).toBe(200);
    expect((await archivedTwin.get('/api/users/me/')).status).toBe(401);
  });

  it('refuses a revoked API token at once', async () => {
    const { client } = await signedIn('scripted', []);
    const token = (await client.post<ApiToken>('/api/users/me/token/')).body.token;
    const withToken = () => new TestClient(other.url).get('/api/users/me/', { authorization: `Token ${token}` });
    expect((await withToken()).status).toBe(200);
    await dropNotificationConnections();
    expect((await client.delete('/api/users/me/token/')).status).toBe(200);
    expect((await withToken()).status).toBe(401);
  });

  it('stops honouring a permission at once when its role is changed, taken away or deleted', async () => {
    const usersView = [{ basename: 'users', actions: ['view'] }];
    const { user, client } = await signedIn('analyst', usersView);
    const twin = sameBrowserOnOther(client);
    const roleId = Number(
      (await t.db.query<{ role_id: number }>(sql`SELECT role_id FROM user_roles WHERE user_id = ${user.id}`)).rows[0]!
        .role_id,
    );
    // A read: a write through the other process would make it forget by itself.
    const count = () => twin.get('/api/users/count/');
    expect((await count()).status).toBe(200);
    await dropNotificationConnections();
    // The role loses the permission.
    expect((await admin.patch<Role>(`/api/roles/${roleId}/`, { permissions: [] })).status).toBe(200);
    expect((await count()).status).toBe(403);

    // Given back, then the role is taken from the user.
    expect((await admin.patch(`/api/roles/${roleId}/`, { permissions: usersView })).status).toBe(200);
    expect((await count()).status).toBe(200);
    await dropNotificationConnections();
    expect((await admin.patch(`/api/users/${user.id}/`, { role_ids: [] })).status).toBe(200);
    expect((await count()).status).toBe(403);

    // Given back, then the role is deleted.
    expect((await admin.patch(`/api/users/${user.id}/`, { role_ids: [roleId] })).status).toBe(200);
    expect((await count()).status).toBe(200);
    await dropNotificationConnections();
    expect((await admin.delete(`/api/roles/${roleId}/`)).status).toBe(204);
    expect((await count()).status).toBe(403);
  });

  it('still remembers what nobody revoked', async () => {
    const { client } = await signedIn('staying', []);
    const twin = sameBrowserOnOther(client);
    expect((await twin.get('/api/users/me/')).status).toBe(200);
    // Behind both servers' backs (as no API would do it): the other process keeps its memory.
    await t.db.query(sql`UPDATE users SET first_name = 'Behind' WHERE username = 'staying'`);
    expect((await twin.get<{ first_name: string }>('/api/users/me/')).body.first_name).toBe('');
  });
});
