import type {
  Asset,
  IngestAnswer,
  IngestTokenCreated,
  ListAnswer,
  SoftwareInstall,
  SoftwareProduct,
  SoftwareVersion,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Software from endpoints: inventory lines of each format (ECS package documents, osquery programs,
 * deb_packages, rpm_packages and apps results) and the products of process images, on the endpoint
 * ingest stream beside events; products, versions and the hosts of a version, per company.
 */

let t: TestApp;
let alpha: number;
let analyst: TestClient;
let other: TestClient;
let alphaKey: string;

const view = [
  { basename: 'software', actions: ['view'] },
  { basename: 'software/versions', actions: ['view'] },
  { basename: 'eclipse_events', actions: ['view'] },
  { basename: 'assets', actions: ['view'] },
];

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  const beta = await buildCompany(t.db, 'Beta Retail');
  await buildUser(t.db, { username: 'sofia', companyId: alpha, permissions: view });
  await buildUser(t.db, { username: 'bruno', companyId: beta, permissions: view });
  analyst = t.client();
  await analyst.signIn('sofia', 'User-password-1');
  other = t.client();
  await other.signIn('bruno', 'User-password-1');
  const admin = await t.admin();
  alphaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'agents', company_id: alpha })).body
    .key;
});
afterAll(async () => {
  await t?.close();
});

async function ingest(lines: readonly (object | string)[], idempotencyKey?: string) {
  const response = await fetch(`${t.url}/api/ingest/endpoint/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${alphaKey}`,
      'content-type': 'application/x-ndjson',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'),
  });
  return { status: response.status, body: (await response.json()) as IngestAnswer & Errors };
}

const osquery = (name: string, host: string, columns: object, action = 'added') => ({
  name,
  hostIdentifier: host,
  calendarTime: 'Fri Nov 20 08:00:00 2026 UTC',
  unixTime: 1_795_161_600,
  epoch: 0,
  counter: 1,
  numerics: false,
  decorations: { host_uuid: 'x' },
  columns,
  action,
});

const inventory = [
  {
    '@timestamp': '2026-11-20T08:00:00Z',
    host: { name: 'ws-01', os: { family: 'debian' } },
    event: { dataset: 'system.package', action: 'existing_package', category: ['package'], kind: 'state' },
    package: { name: 'openssl', version: '3.0.2-0ubuntu1.10', type: 'deb', installed: '2026-01-05T10:00:00Z' },
  },
  osquery('pack_inventory_programs', 'WS-02', {
    name: '7-Zip 23.01 (x64)',
    version: '23.01',
    publisher: 'Igor Pavlov',
  }),
  osquery('pack_inventory_programs', 'WS-03', {
    name: '7-Zip 23.01 (x64)',
    version: '23.01',
    publisher: 'Igor Pavlov',
  }),
  osquery('deb_packages', 'ws-01', {
    name: 'bash',
    version: '5.1-6ubuntu1',
    maintainer: 'Ubuntu Developers <ubuntu-devel-discuss@lists.ubuntu.com>',
    arch: 'amd64',
  }),
  osquery('rpm_packages', 'db-01', {
    name: 'bash',
    version: '5.1.8',
    release: '6.el9',
    vendor: 'Red Hat, Inc.',
    arch: 'x86_64',
  }),
  osquery('apps', 'mac-01', {
    name: 'Slack.app',
    bundle_short_version: '4.41.97',
    bundle_identifier: 'com.tinyspeck.slackmacgap',
  }),
];

const sysmonProcess = {
  SourceName: 'Microsoft-Windows-Sysmon',
  Channel: 'Microsoft-Windows-Sysmon/Operational',
  Hostname: 'WS-02',
  EventID: 1,
  TimeCreated: '2026-11-20 09:00:00.000',
  ProcessGuid: '{39e4a257-9c59-5f8c-6f0a-000000000700}',
  ProcessId: '4242',
  Image: 'C:\\Program Files\\Mozilla Firefox\\firefox.exe',
  FileVersion: '120.0.1 (x64)',
  Description: 'Firefox',
  Product: 'Firefox',
  Company: 'Mozilla Corporation',
  CommandLine: '"C:\\Program Files\\Mozilla Firefox\\firefox.exe"',
  User: 'ALPHA\\anna',
};

async function products(filters: object = {}) {
  const answer = await analyst.post<ListAnswer<SoftwareProduct>>('/api/software/check/', filters);
  expect(answer.status).toBe(200);
  return answer.body.results;
}

describe('software from endpoint inventories', () => {
  it('reads each inventory format and process images beside events, refusing bad lines one by one', async () => {
    const answer = await ingest([
      ...inventory,
      sysmonProcess,
      '\u0000\u00ff\u00fe not json',
      osquery('processes', 'ws-01', { pid: '1', name: 'init' }),
      { host: { name: 'ws-01' }, package: { version: '1' } },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(inventory.length + 1);
    expect(answer.body.rejected.map((r) => r.line)).toEqual([8, 9, 10]);
    expect(answer.body.rejected[1]!.reason).toContain('not a software inventory');
    expect(answer.body.rejected[2]!.reason).toContain('names no package');
    // The process event is stored as an event; the inventory lines are not.
    const events = await analyst.post<{ count: number }>('/api/eclipse_events/count/', {});
    expect(events.body.count).toBe(1);

    const found = await products();
    expect(found.map((p) => [p.vendor, p.name, p.install_count, p.version_count])).toEqual([
      ['Igor Pavlov', '7-Zip 23.01 (x64)', 2, 1],
      ['Red Hat, Inc.', 'bash', 1, 1],
      ['Ubuntu Developers', 'bash', 1, 1],
      ['Mozilla Corporation', 'Firefox', 1, 1],
      ['', 'openssl', 1, 1],
      ['', 'Slack.app', 1, 1],
    ]);
    const openssl = found.find((p) => p.name === 'openssl')!;
    expect(openssl.first_seen).toBe('2026-01-05T10:00:00.000Z');

    const versions = await analyst.post<ListAnswer<SoftwareVersion>>('/api/software/versions/check/', {});
    expect(versions.body.results.map((v) => `${v.name} ${v.version} ${v.asset_count}`).sort()).toEqual(
      [
        '7-Zip 23.01 (x64) 23.01 2',
        'bash 5.1-6ubuntu1 1',
        'bash 5.1.8-6.el9 1',
        'Firefox 120.0.1 1',
        'openssl 3.0.2-0ubuntu1.10 1',
        'Slack.app 4.41.97 1',
      ].sort(),
    );
    const sevenZip = versions.body.results.find((v) => v.name.startsWith('7-Zip'))!;
    const hosts = await analyst.post<ListAnswer<SoftwareInstall>>('/api/software/versions/installs/check/', {
      version_id: sevenZip.id,
    });
    // WS-02 ran a process (the Sysmon event above), so it is an asset; WS-03 only sent an inventory.
    const [ws02] = (await analyst.post<ListAnswer<Asset>>('/api/assets/check/', { search: 'WS-02' })).body.results;
    expect(hosts.body.results.map((i) => [i.host_name, i.source, i.asset_id])).toEqual([
      ['WS-02', 'osquery_programs', ws02!.id],
      ['WS-03', 'osquery_programs', null],
    ]);
    const firefox = await analyst.post<ListAnswer<SoftwareInstall>>('/api/software/versions/installs/check/', {
      host_name: 'ws-02',
      search: 'WS',
    });
    expect(firefox.body.results.map((i) => i.source).sort()).toEqual(['osquery_programs', 'process']);
  });

  it('changes nothing when the same inventory comes again, and follows removals', async () => {
    const before = await products();
    const again = await ingest([...inventory, sysmonProcess]);
    expect(again.status).toBe(200);
    expect(await products()).toEqual(before);

    const removed = await ingest([
      {
        ...osquery(
          'pack_inventory_programs',
          'WS-03',
          { name: '7-Zip 23.01 (x64)', version: '23.01', publisher: 'Igor Pavlov' },
          'removed',
        ),
        unixTime: 1_795_165_200,
      },
    ]);
    expect(removed.body.accepted).toBe(1);
    const sevenZip = (await products({ name: '7-zip' }))[0]!;
    expect(sevenZip.install_count).toBe(1);
    const gone = await analyst.post<ListAnswer<SoftwareInstall>>('/api/software/versions/installs/check/', {
      product_id: sevenZip.id,
      removed: true,
    });
    expect(gone.body.results.map((i) => [i.host_name, i.removed_at])).toEqual([['WS-03', '2026-11-20T09:00:00.000Z']]);
    const count = await analyst.post<{ count: number }>('/api/software/versions/installs/count/', {
      product_id: sevenZip.id,
    });
    expect(count.body.count).toBe(1);
  });

  it('answers a batch of nothing but bad inventory lines with 400 and every line’s reason', async () => {
    const answer = await ingest([
      osquery('programs', '', { name: 'x' }),
      { package: { name: 'x' } },
      Buffer.from([0xde, 0xad, 0xbe, 0xef]).toString('latin1'),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.accepted).toBe(0);
    expect(answer.body.rejected).toHaveLength(3);
  });

  it('filters products and versions, reads one of each, and keeps them to their company', async () => {
    expect((await products({ vendor: 'red hat' })).map((p) => p.name)).toEqual(['bash']);
    expect((await products({ search: 'SLACK' })).map((p) => p.name)).toEqual(['Slack.app']);
    expect(await products({ first_seen_from: '2026-11-01T00:00:00Z' })).toHaveLength(5);
    expect(await products({ first_seen_from: '2027-01-01T00:00:00Z' })).toHaveLength(0);
    const newest = await analyst.post<ListAnswer<SoftwareProduct>>('/api/software/check/?ordering=first_seen', {});
    expect(newest.body.results[0]!.name).toBe('openssl');
    const counted = await analyst.post<{ count: number }>('/api/software/count/', { name: 'bash' });
    expect(counted.body.count).toBe(2);
    const bash = await products({ name: 'bash', vendor: 'ubuntu' });
    const product = await analyst.get<SoftwareProduct>(`/api/software/${bash[0]!.id}/`);
    expect(product.body).toMatchObject({ name: 'bash', vendor: 'Ubuntu Developers', company_id: alpha });
    const versions = await analyst.post<ListAnswer<SoftwareVersion>>('/api/software/versions/check/', {
      product_id: bash[0]!.id,
    });
    expect(versions.body.results.map((v) => v.version)).toEqual(['5.1-6ubuntu1']);
    const version = await analyst.get<SoftwareVersion>(`/api/software/versions/${versions.body.results[0]!.id}/`);
    expect(version.body.asset_count).toBe(1);
    const versionCount = await analyst.post<{ count: number }>('/api/software/versions/count/', { version: '23.01' });
    expect(versionCount.body.count).toBe(1);

    expect((await other.post<ListAnswer<SoftwareProduct>>('/api/software/check/', {})).body.results).toEqual([]);
    expect((await other.post<ListAnswer<SoftwareVersion>>('/api/software/versions/check/', {})).body.results).toEqual(
      [],
    );
    const theirInstalls = await other.post<{ count: number }>('/api/software/versions/installs/count/', {});
    expect(theirInstalls.body.count).toBe(0);
    expect((await other.get(`/api/software/${bash[0]!.id}/`)).status).toBe(404);
    expect((await other.get(`/api/software/versions/${versions.body.results[0]!.id}/`)).status).toBe(404);
  });

  it('refuses bad filters with field errors', async () => {
    const nul = await analyst.post<Errors>('/api/software/check/', { name: 'a\u0000b' });
    expect(nul.status).toBe(400);
    const date = await analyst.post<Errors>('/api/software/check/', { first_seen_from: 'yesterday' });
    expect(date.status).toBe(400);
    expect(date.body.errors.first_seen_from).toBeDefined();
    const unknown = await analyst.post<Errors>('/api/software/versions/check/', { colour: 'red' });
    expect(unknown.status).toBe(400);
  });
});
