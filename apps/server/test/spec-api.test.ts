import type { CurrentUser, ListAnswer, SystemLog, User } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { totp } from '../src/modules/auth/otp';
import type { TestClient } from './helpers/http-client';
import { smtpEnv, startTestSmtpServer, type TestSmtpServer } from './helpers/smtp-server';
import { ADMIN, buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/**
 * Walks every call the console makes, each with the payload the console sends,
 * and checks the answer the console relies on. One story, in the order a console session makes them.
 */

let t: TestApp;
let smtp: TestSmtpServer;
let admin: TestClient;
let alpha: number;
let ivanId: number;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await startTestApp({
    ...smtpEnv(smtp),
  });
  alpha = await buildCompany(t.db, 'Alpha Bank');
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the calls the console makes', () => {
  it('GET /api/auth/ answers the auth state and sets the csrf_token cookie', async () => {
    const client = t.client();
    const answer = await client.get<{ authenticated: boolean; user: unknown }>('/api/auth/');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ authenticated: false, user: null });
    expect(client.cookie('csrf_token')).toBeTruthy();
  });

  it('POST /api/auth/ signs in with credentials and the Accept-Language header', async () => {
    admin = t.client();
    const answer = await admin.request<{ authenticated: boolean }>('POST', '/api/auth/', {
      body: { username: ADMIN.username, password: ADMIN.password },
      headers: { 'accept-language': 'ru' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.authenticated).toBe(true);
  });

  it('GET /api/users/me/ answers the current user', async () => {
    const me = await admin.get<CurrentUser>('/api/users/me/');
    expect(me.status).toBe(200);
    for (const field of [
      'id',
      'first_name',
      'last_name',
      'phone',
      'time_zone',
      'theme',
      'locale',
      'ip_whitelist',
      'token_creation_ts',
      'companies',
      'mailing_setting',
      'two_factor_enabled',
      'sessions',
      'sessions_count',
      'ts_password_updated',
      'critan',
      'telephone_notifications_settings',
      'permissions',
      'sso_authorize_url',
      'two_factor_passed',
      'password_expired',
      'label',
    ]) {
      expect(me.body, field).toHaveProperty(field);
    }
    expect(me.body.label).toHaveProperty('company_name');
  });

  it('PUT /api/users/me/ changes profile fields', async () => {
    const answer = await admin.put<CurrentUser>('/api/users/me/', { first_name: 'Anna', locale: 'ru', theme: 'light' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ first_name: 'Anna', locale: 'ru', theme: 'light' });
  });

  it('POST /api/users/ creates a user; the activation mail arrives over SMTP and the link sets the password', async () => {
    const created = await admin.post<User & { activation_link: string }>('/api/users/', {
      username: 'ivan',
      email: 'ivan@alpha.example',
      first_name: 'Ivan',
      last_name: 'Petrov',
      company_id: alpha,
    });
    expect(created.status).toBe(201);
    ivanId = created.body.id;
    await t.app.jobs.runDueJobs();
    const mail = smtp.received.find((m) => m.envelopeTo.includes('ivan@alpha.example'));
    expect(mail?.subject).toBe('Your Vigil account');
    const link = /http:\/\/\S+\/api\/activate\/\S+\//.exec(mail!.text)?.[0];
    expect(link).toBe(created.body.activation_link);
    const path = new URL(link!).pathname;
    expect((await t.client().get<{ valid: boolean; username: string }>(path)).body).toEqual({
      valid: true,
      username: 'ivan',
    });
    const ivan = t.client();
    const set = await ivan.post(path, { new_password: 'Chosen-secret-42', new_password_retry: 'Chosen-secret-42' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await t.client().signIn('ivan', 'Chosen-secret-42');
  });

  it('GET /api/users/{id}/ and PUT /api/users/{id}/ read and edit a user', async () => {
    expect((await admin.get<User>(`/api/users/${ivanId}/`)).body.full_name).toBe('Ivan Petrov');
    const edited = await admin.put<User>(`/api/users/${ivanId}/`, { last_name: 'Sidorov' });
    expect(edited.body.full_name).toBe('Ivan Sidorov');
  });

  it('POST /api/users/check/ and /count/ list users; GET /api/users/count/ counts them', async () => {
    const list = await admin.post<ListAnswer<User>>('/api/users/check/?page=1&page_size=10&ordering=-username', {
      search: 'ivan',
    });
    expect(Object.keys(list.body).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(list.body.results.map((u) => [u.first_name, u.last_name])).toEqual([['Ivan', 'Sidorov']]);
    expect((await admin.post<{ count: number }>('/api/users/count/', { search: 'ivan' })).body).toEqual({ count: 1 });
    expect((await admin.get<{ count: number }>('/api/users/count/')).body.count).toBe(2);
  });

  it('GET /api/users/available/ and /all/ answer the light and the full list', async () => {
    const available = await admin.get<{ id: number; full_name: string }[]>('/api/users/available/');
    expect(available.body.map((u) => u.full_name)).toContain('Ivan Sidorov');
    const all = await admin.get<{ results: User[] }>('/api/users/all/');
    expect(all.body.results.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'ivan']));
  });

  it('POST /api/users/{id}/change_privileged_settings/ sets flags', async () => {
    const answer = await admin.post<User>(`/api/users/${ivanId}/change_privileged_settings/`, {
      privileged_settings: { raw_export: true },
    });
    expect(answer.body.privileged_settings).toEqual({ raw_export: true });
  });

  it('POST /api/auth/impersonate/ acts as another user and is audited with both', async () => {
    const answer = await admin.post<{ user: { username: string } }>('/api/auth/impersonate/', { user_id: ivanId });
    expect(answer.status).toBe(200);
    expect((await admin.get<CurrentUser>('/api/users/me/')).body.impersonator?.username).toBe('admin');
    expect((await admin.delete('/api/auth/impersonate/')).status).toBe(200);
    const logs = await t.db.query<{ user_id: number; impersonator_id: number | null }>(
      sql`SELECT user_id, impersonator_id FROM system_logs WHERE action LIKE 'impersonat%' ORDER BY id`,
    );
    expect(logs.rows.length).toBeGreaterThan(0);
    expect((await admin.get<CurrentUser>('/api/users/me/')).body.username).toBe('admin');
  });

  it('POST /api/users/{user}/timeline/check/ and /user_logs_timeline/check/ answer newest first', async () => {
    const timeline = await admin.post<ListAnswer<SystemLog>>(`/api/users/${ivanId}/timeline/check/`, {});
    const times = timeline.body.results.map((r) => r.date_time);
    expect(times).toEqual([...times].sort().reverse());
    expect(timeline.body.results.map((r) => r.action)).toEqual(expect.arrayContaining(['create', 'update']));
    const me = await admin.get<CurrentUser>('/api/users/me/');
    const own = await admin.post<ListAnswer<SystemLog>>(`/api/users/${me.body.id}/user_logs_timeline/check/`, {
      search: 'ivan',
    });
    expect(own.body.results.every((r) => r.user_id === me.body.id)).toBe(true);
  });

  it('DELETE /api/users/ archives and POST /api/users/restore/ restores by ids', async () => {
    expect((await admin.delete<{ count: number }>('/api/users/', { ids: [ivanId] })).body.count).toBe(1);
    expect((await admin.get<User>(`/api/users/${ivanId}/`)).body.archived).toBe(true);
    expect((await admin.post('/api/users/restore/', { ids: [ivanId] })).status).toBe(200);
    expect((await admin.get<User>(`/api/users/${ivanId}/`)).body.archived).toBe(false);
  });

  it('POST and DELETE /api/users/me/token/ create and revoke an API token', async () => {
    const created = await admin.post<{ token: string; token_creation_ts: string }>('/api/users/me/token/');
    expect(created.status).toBe(200);
    const machine = t.client();
    const viaToken = await machine.get<CurrentUser>('/api/users/me/', { authorization: `Token ${created.body.token}` });
    expect(viaToken.body.token_creation_ts).toBe(created.body.token_creation_ts);
    expect((await admin.delete('/api/users/me/token/')).status).toBeLessThan(300);
    expect((await machine.get('/api/users/me/', { authorization: `Token ${created.body.token}` })).status).toBe(401);
  });

  it('GET /api/users/otp/secret/generate/, POST …/save/, DELETE …/delete/ and DELETE /api/users/otp/{id}/reset/', async () => {
    const user = await buildUser(t.db, { username: 'otp-user', companyId: alpha, permissions: [] });
    const client = t.client();
    await client.signIn(user.username, user.password);
    const secret = await client.get<{ secret: string; otpauth_url: string }>('/api/users/otp/secret/generate/');
    expect(secret.body.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect((await client.post('/api/users/otp/secret/save/', { code: '000000' })).status).toBe(400);
    const saved = await client.post<{ two_factor_enabled: boolean }>('/api/users/otp/secret/save/', {
      code: totp(secret.body.secret),
    });
    expect(saved.body.two_factor_enabled).toBe(true);
    const disabled = await client.delete<{ two_factor_enabled: boolean }>('/api/users/otp/secret/delete/', {
      password: user.password,
    });
    expect(disabled.body.two_factor_enabled).toBe(false);
    await t.db.query(sql`UPDATE users SET otp_secret = 'JBSWY3DPEHPK3PXP' WHERE id = ${user.id}`);
    const reset = await admin.delete<{ two_factor_enabled: boolean }>(`/api/users/otp/${user.id}/reset/`);
    expect(reset.body.two_factor_enabled).toBe(false);
  });

  it('POST /api/users/password/change/ with old_password, new_password, new_password_retry', async () => {
    const user = await buildUser(t.db, { username: 'changer', companyId: alpha, permissions: [] });
    const client = t.client();
    await client.signIn(user.username, user.password);
    const mismatch = await client.post<{ errors: Record<string, string[]> }>('/api/users/password/change/', {
      old_password: user.password,
      new_password: 'Brand-new-pass-1',
      new_password_retry: 'Brand-new-pass-2',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors.new_password_retry).toBeDefined();
    const ok = await client.post('/api/users/password/change/', {
      old_password: user.password,
      new_password: 'Brand-new-pass-1',
      new_password_retry: 'Brand-new-pass-1',
    });
    expect(ok.status).toBeLessThan(300);
    await t.client().signIn('changer', 'Brand-new-pass-1');
  });

  it('POST /api/users/sso/password/change/ answers url; POST /api/users/{id}/sso/password/reset/ resets', async () => {
    const noSso = await admin.post<{ errors: Record<string, string[]> }>('/api/users/sso/password/change/');
    expect(noSso.status).toBe(400);
    await t.db.query(sql`
      INSERT INTO company_sso (company_id, issuer, client_id, password_change_url)
      VALUES (${alpha}, 'https://id.alpha.example', 'vigil', 'https://id.alpha.example/password')`);
    const ivan = t.client();
    await ivan.signIn('ivan', 'Chosen-secret-42');
    const url = await ivan.post<{ url: string }>('/api/users/sso/password/change/');
    expect(url.body).toEqual({ url: 'https://id.alpha.example/password' });
    expect((await ivan.get<CurrentUser>('/api/users/me/')).body.sso_authorize_url).toMatch(
      /\/api\/sso\/login\/\?company=/,
    );
    const reset = await admin.post(`/api/users/${ivanId}/sso/password/reset/`);
    expect(reset.status).toBe(200);
  });

  it('GET /api/users/versions_list/ answers changelog_versions', async () => {
    const answer = await admin.get<{ changelog_versions: { version: string }[] }>('/api/users/versions_list/');
    expect(answer.body.changelog_versions.map((v) => v.version)).toContain('0.1.0');
  });

  it('POST /api/users/custom_mail_data/release_notes/ prepares the mail; POST /api/users/mass_changelog/ sends it', async () => {
    const data = await admin.post<{ subject: string; text: string; html: string }>(
      '/api/users/custom_mail_data/release_notes/',
      { version: '0.1.0' },
    );
    expect(data.body.subject).toMatch(/0\.1\.0/);
    smtp.reset();
    const sent = await admin.post<{ queued: number }>('/api/users/mass_changelog/', { version: '0.1.0' });
    expect(sent.status).toBe(200);
    expect(sent.body.queued).toBeGreaterThan(0);
    await t.app.jobs.runDueJobs();
    expect(smtp.received.some((m) => m.envelopeTo.includes('ivan@alpha.example'))).toBe(true);
  });

  it('POST /api/users/send_custom_mail/ sends a message to chosen users, with a notification', async () => {
    smtp.reset();
    const sent = await admin.post<{ queued: number; messages: { type: string }[] }>('/api/users/send_custom_mail/', {
      subject: 'Maintenance tonight',
      text: 'The console will be read-only from 23:00 to 23:30.',
      user_ids: [ivanId],
    });
    expect(sent.body.queued).toBe(1);
    expect(sent.body.messages[0]?.type).toBe('success');
    await t.app.jobs.runDueJobs();
    expect(smtp.received.map((m) => m.subject)).toEqual(['Maintenance tonight']);
  });

  it('DELETE /api/auth/ signs out and answers logout_url', async () => {
    const answer = await admin.delete<{ logout_url: string }>('/api/auth/');
    expect(answer.body).toEqual({ logout_url: '/login' });
    expect((await admin.get('/api/users/me/')).status).toBe(401);
  });
});
