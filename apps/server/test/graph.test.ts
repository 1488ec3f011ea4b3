import type { GraphAnswer, GraphExpandAnswer, ListAnswer } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let analyst: TestClient;
let betaAnalyst: TestClient;
let alertsOnly: TestClient;
let alertId: number;
let betaAlertId: number;
let incidentId: number;

const CLIENT = '10.20.1.15';
const SERVER = '203.0.113.45';
const RESOLVER = '10.20.0.53';
const TLS_SERVER = '198.51.100.7';
const FANOUT = 30;
const SHA = 'f7c237a49b96fd77c047910e13f24aac4678a0f94babdb06643dba63f38d48e5';
const AROUND = { from: '2026-11-01T00:00:00Z', to: '2026-11-30T00:00:00Z' };

const eventPermissions = ['alerts', 'incidents', 'network', 'eclipse_events', 'mailing'].map((basename) => ({
  basename,
  actions: ['view', 'add', 'change'],
}));

const alertRecord = (at: string, src = CLIENT) => ({
  timestamp: at,
  flow_id: 1851472349878392,
  event_type: 'alert',
  src_ip: src,
  src_port: 49732,
  dest_ip: SERVER,
  dest_port: 80,
  proto: 'TCP',
  alert: {
    action: 'allowed',
    gid: 1,
    signature_id: 2024897,
    rev: 2,
    signature: 'ET USER_AGENTS Go HTTP Client User-Agent',
    category: 'Potentially Bad Traffic',
    severity: 2,
  },
  http: { hostname: 'Update.Example-CDN.net', url: '/api/v2/check?id=77', http_method: 'GET', status: 200 },
  app_proto: 'http',
  host: 'sensor-dmz-01',
});

const networkContext = [
  {
    timestamp: '2026-11-20T10:00:01.000000+0000',
    event_type: 'dns',
    src_ip: CLIENT,
    src_port: 53533,
    dest_ip: RESOLVER,
    dest_port: 53,
    proto: 'UDP',
    dns: { type: 'query', rrname: 'c2.example.org', rrtype: 'A' },
  },
  {
    timestamp: '2026-11-20T10:00:02.000000+0000',
    event_type: 'tls',
    src_ip: CLIENT,
    src_port: 51514,
    dest_ip: TLS_SERVER,
    dest_port: 443,
    proto: 'TCP',
    tls: { sni: 'c2.example.org', version: 'TLS 1.3' },
  },
  {
    timestamp: '2026-11-20T10:00:03.000000+0000',
    event_type: 'fileinfo',
    src_ip: CLIENT,
    src_port: 49800,
    dest_ip: SERVER,
    dest_port: 80,
    proto: 'TCP',
    app_proto: 'http',
    fileinfo: { filename: 'payload.bin', sha256: SHA, size: 10, state: 'CLOSED' },
  },
  ...Array.from({ length: FANOUT }, (_, i) => ({
    timestamp: `2026-11-20T11:${String(i).padStart(2, '0')}:00.000000+0000`,
    event_type: 'flow',
    src_ip: CLIENT,
    src_port: 40000 + i,
    dest_ip: `192.0.2.${i + 1}`,
    dest_port: 443,
    proto: 'TCP',
    flow: { pkts_toserver: 1, pkts_toclient: 1, bytes_toserver: 60, bytes_toclient: 60 },
  })),
  // Outside the window every expansion below uses.
  {
    timestamp: '2026-10-01T10:00:00.000000+0000',
    event_type: 'flow',
    src_ip: CLIENT,
    src_port: 39999,
    dest_ip: '192.0.2.250',
    dest_port: 22,
    proto: 'TCP',
  },
];

const endpointContext = [
  {
    '@timestamp': '2026-11-20T09:00:00.000Z',
    host: { name: 'WS-FIN-07' },
    event: { action: 'logon', category: ['authentication'], outcome: 'success' },
    user: { name: 'jdoe' },
  },
  {
    '@timestamp': '2026-11-20T09:05:00.000Z',
    host: { name: 'WS-FIN-07' },
    event: { action: 'start', category: ['process'] },
    process: {
      pid: 7312,
      name: 'powershell.exe',
      hash: { sha256: SHA.toUpperCase() },
      parent: { pid: 4120, name: 'WINWORD.EXE' },
    },
    user: { name: 'jdoe' },
  },
  {
    '@timestamp': '2026-11-20T09:06:00.000Z',
    host: { name: 'WS-FIN-07' },
    event: { action: 'connection_attempted', category: ['network'] },
    process: { pid: 7312, name: 'powershell.exe' },
    source: { ip: CLIENT, port: 50122 },
    destination: { ip: SERVER, port: 80 },
    user: { name: 'jdoe' },
  },
  {
    '@timestamp': '2026-11-20T09:30:00.000Z',
    host: { name: 'WS-HR-02' },
    event: { action: 'logon', category: ['authentication'], outcome: 'success' },
    user: { name: 'jdoe' },
  },
];

async function ingest(kind: 'network' | 'endpoint', key: string, records: readonly object[]) {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  const body = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.rejected).toEqual([]);
  return body;
}

async function onlyAlert(client: TestClient): Promise<number> {
  const list = await client.post<ListAnswer<{ id: number }>>('/api/alerts/check/', {});
  expect(list.body.results).toHaveLength(1);
  return list.body.results[0]!.id;
}

const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();
const expand = (client: TestClient, body: unknown) => client.post<GraphExpandAnswer>('/api/graph/expand/', body);

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions: eventPermissions });
  await buildUser(t.db, { username: 'bob', companyId: beta, permissions: eventPermissions });
  await buildUser(t.db, {
    username: 'carol',
    companyId: alpha,
    permissions: [{ basename: 'alerts', actions: ['view'] }],
  });
  admin = await t.admin();
  analyst = await t.signedIn('alice');
  betaAnalyst = await t.signedIn('bob');
  alertsOnly = await t.signedIn('carol');
  const alphaKey = await t.ingestToken(admin, alpha);
  const betaKey = await t.ingestToken(admin, beta);
  await ingest('network', alphaKey, [alertRecord('2026-11-20T10:00:00.000000+0000'), ...networkContext]);
  await ingest('endpoint', alphaKey, endpointContext);
  // Beta sees the same addresses: none of it may show in alpha's graph.
  await ingest('network', betaKey, [
    alertRecord('2026-11-20T10:00:00.000000+0000'),
    { ...networkContext[0], dns: { type: 'query', rrname: 'beta-only.example.net', rrtype: 'A' } },
  ]);
  alertId = await onlyAlert(analyst);
  betaAlertId = await onlyAlert(betaAnalyst);
  const incident = await analyst.post<{ id: number }>('/api/incidents/', {
    title: 'Go client beaconing',
    alert_ids: [alertId],
  });
  expect(incident.status).toBe(201);
  incidentId = incident.body.id;
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/graph/', () => {
  it("builds an alert's graph from its observables, its linked event and its incident", async () => {
    const answer = await analyst.get<GraphAnswer>(`/api/graph/?alert=${alertId}`);
    expect(answer.status).toBe(200);
    const graph = answer.body;
    const url = 'url:http://update.example-cdn.net/api/v2/check?id=77';
    expect(graph.root).toBe(`alert:${alertId}`);
    expect(graph.company_id).toBe(alpha);
    expect(graph.truncated).toBe(false);
    expect(ids(graph.nodes)).toEqual(
      [
        `alert:${alertId}`,
        `incident:${incidentId}`,
        `ip:${CLIENT}`,
        `ip:${SERVER}`,
        'host:sensor-dmz-01',
        'domain:update.example-cdn.net',
        url,
      ].sort(),
    );
    const edges = graph.edges.map((e) => `${e.kind} ${e.source} ${e.target} ${e.count}`).sort();
    expect(edges).toEqual(
      [
        `observed alert:${alertId} ip:${CLIENT} 1`,
        `observed alert:${alertId} ip:${SERVER} 1`,
        `observed alert:${alertId} host:sensor-dmz-01 1`,
        `observed alert:${alertId} domain:update.example-cdn.net 1`,
        `observed alert:${alertId} ${url} 1`,
        `member_of alert:${alertId} incident:${incidentId} 1`,
        `flow ip:${CLIENT} ip:${SERVER} 1`,
        `http ip:${CLIENT} domain:update.example-cdn.net 1`,
        `requested ip:${CLIENT} ${url} 1`,
      ].sort(),
    );
    const alertNode = graph.nodes.find((n) => n.id === `alert:${alertId}`)!;
    expect(alertNode.data).toMatchObject({ severity: expect.any(String), status: 'new', company_id: alpha });
    expect(alertNode.label).toContain('ET USER_AGENTS Go HTTP Client User-Agent');
    const flow = graph.edges.find((e) => e.kind === 'flow')!;
    expect(flow.first_seen).toBe('2026-11-20T10:00:00.000Z');
    expect(flow.last_seen).toBe('2026-11-20T10:00:00.000Z');
    // The window expansions default to: the alert's activity ± 7 days.
    expect(graph.around).toEqual({ from: '2026-11-13T10:00:00.000Z', to: '2026-11-27T10:00:00.000Z' });
  });

  it("builds an incident's graph from its alerts", async () => {
    const answer = await analyst.get<GraphAnswer>(`/api/graph/?incident=${incidentId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.root).toBe(`incident:${incidentId}`);
    expect(answer.body.nodes.map((n) => n.id)).toContain(`alert:${alertId}`);
    expect(answer.body.edges.map((e) => e.id)).toContain(`member_of|alert:${alertId}|incident:${incidentId}`);
    expect(answer.body.edges.map((e) => e.kind)).toContain('flow');
  });

  it('leaves out what the caller may not view: events and incidents need their own permission', async () => {
    const answer = await alertsOnly.get<GraphAnswer>(`/api/graph/?alert=${alertId}`);
    expect(answer.status).toBe(200);
    const kinds = new Set(answer.body.edges.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['observed']));
    expect(answer.body.nodes.some((n) => n.kind === 'incident')).toBe(false);
    expect((await alertsOnly.get(`/api/graph/?incident=${incidentId}`)).status).toBe(403);
  });

  it("answers 404 for another company's alert or incident and for unknown ids", async () => {
    expect((await betaAnalyst.get(`/api/graph/?alert=${alertId}`)).status).toBe(404);
    expect((await betaAnalyst.get(`/api/graph/?incident=${incidentId}`)).status).toBe(404);
    expect((await analyst.get(`/api/graph/?alert=${betaAlertId}`)).status).toBe(404);
    expect((await analyst.get('/api/graph/?alert=999999')).status).toBe(404);
    const own = await betaAnalyst.get<GraphAnswer>(`/api/graph/?alert=${betaAlertId}`);
    expect(own.status).toBe(200);
    expect(own.body.company_id).toBe(beta);
  });

  it('refuses neither, both, or malformed ids with field errors', async () => {
    const neither = await analyst.get<Errors>('/api/graph/');
    expect(neither.status).toBe(400);
    expect(neither.body.errors.alert).toEqual(['Give an alert or an incident.']);
    const both = await analyst.get<Errors>(`/api/graph/?alert=${alertId}&incident=${incidentId}`);
    expect(both.status).toBe(400);
    expect(both.body.errors.incident).toBeDefined();
    const bad = await analyst.get<Errors>('/api/graph/?alert=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.alert).toBeDefined();
    const unknown = await analyst.get<Errors>(`/api/graph/?alert=${alertId}&colour=red`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.colour).toBeDefined();
  });

  it('needs a sign-in and the alerts view permission', async () => {
    expect((await t.client().get(`/api/graph/?alert=${alertId}`)).status).toBe(401);
    await buildUser(t.db, {
      username: 'dave',
      companyId: alpha,
      permissions: [{ basename: 'network', actions: ['view'] }],
    });
    const dave = await t.signedIn('dave');
    expect((await dave.get(`/api/graph/?alert=${alertId}`)).status).toBe(403);
    expect((await expand(dave, { node: { kind: 'ip', value: CLIENT } })).status).toBe(403);
  });
});

describe('POST /api/graph/expand/', () => {
  it('answers the neighbours of an IP in the window: flows, names, a file and the alert', async () => {
    const answer = await expand(analyst, { node: { kind: 'ip', value: CLIENT }, around: AROUND, company_id: alpha });
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body.node).toBe(`ip:${CLIENT}`);
    expect(body.truncated).toBe(false);
    // 30 fan-out flows, the server, the resolver, the TLS server, two names via dns/tls, one via http,
    // the URL, the file hash, the endpoint host that holds the address, and the alert.
    const expected = [
      ...Array.from({ length: FANOUT }, (_, i) => `flow ip:${CLIENT} ip:192.0.2.${i + 1} 1`),
      `flow ip:${CLIENT} ip:${SERVER} 2`,
      `flow ip:${CLIENT} ip:${RESOLVER} 1`,
      `flow ip:${CLIENT} ip:${TLS_SERVER} 1`,
      `dns ip:${CLIENT} domain:c2.example.org 1`,
      `tls ip:${CLIENT} domain:c2.example.org 1`,
      `http ip:${CLIENT} domain:update.example-cdn.net 1`,
      `requested ip:${CLIENT} url:http://update.example-cdn.net/api/v2/check?id=77 1`,
      `transferred ip:${CLIENT} hash:${SHA} 1`,
      `has_address host:WS-FIN-07 ip:${CLIENT} 1`,
      `observed alert:${alertId} ip:${CLIENT} 1`,
    ].sort();
    expect(body.edges.map((e) => `${e.kind} ${e.source} ${e.target} ${e.count}`).sort()).toEqual(expected);
    expect(body.shown).toBe(expected.length);
    expect(body.total).toBe(expected.length);
    // Nothing from beta (its resolver query named beta-only.example.net) and nothing outside the window.
    expect(body.nodes.map((n) => n.id)).not.toContain('domain:beta-only.example.net');
    expect(body.nodes.map((n) => n.id)).not.toContain('ip:192.0.2.250');
    const alertNode = body.nodes.find((n) => n.id === `alert:${alertId}`)!;
    expect(alertNode.data).toMatchObject({ status: 'new', company_id: alpha });
  });

  it('stops at the limit, most frequent relations first, and says more exist', async () => {
    const answer = await expand(analyst, {
      node: { kind: 'ip', value: CLIENT },
      around: AROUND,
      limit: 5,
      company_id: alpha,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.shown).toBe(5);
    expect(answer.body.total).toBe(FANOUT + 10);
    expect(answer.body.truncated).toBe(true);
    expect(answer.body.edges).toHaveLength(5);
    expect(answer.body.edges[0]).toMatchObject({ kind: 'flow', target: `ip:${SERVER}`, count: 2 });
    expect(answer.body.nodes).toHaveLength(6);
  });

  it('finds what ran on a host, who logged on, and where else that user logged on', async () => {
    const host = await expand(analyst, { node: { kind: 'host', value: 'WS-FIN-07' }, around: AROUND });
    expect(host.status).toBe(200);
    expect(host.body.edges.map((e) => `${e.kind} ${e.source} ${e.target} ${e.count}`).sort()).toEqual(
      [
        'logon host:WS-FIN-07 user:jdoe 3',
        'ran host:WS-FIN-07 process:powershell.exe 2',
        `has_address host:WS-FIN-07 ip:${CLIENT} 1`,
      ].sort(),
    );
    const user = await expand(analyst, { node: { kind: 'user', value: 'jdoe' }, around: AROUND });
    expect(user.body.edges.map((e) => `${e.kind} ${e.source} ${e.target} ${e.count}`).sort()).toEqual(
      ['logon host:WS-FIN-07 user:jdoe 3', 'logon host:WS-HR-02 user:jdoe 1'].sort(),
    );
    const process = await expand(analyst, { node: { kind: 'process', value: 'powershell.exe' }, around: AROUND });
    expect(process.body.edges.map((e) => `${e.kind} ${e.source} ${e.target}`).sort()).toEqual(
      [
        'ran host:WS-FIN-07 process:powershell.exe',
        'spawned process:WINWORD.EXE process:powershell.exe',
        `hash process:powershell.exe hash:${SHA}`,
        `connected process:powershell.exe ip:${SERVER}`,
      ].sort(),
    );
  });

  it('finds everything that carried a hash, whatever the case it was given in', async () => {
    const answer = await expand(analyst, { node: { kind: 'hash', value: SHA.toUpperCase() }, around: AROUND });
    expect(answer.status).toBe(200);
    expect(answer.body.node).toBe(`hash:${SHA}`);
    expect(answer.body.edges.map((e) => `${e.kind} ${e.source} ${e.target}`).sort()).toEqual(
      [`transferred ip:${CLIENT} hash:${SHA}`, `hash process:powershell.exe hash:${SHA}`].sort(),
    );
  });

  it('expands an alert into its own graph and a domain into who asked for it', async () => {
    const alertAnswer = await expand(analyst, { node: { kind: 'alert', value: String(alertId) } });
    expect(alertAnswer.status).toBe(200);
    expect(alertAnswer.body.nodes.map((n) => n.id)).toContain('host:sensor-dmz-01');
    const domain = await expand(analyst, { node: { kind: 'domain', value: 'C2.example.org' }, around: AROUND });
    expect(domain.body.edges.map((e) => `${e.kind} ${e.source} ${e.target}`).sort()).toEqual(
      [`dns ip:${CLIENT} domain:c2.example.org`, `tls ip:${CLIENT} domain:c2.example.org`].sort(),
    );
  });

  it("never shows another company's neighbours", async () => {
    const answer = await expand(betaAnalyst, { node: { kind: 'ip', value: CLIENT }, around: AROUND });
    expect(answer.status).toBe(200);
    const nodeIds = answer.body.nodes.map((n) => n.id);
    expect(nodeIds).toContain('domain:beta-only.example.net');
    expect(nodeIds).not.toContain('domain:c2.example.org');
    expect(nodeIds).not.toContain(`alert:${alertId}`);
    expect((await expand(betaAnalyst, { node: { kind: 'alert', value: String(alertId) } })).status).toBe(404);
    expect((await expand(betaAnalyst, { node: { kind: 'ip', value: CLIENT }, company_id: alpha })).status).toBe(404);
  });

  it('keeps to one company when asked (provider staff see every company)', async () => {
    const all = await expand(admin, { node: { kind: 'ip', value: CLIENT }, around: AROUND });
    expect(all.body.nodes.map((n) => n.id)).toContain('domain:beta-only.example.net');
    const one = await expand(admin, { node: { kind: 'ip', value: CLIENT }, around: AROUND, company_id: alpha });
    expect(one.body.nodes.map((n) => n.id)).not.toContain('domain:beta-only.example.net');
  });

  it('refuses bad input with field errors', async () => {
    const cases: [unknown, string][] = [
      [{}, 'node'],
      [{ node: { kind: 'planet', value: 'x' } }, 'node.kind'],
      [{ node: { kind: 'ip', value: '' } }, 'node.value'],
      [{ node: { kind: 'ip', value: 'not-an-address' } }, 'node.value'],
      [{ node: { kind: 'alert', value: '12abc' } }, 'node.value'],
      [{ node: { kind: 'ip', value: CLIENT }, limit: 0 }, 'limit'],
      [{ node: { kind: 'ip', value: CLIENT }, limit: 501 }, 'limit'],
      [{ node: { kind: 'ip', value: CLIENT }, limit: 2.5 }, 'limit'],
      [{ node: { kind: 'ip', value: CLIENT }, around: { from: AROUND.to, to: AROUND.from } }, 'around.to'],
      [{ node: { kind: 'ip', value: CLIENT }, around: { from: '2026-01-01T00:00:00Z', to: AROUND.to } }, 'around.to'],
      [{ node: { kind: 'ip', value: CLIENT }, around: { from: 'yesterday', to: AROUND.to } }, 'around.from'],
      [{ node: { kind: 'ip', value: CLIENT }, depth: 3 }, 'depth'],
    ];
    for (const [body, field] of cases) {
      const answer = await expand(analyst, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((answer.body as unknown as Errors).errors), JSON.stringify(body)).toContain(field);
    }
    expect((await expand(analyst, { node: { kind: 'ip', value: CLIENT }, limit: 500, around: AROUND })).status).toBe(
      200,
    );
  });
});
