import type { Company, ListAnswer, SystemLog } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { recordAudit } from '../src/modules/audit/audit.repository';
import type { TestClient } from './helpers/http-client';
import { startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

const logsOf = async (objectType: string, objectId?: number) =>
  (
    await admin.post<ListAnswer<SystemLog>>('/api/system_logs/check/', {
      object_type: objectType,
      ...(objectId === undefined ? {} : { object_id: String(objectId) }),
    })
  ).body.results;

describe('audit log', () => {
  it('records sign-in with the user and IP', async () => {
    const logs = await logsOf('user');
    const login = logs.find((l) => l.action === 'login');
    expect(login).toMatchObject({ username: 'admin', ip: '127.0.0.1', object_repr: 'admin' });
  });

  it('records a creation with the new values and an update with before and after of changed fields only', async () => {
    const created = await admin.post<Company>('/api/companies/', { name: 'Delta Logistics', label_name: 'Delta' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const updated = await admin.patch<Company>(`/api/companies/${id}/`, {
      description: 'Warehouses in three countries',
      label_name: 'Delta',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.description).toBe('Warehouses in three countries');

    const logs = await logsOf('company', id);
    expect(logs.map((l) => l.action)).toEqual(['update', 'create']);
    const [update, create] = logs;
    expect(create?.changes.name).toEqual({ before: null, after: 'Delta Logistics' });
    expect(update?.changes).toEqual({ description: { before: '', after: 'Warehouses in three countries' } });
    expect(update).toMatchObject({
      username: 'admin',
      ip: '127.0.0.1',
      company_id: id,
      object_repr: 'Delta Logistics',
    });
    expect(Date.parse(update!.date_time)).not.toBeNaN();
  });

  it('writes nothing for a refused change, and keeps what was there', async () => {
    const before = (await admin.post<{ count: number }>('/api/system_logs/count/', {})).body.count;
    const refused = await admin.post<{ errors: Record<string, string[]> }>('/api/companies/', { name: '' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.name).toBeDefined();
    const duplicate = await admin.post<{ errors: Record<string, string[]> }>('/api/companies/', {
      name: 'delta logistics',
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors.name?.[0]).toMatch(/already exists/);
    const after = (await admin.post<{ count: number }>('/api/system_logs/count/', {})).body.count;
    expect(after).toBe(before);
  });

  it('is written in the same transaction as the change: a rollback loses both', async () => {
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`);
    const provider = rows[0]!.id;
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(sql`UPDATE companies SET description = 'half done' WHERE id = ${provider}`);
        await recordAudit(
          tx,
          { userId: null, username: 'system', impersonatorId: null, ip: null },
          { action: 'update', objectType: 'company', objectId: provider, companyId: provider, after: { x: 1 } },
        );
        throw new Error('crash between the change and the commit');
      }),
    ).rejects.toThrow(/crash/);
    const company = await t.db.query<{ description: string }>(
      sql`SELECT description FROM companies WHERE id = ${provider}`,
    );
    expect(company.rows[0]?.description).toBe('');
    const logs = await t.db.query(sql`SELECT 1 FROM system_logs WHERE username = 'system'`);
    expect(logs.rows).toHaveLength(0);
  });

  it('never stores secret values', async () => {
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`);
    await t.db.transaction((tx) =>
      recordAudit(
        tx,
        { userId: null, username: 'system', impersonatorId: null, ip: null },
        {
          action: 'update',
          objectType: 'user',
          objectId: 1,
          companyId: rows[0]!.id,
          before: { password_hash: 'old-hash' },
          after: { password_hash: 'new-hash' },
        },
      ),
    );
    const stored = await t.db.query<{ changes: unknown }>(
      sql`SELECT changes FROM system_logs WHERE username = 'system'`,
    );
    expect(JSON.stringify(stored.rows)).not.toMatch(/old-hash|new-hash/);
    expect(stored.rows[0]?.changes).toEqual({ password_hash: { before: '***', after: '***' } });
  });
});
