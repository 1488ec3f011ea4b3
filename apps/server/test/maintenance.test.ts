import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { maintenanceErrorSchema, MAINTENANCE_RETRY_AFTER_SECONDS } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import { MAINTENANCE_POLL_MS } from '../src/modules/maintenance/maintenance.guard';
import {
  migrateUnderMaintenance,
  readMaintenance,
  switchMaintenance,
} from '../src/modules/maintenance/maintenance.repository';
import { openMigrationGate } from '../src/modules/maintenance/migration-gate';
import type { Answer, TestClient } from './helpers/http-client';
import { TestClient as Client } from './helpers/http-client';
import { startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await switchMaintenance(t.db, false).catch(() => undefined);
  await t?.close();
});

/** Asks until the answer's status is `status`: a change reaches the server through NOTIFY or its next poll. */
async function eventually(ask: () => Promise<Answer>, status: number): Promise<Answer> {
  const deadline = Date.now() + MAINTENANCE_POLL_MS * 3;
  for (;;) {
    const answer = await ask();
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('maintenance turned on by an administrator (what `vigil maintenance on|off` calls)', () => {
  it('answers 423 with the documented body to /api/, keeps the health check, and comes back when turned off', async () => {
    expect((await admin.get('/api/users/me/')).status).toBe(200);

    const state = await switchMaintenance(t.db, true);
    expect(state).toEqual({ reason: 'administrator', since: expect.any(Date) });
    const closed = await eventually(() => admin.get('/api/users/me/'), 423);
    expect(closed.status).toBe(423);
    const body = maintenanceErrorSchema.parse(closed.body);
    expect(body).toEqual({
      detail: 'Vigil is in maintenance. Try again in a few moments.',
      code: 'maintenance',
      maintenance: {
        reason: 'administrator',
        since: state!.since!.toISOString(),
        retry_after: MAINTENANCE_RETRY_AFTER_SECONDS,
      },
    });
    expect(closed.headers.get('retry-after')).toBe(String(MAINTENANCE_RETRY_AFTER_SECONDS));

    // Every other /api/ route too, signed in or not, before any anti-forgery check; unknown ones as well.
    expect((await t.client().get('/api/auth/')).status).toBe(423);
    const anonymousWrite = t.client();
    anonymousWrite.csrf = false;
    expect((await anonymousWrite.post('/api/auth/', { username: 'admin', password: 'x' })).status).toBe(423);
    expect((await admin.get('/api/nothing-here/')).status).toBe(423);
    // The health check stays open; the console's files are not under /api/ and are served as usual.
    const health = await t.client().get<{ status: string }>('/api/health/');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect((await t.client().get('/alerts', { accept: 'text/html' })).status).not.toBe(423);

    // Turning it on again keeps when it began.
    expect(await switchMaintenance(t.db, true)).toEqual(state);

    expect(await switchMaintenance(t.db, false)).toBeNull();
    expect((await eventually(() => admin.get('/api/users/me/'), 200)).status).toBe(200);
    expect(await readMaintenance(t.db)).toBeNull();
  });
});

describe('maintenance while migrations run', () => {
  it('a migration applied while the server is up runs with maintenance on, and turns it off afterwards', async () => {
    await t.db.exec('CREATE TABLE maintenance_probe (active boolean, reason text)');
    const probe = {
      version: '29991231235959',
      name: 'maintenance_probe',
      // Records the maintenance state as the migration saw it.
      text: 'INSERT INTO maintenance_probe SELECT active, reason FROM maintenance_state',
    };
    expect(await migrateUnderMaintenance(t.db, [...readMigrations(), probe])).toEqual([probe.version]);
    const seen = await t.db.query<{ active: boolean; reason: string }>(
      sql`SELECT active, reason FROM maintenance_probe`,
    );
    expect(seen.rows).toEqual([{ active: true, reason: 'migration' }]);
    expect(await readMaintenance(t.db)).toBeNull();
    // Nothing pending: maintenance is not touched.
    expect(await migrateUnderMaintenance(t.db, [...readMigrations(), probe])).toEqual([]);
  });

  it('turns off the maintenance a migration that stopped half-way left on, with or without migrations pending', async () => {
    await switchMaintenance(t.db, true, 'migration');
    expect(await migrateUnderMaintenance(t.db)).toEqual([]);
    expect(await readMaintenance(t.db)).toBeNull();
    await switchMaintenance(t.db, true, 'migration');
    const probe = { version: '29991231235961', name: 'noop_after_a_crash', text: 'SELECT 1' };
    expect(await migrateUnderMaintenance(t.db, [...readMigrations(), probe])).toEqual([probe.version]);
    expect(await readMaintenance(t.db)).toBeNull();
    await eventually(() => admin.get('/api/users/me/'), 200);
  });

  it('leaves maintenance on when an administrator had turned it on', async () => {
    await switchMaintenance(t.db, true);
    const probe = { version: '29991231235960', name: 'noop', text: 'SELECT 1' };
    await migrateUnderMaintenance(t.db, [...readMigrations(), probe]);
    expect(await readMaintenance(t.db)).toMatchObject({ reason: 'administrator' });
    await switchMaintenance(t.db, false);
    await eventually(() => admin.get('/api/users/me/'), 200);
  });

  it('at start, the gate holds the port while migrating: 423 for /api/, not-ready health, the console files', async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-gate-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Vigil</title>');
    const gate = await openMigrationGate({
      db: t.db,
      config: { ...t.config, port: 0, host: '127.0.0.1', webDistDir: webDir, logLevel: 'silent' },
      version: 'test',
    });
    try {
      const client = new Client(`http://127.0.0.1:${gate.port}`);
      const answer = await client.get('/api/users/me/');
      expect(answer.status).toBe(423);
      expect(maintenanceErrorSchema.parse(answer.body).maintenance.reason).toBe('migration');
      expect(answer.headers.get('retry-after')).toBe(String(MAINTENANCE_RETRY_AFTER_SECONDS));
      const health = await client.get<{ status: string }>('/api/health/');
      expect(health.status).toBe(503);
      expect(health.body.status).toBe('degraded');
      const page = await client.get<string>('/alerts', { accept: 'text/html', 'x-requested-with': '' });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Vigil</title>');
    } finally {
      await gate.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});
