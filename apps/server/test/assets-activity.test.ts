import type { Asset, AssetActivity, Incident } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * An asset's page: the open alerts that name it (by its address now, by an address its IP history
 * gave it at the alert's time, by its host name), the incidents they are in, its IP history and its
 * risk figure; nothing of another company, and another company's asset answers 404.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let alice: TestClient;
let bob: TestClient;
let asset: Asset;

const permissions = [
  { basename: 'assets', actions: ['view', 'add', 'change'] },
  { basename: 'alerts', actions: ['view', 'change'] },
  { basename: 'incidents', actions: ['view', 'add', 'change'] },
];

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Activity');
  beta = await buildCompany(t.db, 'Beta Activity');
  [alice, bob] = (await Promise.all(
    [
      ['alice', alpha],
      ['bob', beta],
    ].map(async ([username, companyId]) => {
      const user = await buildUser(t.db, { username: String(username), companyId: Number(companyId), permissions });
      const client = t.client();
      await client.signIn(user.username, user.password);
      return client;
    }),
  )) as [TestClient, TestClient];
  const created = await alice.post<Asset>('/api/assets/', {
    name: 'WS-ACT-01',
    fqdn: 'ws-act-01.alpha.local',
    ips: ['10.9.0.6'],
    criticality: 'high',
  });
  expect(created.status).toBe(201);
  asset = created.body;
  // It held 10.9.0.5 for ten days in October.
  await t.db.query(sql`
    INSERT INTO asset_ip_hosts (company_id, asset_id, ip, first_seen, last_seen, source)
    VALUES (${alpha}, ${asset.id}, '10.9.0.5', '2026-10-01T00:00:00Z', '2026-10-10T00:00:00Z', 'dhcp')`);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/assets/:id/activity/', () => {
  it('lists the open alerts naming the asset then and now, and none of another company', async () => {
    await raise(t.db, [
      buildDetection(alpha, { ruleId: '1', title: 'On its address now', severity: 'high', ip: '10.9.0.6' }),
      buildDetection(alpha, {
        ruleId: '2',
        title: 'On its old address then',
        severity: 'critical',
        ip: '10.9.0.5',
        at: new Date('2026-10-05T12:00:00Z'),
      }),
      buildDetection(alpha, {
        ruleId: '3',
        title: 'On its old address after it left',
        severity: 'high',
        ip: '10.9.0.5',
        at: new Date('2026-11-20T12:00:00Z'),
      }),
      buildDetection(alpha, { ruleId: '4', title: 'On its host name', severity: 'medium', host: 'WS-ACT-01' }),
      buildDetection(alpha, { ruleId: '5', title: 'On another machine', severity: 'critical', ip: '10.9.0.99' }),
      buildDetection(alpha, { ruleId: '6', title: 'Resolved already', severity: 'critical', ip: '10.9.0.6' }),
      buildDetection(beta, { ruleId: '7', title: 'Another company', severity: 'critical', ip: '10.9.0.6' }),
      buildDetection(beta, { ruleId: '8', title: 'Another company by name', severity: 'high', host: 'ws-act-01' }),
    ]);
    await t.db.query(sql`UPDATE alerts SET status = 'resolved' WHERE title = 'Resolved already'`);
    // An endpoint alert whose event came from the asset's agent, under another host name.
    expect((await alice.patch(`/api/assets/${asset.id}/`, { agent_id: 'agent-77' })).status).toBe(200);
    await raise(t.db, [
      buildDetection(alpha, { ruleId: '9', title: 'From its agent', severity: 'low', kind: 'endpoint', host: 'x' }),
    ]);
    const event = await t.db.query<{ id: number; ts: Date }>(sql`
      INSERT INTO endpoint_events (company_id, ts, batch_id, source_format, host_name, event, raw)
      VALUES (${alpha}, date_trunc('second', now()), 0, 'ecs', 'renamed-host', '{}'::jsonb, '{"agent": {"id": "agent-77"}}'::jsonb)
      RETURNING id, ts`);
    await t.db.query(sql`
      INSERT INTO alert_events (company_id, alert_id, event_kind, event_id, ts)
      SELECT ${alpha}, id, 'endpoint', ${event.rows[0]!.id}, ${event.rows[0]!.ts} FROM alerts
      WHERE title = 'From its agent'`);
    const onName = await t.db.query<{ id: number }>(sql`SELECT id FROM alerts WHERE title = 'On its host name'`);
    const incident = await alice.post<Incident>('/api/incidents/', {
      title: 'Workstation case',
      alert_ids: [Number(onName.rows[0]!.id)],
    });
    expect(incident.status).toBe(201);

    const activity = await alice.get<AssetActivity>(`/api/assets/${asset.id}/activity/`);
    expect(activity.status, JSON.stringify(activity.body)).toBe(200);
    expect(activity.body.alerts.map((a) => [a.title, a.matched]).sort()).toEqual([
      ['From its agent', 'agent-77'],
      ['On its address now', '10.9.0.6'],
      ['On its host name', 'WS-ACT-01'],
      ['On its old address then', '10.9.0.5'],
    ]);
    expect(activity.body.incidents.map((i) => i.title)).toEqual(['Workstation case']);
    expect(activity.body.ip_history.map((h) => [h.ip, h.source]).sort()).toEqual([
      ['10.9.0.5', 'dhcp'],
      ['10.9.0.6', 'manual'],
    ]);
    expect(activity.body.events.map((e) => e.kind).sort()).toEqual(['endpoint', 'mail', 'network']);
    expect(activity.body.software).toEqual([]);
    expect(activity.body.history.map((h) => [h.action, h.username])).toEqual([
      ['update', 'alice'],
      ['create', 'alice'],
    ]);
  });

  it('gives the risk figure with parts that add up', async () => {
    const { risk } = (await alice.get<AssetActivity>(`/api/assets/${asset.id}/activity/`)).body;
    const points = Object.fromEntries(risk.parts.map((p) => [p.severity, p.points]));
    expect(points).toMatchObject({ critical: 40, high: 20, medium: 8, low: 2, info: 0 });
    for (const part of risk.parts) expect(part.points).toBe(part.count * part.weight);
    expect(risk.alert_points).toBe(risk.parts.reduce((sum, p) => sum + p.points, 0));
    expect(risk.criticality).toBe('high');
    expect(risk.factor).toBe(1.5);
    expect(risk.score).toBe(Math.round(risk.alert_points * risk.factor));
    expect(risk.score).toBe(105);
  });

  it('answers 404 for another company’s asset', async () => {
    expect((await bob.get(`/api/assets/${asset.id}/activity/`)).status).toBe(404);
    expect((await alice.get('/api/assets/999999/activity/')).status).toBe(404);
  });
});
