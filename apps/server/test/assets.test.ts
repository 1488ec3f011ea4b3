import type { Asset, AssetImportAnswer, IngestTokenCreated, IpHost, ListAnswer } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Assets end to end: by hand (create, change, archive, list, filters), CSV import, the company's
 * networks, discovery from endpoint events and Suricata DHCP, DNS and flow records through the
 * ingest API, merge and split (remembered by discovery), and which asset held an address when.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let alice: TestClient;
let bob: TestClient;
const keys: Record<'alpha' | 'beta', string> = { alpha: '', beta: '' };

const permissions = [
  { basename: 'assets', actions: ['view', 'add', 'change'] },
  { basename: 'assets/ip_hosts', actions: ['view'] },
];

async function ingest(company: 'alpha' | 'beta', kind: 'endpoint' | 'network', lines: object[]) {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${keys[company]}` },
    body: lines.map((l) => JSON.stringify(l)).join('\n'),
  });
  const body = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.rejected).toEqual([]);
  return body;
}

async function listAssets(client: TestClient, filters: object = {}): Promise<Asset[]> {
  const answer = await client.post<ListAnswer<Asset>>('/api/assets/check/?page_size=500', filters);
  expect(answer.status).toBe(200);
  return answer.body.results;
}

const byName = async (name: string) => (await listAssets(alice, { search: name })).filter((a) => a.name === name);

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Assets');
  beta = await buildCompany(t.db, 'Beta Assets');
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions });
  await buildUser(t.db, { username: 'bob', companyId: beta, permissions });
  alice = t.client();
  await alice.signIn('alice', 'User-password-1');
  bob = t.client();
  await bob.signIn('bob', 'User-password-1');
  const admin = await t.admin();
  for (const [side, company] of [
    ['alpha', alpha],
    ['beta', beta],
  ] as const) {
    const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
      name: `${side}-key`,
      company_id: company,
    });
    expect(token.status).toBe(201);
    keys[side] = token.body.key;
  }
});
afterAll(async () => {
  await t?.close();
});

describe('assets by hand', () => {
  let id: number;

  it('creates, reads, changes and archives an asset, each change audited', async () => {
    const unit = await t.db.query<{ id: number }>(
      sql`INSERT INTO units (company_id, name) VALUES (${alpha}, 'Finance') RETURNING id`,
    );
    const owner = await t.db.query<{ id: number }>(
      sql`INSERT INTO employees (company_id, full_name) VALUES (${alpha}, 'Fiona Finance') RETURNING id`,
    );
    const ownerId = Number(owner.rows[0]!.id);
    const created = await alice.post<Asset>('/api/assets/', {
      name: 'FIN-SRV-01',
      kind: 'server',
      os_name: 'Windows Server 2022',
      ips: ['10.9.0.5', '10.9.0.5'],
      macs: ['00-1A-2B-3C-4D-5E'],
      criticality: 'high',
      tags: ['pci', 'finance'],
      unit_id: unit.rows[0]!.id,
      owner_employee_id: ownerId,
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    expect(created.body).toMatchObject({
      company_id: alpha,
      ips: ['10.9.0.5'],
      macs: ['00:1a:2b:3c:4d:5e'],
      sources: ['manual'],
      owner_employee_id: ownerId,
      owner_name: 'Fiona Finance',
      archived_at: null,
    });
    expect((await alice.get<Asset>(`/api/assets/${id}/`)).body.name).toBe('FIN-SRV-01');

    const changed = await alice.patch<Asset>(`/api/assets/${id}/`, {
      criticality: 'critical',
      ips: ['10.9.0.5', '10.9.0.6'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ criticality: 'critical', ips: ['10.9.0.5', '10.9.0.6'] });

    const archived = await alice.post<Asset>(`/api/assets/${id}/archive/`);
    expect(archived.body.archived_at).not.toBeNull();
    expect((await listAssets(alice, { archived: false })).some((a) => a.id === id)).toBe(false);
    expect((await listAssets(alice, { archived: true })).map((a) => a.id)).toEqual([id]);
    const back = await alice.post<Asset>(`/api/assets/${id}/unarchive/`);
    expect(back.body.archived_at).toBeNull();

    const { rows } = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'asset' AND object_id = ${String(id)} ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'update', 'update']);
    // Addresses written by hand are IP history too.
    const hosts = await alice.post<ListAnswer<IpHost>>('/api/assets/ip_hosts/check/', { asset_id: id });
    expect(hosts.body.results.map((h) => [h.ip, h.source]).sort()).toEqual([
      ['10.9.0.5', 'manual'],
      ['10.9.0.6', 'manual'],
    ]);
  });

  it('lists, counts and filters', async () => {
    await alice.post('/api/assets/', { name: 'ws-mobile-1', kind: 'mobile', criticality: 'low', tags: ['byod'] });
    const count = async (filters: object) =>
      (await alice.post<{ count: number }>('/api/assets/count/', filters)).body.count;
    expect(await count({})).toBe(2);
    expect(await count({ kind: 'server' })).toBe(1);
    expect(await count({ kind: ['server', 'mobile'] })).toBe(2);
    expect(await count({ criticality: 'low' })).toBe(1);
    expect(await count({ tag: 'pci' })).toBe(1);
    expect(await count({ ip: '10.9.0.6' })).toBe(1);
    expect(await count({ search: 'fin-srv' })).toBe(1);
    expect(await count({ company_id: alpha })).toBe(2);
    const ordered = await alice.post<ListAnswer<Asset>>('/api/assets/check/?ordering=-criticality', {});
    expect(ordered.body.results[0]!.name).toBe('FIN-SRV-01');
  });

  it('shows nothing of one company to another', async () => {
    expect(await listAssets(bob)).toEqual([]);
    expect((await bob.get(`/api/assets/${id}/`)).status).toBe(404);
    expect((await bob.patch(`/api/assets/${id}/`, { name: 'x' })).status).toBe(404);
    expect((await bob.post(`/api/assets/${id}/archive/`)).status).toBe(404);
    expect((await bob.post(`/api/assets/${id}/split/`, { name: 'x', ips: ['10.9.0.5'] })).status).toBe(404);
    const merge = await bob.post<{ errors: Record<string, string[]> }>('/api/assets/merge/', {
      into: id,
      ids: [id + 1],
    });
    expect(merge.status).toBe(400);
    const hosts = await bob.post<{ count: number }>('/api/assets/ip_hosts/count/', {});
    expect(hosts.body.count).toBe(0);
    const resolved = await bob.get<{ asset: Asset | null }>('/api/assets/ip_hosts/resolve/?ip=10.9.0.5');
    expect(resolved.body.asset).toBeNull();
    const create = await bob.post<{ errors: Record<string, string[]> }>('/api/assets/', {
      name: 'x',
      company_id: alpha,
    });
    expect(create.status).toBe(400);
    expect(Object.keys(create.body.errors)).toEqual(['company_id']);
  });

  it('refuses bad input with field errors', async () => {
    const refuse = async (body: object, fields: string[]) => {
      const answer = await alice.post<{ errors: Record<string, string[]> }>('/api/assets/', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors).sort()).toEqual(fields);
    };
    await refuse({}, ['name']);
    await refuse({ name: 'a\u0000b' }, ['name']);
    await refuse({ name: 'ok', kind: 'toaster', criticality: 'extreme' }, ['criticality', 'kind']);
    await refuse({ name: 'ok', ips: ['10.0.0.300'], macs: ['zz:zz'] }, ['ips.0', 'macs.0']);
    await refuse({ name: 'ok', notes: 'x'.repeat(10_001) }, ['notes']);
    await refuse({ name: 'ok', surprise: 1 }, ['surprise']);
    const otherUnit = await t.db.query<{ id: number }>(
      sql`INSERT INTO units (company_id, name) VALUES (${beta}, 'Elsewhere') RETURNING id`,
    );
    await refuse({ name: 'ok', unit_id: otherUnit.rows[0]!.id }, ['unit_id']);
    const filter = await alice.post('/api/assets/check/', { ip: 'not-an-ip' });
    expect(filter.status).toBe(400);
  });
});

describe('CSV import', () => {
  it('creates and updates good rows and reports bad rows by line', async () => {
    const csv = [
      'name,kind,ips,macs,criticality,tags,os_name',
      'HR-LAPTOP-1,workstation,10.20.0.1;10.20.0.2,aa:bb:cc:00:00:01,medium,hr;laptop,Windows 11',
      'bad-kind,toaster,,,,,',
      ',server,,,,,',
      'bad-ip,server,10.20.0.999,,,,',
      'bad-mac,server,,zz,,,',
      'FIN-SRV-01,,10.9.0.7,,low,,',
      'nul\u0000row,server,,,,,',
    ].join('\n');
    const answer = await alice.post<AssetImportAnswer>('/api/assets/import/', { csv });
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(1);
    expect(answer.body.updated).toBe(1);
    expect(answer.body.rejected.map((r) => [r.row, r.field])).toEqual([
      [3, 'kind'],
      [4, 'name'],
      [5, 'ips'],
      [6, 'macs'],
      [8, 'row'],
    ]);
    const [laptop] = await byName('HR-LAPTOP-1');
    expect(laptop).toMatchObject({ kind: 'workstation', ips: ['10.20.0.1', '10.20.0.2'], tags: ['hr', 'laptop'] });
    const [server] = await byName('FIN-SRV-01');
    expect(server).toMatchObject({ criticality: 'low', ips: ['10.9.0.5', '10.9.0.6', '10.9.0.7'] });
  });

  it('takes text/csv and refuses a bad header, random bytes and an empty body', async () => {
    const post = async (body: string | Uint8Array, query = '') => {
      const client = alice as unknown as { cookie(name: string): string | undefined };
      const response = await fetch(`${t.url}/api/assets/import/${query}`, {
        method: 'POST',
        headers: {
          'content-type': 'text/csv',
          cookie: `vigil_session=${client.cookie('vigil_session')}; csrf_token=${client.cookie('csrf_token')}`,
          'x-csrftoken': client.cookie('csrf_token') ?? '',
        },
        body,
      });
      return { status: response.status, body: (await response.json()) as AssetImportAnswer };
    };
    const good = await post('name,kind\nPRN-01,network_device\n', `?company_id=${alpha}`);
    expect(good.status).toBe(200);
    expect(good.body.created).toBe(1);
    const header = await post('hostname,colour\nx,y\n');
    expect(header.body.rejected[0]).toMatchObject({ row: 1, field: 'header' });
    const noise = new Uint8Array(2048);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 131 + 7) % 256;
    const random = await post(noise);
    expect(random.status).toBe(200);
    expect(random.body.created).toBe(0);
    expect(random.body.rejected.length).toBeGreaterThan(0);
    const otherCompany = await post('name\nx\n', `?company_id=${beta}`);
    expect(otherCompany.status).toBe(400);
    const json = await alice.post<{ errors: Record<string, string[]> }>('/api/assets/import/', { csv: '' });
    expect(json.status).toBe(400);
  });
});

describe('networks', () => {
  it('reads and replaces the company’s internal networks, refusing what is not a network', async () => {
    expect((await alice.get('/api/assets/networks/')).body).toEqual({ company_id: alpha, cidrs: [] });
    const set = await alice.put('/api/assets/networks/', { cidrs: ['10.1.0.0/16', '10.1.0.0/16', 'fd00::/8'] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ company_id: alpha, cidrs: ['10.1.0.0/16', 'fd00::/8'] });
    const bad = await alice.put<{ errors: Record<string, string[]> }>('/api/assets/networks/', { cidrs: ['10.1.0.0'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['cidrs.0']);
    expect((await bob.get(`/api/assets/networks/?company_id=${alpha}`)).status).toBe(404);
    expect((await bob.get('/api/assets/networks/')).body).toEqual({ company_id: beta, cidrs: [] });
    const { rows } = await t.db.query<{ changes: { cidrs: { after: string[] } } }>(
      sql`SELECT changes FROM system_logs WHERE object_type = 'company_networks' AND company_id = ${alpha}`,
    );
    expect(rows.map((r) => r.changes.cidrs.after)).toEqual([['10.1.0.0/16', 'fd00::/8']]);
  });
});

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const ecs = (at: string) => ({
  '@timestamp': at,
  host: {
    name: 'WS-ENG-07.corp.local',
    ip: ['10.1.0.10', '127.0.0.1'],
    os: { full: 'Windows 11 Pro 10.0.22631' },
    mac: ['AA-BB-CC-00-07-01'],
  },
  agent: { id: 'agent-0007' },
  event: { action: 'start', category: ['process'] },
  process: { pid: 10, name: 'cmd.exe' },
});
const dhcpAck = (at: string, mac: string, hostname: string | null, ip: string) => ({
  timestamp: at,
  event_type: 'dhcp',
  src_ip: '10.1.0.1',
  dest_ip: ip,
  host: 'sensor-1',
  dhcp: {
    type: 'reply',
    id: 1,
    dhcp_type: 'ack',
    client_mac: mac,
    assigned_ip: ip,
    lease_time: 3600,
    ...(hostname ? { hostname } : {}),
  },
});
const dnsAnswer = (at: string, name: string, ip: string) => ({
  timestamp: at,
  event_type: 'dns',
  src_ip: '10.1.0.53',
  dest_ip: '10.1.0.10',
  host: 'sensor-1',
  dns: {
    version: 2,
    type: 'answer',
    rrname: name,
    rrtype: 'A',
    answers: [{ rrname: name, rrtype: 'A', ttl: 60, rdata: ip }],
  },
});
const flow = (at: string, src: string, dest: string) => ({
  timestamp: at,
  event_type: 'flow',
  src_ip: src,
  src_port: 50000,
  dest_ip: dest,
  dest_port: 445,
  proto: 'TCP',
  host: 'sensor-1',
  flow: { pkts_toserver: 3, pkts_toclient: 2, bytes_toserver: 300, bytes_toclient: 200, start: at, end: at },
});

describe('discovery', () => {
  it('makes one asset of an endpoint and its DHCP lease, and does nothing more the second time', async () => {
    const at = minutesAgo(30);
    await ingest('alpha', 'endpoint', [ecs(at)]);
    const [ws] = await byName('WS-ENG-07');
    expect(ws).toMatchObject({
      kind: 'workstation',
      os_name: 'Windows 11 Pro',
      os_version: '10.0.22631',
      fqdn: 'ws-eng-07.corp.local',
      agent_id: 'agent-0007',
      ips: ['10.1.0.10'],
      macs: ['aa:bb:cc:00:07:01'],
      sources: ['endpoint:agent-0007'],
      first_seen: new Date(at).toISOString(),
    });
    const lease = dhcpAck(minutesAgo(20), 'aa:bb:cc:00:07:01', 'ws-eng-07', '10.1.0.11');
    await ingest('alpha', 'network', [lease]);
    const after = await byName('WS-ENG-07');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      ips: ['10.1.0.10', '10.1.0.11'],
      sources: ['endpoint:agent-0007', 'eve:sensor-1'],
    });

    const before = await t.db.query(sql`SELECT * FROM assets WHERE company_id = ${alpha} ORDER BY id`);
    const hostsBefore = await t.db.query(sql`SELECT * FROM asset_ip_hosts WHERE company_id = ${alpha} ORDER BY id`);
    await ingest('alpha', 'network', [lease]);
    await ingest('alpha', 'endpoint', [ecs(at)]);
    expect((await t.db.query(sql`SELECT * FROM assets WHERE company_id = ${alpha} ORDER BY id`)).rows).toEqual(
      before.rows,
    );
    expect((await t.db.query(sql`SELECT * FROM asset_ip_hosts WHERE company_id = ${alpha} ORDER BY id`)).rows).toEqual(
      hostsBefore.rows,
    );
    const dhcp = await alice.post<ListAnswer<IpHost>>('/api/assets/ip_hosts/check/', {
      ip: '10.1.0.11',
      source: 'dhcp',
    });
    expect(dhcp.body.results).toHaveLength(1);
    expect(dhcp.body.results[0]).toMatchObject({ asset_id: ws!.id, mac: 'aa:bb:cc:00:07:01' });
    // The claim lasts as long as the lease.
    expect(Date.parse(dhcp.body.results[0]!.last_seen) - Date.parse(lease.timestamp)).toBe(3_600_000);
  });

  it('names internal machines from DNS answers and makes an asset of each unknown internal address in flows', async () => {
    const at = minutesAgo(10);
    await ingest('alpha', 'network', [
      dnsAnswer(at, 'fs-01.corp.local', '10.1.5.20'),
      dnsAnswer(at, 'www.example.com', '93.184.216.34'),
      flow(at, '10.1.7.7', '10.1.5.20'),
      flow(at, '10.1.7.7', '8.8.8.8'),
    ]);
    const [fs] = await byName('fs-01');
    expect(fs).toMatchObject({ fqdn: 'fs-01.corp.local', ips: ['10.1.5.20'], kind: 'other' });
    expect(await byName('www')).toEqual([]);
    const [unknown] = await byName('10.1.7.7');
    expect(unknown).toMatchObject({ kind: 'other', ips: ['10.1.7.7'], sources: ['eve:sensor-1'] });
    expect(await byName('8.8.8.8')).toEqual([]);
    const fsHosts = await alice.post<ListAnswer<IpHost>>('/api/assets/ip_hosts/check/', { asset_id: fs!.id });
    expect(fsHosts.body.results.map((h) => h.source).sort()).toEqual(['dns', 'flow']);
    // A DHCP lease naming the flow-found address's machine gives that asset its name.
    await ingest('alpha', 'network', [dhcpAck(minutesAgo(5), 'aa:bb:cc:00:77:77', 'lab-pc', '10.1.7.7')]);
    expect(await byName('10.1.7.7')).toEqual([]);
    const [lab] = await byName('lab-pc');
    expect(lab).toMatchObject({ id: unknown!.id, macs: ['aa:bb:cc:00:77:77'] });
  });

  it('makes no twins when two batches of one company arrive at once', async () => {
    const at = minutesAgo(3);
    const host = (n: number) => ({ ...ecs(at), host: { name: 'RACE-PC', ip: [`10.1.9.${n}`] }, agent: undefined });
    await Promise.all([ingest('alpha', 'endpoint', [host(1)]), ingest('alpha', 'endpoint', [host(2)])]);
    const race = await byName('RACE-PC');
    expect(race).toHaveLength(1);
    expect(race[0]!.ips.sort()).toEqual(['10.1.9.1', '10.1.9.2']);
  });

  it('keeps one company’s discoveries from another', async () => {
    await ingest('beta', 'endpoint', [ecs(minutesAgo(2))]);
    const betaAssets = await listAssets(bob);
    expect(betaAssets.map((a) => a.name)).toEqual(['WS-ENG-07']);
    expect((await byName('WS-ENG-07'))[0]!.id).not.toBe(betaAssets[0]!.id);
  });
});

describe('merge and split', () => {
  it('merges assets into one with their addresses, sources and history', async () => {
    const a = await alice.post<Asset>('/api/assets/', { name: 'old-name', ips: ['10.50.0.1'], tags: ['x'] });
    const b = await alice.post<Asset>('/api/assets/', {
      name: 'new-name',
      ips: ['10.50.0.2'],
      macs: ['aa:00:00:00:00:02'],
      tags: ['y'],
    });
    const merged = await alice.post<Asset>('/api/assets/merge/', { into: b.body.id, ids: [a.body.id, b.body.id] });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: b.body.id, ips: ['10.50.0.2', '10.50.0.1'], tags: ['y', 'x'] });
    expect((await alice.get(`/api/assets/${a.body.id}/`)).status).toBe(404);
    const hosts = await alice.post<ListAnswer<IpHost>>('/api/assets/ip_hosts/check/', { asset_id: b.body.id });
    expect(hosts.body.results.map((h) => h.ip).sort()).toEqual(['10.50.0.1', '10.50.0.2']);
    const audit = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'asset' AND object_id IN (${String(a.body.id)}, ${String(b.body.id)}) ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'create', 'delete', 'merge']);
    const alone = await alice.post('/api/assets/merge/', { into: b.body.id, ids: [b.body.id] });
    expect(alone.status).toBe(400);
  });

  it('splits an address out into a new asset and discovery keeps it there', async () => {
    const [ws] = await byName('WS-ENG-07');
    const split = await alice.post<{ from: Asset; created: Asset }>(`/api/assets/${ws!.id}/split/`, {
      name: 'WS-ENG-07-dock',
      ips: ['10.1.0.11'],
    });
    expect(split.status).toBe(201);
    expect(split.body.from.ips).toEqual(['10.1.0.10']);
    expect(split.body.created).toMatchObject({ name: 'WS-ENG-07-dock', ips: ['10.1.0.11'] });
    const refused = await alice.post<{ errors: Record<string, string[]> }>(`/api/assets/${ws!.id}/split/`, {
      name: 'x',
      ips: ['10.1.0.99'],
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['ips']);
    // The same lease again: the address stays with the asset it was split into.
    await ingest('alpha', 'network', [dhcpAck(minutesAgo(1), 'aa:bb:cc:00:07:01', 'ws-eng-07', '10.1.0.11')]);
    expect((await alice.get<Asset>(`/api/assets/${ws!.id}/`)).body.ips).toEqual(['10.1.0.10']);
    expect((await alice.get<Asset>(`/api/assets/${split.body.created.id}/`)).body.ips).toEqual(['10.1.0.11']);
    const resolved = await alice.get<{ asset: Asset }>('/api/assets/ip_hosts/resolve/?ip=10.1.0.11');
    expect(resolved.body.asset.id).toBe(split.body.created.id);

    // A source split out: the endpoint's events go on to the new asset, not back to the old one.
    const [race] = await byName('RACE-PC');
    const bySource = await alice.post<{ from: Asset; created: Asset }>(`/api/assets/${race!.id}/split/`, {
      name: 'RACE-PC-agent',
      sources: ['endpoint:race-pc'],
    });
    expect(bySource.status).toBe(201);
    await ingest('alpha', 'endpoint', [
      { ...ecs(minutesAgo(1)), host: { name: 'RACE-PC', ip: ['10.1.9.3'] }, agent: undefined },
    ]);
    expect((await alice.get<Asset>(`/api/assets/${race!.id}/`)).body.sources).toEqual([]);
    const moved = await alice.get<Asset>(`/api/assets/${bySource.body.created.id}/`);
    expect(moved.body).toMatchObject({ sources: ['endpoint:race-pc'], ips: ['10.1.9.3'] });
  });
});

describe('IP history', () => {
  it('resolves an address to the machine that held it then, and to today’s holder now', async () => {
    const sixWeeksAgo = new Date(Date.now() - 42 * 86_400_000);
    await ingest('alpha', 'network', [
      dhcpAck(sixWeeksAgo.toISOString(), 'aa:bb:cc:00:00:0a', 'old-pc', '10.1.17.215'),
    ]);
    await ingest('alpha', 'network', [dhcpAck(minutesAgo(1), 'aa:bb:cc:00:00:0b', 'new-pc', '10.1.17.215')]);
    const [oldPc] = await byName('old-pc');
    const [newPc] = await byName('new-pc');
    expect(oldPc!.ips).toEqual([]);
    expect(newPc!.ips).toEqual(['10.1.17.215']);
    const resolve = async (query: string) =>
      (await alice.get<{ asset: Asset | null; ip_host: IpHost | null }>(`/api/assets/ip_hosts/resolve/?${query}`)).body;
    const then = new Date(sixWeeksAgo.getTime() + 10 * 60_000).toISOString();
    expect((await resolve(`ip=10.1.17.215&at=${encodeURIComponent(then)}`)).asset?.name).toBe('old-pc');
    expect((await resolve('ip=10.1.17.215')).asset?.name).toBe('new-pc');
    const before = new Date(sixWeeksAgo.getTime() - 86_400_000).toISOString();
    expect(await resolve(`ip=10.1.17.215&at=${encodeURIComponent(before)}`)).toEqual({ asset: null, ip_host: null });
    expect((await alice.get(`/api/assets/ip_hosts/resolve/?ip=nope`)).status).toBe(400);

    const history = async (filters: object) =>
      (await alice.post<ListAnswer<IpHost>>('/api/assets/ip_hosts/check/', filters)).body.results.map(
        (h) => h.asset_name,
      );
    expect(await history({ ip: '10.1.17.215' })).toEqual(['new-pc', 'old-pc']);
    expect(await history({ ip: '10.1.17.215', at: then })).toEqual(['old-pc']);
    expect(await history({ ip: '10.1.17.215', seen_from: minutesAgo(30) })).toEqual(['new-pc']);
    expect(await history({ ip: '10.1.17.215', seen_to: before })).toEqual([]);
    const counted = await alice.post<{ count: number }>('/api/assets/ip_hosts/count/', {
      ip: '10.1.17.215',
      company_id: alpha,
    });
    expect(counted.body.count).toBe(2);
  });
});
