import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Matcher } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let admin: TestClient;
let hook: http.Server;
let hookPort: number;
let hits = 0;

beforeAll(async () => {
  // The default configuration: webhooks may not reach local or private addresses.
  t = await startTestApp();
  admin = await t.admin();
  hook = http.createServer((request, response) => {
    hits += 1;
    request.resume();
    response.end('ok');
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookPort = (hook.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => hook.close(resolve));
  await t?.close();
});

const webhookMatcher = (url: string) => ({
  name: `Hook ${url}`,
  conditions: {},
  actions: [{ type: 'notify_webhook', url }],
});

describe('webhooks and the local network', () => {
  it('refuses a webhook written as a loopback, private or link-local address, with the field named', async () => {
    for (const url of [
      `http://127.0.0.1:${hookPort}/hook`,
      'http://localhost/hook',
      'http://10.20.30.40/hook',
      'http://192.168.1.5/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const answer = await admin.post<{ errors: Record<string, string[]> }>('/api/matchers/', webhookMatcher(url));
      expect(answer.status, url).toBe(400);
      expect(answer.body.errors['actions.0.url']?.[0], url).toMatch(/private|loopback/);
    }
    const count = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM matchers`);
    expect(count.rows[0]!.n).toBe(0);
    const accepted = await admin.post<Matcher>('/api/matchers/', webhookMatcher('https://hooks.example.com/vigil'));
    expect(accepted.status).toBe(201);
    const patched = await admin.patch(`/api/matchers/${accepted.body.id}/`, {
      actions: [{ type: 'notify_webhook', url: 'http://172.16.0.1/x' }],
    });
    expect(patched.status).toBe(400);
    await admin.delete(`/api/matchers/${accepted.body.id}/`);
  });

  it('does not call a name that resolves to a local address: the job fails for good and says why', async () => {
    const created = await admin.post<Matcher>('/api/matchers/', webhookMatcher('https://hooks.example.com/vigil'));
    expect(created.status).toBe(201);
    // A name that resolves to loopback (as a rebinding attacker's name would), stored behind the API's back.
    await t.db.query(
      sql`UPDATE matchers SET actions = ${JSON.stringify([
        { type: 'notify_webhook', url: `http://localhost:${hookPort}/hook` },
      ])}::jsonb WHERE id = ${created.body.id}`,
    );
    const companyId = created.body.company_id;
    const raised = await raise(t.db, [buildDetection(companyId, { title: 'Guarded' })]);
    expect(raised.created).toHaveLength(1);
    await t.app.jobs.runDueJobs();
    const jobs = await t.db.query<{ status: string; last_error: string }>(
      sql`SELECT status, last_error FROM jobs WHERE kind = 'webhook'`,
    );
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]!.status).toBe('failed');
    expect(jobs.rows[0]!.last_error).toMatch(/private or local network address/);
    expect(hits).toBe(0);
  });
});
