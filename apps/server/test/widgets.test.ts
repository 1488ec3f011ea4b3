import type {
  IngestTokenCreated,
  Widget,
  WidgetCategoryData,
  WidgetDurationData,
  WidgetList,
  WidgetSeriesData,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { ECS_FILE_LINUX, ECS_PROCESS } from '../src/modules/ingest/parsers/fixtures/endpoint';
import { FLOW } from '../src/modules/ingest/parsers/fixtures/eve';
import { buildDetection, raise } from './helpers/alert-factories';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let wanda: TestClient;
let walt: TestClient;
let bianca: TestClient;
let viewer: TestClient;
let alphaKey: string;
let betaKey: string;

const widgetActions = { basename: 'widgets', actions: ['view', 'add', 'change', 'delete'] };

async function signedIn(username: string): Promise<TestClient> {
  const client = t.client();
  await client.signIn(username, 'User-password-1');
  return client;
}

async function ingest(kind: 'network' | 'endpoint', key: string, records: readonly object[]): Promise<void> {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  expect(response.status).toBe(200);
}

/** A Suricata flow record at a moment, between two addresses. */
const flow = (ts: string, src: string, dest: string) => ({ ...FLOW, timestamp: ts, src_ip: src, dest_ip: dest });
function data<T>(client: TestClient, body: Record<string, unknown>) {
  return client.post<T>('/api/widgets/data/', { time_zone: 'UTC', ...body });
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  await buildUser(t.db, { username: 'wanda', companyId: alpha, permissions: [widgetActions] });
  await buildUser(t.db, { username: 'walt', companyId: alpha, permissions: [widgetActions] });
  await buildUser(t.db, { username: 'bianca', companyId: beta, permissions: [widgetActions] });
  await buildUser(t.db, {
    username: 'viewer',
    companyId: alpha,
    permissions: [{ basename: 'widgets', actions: ['view'] }],
  });
  admin = await t.admin();
  wanda = await signedIn('wanda');
  walt = await signedIn('walt');
  bianca = await signedIn('bianca');
  viewer = await signedIn('viewer');
  alphaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'alpha', company_id: alpha })).body
    .key;
  betaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'beta', company_id: beta })).body.key;
});
afterAll(async () => {
  await t?.close();
});

describe('widgets of a user', () => {
  it('gives a new user the default set once, in order', async () => {
    const first = await wanda.get<WidgetList>('/api/widgets/');
    expect(first.status).toBe(200);
    expect(first.body.results.map((w) => w.kind)).toEqual([
      'alerts_by_severity',
      'open_alerts_by_status',
      'open_incidents_by_severity',
      'time_to_acknowledge',
      'top_signatures',
      'top_hosts',
      'top_source_ips',
      'ingest_rate',
    ]);
    expect(first.body.results.map((w) => w.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(first.body.count).toBe(8);
    const again = await wanda.get<WidgetList>('/api/widgets/');
    expect(again.body.results.map((w) => w.id)).toEqual(first.body.results.map((w) => w.id));
  });

  it('adds, changes and removes a widget, closing the gap, with audit records', async () => {
    const created = await wanda.post<Widget>('/api/widgets/', {
      kind: 'top_destination_ips',
      size: 'third',
      settings: { limit: 5 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'top_destination_ips',
      size: 'third',
      position: 8,
      settings: { limit: 5 },
    });

    const changed = await wanda.patch<Widget>(`/api/widgets/${created.body.id}/`, {
      size: 'full',
      settings: { limit: 7, title: 'Where traffic goes' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ size: 'full', settings: { limit: 7, title: 'Where traffic goes' } });

    const list = await wanda.get<WidgetList>('/api/widgets/');
    const second = list.body.results[1]!;
    expect((await wanda.delete(`/api/widgets/${second.id}/`)).status).toBe(204);
    const after = await wanda.get<WidgetList>('/api/widgets/');
    expect(after.body.results.map((w) => w.id)).not.toContain(second.id);
    expect(after.body.results.map((w) => w.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(after.body.results.at(-1)?.id).toBe(created.body.id);

    const { rows } = await t.db.query<{ action: string; object_id: string }>(
      sql`SELECT action, object_id FROM system_logs WHERE object_type = 'widget' ORDER BY id`,
    );
    expect(rows).toEqual([
      { action: 'create', object_id: String(created.body.id) },
      { action: 'update', object_id: String(created.body.id) },
      { action: 'delete', object_id: String(second.id) },
    ]);
  });

  it('saves the order and sizes at once', async () => {
    const list = await wanda.get<WidgetList>('/api/widgets/');
    const reversed = [...list.body.results].reverse().map((w, i) => ({ id: w.id, size: i === 0 ? 'half' : w.size }));
    const saved = await wanda.put<WidgetList>('/api/widgets/layout/', { widgets: reversed });
    expect(saved.status).toBe(200);
    expect(saved.body.results.map((w) => w.id)).toEqual(reversed.map((w) => w.id));
    const reread = await wanda.get<WidgetList>('/api/widgets/');
    expect(reread.body.results.map((w) => [w.id, w.size, w.position])).toEqual(
      reversed.map((w, i) => [w.id, w.size, i]),
    );
    const audit = await t.db.query(
      sql`SELECT 1 FROM system_logs WHERE object_type = 'dashboard' AND action = 'update'`,
    );
    expect(audit.rows).toHaveLength(1);
  });

  it("answers 404 for another user's widget, and for a path that names none", async () => {
    const mine = (await wanda.get<WidgetList>('/api/widgets/')).body.results[0]!;
    expect((await walt.patch(`/api/widgets/${mine.id}/`, { size: 'third' })).status).toBe(404);
    expect((await walt.delete(`/api/widgets/${mine.id}/`)).status).toBe(404);
    expect((await bianca.delete(`/api/widgets/${mine.id}/`)).status).toBe(404);
    expect((await wanda.patch('/api/widgets/abc/', { size: 'third' })).status).toBe(404);
    // Putting someone else's widget into one's layout is refused as unknown.
    const walts = (await walt.get<WidgetList>('/api/widgets/')).body.results;
    const layout = walts.map((w) => ({ id: w.id, size: w.size }));
    layout[0] = { id: mine.id, size: 'half' };
    const refused = await walt.put<Errors>('/api/widgets/layout/', { widgets: layout });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['widgets.0.id']);
    expect((await wanda.get<WidgetList>('/api/widgets/')).body.results[0]).toEqual(mine);
  });

  it('refuses bad input with field errors', async () => {
    const badKind = await wanda.post<Errors>('/api/widgets/', { kind: 'weather' });
    expect(badKind.status).toBe(400);
    expect(Object.keys(badKind.body.errors)).toEqual(['kind']);
    const badSettings = await wanda.post<Errors>('/api/widgets/', {
      kind: 'top_hosts',
      size: 'quarter',
      settings: { limit: 100, colour: 'red' },
    });
    expect(badSettings.status).toBe(400);
    expect(Object.keys(badSettings.body.errors).sort()).toEqual(['settings.colour', 'settings.limit', 'size']);
    const id = (await wanda.get<WidgetList>('/api/widgets/')).body.results[0]!.id;
    const empty = await wanda.patch<Errors>(`/api/widgets/${id}/`, {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)).toEqual(['size']);

    const widgets = (await wanda.get<WidgetList>('/api/widgets/')).body.results;
    const missing = await wanda.put<Errors>('/api/widgets/layout/', {
      widgets: widgets.slice(1).map((w) => ({ id: w.id, size: w.size })),
    });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['widgets']);
    const twice = await wanda.put<Errors>('/api/widgets/layout/', {
      widgets: [...widgets, widgets[0]!].map((w) => ({ id: w.id, size: w.size })),
    });
    expect(Object.keys(twice.body.errors)).toEqual([`widgets.${widgets.length}.id`]);

    const period = { kind: 'alerts_by_severity', from: '2025-01-02T00:00:00Z', to: '2025-01-01T00:00:00Z' };
    const backwards = await data<Errors>(wanda, period);
    expect(backwards.status).toBe(400);
    expect(Object.keys(backwards.body.errors)).toEqual(['to']);
    const tooLong = await data<Errors>(wanda, { ...period, from: '2020-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' });
    expect(Object.keys(tooLong.body.errors)).toEqual(['to']);
    const zone = await data<Errors>(wanda, { ...period, to: '2025-01-03T00:00:00Z', time_zone: 'Mars/Olympus' });
    expect(Object.keys(zone.body.errors)).toEqual(['time_zone']);
    const notDates = await data<Errors>(wanda, { kind: 'top_hosts', from: 'yesterday', to: 'today' });
    expect(Object.keys(notDates.body.errors).sort()).toEqual(['from', 'to']);
    const otherCompany = await data<Errors>(wanda, { ...period, to: '2025-01-03T00:00:00Z', company_id: beta });
    expect(otherCompany.status).toBe(400);
    expect(Object.keys(otherCompany.body.errors)).toEqual(['company_id']);
  });

  it('needs the widgets permissions', async () => {
    expect((await viewer.get('/api/widgets/')).status).toBe(200);
    expect((await viewer.post('/api/widgets/', { kind: 'top_hosts' })).status).toBe(403);
    const id = (await viewer.get<WidgetList>('/api/widgets/')).body.results[0]!.id;
    expect((await viewer.delete(`/api/widgets/${id}/`)).status).toBe(403);
    expect((await t.client().get('/api/widgets/')).status).toBe(401);
  });

  it('keeps an emptied dashboard empty', async () => {
    for (const w of (await walt.get<WidgetList>('/api/widgets/')).body.results) {
      expect((await walt.delete(`/api/widgets/${w.id}/`)).status).toBe(204);
    }
    expect((await walt.get<WidgetList>('/api/widgets/')).body).toEqual({ results: [], count: 0 });
  });
});

describe('alert status moments', () => {
  it('records when an alert left new and when it was resolved, for single and bulk changes', async () => {
    const raised = await raise(t.db, [
      buildDetection(alpha, { ruleId: '9100001', at: new Date('2023-05-01T10:00:00Z') }),
      buildDetection(alpha, { ruleId: '9100002', at: new Date('2023-05-01T10:00:00Z') }),
    ]);
    const [one, two] = raised.created;
    const moments = async (id: number | undefined) =>
      (
        await t.db.query<{ acknowledged_at: Date | null; resolved_at: Date | null }>(
          sql`SELECT acknowledged_at, resolved_at FROM alerts WHERE id = ${id}`,
        )
      ).rows[0]!;
    expect(await moments(one)).toEqual({ acknowledged_at: null, resolved_at: null });

    expect((await admin.patch(`/api/alerts/${one}/`, { status: 'in_progress' })).status).toBe(200);
    const acknowledged = await moments(one);
    expect(acknowledged.acknowledged_at).toBeInstanceOf(Date);
    expect(acknowledged.resolved_at).toBeNull();
    await admin.patch(`/api/alerts/${one}/`, { status: 'resolved', resolution: 'true_positive' });
    expect((await moments(one)).resolved_at).toBeInstanceOf(Date);
    await admin.patch(`/api/alerts/${one}/`, { status: 'in_progress' });
    const reopened = await moments(one);
    expect(reopened.resolved_at).toBeNull();
    expect(reopened.acknowledged_at).toEqual(acknowledged.acknowledged_at);

    const bulk = await admin.post('/api/alerts/bulk/', {
      ids: [two],
      action: { action: 'set_status', status: 'closed', resolution: 'benign' },
    });
    expect(bulk.status).toBe(200);
    const closed = await moments(two);
    expect(closed.acknowledged_at).toBeInstanceOf(Date);
    expect(closed.resolved_at).toBeInstanceOf(Date);
  });
});

describe('widget data', () => {
  // Alerts of 10 January 2025 (UTC): alpha has high at 10:15 and 10:45 and critical at 11:05; beta has high at 10:20.
  const day = { from: '2025-01-10T00:00:00Z', to: '2025-01-11T00:00:00Z' };
  beforeAll(async () => {
    await raise(t.db, [
      buildDetection(alpha, {
        ruleId: '9200001',
        severity: 'high',
        host: 'ws-01',
        at: new Date('2025-01-10T10:15:00Z'),
      }),
      buildDetection(alpha, {
        ruleId: '9200002',
        severity: 'high',
        host: 'ws-01',
        at: new Date('2025-01-10T10:45:00Z'),
      }),
      buildDetection(alpha, {
        ruleId: '9200003',
        severity: 'critical',
        host: 'db-02',
        at: new Date('2025-01-10T11:05:00Z'),
      }),
      buildDetection(beta, {
        ruleId: '9200004',
        severity: 'high',
        host: 'pos-9',
        at: new Date('2025-01-10T10:20:00Z'),
      }),
      // 23:30 UTC on 20 January is 02:30 on 21 January in Moscow.
      buildDetection(alpha, { ruleId: '9200005', severity: 'low', at: new Date('2025-01-20T23:30:00Z') }),
    ]);
  });

  it('counts alerts by severity per hour, tenant by tenant', async () => {
    const mine = await data<WidgetSeriesData>(wanda, { kind: 'alerts_by_severity', ...day });
    expect(mine.status).toBe(200);
    expect(mine.body.unit).toBe('hour');
    expect(mine.body.keys).toEqual(['critical', 'high', 'medium', 'low', 'info']);
    expect(mine.body.points).toEqual([
      { bucket: '2025-01-10T10:00:00.000Z', key: 'high', value: 2 },
      { bucket: '2025-01-10T11:00:00.000Z', key: 'critical', value: 1 },
    ]);
    const theirs = await data<WidgetSeriesData>(bianca, { kind: 'alerts_by_severity', ...day });
    expect(theirs.body.points).toEqual([{ bucket: '2025-01-10T10:00:00.000Z', key: 'high', value: 1 }]);
    const everyone = await data<WidgetSeriesData>(admin, { kind: 'alerts_by_severity', ...day });
    expect(everyone.body.points).toEqual([
      { bucket: '2025-01-10T10:00:00.000Z', key: 'high', value: 3 },
      { bucket: '2025-01-10T11:00:00.000Z', key: 'critical', value: 1 },
    ]);
    const oneCompany = await data<WidgetSeriesData>(admin, { kind: 'alerts_by_severity', ...day, company_id: beta });
    expect(oneCompany.body.points).toEqual(theirs.body.points);
  });

  it('buckets days in the time zone asked for', async () => {
    const period = { kind: 'alerts_by_severity', from: '2025-01-14T00:00:00Z', to: '2025-01-28T00:00:00Z' };
    const utc = await data<WidgetSeriesData>(wanda, period);
    expect(utc.body.unit).toBe('day');
    expect(utc.body.points).toEqual([{ bucket: '2025-01-20T00:00:00.000Z', key: 'low', value: 1 }]);
    const moscow = await data<WidgetSeriesData>(wanda, { ...period, time_zone: 'Europe/Moscow' });
    // Midnight of 21 January in Moscow (UTC+3).
    expect(moscow.body.points).toEqual([{ bucket: '2025-01-20T21:00:00.000Z', key: 'low', value: 1 }]);
    expect(moscow.body.time_zone).toBe('Europe/Moscow');
  });

  it('counts open alerts by status and open incidents by severity now', async () => {
    const before = await data<WidgetCategoryData>(bianca, { kind: 'open_alerts_by_status', ...day });
    expect(before.body.items).toEqual([
      { key: 'new', value: 1 },
      { key: 'in_progress', value: 0 },
    ]);
    const betaAlert = await t.db.query<{ id: number }>(sql`SELECT id FROM alerts WHERE company_id = ${beta}`);
    await admin.patch(`/api/alerts/${betaAlert.rows[0]!.id}/`, { status: 'in_progress' });
    const after = await data<WidgetCategoryData>(bianca, { kind: 'open_alerts_by_status', ...day });
    expect(after.body.items).toEqual([
      { key: 'new', value: 0 },
      { key: 'in_progress', value: 1 },
    ]);
    expect(after.body.total).toBe(1);

    await t.db.query(sql`
      INSERT INTO incidents (company_id, title, severity, status) VALUES
        (${beta}, 'Card skimmer on POS', 'critical', 'open'),
        (${beta}, 'Phishing wave', 'high', 'investigating'),
        (${beta}, 'Old scan', 'high', 'closed'),
        (${alpha}, 'Ransomware note', 'critical', 'contained')`);
    const incidents = await data<WidgetCategoryData>(bianca, { kind: 'open_incidents_by_severity', ...day });
    expect(incidents.body.items).toEqual([
      { key: 'critical', value: 1 },
      { key: 'high', value: 1 },
      { key: 'medium', value: 0 },
      { key: 'low', value: 0 },
      { key: 'info', value: 0 },
    ]);
    const all = await data<WidgetCategoryData>(admin, { kind: 'open_incidents_by_severity', ...day });
    expect(all.body.items[0]).toEqual({ key: 'critical', value: 2 });
  });

  it('gives the median and 90th percentile of time to acknowledge and to resolve', async () => {
    const at = (m: number) => new Date(Date.UTC(2025, 1, 1, 9, m));
    const raised = await raise(
      t.db,
      [0, 1, 2, 3, 4].map((i) => buildDetection(alpha, { ruleId: `93000${i}`, at: at(i) })),
    );
    const ids = raised.created.sort((a, b) => a - b);
    // Acknowledged 1, 2, 3 and 4 minutes after first seen; the fifth still waits. Two resolved after 10 and 30 minutes.
    for (const [index, id] of ids.slice(0, 4).entries()) {
      await t.db.query(sql`UPDATE alerts SET status = 'in_progress' WHERE id = ${id}`);
      await t.db.query(
        sql`UPDATE alerts SET acknowledged_at = first_seen + make_interval(mins => ${index + 1}) WHERE id = ${id}`,
      );
    }
    for (const [index, id] of ids.slice(0, 2).entries()) {
      await t.db.query(sql`UPDATE alerts SET status = 'resolved', resolution = 'benign' WHERE id = ${id}`);
      await t.db.query(
        sql`UPDATE alerts SET resolved_at = first_seen + make_interval(mins => ${index === 0 ? 10 : 30}) WHERE id = ${id}`,
      );
    }
    const period = { from: '2025-02-01T00:00:00Z', to: '2025-02-02T00:00:00Z' };
    const ack = await data<WidgetDurationData>(wanda, { kind: 'time_to_acknowledge', ...period });
    expect(ack.body).toEqual({
      shape: 'duration',
      kind: 'time_to_acknowledge',
      median_seconds: 150,
      p90_seconds: 222,
      measured: 4,
      pending: 1,
    });
    const resolve = await data<WidgetDurationData>(wanda, { kind: 'time_to_resolve', ...period });
    expect(resolve.body).toMatchObject({ median_seconds: 1200, p90_seconds: 1680, measured: 2, pending: 3 });
    const theirs = await data<WidgetDurationData>(bianca, { kind: 'time_to_resolve', ...period });
    expect(theirs.body).toMatchObject({ median_seconds: null, p90_seconds: null, measured: 0, pending: 0 });
  });

  it('ranks source and destination addresses, hosts and signatures of the period', async () => {
    const ts = (m: number) => `2024-06-03T08:${String(m).padStart(2, '0')}:00.000000+0000`;
    await ingest('network', alphaKey, [
      flow(ts(1), '10.20.1.15', '198.51.100.7'),
      flow(ts(2), '10.20.1.15', '198.51.100.7'),
      flow(ts(3), '10.20.1.15', '198.51.100.8'),
      flow(ts(4), '10.20.1.16', '198.51.100.7'),
      // Outside the period.
      flow('2024-06-05T08:00:00.000000+0000', '10.20.1.99', '198.51.100.99'),
    ]);
    await ingest(
      'network',
      betaKey,
      [1, 2, 3, 4, 5, 6].map((m) => flow(ts(m), '10.99.0.1', '203.0.113.1')),
    );
    const period = { from: '2024-06-03T00:00:00Z', to: '2024-06-04T00:00:00Z' };
    const sources = await data<WidgetCategoryData>(wanda, { kind: 'top_source_ips', ...period });
    expect(sources.body.items).toEqual([
      { key: '10.20.1.15', value: 3 },
      { key: '10.20.1.16', value: 1 },
    ]);
    const destinations = await data<WidgetCategoryData>(wanda, { kind: 'top_destination_ips', ...period, limit: 3 });
    expect(destinations.body.items).toEqual([
      { key: '198.51.100.7', value: 3 },
      { key: '198.51.100.8', value: 1 },
    ]);
    const everyone = await data<WidgetCategoryData>(admin, { kind: 'top_source_ips', ...period });
    expect(everyone.body.items[0]).toEqual({ key: '10.99.0.1', value: 6 });
    const narrowed = await data<WidgetCategoryData>(admin, {
      kind: 'top_source_ips',
      ...period,
      limit: 3,
      company_id: alpha,
    });
    expect(narrowed.body.items).toEqual(sources.body.items);

    await t.db.query(sql`
      UPDATE network_events SET event_type = 'alert', signature = CASE WHEN src_ip = '10.20.1.16' THEN 'ET SCAN Nmap' ELSE 'ET POLICY TLS to rare host' END
      WHERE company_id = ${alpha} AND ts >= ${period.from} AND ts < ${period.to}`);
    await raise(t.db, [
      buildDetection(alpha, { ruleId: '9400001', title: 'ET SCAN Nmap', at: new Date('2024-06-03T09:00:00Z') }),
    ]);
    const signatures = await data<WidgetCategoryData>(wanda, { kind: 'top_signatures', ...period });
    expect(signatures.body.items).toEqual([
      { key: 'ET POLICY TLS to rare host', value: 3, secondary: 0 },
      { key: 'ET SCAN Nmap', value: 1, secondary: 1 },
    ]);
    expect((await data<WidgetCategoryData>(bianca, { kind: 'top_signatures', ...period })).body.items).toEqual([]);

    await ingest('endpoint', alphaKey, [
      { ...ECS_PROCESS, '@timestamp': '2024-06-03T08:10:00Z' },
      { ...ECS_PROCESS, '@timestamp': '2024-06-03T08:11:00Z' },
      { ...ECS_FILE_LINUX, '@timestamp': '2024-06-03T08:12:00Z' },
    ]);
    await raise(t.db, [
      buildDetection(alpha, { ruleId: '9400002', host: 'web-01', at: new Date('2024-06-03T09:30:00Z') }),
    ]);
    const hosts = await data<WidgetCategoryData>(wanda, { kind: 'top_hosts', ...period });
    expect(hosts.body.items).toEqual([
      { key: 'web-01', value: 1, secondary: 1 },
      { key: 'WS-FIN-07', value: 0, secondary: 2 },
    ]);
    expect((await data<WidgetCategoryData>(bianca, { kind: 'top_hosts', ...period })).body.items).toEqual([]);
  });

  it('sums accepted events per source and hour for the ingest rate', async () => {
    const now = Date.now();
    const period = { from: new Date(now - 3_600_000).toISOString(), to: new Date(now + 3_600_000).toISOString() };
    const rate = await data<WidgetSeriesData>(wanda, { kind: 'ingest_rate', ...period });
    expect(rate.body.keys).toEqual(['network', 'endpoint', 'mail']);
    const totals = (points: WidgetSeriesData['points']) =>
      Object.fromEntries(
        ['network', 'endpoint'].map((k) => [k, points.filter((p) => p.key === k).reduce((s, p) => s + p.value, 0)]),
      );
    expect(totals(rate.body.points)).toEqual({ network: 5, endpoint: 3 });
    const theirs = await data<WidgetSeriesData>(bianca, { kind: 'ingest_rate', ...period });
    expect(totals(theirs.body.points)).toEqual({ network: 6, endpoint: 0 });
  });
});
