import type { AuthState, ListAnswer, UserSession } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { Detail, Errors } from './helpers/auth-helpers';
import { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let adminId: number;

const impersonator = [{ basename: 'users', actions: ['view', 'impersonate'] }];

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  adminId = (await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'admin'`)).rows[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('impersonation', () => {
  it('acts as the user with both users on the record, and returns to the administrator', async () => {
    const target = await buildUser(t.db, { username: 'amy', companyId: alpha });
    const amy = t.client();
    await amy.signIn('amy', target.password);
    const admin = await t.admin();
    const adminCookie = admin.cookie('vigil_session')!;

    const started = await admin.post<AuthState>('/api/auth/impersonate/', { user_id: target.id });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      authenticated: true,
      user: { id: target.id, username: 'amy', two_factor_passed: true, password_expired: false },
      impersonator: { id: adminId, username: 'admin' },
    });
    const state = await admin.get<AuthState>('/api/auth/');
    expect(state.body.impersonator).toEqual({ id: adminId, username: 'admin' });
    const impersonationCookie = admin.cookie('vigil_session')!;
    expect(impersonationCookie).not.toBe(adminCookie);

    const { rows: sessions } = await t.db.query<{ impersonator_id: number }>(
      sql`SELECT impersonator_id FROM sessions WHERE user_id = ${target.id} AND impersonator_id IS NOT NULL`,
    );
    expect(sessions).toEqual([{ impersonator_id: adminId }]);

    // A change made meanwhile names both users.
    expect((await admin.delete('/api/sessions/')).status).toBe(200);
    const { rows: logs } = await t.db.query<{ action: string; user_id: number; impersonator_id: number | null }>(
      sql`SELECT action, user_id, impersonator_id FROM system_logs WHERE user_id = ${target.id} ORDER BY id`,
    );
    expect(logs).toEqual(
      expect.arrayContaining([
        { action: 'impersonate', user_id: target.id, impersonator_id: adminId },
        { action: 'end_other_sessions', user_id: target.id, impersonator_id: adminId },
      ]),
    );
    // The user's own session was one of those ended by the administrator acting as them.
    expect((await amy.post('/api/sessions/count/', {})).status).toBe(401);

    // Credentials are the user's own business, even for an administrator acting as them.
    const token = await admin.post<Detail>('/api/users/me/token/');
    expect(token.status).toBe(403);
    expect(token.body.code).toBe('impersonating');

    const back = await admin.delete<AuthState>('/api/auth/impersonate/');
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ authenticated: true, user: { username: 'admin' }, impersonator: null });
    expect(admin.cookie('vigil_session')).toBe(adminCookie);
    expect((await admin.get<AuthState>('/api/auth/')).body.user?.username).toBe('admin');
    const stale = new TestClient(t.url);
    stale.setCookie('vigil_session', impersonationCookie);
    expect((await stale.get<AuthState>('/api/auth/')).body.authenticated).toBe(false);
    const { rows: end } = await t.db.query<{ user_id: number; impersonator_id: number }>(
      sql`SELECT user_id, impersonator_id FROM system_logs WHERE action = 'impersonate_end'`,
    );
    expect(end).toEqual([{ user_id: target.id, impersonator_id: adminId }]);
    expect((await admin.delete<Errors>('/api/auth/impersonate/')).status).toBe(400);
  });

  it('needs the permission, a user in scope, and superuser rank for a superuser', async () => {
    const alphaTarget = await buildUser(t.db, { username: 'ben', companyId: alpha });
    const betaTarget = await buildUser(t.db, { username: 'cleo', companyId: beta });
    await buildUser(t.db, { username: 'alpha-support', companyId: alpha, permissions: impersonator });
    await buildUser(t.db, {
      username: 'alpha-plain',
      companyId: alpha,
      permissions: [{ basename: 'users', actions: ['view'] }],
    });
    const provider = (await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!
      .id;
    await buildUser(t.db, { username: 'staff', companyId: provider, allCompanies: true, permissions: impersonator });
    const support = t.client();
    await support.signIn('alpha-support', 'User-password-1');
    const plain = t.client();
    await plain.signIn('alpha-plain', 'User-password-1');
    const staff = t.client();
    await staff.signIn('staff', 'User-password-1');

    expect((await plain.post('/api/auth/impersonate/', { user_id: alphaTarget.id })).status).toBe(403);
    expect((await support.post('/api/auth/impersonate/', { user_id: betaTarget.id })).status).toBe(404);
    expect((await support.post('/api/auth/impersonate/', { user_id: 999999 })).status).toBe(404);
    expect((await staff.post('/api/auth/impersonate/', { user_id: adminId })).status).toBe(403);
    const self = await support.post<Errors>('/api/auth/impersonate/', {
      user_id: (await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'alpha-support'`)).rows[0]!
        .id,
    });
    expect(self.body.errors).toHaveProperty('user_id');
    expect(self.status).toBe(400);
    const bad = await support.post<Errors>('/api/auth/impersonate/', { user_id: 'ben' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('user_id');
    expect((await support.post<Errors>('/api/auth/impersonate/', {})).status).toBe(400);

    expect((await support.post('/api/auth/impersonate/', { user_id: alphaTarget.id })).status).toBe(200);
    expect((await staff.post('/api/auth/impersonate/', { user_id: betaTarget.id })).status).toBe(200);
    // No nesting, even when the user acted as may impersonate too.
    await staff.delete('/api/auth/impersonate/');
    const supportId = (await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'alpha-support'`))
      .rows[0]!.id;
    expect((await staff.post('/api/auth/impersonate/', { user_id: supportId })).status).toBe(200);
    const nested = await staff.post<Errors>('/api/auth/impersonate/', { user_id: alphaTarget.id });
    expect(nested.status).toBe(400);
    expect(nested.body.errors.non_field_errors?.[0]).toMatch(/already acting/);
  });

  it("keeps the impersonation out of the user's own session list, and sign-out ends both sessions", async () => {
    const target = await buildUser(t.db, { username: 'dora', companyId: alpha });
    const dora = t.client();
    await dora.signIn('dora', target.password);
    const admin = await t.admin();
    const adminCookie = admin.cookie('vigil_session')!;
    await admin.post('/api/auth/impersonate/', { user_id: target.id });
    const own = await dora.post<ListAnswer<UserSession>>('/api/sessions/check/', {});
    expect(own.body.count).toBe(1);
    const seen = await admin.post<ListAnswer<UserSession>>('/api/sessions/check/', {});
    expect(seen.body.results.filter((s) => s.current)).toHaveLength(1);

    expect((await admin.delete('/api/auth/')).status).toBe(200);
    const again = new TestClient(t.url);
    again.setCookie('vigil_session', adminCookie);
    expect((await again.get<AuthState>('/api/auth/')).body.authenticated).toBe(false);
    expect((await dora.post('/api/sessions/count/', {})).status).toBe(200);
  });
});
