import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { sql } from '../src/db/sql';
import { TestClient } from './helpers/http-client';
import { startServerProcess } from './helpers/server-process';
import { ADMIN } from './helpers/test-app';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-shutdown-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const env = { DATA_DIR: dataDir, VIGIL_ADMIN_USERNAME: ADMIN.username, VIGIL_ADMIN_PASSWORD: ADMIN.password };

describe('graceful shutdown of the embedded database', () => {
  it('keeps every acknowledged write when stopped with SIGTERM in the middle of writes', async () => {
    const server = await startServerProcess(env);
    const client = new TestClient(server.url);
    await client.signIn(ADMIN.username, ADMIN.password);

    const acknowledged: string[] = [];
    let sent = 0;
    let stopped = false;
    const writer = async (lane: number) => {
      for (let i = 0; i < 400 && !stopped; i += 1) {
        const name = `Company ${lane}-${i}`;
        sent += 1;
        try {
          const answer = await client.post('/api/companies/', { name });
          if (answer.status === 201) acknowledged.push(name);
          else if (answer.status >= 500 || answer.status === 503) break;
        } catch {
          break; // connection refused or reset: the server is going away
        }
      }
    };
    const writers = [0, 1, 2, 3, 4, 5].map(writer);
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 10));
    server.child.kill('SIGTERM');
    const code = await server.exited;
    stopped = true;
    await Promise.all(writers);
    expect(code).toBe(0);
    expect(sent).toBeGreaterThan(acknowledged.length - 1);

    // The directory opens again and holds every acknowledged row, with its audit record.
    const db = await openDatabase({ dataDir });
    try {
      const { rows } = await db.query<{ name: string }>(sql`SELECT name FROM companies WHERE name LIKE 'Company %'`);
      const stored = new Set(rows.map((r) => r.name));
      for (const name of acknowledged) expect(stored.has(name), name).toBe(true);
      const audit = await db.query<{ n: number }>(
        sql`SELECT count(*)::int8 AS n FROM system_logs WHERE object_type = 'company' AND action = 'create'`,
      );
      expect(Number(audit.rows[0]?.n)).toBe(stored.size);
    } finally {
      await db.close();
    }

    // And the server starts on it again.
    const again = await startServerProcess(env);
    const health = await new TestClient(again.url).get<{ status: string }>('/api/health/');
    expect(health.body.status).toBe('ok');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    // Two server starts and a stream of writes: generous on a busy machine.
  }, 240_000);
});
