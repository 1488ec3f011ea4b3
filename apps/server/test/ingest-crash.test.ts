import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IngestAnswer, IngestTokenCreated } from '@vigil/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { sql } from '../src/db/sql';
import { TestClient } from './helpers/http-client';
import { copyPgliteTemplate } from './helpers/pglite-template';
import { startServerProcess, type ServerProcess } from './helpers/server-process';
import { ADMIN } from './helpers/test-app';

/*
 * Crash test: the real server on an embedded data directory, killed with SIGKILL in the middle of
 * a stream of ingest batches. After a restart every acknowledged batch is there exactly once, and
 * retrying it with its Idempotency-Key stores nothing more.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-ingest-crash-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const env = { DATA_DIR: dataDir, VIGIL_ADMIN_USERNAME: ADMIN.username, VIGIL_ADMIN_PASSWORD: ADMIN.password };

const LINES = 200;
const batchBody = (lane: number, n: number) =>
  Array.from({ length: LINES }, (_, i) =>
    JSON.stringify({
      timestamp: new Date(Date.UTC(2026, 10, 1, 0, 0, 0, 0) + n * 1000 + i).toISOString(),
      event_type: 'flow',
      src_ip: `10.${lane}.${n % 250}.${(i % 250) + 1}`,
      src_port: 1024 + i,
      dest_ip: '192.0.2.10',
      dest_port: 443,
      proto: 'TCP',
      flow_id: lane * 1_000_000 + n * 1000 + i,
    }),
  ).join('\n');

async function post(url: string, key: string, body: string, idempotencyKey: string) {
  const response = await fetch(`${url}/api/ingest/network/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/x-ndjson',
      'idempotency-key': idempotencyKey,
    },
    body,
  });
  return { status: response.status, body: (await response.json()) as IngestAnswer };
}

describe('ingest survives SIGKILL', () => {
  it('keeps every acknowledged batch exactly once', async () => {
    // A copy of the migrated template: the first start only opens it (as the restart does).
    await copyPgliteTemplate(dataDir);
    let server: ServerProcess = await startServerProcess(env);
    const admin = new TestClient(server.url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'crash sensor' });
    expect(token.status).toBe(201);
    const key = token.body.key;

    const acknowledged = new Map<string, { batchId: number; body: string }>();
    let killed = false;
    const lane = async (n: number) => {
      for (let i = 0; i < 1000 && !killed; i += 1) {
        const idempotencyKey = `lane-${n}-batch-${i}`;
        const body = batchBody(n, i);
        try {
          const answer = await post(server.url, key, body, idempotencyKey);
          if (answer.status !== 200) break;
          expect(answer.body.accepted).toBe(LINES);
          acknowledged.set(idempotencyKey, { batchId: answer.body.batch_id, body });
        } catch {
          break; // the connection died with the server
        }
      }
    };
    const lanes = [1, 2, 3, 4].map(lane);
    while (acknowledged.size < 30) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    killed = true;
    expect(await server.exited).toBe('SIGKILL');
    await Promise.all(lanes);
    const acked = new Map(acknowledged);

    // Restart on the same directory; retry every acknowledged batch: the original answer comes back.
    server = await startServerProcess(env);
    try {
      for (const [idempotencyKey, batch] of acked) {
        const retry = await post(server.url, key, batch.body, idempotencyKey);
        expect(retry.status).toBe(200);
        expect(retry.body.batch_id).toBe(batch.batchId);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    const db = await openDatabase({ dataDir });
    try {
      const { rows } = await db.query<{ batch_id: number; n: number }>(
        sql`SELECT batch_id, count(*)::int8 AS n FROM network_events GROUP BY batch_id`,
      );
      const perBatch = new Map(rows.map((r) => [Number(r.batch_id), Number(r.n)]));
      for (const [idempotencyKey, batch] of acked) {
        expect(perBatch.get(batch.batchId), idempotencyKey).toBe(LINES);
      }
      // Nothing stored twice: every stored batch has its lines once and a distinct key.
      for (const n of perBatch.values()) expect(n).toBe(LINES);
      const keys = await db.query<{ n: number; distinct_keys: number }>(
        sql`SELECT count(*)::int8 AS n, count(DISTINCT idempotency_key)::int8 AS distinct_keys FROM ingest_batches`,
      );
      expect(Number(keys.rows[0]!.n)).toBe(Number(keys.rows[0]!.distinct_keys));
      expect(Number(keys.rows[0]!.n)).toBeGreaterThanOrEqual(acked.size);
    } finally {
      await db.close();
    }
  }, 180_000);
});
