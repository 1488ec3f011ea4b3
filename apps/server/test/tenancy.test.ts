import type { Company, ListAnswer, SystemLog } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let alphaUser: TestClient;
let noPermissionUser: TestClient;
let twoCompanyUser: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  const readAll = [
    { basename: 'system_logs', actions: ['view'] },
    { basename: 'companies', actions: ['view', 'change'] },
  ];
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions: readAll });
  await buildUser(t.db, { username: 'nobody', companyId: alpha, permissions: [] });
  await buildUser(t.db, { username: 'mssp', companyId: alpha, permissions: readAll, extraCompanies: [beta] });
  for (const [company, repr] of [
    [alpha, 'alpha secret'],
    [beta, 'beta secret'],
  ] as const) {
    await t.db.query(
      sql`INSERT INTO system_logs (company_id, action, object_type, object_repr) VALUES (${company}, 'create', 'alert', ${repr})`,
    );
  }
  alphaUser = t.client();
  await alphaUser.signIn('alice', 'User-password-1');
  noPermissionUser = t.client();
  await noPermissionUser.signIn('nobody', 'User-password-1');
  twoCompanyUser = t.client();
  await twoCompanyUser.signIn('mssp', 'User-password-1');
});
afterAll(async () => {
  await t?.close();
});

describe('tenancy', () => {
  it('shows a customer user only its own company in lists and counts', async () => {
    const logs = await alphaUser.post<ListAnswer<SystemLog>>('/api/system_logs/check/', { object_type: 'alert' });
    expect(logs.status).toBe(200);
    expect(logs.body.results.map((r) => r.object_repr)).toEqual(['alpha secret']);
    const count = await alphaUser.post<{ count: number }>('/api/system_logs/count/', { object_type: 'alert' });
    expect(count.body.count).toBe(1);
    const companies = await alphaUser.post<ListAnswer<Company>>('/api/companies/check/', {});
    expect(companies.body.results.map((c) => c.id)).toEqual([alpha]);
  });

  it('does not let a filter reach outside the scope', async () => {
    const logs = await alphaUser.post<ListAnswer<SystemLog>>('/api/system_logs/check/', { company_id: beta });
    expect(logs.status).toBe(200);
    expect(logs.body.count).toBe(0);
  });

  it("answers 404 for another company's object, for reading and for changing", async () => {
    expect((await alphaUser.get(`/api/companies/${beta}/`)).status).toBe(404);
    expect((await alphaUser.put(`/api/companies/${beta}/`, { description: 'mine now' })).status).toBe(404);
    expect((await alphaUser.get(`/api/companies/${alpha}/`)).status).toBe(200);
    const { rows } = await t.db.query<{ description: string }>(
      sql`SELECT description FROM companies WHERE id = ${beta}`,
    );
    expect(rows[0]?.description).toBe('');
  });

  it('shows staff granted several companies all of them, and no others', async () => {
    const gamma = await buildCompany(t.db, 'Gamma Energy');
    const companies = await twoCompanyUser.post<ListAnswer<Company>>('/api/companies/check/?ordering=id', {});
    expect(companies.body.results.map((c) => c.id)).toEqual([alpha, beta]);
    expect((await twoCompanyUser.get(`/api/companies/${gamma}/`)).status).toBe(404);
    const logs = await twoCompanyUser.post<ListAnswer<SystemLog>>('/api/system_logs/check/?ordering=object_type,id', {
      object_type: 'alert',
    });
    expect(logs.body.results.map((r) => r.object_repr)).toEqual(['alpha secret', 'beta secret']);
  });

  it('shows the provider administrator every company', async () => {
    const admin = await t.admin();
    const companies = await admin.post<ListAnswer<Company>>('/api/companies/count/', {});
    expect(companies.body).toEqual({ count: 4 + 0 });
  });
});

describe('permissions', () => {
  it('answers 401 to a caller who is not signed in', async () => {
    const anonymous = t.client();
    expect((await anonymous.post('/api/system_logs/check/', {})).status).toBe(401);
    expect((await anonymous.get(`/api/companies/${alpha}/`)).status).toBe(401);
  });

  it('answers 403 to a signed-in user without the permission', async () => {
    expect((await noPermissionUser.post('/api/system_logs/check/', {})).status).toBe(403);
    expect((await noPermissionUser.post('/api/system_logs/count/', {})).status).toBe(403);
    expect((await noPermissionUser.get(`/api/companies/${alpha}/`)).status).toBe(403);
    expect((await alphaUser.post('/api/companies/', { name: 'Sneaky' })).status).toBe(403);
  });
});
