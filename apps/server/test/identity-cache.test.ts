import type { CurrentUser } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { sql } from '../src/db/sql';
import type { TestClient } from './helpers/http-client';
import { TestClient as Client } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let admin: TestClient;
let alpha: number;

beforeAll(async () => {
  t = await startTestApp({ AUTH_CACHE_SECONDS: '60' });
  admin = await t.admin();
  alpha = await buildCompany(t.db, 'Alpha Bank');
});
afterAll(async () => {
  await t?.close();
});

describe('identity cache', () => {
  it('serves repeated reads from memory: a change behind the server is not seen until a write', async () => {
    const user = await buildUser(t.db, { username: 'cached', companyId: alpha, permissions: [] });
    const client = t.client();
    await client.signIn(user.username, user.password);
    expect((await client.get<CurrentUser>('/api/users/me/')).body.first_name).toBe('');
    await t.db.query(sql`UPDATE users SET first_name = 'Behind' WHERE id = ${user.id}`);
    expect((await client.get<CurrentUser>('/api/users/me/')).body.first_name).toBe('');
    // A list page, a count, a graph expansion or widget data are reads sent as POST: they keep it.
    expect((await admin.post('/api/system_logs/check/', {})).status).toBe(200);
    expect((await admin.post('/api/system_logs/count/', {})).status).toBe(200);
    expect((await client.get<CurrentUser>('/api/users/me/')).body.first_name).toBe('');
    // Any write through the server forgets every cached identity at once.
    expect((await admin.patch('/api/users/me/', { first_name: 'Admin' })).status).toBe(200);
    expect((await client.get<CurrentUser>('/api/users/me/')).body.first_name).toBe('Behind');
  });

  it('declares every POST that only reads, and nothing else, as keeping the cache', async () => {
    const { endpoints } = await import('@vigil/contract');
    const readsOnly: string[] = [];
    const visit = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      const spec = value as { method?: unknown; path?: unknown; readsOnly?: unknown };
      if (typeof spec.method === 'string' && typeof spec.path === 'string') {
        if (spec.readsOnly) readsOnly.push(`${spec.method} ${spec.path}`);
        return;
      }
      for (const inner of Object.values(value)) visit(inner);
    };
    visit(endpoints);
    expect(readsOnly.length).toBeGreaterThan(20);
    for (const route of readsOnly) {
      expect(route).toMatch(
        /^POST \/api\/(.*\/(check|count|expand|data|test)|search\/(run|histogram|values|export))\/$/,
      );
    }
  });

  it('never lets a signed-out, archived or ended session through after the write that ended it', async () => {
    const user = await buildUser(t.db, { username: 'leaving', companyId: alpha, permissions: [] });
    const client = t.client();
    await client.signIn(user.username, user.password);
    expect((await client.get('/api/users/me/')).status).toBe(200);
    expect((await admin.delete('/api/users/', { ids: [user.id] })).status).toBe(200);
    expect((await client.get('/api/users/me/')).status).toBe(401);

    const other = await buildUser(t.db, { username: 'outgoing', companyId: alpha, permissions: [] });
    const second = t.client();
    await second.signIn(other.username, other.password);
    expect((await second.get('/api/users/me/')).status).toBe(200);
    const session = second.cookie('vigil_session')!;
    await second.delete('/api/auth/');
    second.setCookie('vigil_session', session);
    expect((await second.get('/api/users/me/')).status).toBe(401);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'makes the other server processes forget, through the database, before the answer leaves',
    async () => {
      const other = await buildApp({ db: t.db, config: t.config, version: 'test', logger: false });
      await other.listen({ port: 0, host: '127.0.0.1' });
      try {
        const address = other.server.address();
        const second = new Client(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
        const user = await buildUser(t.db, { username: 'roaming', companyId: alpha, permissions: [] });
        const first = t.client();
        await first.signIn(user.username, user.password);
        second.setCookie('vigil_session', first.cookie('vigil_session')!);
        expect((await second.get('/api/users/me/')).status).toBe(200);
        // Signed out on the first process; the second stops accepting the session before the
        // answer to the sign-out has left (see also permission-matrix-processes.test.ts).
        await first.delete('/api/auth/');
        expect((await second.get('/api/users/me/')).status).toBe(401);
      } finally {
        await other.close();
      }
    },
  );
});
