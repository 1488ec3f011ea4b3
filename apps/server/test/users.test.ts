import type { CurrentUser, ListAnswer, Role, SystemLog, Unit, User } from '@vigil/contract';
import { resourceKinds } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

type Errors = { errors: Record<string, string[]>; detail?: string };

let t: TestApp;
let admin: TestClient;
let alpha: number;
let beta: number;
let alphaAdmin: TestClient;

const userAdmin = [
  { basename: 'users', actions: ['view', 'add', 'change', 'delete', 'restore', 'change_privileged_settings'] },
  { basename: 'companies', actions: ['view', 'change'] },
  { basename: 'system_logs', actions: ['view'] },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  await buildUser(t.db, { username: 'alpha-admin', companyId: alpha, permissions: userAdmin });
  alphaAdmin = t.client();
  await alphaAdmin.signIn('alpha-admin', 'User-password-1');
});
afterAll(async () => {
  await t?.close();
});

describe('current user', () => {
  it('answers every field of the current user with the documented defaults', async () => {
    const me = await admin.get<CurrentUser>('/api/users/me/');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username: 'admin',
      theme: 'dark',
      locale: 'en',
      time_zone: null,
      telephone_notifications_settings: { weekdays: { enabled: true }, weekends: { enabled: true } },
      two_factor_enabled: false,
      two_factor_passed: true,
      password_expired: false,
      token_creation_ts: null,
      sso_authorize_url: null,
      impersonator: null,
      label: { company_name: null },
      is_superuser: true,
      all_companies: true,
    });
    expect(me.body.sessions_count).toBe(me.body.sessions.length);
    expect(me.body.sessions.filter((s) => s.current)).toHaveLength(1);
    expect(me.body.permissions.map((p) => p.basename)).toEqual(resourceKinds.map((k) => k.basename));
    expect(me.body.permissions.every((p) => p.actions.includes('view'))).toBe(true);
    expect(me.body.companies.map((c) => c.id)).toEqual(expect.arrayContaining([alpha, beta]));
  });

  it("computes a customer user's permissions from its roles and shows the provider's label", async () => {
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`);
    await t.db.query(sql`UPDATE companies SET label_name = 'Acme' WHERE id = ${rows[0]!.id}`);
    const me = await alphaAdmin.get<CurrentUser>('/api/users/me/');
    expect(me.body.label).toEqual({ company_name: 'Acme' });
    expect(me.body.permissions).toEqual(userAdmin);
    expect(me.body.companies.map((c) => c.id)).toEqual([alpha]);
    expect(me.body.is_superuser).toBe(false);
    expect(me.body.all_companies).toBe(false);
  });

  it('changes profile fields and refuses an unknown time zone with the documented message', async () => {
    const client = t.client();
    await buildUser(t.db, { username: 'profile', companyId: alpha, permissions: [] });
    await client.signIn('profile', 'User-password-1');
    const bad = await client.put<Errors>('/api/users/me/', { time_zone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.time_zone).toEqual(['Attempt to set invalid timeZone Mars/Olympus']);
    const theme = await client.put<Errors>('/api/users/me/', { theme: 'neon' });
    expect(theme.status).toBe(400);
    expect(theme.body.errors.theme).toBeDefined();
    const locale = await client.put<Errors>('/api/users/me/', { locale: 'de' });
    expect(locale.body.errors.locale).toBeDefined();
    const unknown = await client.put<Errors>('/api/users/me/', { is_superuser: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.is_superuser).toBeDefined();

    const ok = await client.put<CurrentUser>('/api/users/me/', {
      first_name: 'Pavel',
      time_zone: 'Europe/Moscow',
      theme: 'light',
      locale: 'ru',
      telephone_notifications_settings: { weekdays: { enabled: true }, weekends: { enabled: false } },
      mailing_setting: { release_notes: false },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ first_name: 'Pavel', time_zone: 'Europe/Moscow', theme: 'light', locale: 'ru' });
    const again = await client.get<CurrentUser>('/api/users/me/');
    expect(again.body.telephone_notifications_settings.weekends.enabled).toBe(false);
    expect(again.body.mailing_setting).toEqual({ release_notes: false });
  });
});

describe('users administration', () => {
  it('creates a user with a password that must be changed at first sign-in', async () => {
    const created = await alphaAdmin.post<User>('/api/users/', {
      username: 'ivan',
      email: 'Ivan@alpha.example',
      first_name: 'Ivan',
      last_name: 'Petrov',
      password: 'Temporary-secret-42',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: 'ivan',
      email: 'ivan@alpha.example',
      company_id: alpha,
      full_name: 'Ivan Petrov',
    });
    expect(JSON.stringify(created.body)).not.toMatch(/Temporary-secret-42|password_hash|argon/);
    const ivan = t.client();
    await ivan.signIn('ivan', 'Temporary-secret-42');
    const me = await ivan.get<CurrentUser>('/api/users/me/');
    expect(me.body.password_expired).toBe(true);
  });

  it('creates a user without a password and hands out an activation link', async () => {
    const created = await alphaAdmin.post<User & { activation_link: string }>('/api/users/', { username: 'olga' });
    expect(created.status).toBe(201);
    expect(created.body.activated).toBe(false);
    expect(created.body.activation_link).toMatch(/\/api\/activate\/[\w-]+\/$/);
  });

  it('refuses bad input with field errors and loses nothing', async () => {
    const before = (await alphaAdmin.get<{ count: number }>('/api/users/count/')).body.count;
    const cases: [unknown, string][] = [
      [{}, 'username'],
      [{ username: 'a' }, 'username'],
      [{ username: 'has space' }, 'username'],
      [{ username: 'IVAN' }, 'username'],
      [{ username: 'newbie', email: 'not-an-address' }, 'email'],
      [{ username: 'newbie', email: 'ivan@alpha.example' }, 'email'],
      [{ username: 'newbie', company_id: beta }, 'company_id'],
      [{ username: 'newbie', unit_id: 999999 }, 'unit_id'],
      [{ username: 'newbie', role_ids: [999999] }, 'role_ids'],
      [{ username: 'newbie', ip_whitelist: ['not an ip'] }, 'ip_whitelist.0'],
      [{ username: 'newbie', password: 'short' }, 'password'],
      [{ username: 'newbie', favourite_colour: 'red' }, 'favourite_colour'],
    ];
    for (const [body, field] of cases) {
      const answer = await alphaAdmin.post<Errors>('/api/users/', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect((await alphaAdmin.get<{ count: number }>('/api/users/count/')).body.count).toBe(before);
  });

  it('does not let an administrator grant what it does not hold', async () => {
    expect((await alphaAdmin.post('/api/users/', { username: 'root2', is_superuser: true })).status).toBe(403);
    expect((await alphaAdmin.post('/api/users/', { username: 'mssp2', all_companies: true })).status).toBe(403);
    const role = await admin.post<Role>('/api/roles/', {
      name: 'Incident lead',
      company_id: alpha,
      permissions: [{ basename: 'incidents', actions: ['view', 'change'] }],
    });
    expect(role.status).toBe(201);
    const escalate = await alphaAdmin.post<Errors>('/api/users/', { username: 'lead', role_ids: [role.body.id] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.detail).toMatch(/incidents:view/);
  });

  it('does not let an administrator change a user who holds what it does not', async () => {
    // A user of the administrator's own company, stronger in one permission the administrator lacks.
    const stronger = await buildUser(t.db, {
      username: 'incident-lead',
      companyId: alpha,
      permissions: [{ basename: 'incidents', actions: ['view', 'change'] }],
    });
    const attempts = [
      () => alphaAdmin.patch<Errors>(`/api/users/${stronger.id}/`, { email: 'attacker@evil.example' }),
      () => alphaAdmin.put<Errors>(`/api/users/${stronger.id}/`, { ip_whitelist: ['198.51.100.7'] }),
      () => alphaAdmin.patch<Errors>(`/api/users/${stronger.id}/`, { role_ids: [] }),
      () =>
        alphaAdmin.post<Errors>(`/api/users/${stronger.id}/change_privileged_settings/`, {
          privileged_settings: { api_tokens: true },
        }),
      () => alphaAdmin.delete<Errors>('/api/users/', { ids: [stronger.id] }),
      () => alphaAdmin.post<Errors>(`/api/users/${stronger.id}/unlock/`),
    ];
    for (const attempt of attempts) {
      const answer = await attempt();
      expect(answer.status).toBe(403);
      expect(answer.body.detail).toMatch(/incidents:view/);
    }
    const row = (
      await t.db.query<{ email: string | null; archived_at: Date | null }>(
        sql`SELECT email, archived_at FROM users WHERE id = ${stronger.id}`,
      )
    ).rows[0]!;
    expect(row).toEqual({ email: null, archived_at: null });

    // A user who also sees another company is as much out of reach.
    const wider = await buildUser(t.db, { username: 'two-companies', companyId: alpha, extraCompanies: [beta] });
    const widened = await alphaAdmin.patch<Errors>(`/api/users/${wider.id}/`, { email: 'wider@evil.example' });
    expect(widened.status).toBe(403);
    expect(widened.body.detail).toMatch(/companies you do not/);

    // A user who holds only part of what the administrator holds is the administrator's to change.
    const weaker = await buildUser(t.db, {
      username: 'log-reader',
      companyId: alpha,
      permissions: [{ basename: 'system_logs', actions: ['view'] }],
    });
    const changed = await alphaAdmin.patch<User>(`/api/users/${weaker.id}/`, { email: 'reader@alpha.example' });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe('reader@alpha.example');
    // And anyone may be changed by a superuser.
    expect((await admin.patch(`/api/users/${stronger.id}/`, { email: 'lead@alpha.example' })).status).toBe(200);
  });

  it('lists with search, filters, ordering and paging, and counts', async () => {
    const list = await alphaAdmin.post<ListAnswer<User>>('/api/users/check/?ordering=-username', {});
    expect(list.status).toBe(200);
    expect(list.body.results.every((u) => u.company_id === alpha)).toBe(true);
    const names = list.body.results.map((u) => u.username);
    expect(names).toEqual([...names].sort().reverse());
    const search = await alphaAdmin.post<ListAnswer<User>>('/api/users/check/', { search: 'petrov' });
    expect(search.body.results.map((u) => u.username)).toEqual(['ivan']);
    const count = await alphaAdmin.post<{ count: number }>('/api/users/count/', { search: 'petrov' });
    expect(count.body.count).toBe(1);
    const bad = await alphaAdmin.post<Errors>('/api/users/check/?ordering=password_hash', {});
    expect(bad.status).toBe(400);
  });

  it('edits a user, records before and after, and keeps other tenants out', async () => {
    const ivan = (await alphaAdmin.post<ListAnswer<User>>('/api/users/check/', { search: 'ivan' })).body.results[0]!;
    const edited = await alphaAdmin.put<User>(`/api/users/${ivan.id}/`, {
      last_name: 'Sidorov',
      phone: '+7 900 000-00-00',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.full_name).toBe('Ivan Sidorov');
    const logs = await alphaAdmin.post<ListAnswer<SystemLog>>(`/api/users/${ivan.id}/timeline/check/`, {});
    expect(logs.status).toBe(200);
    expect(logs.body.results[0]).toMatchObject({
      action: 'update',
      changes: { last_name: { before: 'Petrov', after: 'Sidorov' }, phone: { before: '', after: '+7 900 000-00-00' } },
    });
    const betaUser = await buildUser(t.db, { username: 'beta-user', companyId: beta });
    expect((await alphaAdmin.get(`/api/users/${betaUser.id}/`)).status).toBe(404);
    expect((await alphaAdmin.put(`/api/users/${betaUser.id}/`, { first_name: 'x' })).status).toBe(404);
    expect((await alphaAdmin.post(`/api/users/${betaUser.id}/timeline/check/`, {})).status).toBe(404);
    expect((await alphaAdmin.get('/api/users/abc/')).status).toBe(404);
  });

  it('archives and restores users; an archived user cannot sign in and loses its sessions', async () => {
    const victim = await buildUser(t.db, { username: 'leaver', companyId: alpha, permissions: [] });
    const session = t.client();
    await session.signIn('leaver', 'User-password-1');
    const betaUser = await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'beta-user'`);
    const mixed = await alphaAdmin.delete<Errors>('/api/users/', { ids: [victim.id, betaUser.rows[0]!.id] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.ids?.[0]).toMatch(/No user with id/);
    expect((await alphaAdmin.delete<Errors>('/api/users/', { ids: [] })).status).toBe(400);

    const archived = await alphaAdmin.delete<{ count: number }>('/api/users/', { ids: [victim.id] });
    expect(archived.status).toBe(200);
    expect(archived.body.count).toBe(1);
    expect((await session.get('/api/users/me/')).status).toBe(401);
    await expect(t.client().signIn('leaver', 'User-password-1')).rejects.toThrow();
    const active = await alphaAdmin.post<ListAnswer<User>>('/api/users/check/', { search: 'leaver' });
    expect(active.body.count).toBe(0);
    const inArchive = await alphaAdmin.post<ListAnswer<User>>('/api/users/check/', {
      search: 'leaver',
      archived: true,
    });
    expect(inArchive.body.results[0]?.archived).toBe(true);

    expect((await alphaAdmin.post('/api/users/restore/', { ids: [victim.id] })).status).toBe(200);
    await t.client().signIn('leaver', 'User-password-1');
    const me = await alphaAdmin.get<CurrentUser>('/api/users/me/');
    expect((await alphaAdmin.delete<Errors>('/api/users/', { ids: [me.body.id] })).body.errors.ids?.[0]).toMatch(
      /yourself/,
    );
  });

  it('changes privileged settings from a set of flags', async () => {
    const target = await buildUser(t.db, { username: 'hunter', companyId: alpha });
    const bad = await alphaAdmin.post<Errors>(`/api/users/${target.id}/change_privileged_settings/`, {
      privileged_settings: { fly: true },
    });
    expect(bad.status).toBe(400);
    const ok = await alphaAdmin.post<User>(`/api/users/${target.id}/change_privileged_settings/`, {
      privileged_settings: { remote_response: true, raw_export: true, api_tokens: false },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.privileged_settings).toEqual({ remote_response: true, raw_export: true });
  });

  it('answers the light, full and count lists within the scope', async () => {
    const available =
      await alphaAdmin.get<{ id: number; full_name: string; company_id: number }[]>('/api/users/available/');
    expect(available.status).toBe(200);
    expect(available.body.length).toBeGreaterThan(2);
    expect(available.body.every((u) => u.company_id === alpha)).toBe(true);
    const all = await alphaAdmin.get<{ results: User[]; count: number }>('/api/users/all/');
    expect(all.body.results.every((u) => u.company_id === alpha)).toBe(true);
    const count = await alphaAdmin.get<{ count: number }>('/api/users/count/');
    expect(count.body.count).toBe(available.body.length);
    const provider = await admin.get<{ count: number }>('/api/users/count/');
    expect(provider.body.count).toBeGreaterThan(count.body.count);
  });

  it("lists a user's own actions in the user-log timeline, newest first", async () => {
    const me = await alphaAdmin.get<CurrentUser>('/api/users/me/');
    const logs = await alphaAdmin.post<ListAnswer<SystemLog>>(
      `/api/users/${me.body.id}/user_logs_timeline/check/?page_size=100`,
      {},
    );
    expect(logs.status).toBe(200);
    expect(logs.body.results.every((l) => l.user_id === me.body.id)).toBe(true);
    const times = logs.body.results.map((l) => l.date_time);
    expect(times).toEqual([...times].sort().reverse());
    expect(logs.body.results.map((l) => l.action)).toEqual(
      expect.arrayContaining(['login', 'create', 'archive', 'restore']),
    );
  });
});

describe('roles and units', () => {
  it('checks role permissions against the resource registry', async () => {
    const unknown = await admin.post<Errors>('/api/roles/', {
      name: 'x',
      permissions: [{ basename: 'rockets', actions: ['view'] }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors['permissions.0.basename']).toBeDefined();
    const action = await admin.post<Errors>('/api/roles/', {
      name: 'x',
      permissions: [{ basename: 'alerts', actions: ['launch'] }],
    });
    expect(action.body.errors['permissions.0.actions']?.[0]).toMatch(/launch/);
    const catalog = await admin.get<{ basename: string; actions: string[] }[]>('/api/roles/catalog/');
    expect(catalog.body.find((c) => c.basename === 'users')?.actions).toContain('impersonate');
  });

  it('creates, edits and deletes roles and units of a company, counting their users', async () => {
    const role = await alphaAdmin.post<Role>('/api/roles/', {
      name: 'Log reader',
      permissions: [
        { basename: 'system_logs', actions: ['view'] },
        { basename: 'system_logs', actions: ['view'] },
      ],
    });
    expect(role.status).toBe(201);
    expect(role.body).toMatchObject({
      company_id: alpha,
      permissions: [{ basename: 'system_logs', actions: ['view'] }],
    });
    expect((await alphaAdmin.post<Errors>('/api/roles/', { name: 'log READER', permissions: [] })).status).toBe(400);
    const unit = await alphaAdmin.post<Unit>('/api/units/', { name: 'SOC', description: 'Security operations' });
    expect(unit.status).toBe(201);
    const user = await alphaAdmin.post<User>('/api/users/', {
      username: 'reader',
      role_ids: [role.body.id],
      unit_id: unit.body.id,
    });
    expect(user.status).toBe(201);
    expect((await alphaAdmin.get<Role>(`/api/roles/${role.body.id}/`)).body.user_count).toBe(1);
    expect((await alphaAdmin.get<Unit>(`/api/units/${unit.body.id}/`)).body.user_count).toBe(1);
    const renamed = await alphaAdmin.patch<Unit>(`/api/units/${unit.body.id}/`, { name: 'Blue team' });
    expect(renamed.body.name).toBe('Blue team');
    const units = await alphaAdmin.post<ListAnswer<Unit>>('/api/units/check/', {});
    expect(units.body.results.map((u) => u.name)).toEqual(['Blue team']);
    expect((await alphaAdmin.delete(`/api/units/${unit.body.id}/`)).status).toBe(204);
    expect((await alphaAdmin.get<User>(`/api/users/${user.body.id}/`)).body.unit_id).toBeNull();
    expect((await alphaAdmin.delete(`/api/roles/${role.body.id}/`)).status).toBe(204);
  });

  it("keeps other companies' roles and units out of reach", async () => {
    const betaRole = await admin.post<Role>('/api/roles/', { name: 'Beta role', company_id: beta, permissions: [] });
    const betaUnit = await admin.post<Unit>('/api/units/', { name: 'Beta unit', company_id: beta });
    expect((await alphaAdmin.get(`/api/roles/${betaRole.body.id}/`)).status).toBe(404);
    expect((await alphaAdmin.delete(`/api/roles/${betaRole.body.id}/`)).status).toBe(404);
    expect((await alphaAdmin.patch(`/api/units/${betaUnit.body.id}/`, { name: 'mine' })).status).toBe(404);
    const roles = await alphaAdmin.post<ListAnswer<Role>>('/api/roles/check/', {});
    expect(roles.body.results.every((r) => r.company_id === alpha)).toBe(true);
    expect((await alphaAdmin.post<Errors>('/api/units/', { name: 'x', company_id: beta })).status).toBe(400);
  });
});
