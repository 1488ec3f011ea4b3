import type {
  Employee,
  EmployeeActivity,
  EmployeeImportAnswer,
  EmployeeResolveAnswer,
  IngestTokenCreated,
  ListAnswer,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Employees: kept by hand and imported from CSV (an Active Directory export too), resolved from the
 * account names of endpoint events and the addresses of mail, with their alerts, malicious mail
 * and sign-ins; nothing of one company visible to another.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let hr: TestClient;
let other: TestClient;
let key: string;

const everything = [{ basename: 'employees', actions: ['view', 'add', 'change', 'delete'] }];

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  await buildUser(t.db, { username: 'hanna', companyId: alpha, permissions: everything });
  await buildUser(t.db, { username: 'boris', companyId: beta, permissions: everything });
  hr = t.client();
  await hr.signIn('hanna', 'User-password-1');
  other = t.client();
  await other.signIn('boris', 'User-password-1');
  const admin = await t.admin();
  const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'agents', company_id: alpha });
  key = token.body.key;
});
afterAll(async () => {
  await t?.close();
});

async function importCsv(client: TestClient, csv: string, query = '') {
  return client.request<EmployeeImportAnswer & Errors>('POST', `/api/employees/import/${query}`, {
    rawBody: csv,
    headers: { 'content-type': 'text/csv' },
  });
}

async function auditCount(action: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM system_logs WHERE object_type = 'employee' AND action = ${action}`,
  );
  return Number(rows[0]!.n);
}

describe('employees by hand', () => {
  it('creates, reads, changes, archives and restores an employee, each change audited', async () => {
    const unit = await t.db.query<{ id: number }>(
      sql`INSERT INTO units (company_id, name) VALUES (${alpha}, 'Treasury') RETURNING id`,
    );
    const unitId = Number(unit.rows[0]!.id);
    const boss = await hr.post<Employee>('/api/employees/', { full_name: 'Olga Boss', emails: ['Olga@Alpha.example'] });
    expect(boss.status).toBe(201);
    expect(boss.body.emails).toEqual(['olga@alpha.example']);
    const made = await hr.post<Employee>('/api/employees/', {
      full_name: '  Ivan Petrov ',
      emails: ['ivan@alpha.example', 'IVAN@alpha.example'],
      accounts: ['ALPHA\\IPetrov', 'ipetrov@alpha.example'],
      department: 'Treasury',
      title: 'Dealer',
      phone: '+7 495 000-00-00',
      manager_id: boss.body.id,
      unit_id: unitId,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      full_name: 'Ivan Petrov',
      emails: ['ivan@alpha.example'],
      accounts: ['alpha\\ipetrov', 'ipetrov@alpha.example'],
      manager_id: boss.body.id,
      manager_name: 'Olga Boss',
      unit_id: unitId,
      unit_name: 'Treasury',
      company_id: alpha,
      archived: false,
    });
    const id = made.body.id;
    expect((await hr.get<Employee>(`/api/employees/${id}/`)).body.full_name).toBe('Ivan Petrov');
    const changed = await hr.patch<Employee>(`/api/employees/${id}/`, { title: 'Chief dealer', phone: '' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ title: 'Chief dealer', phone: '', department: 'Treasury' });
    const archived = await hr.post<Employee>(`/api/employees/${id}/archive/`);
    expect(archived.body.archived).toBe(true);
    expect((await hr.post<{ count: number }>('/api/employees/count/', {})).body.count).toBe(1);
    expect((await hr.post<{ count: number }>('/api/employees/count/', { archived: true })).body.count).toBe(1);
    const restored = await hr.post<Employee>(`/api/employees/${id}/restore/`);
    expect(restored.body.archived).toBe(false);
    expect(await auditCount('create')).toBeGreaterThanOrEqual(2);
    expect(await auditCount('update')).toBeGreaterThanOrEqual(1);
    expect(await auditCount('archive')).toBe(1);
    expect(await auditCount('restore')).toBe(1);
  });

  it('refuses bad input with field errors', async () => {
    const nul = await hr.post<Errors>('/api/employees/', { full_name: 'Bad\u0000name' });
    expect(nul.status).toBe(400);
    expect(Object.keys(nul.body.errors)).toContain('full_name');
    const email = await hr.post<Errors>('/api/employees/', { full_name: 'X', emails: ['not an address'] });
    expect(email.status).toBe(400);
    expect(Object.keys(email.body.errors).join()).toContain('emails');
    const account = await hr.post<Errors>('/api/employees/', { full_name: 'X', accounts: ['two words'] });
    expect(account.status).toBe(400);
    expect((await hr.post<Errors>('/api/employees/', { full_name: '' })).status).toBe(400);
    expect((await hr.post<Errors>('/api/employees/', { full_name: 'X', shoe_size: 42 })).status).toBe(400);
    const foreign = await other.post<Employee>('/api/employees/', { full_name: 'Beta boss' });
    const wrongManager = await hr.post<Errors>('/api/employees/', { full_name: 'X', manager_id: foreign.body.id });
    expect(wrongManager.status).toBe(400);
    expect(wrongManager.body.errors.manager_id).toBeDefined();
    const wrongUnit = await hr.post<Errors>('/api/employees/', { full_name: 'X', unit_id: 999_999 });
    expect(wrongUnit.body.errors.unit_id).toBeDefined();
    const list = await hr.post<ListAnswer<Employee>>('/api/employees/check/', { search: 'x' });
    expect(list.body.results.map((e) => e.full_name)).not.toContain('X');
  });

  it('refuses a manager chain that goes round', async () => {
    const a = await hr.post<Employee>('/api/employees/', { full_name: 'Loop A' });
    const b = await hr.post<Employee>('/api/employees/', { full_name: 'Loop B', manager_id: a.body.id });
    const loop = await hr.patch<Errors>(`/api/employees/${a.body.id}/`, { manager_id: b.body.id });
    expect(loop.status).toBe(400);
    expect(loop.body.errors.manager_id).toBeDefined();
    const self = await hr.patch<Errors>(`/api/employees/${a.body.id}/`, { manager_id: a.body.id });
    expect(self.status).toBe(400);
  });

  it('lists, counts and filters, and shows nothing of another company', async () => {
    const page = await hr.post<ListAnswer<Employee>>('/api/employees/check/', { department: 'treasury' });
    expect(page.status).toBe(200);
    expect(page.body.results.map((e) => e.full_name)).toEqual(['Ivan Petrov']);
    const byAccount = await hr.post<ListAnswer<Employee>>('/api/employees/check/', { account: 'ALPHA\\ipetrov' });
    expect(byAccount.body.results).toHaveLength(1);
    const byEmail = await hr.post<ListAnswer<Employee>>('/api/employees/check/', { email: 'Olga@alpha.example' });
    expect(byEmail.body.results.map((e) => e.full_name)).toEqual(['Olga Boss']);
    const search = await hr.post<{ count: number }>('/api/employees/count/', { search: 'dealer' });
    expect(search.body.count).toBe(1);
    const unitId = page.body.results[0]!.unit_id!;
    expect((await hr.post<{ count: number }>('/api/employees/count/', { unit_id: unitId })).body.count).toBe(1);
    const ordered = await hr.post<ListAnswer<Employee>>('/api/employees/check/?ordering=-full_name', {});
    const names = ordered.body.results.map((e) => e.full_name);
    expect(names).toEqual([...names].sort().reverse());

    const theirs = await other.post<ListAnswer<Employee>>('/api/employees/check/', {});
    expect(theirs.body.results.every((e) => e.company_id === beta)).toBe(true);
    const ivan = page.body.results[0]!.id;
    expect((await other.get(`/api/employees/${ivan}/`)).status).toBe(404);
    expect((await other.patch(`/api/employees/${ivan}/`, { title: 'x' })).status).toBe(404);
    expect((await other.patch(`/api/employees/${ivan}/`, { title: 42 })).status).toBe(404);
    expect((await other.post(`/api/employees/${ivan}/archive/`)).status).toBe(404);
    expect((await other.post(`/api/employees/${ivan}/restore/`)).status).toBe(404);
    expect((await other.get(`/api/employees/${ivan}/activity/`)).status).toBe(404);
    const resolved = await other.get<EmployeeResolveAnswer>('/api/employees/resolve/?account=alpha%5Cipetrov');
    expect(resolved.body.employee).toBeNull();
    const elsewhere = await other.get<Errors>(`/api/employees/resolve/?account=ipetrov&company_id=${alpha}`);
    expect(elsewhere.status).toBe(400);
  });
});

describe('linking accounts and addresses', () => {
  it('resolves a user name with or without its domain, a UPN and a mail address', async () => {
    const resolve = async (query: string) =>
      (await hr.get<EmployeeResolveAnswer>(`/api/employees/resolve/?${query}`)).body.employee?.full_name ?? null;
    expect(await resolve('account=ALPHA%5CIPetrov')).toBe('Ivan Petrov');
    expect(await resolve('account=IPetrov%40alpha.example')).toBe('Ivan Petrov');
    expect(await resolve('account=ipetrov')).toBeNull();
    expect(await resolve('account=OTHER%5Cipetrov')).toBeNull();
    expect(await resolve('email=IVAN%40Alpha.Example')).toBe('Ivan Petrov');
    expect(await resolve('email=nobody%40alpha.example')).toBeNull();
    const both = await hr.get<Errors>('/api/employees/resolve/?account=a&email=b%40c.d');
    expect(both.status).toBe(400);
    expect((await hr.get<Errors>('/api/employees/resolve/?account=a%00b')).status).toBe(400);
  });

  it('shows the alerts, malicious mail and sign-ins of an employee', async () => {
    const ivan = (await hr.get<EmployeeResolveAnswer>('/api/employees/resolve/?account=alpha%5Cipetrov')).body
      .employee!;
    const logon = {
      '@timestamp': '2026-11-20T08:00:00Z',
      host: { name: 'DEALER-01' },
      event: {
        action: 'logged-in',
        category: ['authentication'],
        outcome: 'success',
        code: '4624',
        provider: 'Microsoft-Windows-Security-Auditing',
      },
      user: { name: 'IPetrov', domain: 'ALPHA' },
      source: { ip: '10.1.2.3' },
    };
    const mail = [
      'From: "Bank" <billing@evil.example>',
      'To: Ivan <ivan@alpha.example>',
      'Subject: Invoice overdue',
      'Message-ID: <m1@evil.example>',
      'Date: Fri, 20 Nov 2026 08:00:00 +0000',
      '',
      'Pay now.',
      '',
    ].join('\r\n');
    const sent = await fetch(`${t.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      body: JSON.stringify(logon),
    });
    expect(sent.status).toBe(200);
    const mailed = await fetch(`${t.url}/api/ingest/mail/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'message/rfc822' },
      body: mail,
    });
    expect(mailed.status).toBe(200);
    const stored = await t.db.query<{ id: number; ts: Date }>(
      sql`SELECT id, ts FROM mail_messages WHERE company_id = ${alpha} ORDER BY id DESC LIMIT 1`,
    );
    const message = stored.rows[0]!;
    const onMail = buildDetection(alpha, { title: 'Phishing invoice', kind: 'mail' });
    await raise(t.db, [
      { ...onMail, event: { kind: 'mail', id: Number(message.id), ts: message.ts.toISOString() } },
      buildDetection(alpha, { title: 'Suspicious logon', user: 'ALPHA\\IPetrov', kind: 'endpoint' }),
      buildDetection(beta, { title: 'Other company', user: 'ALPHA\\IPetrov', kind: 'endpoint' }),
    ]);
    const activity = await hr.get<EmployeeActivity>(`/api/employees/${ivan.id}/activity/`);
    expect(activity.status).toBe(200);
    expect(activity.body.alerts.map((a) => [a.title, a.matched])).toEqual([['Suspicious logon', 'ALPHA\\IPetrov']]);
    expect(activity.body.malicious_mail).toHaveLength(1);
    expect(activity.body.malicious_mail[0]).toMatchObject({
      subject: 'Invoice overdue',
      recipient: 'ivan@alpha.example',
    });
    expect(activity.body.sign_ins).toHaveLength(1);
    expect(activity.body.sign_ins[0]).toMatchObject({
      host_name: 'DEALER-01',
      user_name: 'IPetrov',
      action: 'logon-success',
    });
    const few = await hr.get<Errors>(`/api/employees/${ivan.id}/activity/?limit=0`);
    expect(few.status).toBe(400);
  });
});

describe('CSV import', () => {
  it('creates and updates from good rows and names the bad ones', async () => {
    const csv = [
      'Full_Name,Emails,Accounts,Department,Title,Manager,Phone,Unit',
      'Anna Smirnova,anna@alpha.example,ALPHA\\asmirnova,Risk,Analyst,Olga Boss,+7 1,Treasury',
      'Ivan Petrov,ivan@alpha.example;ivan.p@alpha.example,,Treasury,Head dealer,,,',
      ',nobody@alpha.example,,,,,,',
      'Bad Mail,not-an-address,,,,,,',
      'No Unit,,,,,,,Moon base',
      '"Bad \u0000 nul",,,,,,,',
      'Too,many,fields,here,x,x,x,x,x,x',
    ].join('\n');
    const answer = await importCsv(hr, csv);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ created: 1, updated: 1, managers_linked: 1 });
    expect(answer.body.rejected.map((r) => [r.row, r.field])).toEqual([
      [4, 'full_name'],
      [5, 'emails'],
      [6, 'unit'],
      [7, 'row'],
      [8, 'row'],
    ]);
    const anna = (await hr.get<EmployeeResolveAnswer>('/api/employees/resolve/?email=anna%40alpha.example')).body
      .employee!;
    expect(anna).toMatchObject({ manager_name: 'Olga Boss', unit_name: 'Treasury', accounts: ['alpha\\asmirnova'] });
    const ivan = (await hr.get<EmployeeResolveAnswer>('/api/employees/resolve/?email=ivan.p%40alpha.example')).body
      .employee!;
    expect(ivan).toMatchObject({
      full_name: 'Ivan Petrov',
      title: 'Head dealer',
      accounts: ['alpha\\ipetrov', 'ipetrov@alpha.example'],
    });
    expect(await auditCount('import')).toBeGreaterThanOrEqual(1);
    // The same file again changes who is who not at all.
    const again = await importCsv(hr, csv);
    expect(again.body).toMatchObject({ created: 0, updated: 2 });
  });

  it('reads an Active Directory export and resolves Manager DNs within the file', async () => {
    const csv = [
      '#TYPE Microsoft.ActiveDirectory.Management.ADUser',
      '"DistinguishedName","Enabled","GivenName","Name","DisplayName","SamAccountName","UserPrincipalName","EmailAddress","Department","Title","Manager","telephoneNumber","ProxyAddresses"',
      '"CN=Pavel Sidorov,OU=Staff,DC=alpha,DC=example","True","Pavel","Pavel Sidorov","Sidorov, Pavel","psidorov","psidorov@alpha.example","pavel.sidorov@alpha.example","IT","Engineer","CN=Maria Kuznetsova,OU=Staff,DC=alpha,DC=example","+7 2","SMTP:pavel.sidorov@alpha.example smtp:ps@alpha.example X500:/o=ExchangeLabs/cn=x"',
      '"CN=Maria Kuznetsova,OU=Staff,DC=alpha,DC=example","True","Maria","Maria Kuznetsova","Maria Kuznetsova","mkuznetsova","mkuznetsova@alpha.example","","IT","Head of IT","CN=Nobody Known,OU=Staff,DC=alpha,DC=example","",""',
    ].join('\r\n');
    const answer = await importCsv(hr, csv);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ created: 2, updated: 0, managers_linked: 1 });
    expect(answer.body.rejected).toEqual([expect.objectContaining({ row: 4, field: 'manager' })]);
    const pavel = (await hr.get<EmployeeResolveAnswer>('/api/employees/resolve/?account=ALPHA%5Cpsidorov')).body
      .employee!;
    expect(pavel).toMatchObject({
      full_name: 'Sidorov, Pavel',
      emails: ['pavel.sidorov@alpha.example', 'ps@alpha.example'],
      accounts: ['psidorov', 'psidorov@alpha.example'],
      department: 'IT',
      title: 'Engineer',
      phone: '+7 2',
      manager_name: 'Maria Kuznetsova',
      distinguished_name: 'CN=Pavel Sidorov,OU=Staff,DC=alpha,DC=example',
    });
    // Another file naming the manager by DN finds her among the company's employees.
    const later = await importCsv(
      hr,
      'Name,SamAccountName,Manager\nNew Hire,nhire,"CN=Maria Kuznetsova,OU=Staff,DC=alpha,DC=example"\n',
    );
    expect(later.body).toMatchObject({ created: 1, managers_linked: 1, rejected: [] });
  });

  it('answers a file that is not a CSV of employees with reasons, and JSON bodies too', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x1f, 0x8b, 0x08, 0x00, 0x41, 0x0a, 0x42, 0x2c, 0x00]).toString(
      'latin1',
    );
    const random = await importCsv(hr, bytes);
    expect(random.status).toBe(200);
    expect(random.body.created).toBe(0);
    expect(random.body.rejected[0]).toMatchObject({ field: 'header' });
    const json = await hr.post<EmployeeImportAnswer>('/api/employees/import/', { csv: 'full_name\nJson Person\n' });
    expect(json.body.created).toBe(1);
    expect((await hr.post<Errors>('/api/employees/import/', { csv: '' })).status).toBe(400);
    expect((await importCsv(hr, 'full_name\nX\n', `?company_id=${beta}`)).status).toBe(400);
    const unreadable = await hr.request<Errors>('POST', '/api/employees/import/', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(unreadable.status).toBe(400);
  });

  it('refuses a file of more than 100,000 rows with the reason, and imports 100,000 without holding other requests up', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `Person ${i},p${i}@bulk.example,bulk\\p${i},Bulk`);
    const tooMany = await importCsv(hr, ['full_name,emails,accounts,department', ...rows(100_001)].join('\n'));
    expect(tooMany.status).toBe(200);
    expect(tooMany.body.rejected).toEqual([expect.objectContaining({ field: 'file' })]);
    expect(tooMany.body.rejected[0]!.reason).toContain('100,000');

    const started = Date.now();
    const big = importCsv(hr, ['full_name,emails,accounts,department', ...rows(100_000)].join('\n'));
    // Meanwhile another request is answered.
    const ping = await other.post<{ count: number }>('/api/employees/count/', {});
    const pinged = Date.now();
    const answer = await big;
    const finished = Date.now();
    expect(ping.status).toBe(200);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ created: 100_000, rejected: [] });
    expect(pinged).toBeLessThan(finished);
    expect(pinged - started).toBeLessThan(finished - started);
    const counted = await hr.post<{ count: number }>('/api/employees/count/', { department: 'Bulk' });
    expect(counted.body.count).toBe(100_000);
  }, 600_000);
});
