import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alert, CommittedAction, Matcher } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let alphaAdmin: TestClient;
let betaAdmin: TestClient;
let hook: http.Server;
let hookUrl: string;
const received: { path: string; body: { alert: { id: number; severity: string } } }[] = [];

async function userWithMatchers(name: string, companyId: number): Promise<TestClient> {
  const user = await buildUser(t.db, {
    username: name,
    companyId,
    permissions: [
      { basename: 'matchers', actions: ['view', 'add', 'change', 'delete'] },
      { basename: 'alerts', actions: ['view'] },
    ],
  });
  const client = t.client();
  await client.signIn(user.username, user.password);
  return client;
}

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  admin = await t.admin();
  alphaAdmin = await userWithMatchers('alpha-admin', alpha);
  betaAdmin = await userWithMatchers('beta-admin', beta);
  hook = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as (typeof received)[number]['body'] });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => hook?.close(resolve));
});

describe('matchers', () => {
  it('are created, changed and deleted per company, audited, and hidden from other tenants', async () => {
    const created = await alphaAdmin.post<Matcher>('/api/matchers/', {
      name: 'Tag noisy',
      conditions: { title_contains: 'noisy' },
      actions: [{ type: 'add_tag', tag: 'noisy' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.company_id).toBe(alpha);
    const bad = await alphaAdmin.post('/api/matchers/', {
      name: 'Bad',
      conditions: {},
      actions: [{ type: 'notify_webhook', url: 'ftp://x' }],
    });
    expect(bad.status).toBe(400);
    const patched = await alphaAdmin.patch<Matcher>(`/api/matchers/${created.body.id}/`, { enabled: false });
    expect(patched.body.enabled).toBe(false);
    expect((await betaAdmin.get(`/api/matchers/${created.body.id}/`)).status).toBe(404);
    expect((await betaAdmin.patch(`/api/matchers/${created.body.id}/`, { enabled: true })).status).toBe(404);
    expect((await betaAdmin.delete(`/api/matchers/${created.body.id}/`)).status).toBe(404);
    const theirs = await betaAdmin.post<{ count: number }>('/api/matchers/count/', {});
    expect(theirs.body.count).toBe(0);
    expect((await alphaAdmin.post('/api/matchers/', { ...created.body, id: undefined })).status).toBe(400);
    expect((await alphaAdmin.delete(`/api/matchers/${created.body.id}/`)).status).toBe(204);
    const audit = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'matcher' ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
  });

  it('act on new alerts in the batch, queue webhooks and mail, and a failing webhook blocks nothing', async () => {
    const matcher = await alphaAdmin.post<Matcher>('/api/matchers/', {
      name: 'Escalate C2',
      conditions: { severity_at_least: 'high', source: ['network'], rule_id: ['6001', '6002'] },
      actions: [
        { type: 'set_severity', severity: 'critical' },
        { type: 'add_tag', tag: 'c2' },
        { type: 'notify_webhook', url: `${hookUrl}/soar` },
        { type: 'notify_webhook', url: 'http://127.0.0.1:1/unreachable' },
        { type: 'notify_email', to: 'soc@example.com' },
      ],
    });
    expect(matcher.status).toBe(201);
    await alphaAdmin.post('/api/matchers/', {
      name: 'Close scanners',
      conditions: { title_contains: 'scanner' },
      actions: [{ type: 'close_as_benign' }],
    });
    const result = await raise(t.db, [
      buildDetection(alpha, { ruleId: '6001', severity: 'high', ip: '203.0.113.5' }),
      buildDetection(alpha, { ruleId: '6003', severity: 'high', ip: '203.0.113.5' }),
      buildDetection(alpha, { ruleId: '6004', title: 'Known scanner sweep', severity: 'low' }),
      buildDetection(beta, { ruleId: '6001', severity: 'high', ip: '203.0.113.5' }),
    ]);
    expect(result.created).toHaveLength(4);
    const [hit, miss, scanner, betaAlert] = result.created;
    const alert = (id: number | undefined) =>
      admin.get<Alert>(`/api/alerts/${id}/`).then((a) => ({
        severity: a.body.severity,
        tags: a.body.tags,
        status: a.body.status,
        resolution: a.body.resolution,
      }));
    expect(await alert(hit)).toEqual({ severity: 'critical', tags: ['c2'], status: 'new', resolution: null });
    expect(await alert(miss)).toEqual({ severity: 'high', tags: [], status: 'new', resolution: null });
    expect(await alert(scanner)).toMatchObject({ status: 'closed', resolution: 'benign' });
    expect(await alert(betaAlert)).toMatchObject({ severity: 'high', tags: [] });

    const actions = await alphaAdmin.post<{ results: CommittedAction[]; count: number }>(
      '/api/matchers/actions/check/?ordering=id',
      {},
    );
    expect(actions.body.results.map((a) => [a.alert_id, a.action, a.outcome])).toEqual([
      [hit, 'set_severity', 'applied'],
      [hit, 'add_tag', 'applied'],
      [hit, 'notify_webhook', 'queued'],
      [hit, 'notify_webhook', 'queued'],
      [hit, 'notify_email', 'queued'],
      [scanner, 'close_as_benign', 'applied'],
    ]);
    expect(actions.body.results[0]?.matcher_name).toBe('Escalate C2');
    const none = await betaAdmin.post<{ count: number }>('/api/matchers/actions/count/', {});
    expect(none.body.count).toBe(0);

    const outcomes = await t.app.jobs.runDueJobs();
    const webhooks = outcomes.filter((o) => o.kind === 'webhook').map((o) => o.outcome);
    expect(webhooks.sort()).toEqual(['done', 'retry']);
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe('/soar');
    expect(received[0]?.body.alert).toMatchObject({ id: hit, severity: 'high' });

    // Ingest goes on while the broken webhook waits for its retry.
    const next = await raise(t.db, [
      buildDetection(alpha, { ruleId: '6002', severity: 'critical', ip: '203.0.113.9' }),
    ]);
    expect(next.created).toHaveLength(1);
    const history = await admin.get<{ history: { action: string }[] }>(`/api/alerts/${hit}/`);
    expect(history.body.history.map((h) => h.action)).toEqual(['raise', 'matcher']);
  });

  it('check alert actions with the rules of the API, when saved and again when they run', async () => {
    const alphaAnalyst = await buildUser(t.db, { username: 'alpha-analyst', companyId: alpha });
    const betaAnalyst = await buildUser(t.db, { username: 'beta-analyst', companyId: beta });
    const incidentOf = async (company: number) =>
      Number(
        (
          await t.db.query<{ id: number }>(
            sql`INSERT INTO incidents (company_id, title, severity) VALUES (${company}, 'Case', 'low') RETURNING id`,
          )
        ).rows[0]!.id,
      );
    const alphaIncident = await incidentOf(alpha);
    const betaIncident = await incidentOf(beta);
    type Errors = { errors: Record<string, string[]> };

    // The same change by hand is refused: an alpha alert cannot go to a beta analyst.
    const [byHand] = (await raise(t.db, [buildDetection(alpha, { ruleId: '7000', ip: '198.51.100.1' })])).created;
    const patched = await admin.patch<Errors>(`/api/alerts/${byHand}/`, { assignee_id: betaAnalyst.id });
    expect(patched.status).toBe(400);

    // Saving: refused with field errors, by staff who see both companies too.
    const foreign = await admin.post<Errors>('/api/matchers/', {
      name: 'Foreign hands',
      company_id: alpha,
      conditions: { rule_id: ['7001'] },
      actions: [
        { type: 'add_tag', tag: 'ok' },
        { type: 'assign', assignee_id: betaAnalyst.id },
        { type: 'add_to_incident', incident_id: betaIncident },
      ],
    });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.errors).sort()).toEqual(['actions.1.assignee_id', 'actions.2.incident_id']);
    // A matcher for every company can assign only to someone who works on every company, and can
    // add to an incident only when it is limited to that incident's company.
    const everywhere = await admin.post<Errors>('/api/matchers/', {
      name: 'Everywhere',
      all_companies: true,
      conditions: {},
      actions: [
        { type: 'assign', assignee_id: alphaAnalyst.id },
        { type: 'add_to_incident', incident_id: alphaIncident },
      ],
    });
    expect(Object.keys(everywhere.body.errors ?? {}).sort()).toEqual([
      'actions.0.assignee_id',
      'actions.1.incident_id',
    ]);
    const limited = await admin.post<Matcher>('/api/matchers/', {
      name: 'Alpha only',
      all_companies: true,
      conditions: { company_id: [alpha], rule_id: ['7009'] },
      actions: [
        { type: 'assign', assignee_id: alphaAnalyst.id },
        { type: 'add_to_incident', incident_id: alphaIncident },
      ],
    });
    expect(limited.status).toBe(201);

    // Running: a matcher whose user or incident no longer fits (moved since it was saved) does not
    // act, and says why; it never records "applied" for what it did not do.
    const saved = await alphaAdmin.post<Matcher>('/api/matchers/', {
      name: 'Hand to the analyst',
      conditions: { rule_id: ['7001'] },
      actions: [
        { type: 'assign', assignee_id: alphaAnalyst.id },
        { type: 'add_to_incident', incident_id: alphaIncident },
        { type: 'add_tag', tag: 'handed' },
      ],
    });
    expect(saved.status).toBe(201);
    // Changing the matcher now to the beta analyst or incident is refused as at creation.
    const repointed = await alphaAdmin.patch<Errors>(`/api/matchers/${saved.body.id}/`, {
      actions: [{ type: 'assign', assignee_id: betaAnalyst.id }],
    });
    expect(repointed.status).toBe(400);
    await t.db.query(sql`UPDATE users SET company_id = ${beta} WHERE id = ${alphaAnalyst.id}`);
    await t.db.query(sql`UPDATE incidents SET company_id = ${beta} WHERE id = ${alphaIncident}`);
    const [alert] = (await raise(t.db, [buildDetection(alpha, { ruleId: '7001', ip: '198.51.100.2' })])).created;
    const after = await admin.get<Alert>(`/api/alerts/${alert}/`);
    expect(after.body).toMatchObject({ assignee_id: null, incident_id: null, tags: ['handed'] });
    const taken = await alphaAdmin.post<{ results: CommittedAction[] }>('/api/matchers/actions/check/?ordering=id', {
      alert_id: alert,
    });
    expect(taken.body.results.map((a) => [a.action, a.outcome, a.reason])).toEqual([
      ['assign', 'skipped', 'No such user can work on this alert.'],
      ['add_to_incident', 'skipped', "No such incident in the alert's company."],
      ['add_tag', 'applied', null],
    ]);
  });
});
