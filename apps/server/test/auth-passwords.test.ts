import type { AuthState } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { verifyPassword } from '../src/modules/auth/passwords';
import { activationLink, createUserToken } from '../src/modules/auth/user-tokens';
import { auditActions, userRow, type Detail, type Errors } from './helpers/auth-helpers';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;

beforeAll(async () => {
  t = await startTestApp({ PASSWORD_MIN_LENGTH: '12', PASSWORD_MAX_AGE_DAYS: '30', LOGIN_IP_MAX_FAILURES: '1000' });
  alpha = await buildCompany(t.db, 'Alpha Bank');
});
afterAll(async () => {
  await t?.close();
});

const change = (old_password: string, new_password: string, new_password_retry = new_password) => ({
  old_password,
  new_password,
  new_password_retry,
});

describe('changing one’s password', () => {
  it('answers field errors for a wrong current password, a mismatch and the policy, and changes nothing', async () => {
    const user = await buildUser(t.db, { username: 'victor', companyId: alpha });
    const client = t.client();
    await client.signIn('victor', user.password);
    const cases: [Record<string, unknown>, Record<string, RegExp>][] = [
      [change('wrong-password', 'Brand-new-password-1'), { old_password: /current password is not correct/ }],
      [change(user.password, 'Brand-new-password-1', 'Brand-new-password-2'), { new_password_retry: /not the same/ }],
      [change(user.password, 'Short-1'), { new_password: /at least 12 characters/ }],
      [change(user.password, '123456789012345'), { new_password: /digits only/ }],
      [change(user.password, 'my-Victor-password'), { new_password: /username/ }],
      [change(user.password, user.password), { new_password: /at least 12|differ/ }],
      [
        { old_password: user.password },
        { new_password: /Enter a new password/, new_password_retry: /Repeat the new password/ },
      ],
      [{ ...change(user.password, 'Brand-new-password-1'), extra: 1 }, { extra: /not known/ }],
    ];
    for (const [body, expected] of cases) {
      const answer = await client.post<Errors>('/api/users/password/change/', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors).sort()).toEqual(Object.keys(expected).sort());
      for (const [field, pattern] of Object.entries(expected))
        expect(answer.body.errors[field]?.join(' ')).toMatch(pattern);
    }
    const all = await client.post<Errors>('/api/users/password/change/', change('nope', '1234', '5678'));
    expect(Object.keys(all.body.errors).sort()).toEqual(['new_password', 'new_password_retry', 'old_password']);
    const row = await userRow<{ password_hash: string }>(t.db, user.id);
    expect(await verifyPassword(row.password_hash, user.password)).toBe(true);
  });

  it('changes it, ends the other sessions, keeps this one, and audits without the password', async () => {
    const user = await buildUser(t.db, { username: 'wanda', companyId: alpha });
    const here = t.client();
    await here.signIn('wanda', user.password);
    const elsewhere = t.client();
    await elsewhere.signIn('wanda', user.password);
    const before = await userRow<{ password_changed_at: Date }>(t.db, user.id);
    const answer = await here.post<AuthState>(
      '/api/users/password/change/',
      change(user.password, 'Brand-new-password-1'),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ username: 'wanda', password_expired: false });
    expect((await here.post('/api/sessions/count/', {})).status).toBe(200);
    expect((await elsewhere.post('/api/sessions/count/', {})).status).toBe(401);
    const after = await userRow<{ password_changed_at: Date; password_must_change: boolean }>(t.db, user.id);
    expect(after.password_changed_at.getTime()).toBeGreaterThanOrEqual(before.password_changed_at.getTime());
    expect(after.password_must_change).toBe(false);
    expect((await t.client().post('/api/auth/', { username: 'wanda', password: user.password })).status).toBe(400);
    expect((await t.client().post('/api/auth/', { username: 'wanda', password: 'Brand-new-password-1' })).status).toBe(
      200,
    );
    const { rows } = await t.db.query<{ changes: unknown }>(
      sql`SELECT changes FROM system_logs WHERE action = 'password_change' AND object_id = ${String(user.id)}`,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain('Brand-new-password-1');
    expect(JSON.stringify(rows)).not.toContain(user.password);
  });
});

describe('expired passwords', () => {
  it('keeps a user whose password was set by someone else in the reduced app until it is changed', async () => {
    const user = await buildUser(t.db, { username: 'xena', companyId: alpha });
    await t.db.query(sql`UPDATE users SET password_must_change = true WHERE id = ${user.id}`);
    const client = t.client();
    const signIn = await client.post<AuthState>('/api/auth/', { username: 'xena', password: user.password });
    expect(signIn.body.user?.password_expired).toBe(true);
    const blocked = await client.post<Detail>('/api/sessions/count/', {});
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('password_expired');
    expect((await client.get('/api/users/me/')).status).toBe(200);
    const changed = await client.post<AuthState>(
      '/api/users/password/change/',
      change(user.password, 'Brand-new-password-1'),
    );
    expect(changed.body.user?.password_expired).toBe(false);
    expect((await client.post('/api/sessions/count/', {})).status).toBe(200);
  });

  it('expires a password older than PASSWORD_MAX_AGE_DAYS', async () => {
    const user = await buildUser(t.db, { username: 'yuri', companyId: alpha });
    const client = t.client();
    await client.signIn('yuri', user.password);
    expect((await client.get<AuthState>('/api/auth/')).body.user?.password_expired).toBe(false);
    await t.db.query(sql`UPDATE users SET password_changed_at = now() - interval '31 days' WHERE id = ${user.id}`);
    expect((await client.get<AuthState>('/api/auth/')).body.user?.password_expired).toBe(true);
    expect((await client.post<Detail>('/api/sessions/count/', {})).body.code).toBe('password_expired');
    await client.post('/api/users/password/change/', change(user.password, 'Brand-new-password-1'));
    expect((await client.post('/api/sessions/count/', {})).status).toBe(200);
  });
});

describe('activation links', () => {
  async function passwordlessUser(username: string) {
    const { rows } = await t.db.query<{ id: number }>(
      sql`INSERT INTO users (company_id, username, email) VALUES (${alpha}, ${username}, ${`${username}@example.com`}) RETURNING id`,
    );
    return rows[0]!.id;
  }

  it('shows whose link it is, sets the first password under the policy, signs in, and works once', async () => {
    const id = await passwordlessUser('zoe');
    const token = await createUserToken(t.db, id, 'activation');
    expect(activationLink('https://xdr.example.com/', token)).toBe(`https://xdr.example.com/api/activate/${token}/`);
    const client = t.client();
    const info = await client.get(`/api/activate/${token}/`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ valid: true, username: 'zoe' });
    expect(info.headers.get('referrer-policy')).toBe('no-referrer');

    const weak = await client.post<Errors>(`/api/activate/${token}/`, {
      new_password: 'zoe-123',
      new_password_retry: 'zoe-123',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.new_password?.join(' ')).toMatch(/at least 12.*username/);
    const mismatch = await client.post<Errors>(`/api/activate/${token}/`, {
      new_password: 'First-password-ok',
      new_password_retry: 'First-password-ko',
    });
    expect(Object.keys(mismatch.body.errors)).toEqual(['new_password_retry']);
    expect((await client.post<Errors>(`/api/activate/${token}/`, {})).status).toBe(400);
    // Refusals do not use the link up.
    expect((await client.get(`/api/activate/${token}/`)).status).toBe(200);

    const done = await client.post<AuthState>(`/api/activate/${token}/`, {
      new_password: 'First-password-ok',
      new_password_retry: 'First-password-ok',
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ authenticated: true, user: { username: 'zoe', password_expired: false } });
    expect((await client.post('/api/sessions/count/', {})).status).toBe(200);
    expect(await auditActions(t.db, id)).toEqual(['activate', 'login']);

    expect((await client.get(`/api/activate/${token}/`)).status).toBe(404);
    const reused = await t.client().post(`/api/activate/${token}/`, {
      new_password: 'Another-password-9',
      new_password_retry: 'Another-password-9',
    });
    expect(reused.status).toBe(404);
    expect((await t.client().post('/api/auth/', { username: 'zoe', password: 'First-password-ok' })).status).toBe(200);
  });

  it('answers 404 for unknown, expired and replaced links', async () => {
    const id = await passwordlessUser('amos');
    expect((await t.client().get('/api/activate/nothing-like-a-token/')).status).toBe(404);
    const first = await createUserToken(t.db, id, 'activation');
    const second = await createUserToken(t.db, id, 'activation');
    expect((await t.client().get(`/api/activate/${first}/`)).status).toBe(404);
    expect((await t.client().get(`/api/activate/${second}/`)).status).toBe(200);
    await t.db.query(sql`UPDATE user_tokens SET expires_at = now() - interval '1 second' WHERE user_id = ${id}`);
    expect((await t.client().get(`/api/activate/${second}/`)).status).toBe(404);
    const { rows } = await t.db.query<{ token_hash: string }>(
      sql`SELECT token_hash FROM user_tokens WHERE user_id = ${id}`,
    );
    expect(rows.map((r) => r.token_hash)).not.toContain(second);
  });

  it('resets a forgotten password and signs out every other session', async () => {
    const user = await buildUser(t.db, { username: 'bella', companyId: alpha });
    const old = t.client();
    await old.signIn('bella', user.password);
    const token = await createUserToken(t.db, user.id, 'password_reset', 1);
    const reset = await t.client().post<AuthState>(`/api/activate/${token}/`, {
      new_password: 'Reset-password-77',
      new_password_retry: 'Reset-password-77',
    });
    expect(reset.body.authenticated).toBe(true);
    expect((await old.post('/api/sessions/count/', {})).status).toBe(401);
    expect(await auditActions(t.db, user.id)).toContain('password_reset');
  });
});
