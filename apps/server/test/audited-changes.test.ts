import type { Role, Unit, Widget } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { TestClient } from './helpers/http-client';
import { startTestApp, type TestApp } from './helpers/test-app';

// The audit records of creating, changing and deleting units, roles and widgets, field by field.

let t: TestApp;
let admin: TestClient;
let provider: number;
let adminId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const { rows } = await t.db.query<{ company_id: number; id: number }>(
    sql`SELECT company_id, id FROM users WHERE username = 'admin'`,
  );
  provider = Number(rows[0]!.company_id);
  adminId = Number(rows[0]!.id);
});
afterAll(async () => {
  await t?.close();
});

interface AuditRow {
  action: string;
  object_id: string;
  object_repr: string;
  company_id: number;
  user_id: number;
  username: string;
  changes: object;
}

/** The records of one object, oldest first. */
async function recordsOf(objectType: string, id: number): Promise<AuditRow[]> {
  const { rows } = await t.db.query<AuditRow>(sql`
    SELECT action, object_id, object_repr, company_id, user_id, username, changes FROM system_logs
    WHERE object_type = ${objectType} AND object_id = ${String(id)} ORDER BY id`);
  return rows.map((r) => ({ ...r, company_id: Number(r.company_id), user_id: Number(r.user_id) }));
}

const by = () => ({ user_id: adminId, username: 'admin', company_id: provider });

describe('audit records of a created, changed and deleted object', () => {
  it('unit: its name and description, named by its name', async () => {
    const created = await admin.post<Unit>('/api/units/', { name: 'Night shift', description: 'SOC, 22–06' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await admin.patch<Unit>(`/api/units/${id}/`, { name: 'Night watch' })).status).toBe(200);
    expect((await admin.delete(`/api/units/${id}/`)).status).toBe(204);
    expect(await recordsOf('unit', id)).toEqual([
      {
        action: 'create',
        object_id: String(id),
        object_repr: 'Night shift',
        ...by(),
        changes: {
          name: { before: null, after: 'Night shift' },
          description: { before: null, after: 'SOC, 22–06' },
        },
      },
      {
        action: 'update',
        object_id: String(id),
        object_repr: 'Night watch',
        ...by(),
        changes: { name: { before: 'Night shift', after: 'Night watch' } },
      },
      {
        action: 'delete',
        object_id: String(id),
        object_repr: 'Night watch',
        ...by(),
        changes: {
          name: { before: 'Night watch', after: null },
          description: { before: 'SOC, 22–06', after: null },
        },
      },
    ]);
  });

  it('role: name, description and permissions; its deletion records the name and permissions', async () => {
    const permissions = [{ basename: 'alerts', actions: ['view'] }];
    const created = await admin.post<Role>('/api/roles/', { name: 'Readers', description: 'Read only', permissions });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const changed = await admin.patch<Role>(`/api/roles/${id}/`, {
      permissions: [{ basename: 'alerts', actions: ['view', 'change'] }],
    });
    expect(changed.status).toBe(200);
    expect((await admin.delete(`/api/roles/${id}/`)).status).toBe(204);
    const [create, update, remove] = await recordsOf('role', id);
    expect(create).toEqual({
      action: 'create',
      object_id: String(id),
      object_repr: 'Readers',
      ...by(),
      changes: {
        name: { before: null, after: 'Readers' },
        description: { before: null, after: 'Read only' },
        permissions: { before: null, after: created.body.permissions },
      },
    });
    expect(update).toEqual({
      action: 'update',
      object_id: String(id),
      object_repr: 'Readers',
      ...by(),
      changes: { permissions: { before: created.body.permissions, after: changed.body.permissions } },
    });
    expect(remove).toEqual({
      action: 'delete',
      object_id: String(id),
      object_repr: 'Readers',
      ...by(),
      changes: {
        name: { before: 'Readers', after: null },
        permissions: { before: changed.body.permissions, after: null },
      },
    });
  });

  it('widget: kind, size, place and settings, named by its kind and size', async () => {
    const created = await admin.post<Widget>('/api/widgets/', {
      kind: 'top_signatures',
      size: 'third',
      settings: { limit: 5 },
    });
    expect(created.status).toBe(201);
    const { id, position } = created.body;
    expect((await admin.patch<Widget>(`/api/widgets/${id}/`, { size: 'full' })).status).toBe(200);
    expect((await admin.delete(`/api/widgets/${id}/`)).status).toBe(204);
    expect(await recordsOf('widget', id)).toEqual([
      {
        action: 'create',
        object_id: String(id),
        object_repr: 'top_signatures (third)',
        ...by(),
        changes: {
          kind: { before: null, after: 'top_signatures' },
          size: { before: null, after: 'third' },
          position: { before: null, after: position },
          settings: { before: null, after: { limit: 5 } },
        },
      },
      {
        action: 'update',
        object_id: String(id),
        object_repr: 'top_signatures (full)',
        ...by(),
        changes: { size: { before: 'third', after: 'full' } },
      },
      {
        action: 'delete',
        object_id: String(id),
        object_repr: 'top_signatures (full)',
        ...by(),
        changes: {
          kind: { before: 'top_signatures', after: null },
          size: { before: 'full', after: null },
          position: { before: position, after: null },
          settings: { before: { limit: 5 }, after: null },
        },
      },
    ]);
  });
});
