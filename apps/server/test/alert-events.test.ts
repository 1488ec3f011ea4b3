import type { AlertLinkedEvents, IngestTokenCreated, ListAnswer, Alert } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let analyst: TestClient;
let alertsOnly: TestClient;
let outsider: TestClient;
let alertId: number;

/** A Suricata EVE alert record as a sensor sends it. */
const eve = (seconds: number, flow: number) => ({
  timestamp: `2026-11-20T08:00:${String(seconds).padStart(2, '0')}.000000+0000`,
  flow_id: flow,
  event_type: 'alert',
  src_ip: '10.40.0.7',
  src_port: 51000 + seconds,
  dest_ip: '203.0.113.80',
  dest_port: 443,
  proto: 'TCP',
  alert: {
    action: 'allowed',
    gid: 1,
    signature_id: 2_100_777,
    rev: 3,
    signature: 'ET MALWARE Linked events beacon',
    category: 'A Network Trojan was detected',
    severity: 1,
  },
});

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  const admin = await t.admin();
  const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
    name: 'alpha sensor',
    company_id: alpha,
  });
  const body = [eve(1, 901), eve(2, 902), eve(3, 903)].map((r) => JSON.stringify(r)).join('\n');
  const answer = await fetch(`${t.url}/api/ingest/network/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token.body.key}` },
    body,
  });
  expect(answer.status).toBe(200);

  const full = await buildUser(t.db, {
    username: 'alpha-analyst',
    companyId: alpha,
    permissions: [
      { basename: 'alerts', actions: ['view'] },
      { basename: 'network', actions: ['view'] },
    ],
  });
  const narrow = await buildUser(t.db, {
    username: 'alpha-alerts-only',
    companyId: alpha,
    permissions: [{ basename: 'alerts', actions: ['view'] }],
  });
  const other = await buildUser(t.db, {
    username: 'beta-analyst',
    companyId: beta,
    permissions: [
      { basename: 'alerts', actions: ['view'] },
      { basename: 'network', actions: ['view'] },
    ],
  });
  analyst = t.client();
  await analyst.signIn(full.username, full.password);
  alertsOnly = t.client();
  await alertsOnly.signIn(narrow.username, narrow.password);
  outsider = t.client();
  await outsider.signIn(other.username, other.password);

  const list = await analyst.post<ListAnswer<Alert>>('/api/alerts/check/', { search: 'Linked events beacon' });
  expect(list.body.count).toBe(1);
  alertId = list.body.results[0]!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/alerts/:id/events/', () => {
  it('gives the linked events oldest first with their normalised fields and raw records', async () => {
    const answer = await analyst.get<AlertLinkedEvents>(`/api/alerts/${alertId}/events/`);
    expect(answer.status).toBe(200);
    expect(answer.body.hidden).toBe(0);
    expect(answer.body.results.map((e) => e.raw?.flow_id)).toEqual([901, 902, 903]);
    const first = answer.body.results[0]!;
    expect(first.kind).toBe('network');
    expect(first.company_id).toBe(alpha);
    expect(first.event.src_ip).toBe('10.40.0.7');
    expect(first.ts).toBe('2026-11-20T08:00:01.000Z');
    // The ids are those of the network list, so a row opens the same event there.
    const detail = await analyst.get<{ id: number; raw: { flow_id: number } }>(`/api/network/${first.id}/`);
    expect(detail.body.raw.flow_id).toBe(901);
  });

  it('leaves out kinds the caller may not view and says how many', async () => {
    const answer = await alertsOnly.get<AlertLinkedEvents>(`/api/alerts/${alertId}/events/`);
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([]);
    expect(answer.body.hidden).toBe(3);
  });

  it("answers 404 for another company's alert and for one that does not exist", async () => {
    expect((await outsider.get(`/api/alerts/${alertId}/events/`)).status).toBe(404);
    expect((await analyst.get(`/api/alerts/999999999/events/`)).status).toBe(404);
  });

  it('needs a signed-in caller who may view alerts', async () => {
    expect((await t.client().get(`/api/alerts/${alertId}/events/`)).status).toBe(401);
  });
});
