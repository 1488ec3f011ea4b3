import type { AuthState, OtpSecret } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { otpStep, totp } from '../src/modules/auth/otp';
import { auditActions, userRow, type Detail, type Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_IP_MAX_FAILURES: '1000' });
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
});
afterAll(async () => {
  await t?.close();
});

/** Signs in and turns two-factor on; answers the secret and the code that confirmed it. */
async function withTwoFactor(username: string) {
  const user = await buildUser(t.db, { username, companyId: alpha });
  const client = t.client();
  await client.signIn(username, user.password);
  const generated = await client.get<OtpSecret>('/api/users/otp/secret/generate/');
  const secret = generated.body.secret;
  const usedCode = totp(secret);
  const saved = await client.post('/api/users/otp/secret/save/', { code: usedCode });
  expect(saved.status).toBe(200);
  return { user, client, secret, usedCode };
}

/** Pretends the last used code is from long ago, as if a few minutes had passed. */
async function forgetLastStep(userId: number) {
  await t.db.query(sql`UPDATE users SET otp_last_step = ${otpStep(Date.now()) - 10} WHERE id = ${userId}`);
}

describe('turning two-factor on', () => {
  it('generates a pending secret and enables it only with a valid code', async () => {
    const user = await buildUser(t.db, { username: 'olga', companyId: alpha });
    const client = t.client();
    await client.signIn('olga', user.password);
    const generated = await client.get<OtpSecret>('/api/users/otp/secret/generate/');
    expect(generated.status).toBe(200);
    expect(generated.headers.get('cache-control')).toBe('no-store');
    const { secret, otpauth_url } = generated.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url.startsWith('otpauth://totp/Vigil:olga?')).toBe(true);
    expect(Object.fromEntries(new URL(otpauth_url).searchParams)).toEqual({
      secret,
      issuer: 'Vigil',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    let row = await userRow<{ otp_secret: string | null; otp_pending_secret: string | null }>(t.db, user.id);
    expect(row).toMatchObject({ otp_secret: null, otp_pending_secret: secret });
    // A GET changes nothing the second time: the same pending secret until it is confirmed.
    const updatedAt = (await userRow<{ updated_at: Date }>(t.db, user.id)).updated_at;
    const again = await client.get<OtpSecret>('/api/users/otp/secret/generate/');
    expect(again.body).toEqual(generated.body);
    expect((await userRow<{ updated_at: Date }>(t.db, user.id)).updated_at).toEqual(updatedAt);

    const missing = await client.post<Errors>('/api/users/otp/secret/save/', {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['code']);
    const malformed = await client.post<Errors>('/api/users/otp/secret/save/', { code: '12ab56' });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.errors)).toEqual(['code']);
    const wrongCode = totp(secret, Date.now() + 5 * 60_000);
    const wrong = await client.post<Errors>('/api/users/otp/secret/save/', { code: wrongCode });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.code?.[0]).toMatch(/not correct/);
    expect((await userRow<{ otp_secret: string | null }>(t.db, user.id)).otp_secret).toBeNull();

    const ok = await client.post('/api/users/otp/secret/save/', { code: totp(secret) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ two_factor_enabled: true });
    row = await userRow(t.db, user.id);
    expect(row).toMatchObject({ otp_secret: secret, otp_pending_secret: null });
    // Once confirmed, the next request makes a new secret (to move to another device).
    const next = await client.get<OtpSecret>('/api/users/otp/secret/generate/');
    expect(next.body.secret).not.toBe(secret);
    expect((await userRow(t.db, user.id)).otp_secret).toBe(secret);
    expect(await auditActions(t.db, user.id)).toContain('enable_two_factor');
    // The session that turned it on stays usable.
    expect((await client.post('/api/sessions/count/', {})).status).toBe(200);
    expect((await client.get<AuthState>('/api/auth/')).body.user?.two_factor_enabled).toBe(true);
  });

  it('refuses to save without a generated secret', async () => {
    const user = await buildUser(t.db, { username: 'pete', companyId: alpha });
    const client = t.client();
    await client.signIn('pete', user.password);
    const answer = await client.post<Errors>('/api/users/otp/secret/save/', { code: '123456' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.code?.[0]).toMatch(/Generate a new secret first/);
  });
});

describe('signing in with two-factor', () => {
  it('refuses a password change before the code is given: a stolen password alone takes nothing', async () => {
    const { user, client: owner } = await withTwoFactor('rhea');
    const thief = t.client();
    await thief.signIn('rhea', user.password);
    const taken = await thief.post<Detail>('/api/users/password/change/', {
      old_password: user.password,
      new_password: 'Stolen-password-91',
      new_password_retry: 'Stolen-password-91',
    });
    expect(taken.status).toBe(403);
    expect(taken.body.code).toBe('two_factor_required');
    // The owner's session is still signed in and the password is still the owner's.
    expect((await owner.post('/api/sessions/count/', {})).status).toBe(200);
    const again = t.client();
    expect((await again.post('/api/auth/', { username: 'rhea', password: user.password })).status).toBe(200);
    expect(await auditActions(t.db, user.id)).not.toContain('password_change');
  });

  it('keeps the session in the reduced app until the code is given', async () => {
    const { user, secret, usedCode } = await withTwoFactor('quinn');
    const client = t.client();
    const signIn = await client.post<AuthState>('/api/auth/', { username: 'quinn', password: user.password });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ two_factor_enabled: true, two_factor_passed: false });

    const blocked = await client.post<Detail>('/api/sessions/count/', {});
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('two_factor_required');
    expect((await client.get<Detail>('/api/users/otp/secret/generate/')).body.code).toBe('two_factor_required');
    // What the reduced app needs still answers.
    expect((await client.get<AuthState>('/api/auth/')).body.user?.two_factor_passed).toBe(false);
    expect((await client.get('/api/users/me/')).status).toBe(200);

    // The code that turned two-factor on has been used already: refused.
    const replay = await client.post<Errors>('/api/auth/otp/', { code: usedCode });
    expect(replay.status).toBe(400);
    expect(replay.body.errors.code?.[0]).toMatch(/not correct or has already been used/);

    const next = totp(secret, Date.now() + 30_000);
    const passed = await client.post<AuthState>('/api/auth/otp/', { code: next });
    expect(passed.status).toBe(200);
    expect(passed.body.user?.two_factor_passed).toBe(true);
    expect((await client.post('/api/sessions/count/', {})).status).toBe(200);
    expect(await auditActions(t.db, user.id)).toEqual(
      expect.arrayContaining(['two_factor_failed', 'two_factor_passed']),
    );

    // The same code in another session: a replay, refused.
    const other = t.client();
    await other.signIn('quinn', user.password);
    const again = await other.post<Errors>('/api/auth/otp/', { code: next });
    expect(again.status).toBe(400);
    expect((await other.post('/api/sessions/count/', {})).status).toBe(403);
  });

  it('allows signing out before the code is given, and nothing of the account (not even a bad change)', async () => {
    const { user } = await withTwoFactor('rosa');
    const client = t.client();
    await client.signIn('rosa', user.password);
    const change = await client.post<Detail>('/api/users/password/change/', {
      old_password: 'wrong',
      new_password: 'x',
      new_password_retry: 'y',
    });
    // Refused for the state of the session before the body is looked at.
    expect(change.status).toBe(403);
    expect(change.body.code).toBe('two_factor_required');
    expect((await client.delete('/api/auth/')).status).toBe(200);
  });

  it('locks the account after repeated wrong codes', async () => {
    const { user, secret } = await withTwoFactor('sam');
    await forgetLastStep(user.id);
    const client = t.client();
    await client.signIn('sam', user.password);
    const wrong = totp(secret, Date.now() + 10 * 60_000);
    for (let i = 0; i < 5; i += 1) {
      expect((await client.post('/api/auth/otp/', { code: wrong })).status).toBe(400);
    }
    const locked = await client.post<Errors>('/api/auth/otp/', { code: totp(secret) });
    expect(locked.status).toBe(400);
    expect(locked.body.errors.code?.[0]).toMatch(/locked/);
    expect(await auditActions(t.db, user.id)).toContain('lock');
    expect((await client.post('/api/sessions/count/', {})).status).toBe(403);
  });
});

describe('turning two-factor off', () => {
  it('needs the current password', async () => {
    const { user, client } = await withTwoFactor('tina');
    const wrong = await client.delete<Errors>('/api/users/otp/secret/delete/', { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.errors)).toEqual(['password']);
    expect((await client.delete<Errors>('/api/users/otp/secret/delete/', {})).status).toBe(400);
    expect((await userRow<{ otp_secret: string | null }>(t.db, user.id)).otp_secret).not.toBeNull();
    const ok = await client.delete('/api/users/otp/secret/delete/', { password: user.password });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ two_factor_enabled: false });
    expect((await userRow<{ otp_secret: string | null }>(t.db, user.id)).otp_secret).toBeNull();
    expect(await auditActions(t.db, user.id)).toContain('disable_two_factor');
    const fresh = t.client();
    const state = await fresh.post<AuthState>('/api/auth/', { username: 'tina', password: user.password });
    expect(state.body.user?.two_factor_passed).toBe(true);
  });

  it("lets an administrator reset another user's two-factor, within the tenant", async () => {
    const { user } = await withTwoFactor('uma');
    const resetter = [{ basename: 'users', actions: ['view', 'reset_two_factor'] }];
    await buildUser(t.db, { username: 'alpha-helpdesk', companyId: alpha, permissions: resetter });
    await buildUser(t.db, { username: 'beta-helpdesk', companyId: beta, permissions: resetter });
    await buildUser(t.db, {
      username: 'alpha-plain',
      companyId: alpha,
      permissions: [{ basename: 'users', actions: ['view'] }],
    });
    const clients: Record<string, TestClient> = {};
    for (const name of ['alpha-helpdesk', 'beta-helpdesk', 'alpha-plain']) {
      clients[name] = t.client();
      await clients[name].signIn(name, 'User-password-1');
    }
    expect((await clients['beta-helpdesk']!.delete(`/api/users/otp/${user.id}/reset/`)).status).toBe(404);
    expect((await clients['alpha-plain']!.delete(`/api/users/otp/${user.id}/reset/`)).status).toBe(403);
    expect((await clients['alpha-helpdesk']!.delete('/api/users/otp/0/reset/')).status).toBe(404);
    // A superuser's two-factor is only for a superuser to reset.
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'admin'`);
    expect((await clients['alpha-helpdesk']!.delete(`/api/users/otp/${rows[0]!.id}/reset/`)).status).toBe(404);
    const reset = await clients['alpha-helpdesk']!.delete(`/api/users/otp/${user.id}/reset/`);
    expect(reset.status).toBe(200);
    expect((await userRow<{ otp_secret: string | null }>(t.db, user.id)).otp_secret).toBeNull();
    const { rows: logs } = await t.db.query<{ username: string; company_id: number }>(
      sql`SELECT username, company_id FROM system_logs WHERE action = 'reset_two_factor' AND object_id = ${String(user.id)}`,
    );
    expect(logs).toEqual([{ username: 'alpha-helpdesk', company_id: alpha }]);
  });

  it('refuses a non-superuser resetting a superuser they can see', async () => {
    const provider = (await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!
      .id;
    await buildUser(t.db, {
      username: 'staff-helpdesk',
      companyId: provider,
      allCompanies: true,
      permissions: [{ basename: 'users', actions: ['reset_two_factor'] }],
    });
    const staff = t.client();
    await staff.signIn('staff-helpdesk', 'User-password-1');
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'admin'`);
    expect((await staff.delete(`/api/users/otp/${rows[0]!.id}/reset/`)).status).toBe(403);
  });
});
