import type {
  Asset,
  AssetBulkAnswer,
  IngestTokenCreated,
  ListAnswer,
  SoftwareInstall,
  SystemLog,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * What ties an asset to the rest of the estate: its owner (an employee of its company, never of
 * another), the bulk changes of the assets list (criticality, owner, tags, archive, by ids or by
 * filters), and the asset a software install's host is.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let alice: TestClient;
let bob: TestClient;
let provider: TestClient;
let alphaKey: string;
const employees: Record<string, number> = {};

const permissions = [
  { basename: 'assets', actions: ['view', 'add', 'change'] },
  { basename: 'employees', actions: ['view', 'add'] },
  { basename: 'software', actions: ['view'] },
  { basename: 'software/versions', actions: ['view'] },
  { basename: 'system_logs', actions: ['view'] },
];

async function create(client: TestClient, body: object): Promise<Asset> {
  const answer = await client.post<Asset>('/api/assets/', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function get(client: TestClient, id: number): Promise<Asset> {
  return (await client.get<Asset>(`/api/assets/${id}/`)).body;
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Links');
  beta = await buildCompany(t.db, 'Beta Links');
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions });
  await buildUser(t.db, { username: 'bob', companyId: beta, permissions });
  alice = t.client();
  await alice.signIn('alice', 'User-password-1');
  bob = t.client();
  await bob.signIn('bob', 'User-password-1');
  provider = await t.admin();
  for (const [client, name] of [
    [alice, 'Ada Lovelace'],
    [alice, 'Grace Hopper'],
    [bob, 'Bob Beta'],
  ] as const) {
    const made = await client.post<{ id: number }>('/api/employees/', { full_name: name });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    employees[name] = made.body.id;
  }
  alphaKey = (await provider.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'agents', company_id: alpha }))
    .body.key;
});
afterAll(async () => {
  await t?.close();
});

describe('asset owners', () => {
  it('takes an employee of the asset’s company as owner and shows the name; refuses another company’s', async () => {
    const laptop = await create(alice, { name: 'ws-ada', owner_employee_id: employees['Ada Lovelace'] });
    expect(laptop).toMatchObject({ owner_employee_id: employees['Ada Lovelace'], owner_name: 'Ada Lovelace' });

    const foreign = await alice.post<Errors>('/api/assets/', {
      name: 'ws-x',
      owner_employee_id: employees['Bob Beta'],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.owner_employee_id?.[0]).toMatch(/no employee/i);
    const changed = await alice.patch<Errors>(`/api/assets/${laptop.id}/`, {
      owner_employee_id: employees['Bob Beta'],
    });
    expect(changed.status).toBe(400);
    expect((await get(alice, laptop.id)).owner_name).toBe('Ada Lovelace');

    const owned = await alice.post<ListAnswer<Asset>>('/api/assets/check/', {
      owner_employee_id: employees['Ada Lovelace'],
    });
    expect(owned.body.results.map((a) => a.name)).toEqual(['ws-ada']);
  });

  it('counts the assets each employee owns, leaving archived ones out', async () => {
    const grace = employees['Grace Hopper']!;
    const count = async () => {
      const page = await alice.post<ListAnswer<{ id: number; asset_count: number }>>('/api/employees/check/', {
        id: grace,
      });
      const one = await alice.get<{ asset_count: number }>(`/api/employees/${grace}/`);
      expect(one.body.asset_count).toBe(page.body.results[0]?.asset_count);
      return one.body.asset_count;
    };
    const before = await count();
    const first = await create(alice, { name: 'grace-1', owner_employee_id: grace });
    await create(alice, { name: 'grace-2', owner_employee_id: grace });
    expect(await count()).toBe(before + 2);
    expect((await alice.post(`/api/assets/${first.id}/archive/`, {})).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('leaves an asset without owner when its employee is deleted', async () => {
    const temp = await alice.post<{ id: number }>('/api/employees/', { full_name: 'Temp Contractor' });
    const desk = await create(alice, { name: 'ws-temp', owner_employee_id: temp.body.id });
    await t.db.query(sql`DELETE FROM employees WHERE id = ${temp.body.id}`);
    expect(await get(alice, desk.id)).toMatchObject({ owner_employee_id: null, owner_name: null });
  });
});

describe('bulk changes', () => {
  it('changes criticality, owner, tags and the archive of chosen assets, audited once per company', async () => {
    const [a, b, c] = [
      await create(alice, { name: 'srv-db-1', kind: 'server', tags: ['db'] }),
      await create(alice, { name: 'srv-db-2', kind: 'server', tags: ['db', 'old'] }),
      await create(alice, { name: 'srv-web-1', kind: 'server' }),
    ];
    const answer = await alice.post<AssetBulkAnswer>('/api/assets/bulk/', {
      ids: [a.id, b.id],
      criticality: 'critical',
      owner_employee_id: employees['Grace Hopper'],
      add_tags: ['pci'],
      remove_tags: ['old'],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ matched: 2, changed: 2 });
    for (const id of [a.id, b.id]) {
      expect(await get(alice, id)).toMatchObject({
        criticality: 'critical',
        owner_name: 'Grace Hopper',
        tags: ['db', 'pci'],
      });
    }
    expect((await get(alice, c.id)).criticality).toBe('medium');

    // The same change again changes nothing.
    const again = await alice.post<AssetBulkAnswer>('/api/assets/bulk/', {
      ids: [a.id, b.id],
      criticality: 'critical',
    });
    expect(again.body).toEqual({ matched: 2, changed: 0 });

    // By filter: every asset tagged pci goes to the archive.
    const archived = await alice.post<AssetBulkAnswer>('/api/assets/bulk/', {
      filters: { tag: 'pci' },
      archived: true,
    });
    expect(archived.body).toEqual({ matched: 2, changed: 2 });
    expect((await get(alice, a.id)).archived_at).not.toBeNull();
    expect((await get(alice, c.id)).archived_at).toBeNull();

    const logs = await alice.post<ListAnswer<SystemLog>>('/api/system_logs/check/', { object_type: 'asset' });
    const bulk = logs.body.results.filter((l) => l.object_repr === '2 asset(s) changed');
    expect(bulk.length).toBeGreaterThanOrEqual(2);
  });

  it('reaches only the caller’s assets and refuses an owner of another company', async () => {
    const mine = await create(alice, { name: 'ws-mine' });
    const theirs = await create(bob, { name: 'ws-theirs' });
    const answer = await alice.post<AssetBulkAnswer>('/api/assets/bulk/', {
      ids: [mine.id, theirs.id],
      criticality: 'low',
    });
    expect(answer.body).toEqual({ matched: 1, changed: 1 });
    expect((await get(bob, theirs.id)).criticality).toBe('medium');

    const foreignOwner = await alice.post<Errors>('/api/assets/bulk/', {
      ids: [mine.id],
      owner_employee_id: employees['Bob Beta'],
    });
    expect(foreignOwner.status).toBe(400);
    expect(foreignOwner.body.errors.owner_employee_id).toBeDefined();

    // Provider staff choosing assets of two companies cannot give them one company's employee.
    const mixed = await provider.post<Errors>('/api/assets/bulk/', {
      ids: [mine.id, theirs.id],
      owner_employee_id: employees['Ada Lovelace'],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.owner_employee_id?.[0]).toMatch(/another company than 1/);
    expect((await get(bob, theirs.id)).owner_employee_id).toBeNull();
  });

  it('refuses a body that says nothing to change, or both ids and filters', async () => {
    for (const body of [
      { ids: [1] },
      { ids: [1], filters: {}, criticality: 'low' },
      { criticality: 'low' },
      { ids: [], criticality: 'low' },
      { ids: [1], criticality: 'extreme' },
      { ids: [1], add_tags: [''] },
    ]) {
      const answer = await alice.post<Errors>('/api/assets/bulk/', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors ?? {}).length, JSON.stringify(body)).toBeGreaterThan(0);
    }
  });
});

describe('software on assets', () => {
  it('shows the asset a software install’s host is, and lists the installs of an asset', async () => {
    const host = await create(alice, { name: 'WS-SOFT', fqdn: 'ws-soft.alpha.example' });
    await create(bob, { name: 'ws-soft' });
    const response = await fetch(`${t.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alphaKey}`, 'content-type': 'application/x-ndjson' },
      body: [
        {
          '@timestamp': '2026-11-20T08:00:00Z',
          host: { name: 'ws-soft.alpha.example', os: { family: 'debian' } },
          event: { dataset: 'system.package', action: 'existing_package', category: ['package'], kind: 'state' },
          package: { name: 'curl', version: '7.88.1-10', type: 'deb' },
        },
        {
          '@timestamp': '2026-11-20T08:00:00Z',
          host: { name: 'ws-nobody', os: { family: 'debian' } },
          event: { dataset: 'system.package', action: 'existing_package', category: ['package'], kind: 'state' },
          package: { name: 'curl', version: '7.88.1-10', type: 'deb' },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    });
    expect(response.status).toBe(200);

    const installs = await alice.post<ListAnswer<SoftwareInstall>>('/api/software/versions/installs/check/', {
      search: 'ws-',
    });
    expect(installs.body.results.map((i) => [i.host_name, i.asset_id]).sort()).toEqual(
      [
        ['ws-nobody', null],
        ['ws-soft.alpha.example', host.id],
      ].sort(),
    );
    const onHost = await alice.post<ListAnswer<SoftwareInstall>>('/api/software/versions/installs/check/', {
      asset_id: host.id,
    });
    expect(onHost.body.results.map((i) => i.host_name)).toEqual(['ws-soft.alpha.example']);
    // The asset's page lists what runs on it.
    const activity = await alice.get<{ software: { name: string; version: string }[] }>(
      `/api/assets/${host.id}/activity/`,
    );
    expect(activity.body.software.map((s) => `${s.name} ${s.version}`)).toEqual(['curl 7.88.1-10']);

    // Another company's asset of the same name reaches none of these installs.
    const bobs = await bob.post<ListAnswer<Asset>>('/api/assets/check/', { search: 'ws-soft' });
    const bobInstalls = await alice.post<ListAnswer<SoftwareInstall>>('/api/software/versions/installs/check/', {
      asset_id: bobs.body.results[0]!.id,
    });
    expect(bobInstalls.body.results).toEqual([]);
  });
});

describe('ASSET_DISCOVERY=off', () => {
  it('stores the events and makes no asset of them', async () => {
    const quiet = await startTestApp({ ASSET_DISCOVERY: 'off' });
    try {
      const admin = await quiet.admin();
      const company = await buildCompany(quiet.db, 'Gamma Manual');
      const key = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'agents', company_id: company }))
        .body.key;
      const response = await fetch(`${quiet.url}/api/ingest/endpoint/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
        body: JSON.stringify({
          '@timestamp': '2026-11-20T08:00:00Z',
          host: { name: 'ws-quiet', ip: ['10.1.2.3'], os: { name: 'Windows 11' } },
          event: { action: 'process-create', code: '1' },
          process: { pid: 1, name: 'cmd.exe', executable: 'C:\\Windows\\System32\\cmd.exe' },
        }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()) as { accepted: number }).toMatchObject({ accepted: 1 });
      const assets = await admin.post<{ count: number }>('/api/assets/count/', { company_id: company });
      expect(assets.body.count).toBe(0);
      const events = await admin.post<{ count: number }>('/api/eclipse_events/count/', { company_id: company });
      expect(events.body.count).toBe(1);
    } finally {
      await quiet.close();
    }
  });

  it('makes the asset with discovery on (the default)', async () => {
    const response = await fetch(`${t.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alphaKey}`, 'content-type': 'application/x-ndjson' },
      body: JSON.stringify({
        '@timestamp': '2026-11-20T08:00:00Z',
        host: { name: 'ws-loud', ip: ['10.1.2.4'], os: { name: 'Windows 11' } },
        event: { action: 'process-create', code: '1' },
        process: { pid: 1, name: 'cmd.exe', executable: 'C:\\Windows\\System32\\cmd.exe' },
      }),
    });
    expect(response.status).toBe(200);
    const found = await alice.post<ListAnswer<Asset>>('/api/assets/check/', { search: 'ws-loud' });
    expect(found.body.results.map((a) => a.name)).toEqual(['ws-loud']);
  });
});

describe('asset lookup', () => {
  it('names the assets an alert’s addresses and hosts were, for the company in scope only', async () => {
    const server = await create(alice, { name: 'SRV-LOOKUP', ips: ['10.77.0.5'], criticality: 'critical' });
    const query = new URLSearchParams();
    query.set('company_id', String(alpha));
    for (const ip of ['10.77.0.5', '203.0.113.9']) query.append('ip', ip);
    for (const host of ['srv-lookup.alpha.example', 'nobody-here']) query.append('host', host);
    const answer = await alice.get<{ found: { value: string; kind: string; asset: { id: number } }[] }>(
      `/api/assets/lookup/?${query}`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.found).toEqual([
      {
        value: '10.77.0.5',
        kind: 'ip',
        asset: { id: server.id, name: 'SRV-LOOKUP', kind: 'other', criticality: 'critical' },
      },
      {
        value: 'srv-lookup.alpha.example',
        kind: 'host',
        asset: { id: server.id, name: 'SRV-LOOKUP', kind: 'other', criticality: 'critical' },
      },
    ]);
    // Before the address was first claimed it was nobody's.
    const before = await alice.get<{ found: unknown[] }>(
      `/api/assets/lookup/?company_id=${alpha}&ip=10.77.0.5&at=2020-01-01T00:00:00Z`,
    );
    expect(before.body.found).toEqual([]);

    const foreign = await bob.get<Errors>(`/api/assets/lookup/?company_id=${alpha}&ip=10.77.0.5`);
    expect(foreign.status).toBe(400);
    const tooMany = new URLSearchParams({ company_id: String(alpha) });
    for (let i = 0; i < 101; i += 1) tooMany.append('ip', `10.0.0.${i}`);
    expect((await alice.get(`/api/assets/lookup/?${tooMany}`)).status).toBe(400);
    expect((await alice.get(`/api/assets/lookup/?company_id=${alpha}&ip=not-an-ip`)).status).toBe(400);
  });
});

describe('discovery of a known estate', () => {
  const sighting = (at: string) =>
    JSON.stringify({
      '@timestamp': at,
      host: { name: 'ws-steady', ip: ['10.88.0.7'], os: { name: 'Windows 11' } },
      event: { action: 'process-create', code: '1' },
      process: { pid: 1, name: 'cmd.exe', executable: 'C:\\Windows\\System32\\cmd.exe' },
    });
  const send = async (at: string) => {
    const response = await fetch(`${t.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alphaKey}`, 'content-type': 'application/x-ndjson' },
      body: sighting(at),
    });
    expect(response.status).toBe(200);
  };
  const stored = async () =>
    (
      await t.db.query<{ updated_at: Date; last_seen: Date; claim_seen: Date }>(sql`
        SELECT a.updated_at, a.last_seen, h.last_seen AS claim_seen FROM assets a
        JOIN asset_ip_hosts h ON h.asset_id = a.id AND h.ip = '10.88.0.7'::inet
        WHERE a.company_id = ${alpha} AND a.name = 'ws-steady'`)
    ).rows[0]!;

  it('writes nothing for a sighting within five minutes of the last, and moves last seen after that', async () => {
    await send('2026-11-20T10:00:00Z');
    const first = await stored();
    expect(first.last_seen.toISOString()).toBe('2026-11-20T10:00:00.000Z');

    await send('2026-11-20T10:04:00Z');
    const soon = await stored();
    expect(soon.updated_at).toEqual(first.updated_at);
    expect(soon.last_seen.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(soon.claim_seen.toISOString()).toBe('2026-11-20T10:00:00.000Z');

    await send('2026-11-20T10:06:00Z');
    const later = await stored();
    expect(later.last_seen.toISOString()).toBe('2026-11-20T10:06:00.000Z');
    expect(later.claim_seen.toISOString()).toBe('2026-11-20T10:06:00.000Z');

    // An earlier sighting always counts: first seen moves back.
    await send('2026-11-20T09:59:00Z');
    const earlier = await t.db.query<{ first_seen: Date }>(
      sql`SELECT first_seen FROM assets WHERE company_id = ${alpha} AND name = 'ws-steady'`,
    );
    expect(earlier.rows[0]!.first_seen.toISOString()).toBe('2026-11-20T09:59:00.000Z');
  });
});
