import type { SearchAnswer, SearchHistogram, SearchHit, SearchValuesAnswer } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { fieldColumns } from '../src/modules/search/search-sql';
import { searchValues } from '../src/modules/search/search.repository';
import { buildDetection, raise } from './helpers/alert-factories';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * The search API end to end: real events ingested through the ingest API (network EVE, endpoint ECS,
 * mail as RFC 822) and alerts raised by the pipeline, searched with the query language by callers of
 * different companies and permissions.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let gamma: number;
let analyst: TestClient;
let betaAnalyst: TestClient;
let staff: TestClient;
let networkOnly: TestClient;
let admin: TestClient;

const CLIENT = '10.20.1.15';
const SERVER = '203.0.113.45';
const SHA = 'f7c237a49b96fd77c047910e13f24aac4678a0f94babdb06643dba63f38d48e5';
const FROM = '2026-11-01T00:00:00Z';
/** Mail is timed when it arrives, and one event is minutes old: the range reaches past now. */
const TO = new Date(Date.now() + 3_600_000).toISOString();
const RECENT = new Date(Date.now() - 10 * 60_000).toISOString();

const everything = ['alerts', 'network', 'eclipse_events', 'mailing'].map((basename) => ({
  basename,
  actions: ['view'],
}));
const searchPermission = { basename: 'search', actions: ['view'] };

const networkRecords = [
  {
    timestamp: '2026-11-20T10:00:01.000000+0000',
    event_type: 'dns',
    src_ip: CLIENT,
    src_port: 53533,
    dest_ip: '10.20.0.53',
    dest_port: 53,
    proto: 'UDP',
    dns: { type: 'query', rrname: 'c2.Example.org', rrtype: 'A' },
  },
  {
    timestamp: '2026-11-20T10:00:02.000000+0000',
    event_type: 'tls',
    src_ip: CLIENT,
    src_port: 51514,
    dest_ip: '198.51.100.7',
    dest_port: 443,
    proto: 'TCP',
    tls: { sni: 'c2.example.org', version: 'TLS 1.3' },
  },
  {
    timestamp: '2026-11-20T10:00:03.000000+0000',
    event_type: 'http',
    src_ip: CLIENT,
    src_port: 49800,
    dest_ip: SERVER,
    dest_port: 80,
    proto: 'TCP',
    app_proto: 'http',
    http: { hostname: 'Update.Example-CDN.net', url: '/api/v2/check?id=77', http_method: 'GET', status: 200 },
  },
  {
    timestamp: '2026-11-20T10:00:04.000000+0000',
    event_type: 'flow',
    src_ip: '2001:db8::15',
    src_port: 50000,
    dest_ip: '2001:db8:ffff::1',
    dest_port: 8443,
    proto: 'TCP',
    flow: { pkts_toserver: 1, pkts_toclient: 1, bytes_toserver: 60, bytes_toclient: 60 },
  },
  {
    timestamp: '2026-11-20T10:00:05.000000+0000',
    event_type: 'fileinfo',
    src_ip: SERVER,
    src_port: 80,
    dest_ip: CLIENT,
    dest_port: 49800,
    proto: 'TCP',
    app_proto: 'http',
    fileinfo: { filename: 'payload.bin', sha256: SHA, size: 10, state: 'CLOSED', stored: true },
  },
  {
    timestamp: '2026-11-20T10:00:06.000000+0000',
    event_type: 'smtp',
    src_ip: '198.51.100.9',
    src_port: 40522,
    dest_ip: '10.20.0.25',
    dest_port: 25,
    proto: 'TCP',
    smtp: {
      helo: 'mail.example.net',
      mail_from: '<billing@example.net>',
      rcpt_to: ['<ap@example.com>', '<CFO@example.com>'],
    },
  },
  {
    timestamp: RECENT,
    event_type: 'flow',
    src_ip: CLIENT,
    src_port: 40001,
    dest_ip: '192.0.2.10',
    dest_port: 22,
    proto: 'TCP',
    flow: { pkts_toserver: 1, pkts_toclient: 1, bytes_toserver: 60, bytes_toclient: 60 },
  },
];

const endpointRecords = [
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
      command_line: 'powershell.exe -NoP -W Hidden -enc SQBFAFgA',
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

function message(options: { from: string; to: string; subject: string; body: string; id: string }): Buffer {
  return Buffer.from(
    [
      `From: ${options.from}`,
      `To: ${options.to}`,
      `Subject: ${options.subject}`,
      'Date: Fri, 20 Nov 2026 08:00:00 +0000',
      `Message-ID: <${options.id}@mail.example.net>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      options.body,
      '',
    ].join('\r\n'),
  );
}

async function ingest(kind: 'network' | 'endpoint', key: string, records: readonly object[]) {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  const body = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.rejected).toEqual([]);
}

async function ingestMail(key: string, body: Buffer): Promise<void> {
  const response = await fetch(`${t.url}/api/ingest/mail/`, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${key}` },
    body,
  });
  expect(await response.json()).toMatchObject({ accepted: 1, rejected: [] });
}

type Kind = 'network' | 'endpoint' | 'mail' | 'alerts';
interface Search {
  kinds: Kind[];
  query?: string;
  from?: string;
  to?: string;
  company_id?: number | number[];
}
const bodyOf = (search: Search) => ({ from: FROM, to: TO, query: '', ...search });

function run(client: TestClient, search: Search, paging = '') {
  return client.post<SearchAnswer & Errors & { detail?: string }>(`/api/search/run/${paging}`, bodyOf(search));
}

/** The hits of a search that must succeed, all on one page. */
async function hits(client: TestClient, search: Search): Promise<SearchHit[]> {
  const answer = await run(client, search, '?page_size=500');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.count).toBe(answer.body.results.length);
  return answer.body.results;
}

/** How many hits a search finds. */
async function count(client: TestClient, kinds: Kind[], query: string): Promise<number> {
  return (await hits(client, { kinds, query })).length;
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  gamma = await buildCompany(t.db, 'Gamma Logistics');
  const provider = (await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!
    .id;
  const permissions = [searchPermission, ...everything];
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions });
  await buildUser(t.db, { username: 'bob', companyId: beta, permissions });
  await buildUser(t.db, { username: 'sam', companyId: provider, permissions, extraCompanies: [alpha, beta] });
  await buildUser(t.db, {
    username: 'nora',
    companyId: alpha,
    permissions: [searchPermission, { basename: 'network', actions: ['view'] }],
  });
  admin = await t.admin();
  analyst = await t.signedIn('alice');
  betaAnalyst = await t.signedIn('bob');
  staff = await t.signedIn('sam');
  networkOnly = await t.signedIn('nora');

  const alphaKey = await t.ingestToken(admin, alpha);
  const betaKey = await t.ingestToken(admin, beta);
  const gammaKey = await t.ingestToken(admin, gamma);
  await ingest('network', alphaKey, networkRecords);
  await ingest('endpoint', alphaKey, endpointRecords);
  // Beta and gamma have look-alike events: none of them may show in alpha's searches.
  await ingest('network', betaKey, [networkRecords[0]!, networkRecords[2]!]);
  await ingest('endpoint', betaKey, [endpointRecords[1]!]);
  await ingest('endpoint', gammaKey, [endpointRecords[0]!]);
  await ingest('network', gammaKey, [
    {
      timestamp: '2026-11-20T08:00:00.000000+0000',
      event_type: 'dhcp',
      src_ip: '10.30.0.1',
      src_port: 67,
      dest_ip: '10.30.0.77',
      dest_port: 68,
      proto: 'UDP',
      dhcp: { type: 'reply', client_mac: 'aa:bb:cc:dd:ee:0f', assigned_ip: '10.30.0.77', hostname: 'kiosk-3' },
    },
    {
      timestamp: '2026-11-20T08:00:01.000000+0000',
      event_type: 'tls',
      src_ip: '10.30.0.77',
      src_port: 50001,
      dest_ip: '198.51.100.80',
      dest_port: 443,
      proto: 'TCP',
      tls: { sni: 'portal.example.net', version: 'TLS 1.2', serial: '0A:1B:2C:3D' },
    },
  ]);
  await ingestMail(
    alphaKey,
    message({
      from: '"Vendor Billing" <billing@Example-Vendor.com>',
      to: 'J.Doe@corp.example, finance@corp.example',
      subject: 'Invoice 50% overdue',
      body: 'Pay at https://pay.example-vendor.com/inv/77 today.',
      id: 'invoice-77',
    }),
  );
  await ingestMail(
    alphaKey,
    message({
      from: 'colleague@corp.example',
      to: 'j.doe@corp.example',
      subject: 'Lunch on Friday',
      body: 'Pizza?',
      id: 'lunch-1',
    }),
  );
  await ingestMail(
    betaKey,
    message({
      from: 'billing@example-vendor.com',
      to: 'ap@beta.example',
      subject: 'Invoice 51',
      body: 'Pay.',
      id: 'b-51',
    }),
  );
  await raise(t.db, [
    buildDetection(alpha, {
      title: 'Suspicious PowerShell',
      severity: 'high',
      host: 'WS-FIN-07',
      at: new Date('2026-11-20T09:05:30Z'),
    }),
    buildDetection(alpha, { ip: CLIENT, at: new Date('2026-11-20T10:00:03Z') }),
    buildDetection(beta, { title: 'Suspicious PowerShell', severity: 'high', at: new Date('2026-11-20T09:05:30Z') }),
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('POST /api/search/run/', () => {
  it('finds each kind alone, only of the caller’s company', async () => {
    const counts = { network: 7, endpoint: 4, mail: 2, alerts: 2 } as const;
    for (const [kind, expected] of Object.entries(counts) as [Kind, number][]) {
      const found = await hits(analyst, { kinds: [kind] });
      expect(found, kind).toHaveLength(expected);
      expect(new Set(found.map((h) => h.kind))).toEqual(new Set([kind]));
      expect(new Set(found.map((h) => h.company_id))).toEqual(new Set([alpha]));
    }
    const [mail] = await hits(analyst, { kinds: ['mail'], query: 'subject: invoice' });
    expect(mail!.event).toMatchObject({ subject: 'Invoice 50% overdue' });
    // Bodies stay on the mail's own page, as in the mail list.
    expect(mail!.event).not.toHaveProperty('text');
    const [alert] = await hits(analyst, { kinds: ['alerts'], query: 'severity: HIGH' });
    expect(alert!.event).toMatchObject({ title: 'Suspicious PowerShell', severity: 'high', status: 'new' });
    expect(alert!.ts).toBe('2026-11-20T09:05:30.000Z');
  });

  it('merges several kinds by time, then kind, then id, and counts them all', async () => {
    const kinds: Kind[] = ['network', 'endpoint', 'mail', 'alerts'];
    const newest = await hits(analyst, { kinds });
    expect(newest).toHaveLength(15);
    const key = (h: SearchHit) => [h.ts, h.kind, String(h.id).padStart(20, '0')].join(' ');
    const keys = newest.map(key);
    expect(keys).toEqual([...keys].sort().reverse());
    const oldest = await run(analyst, { kinds }, '?page_size=500&ordering=ts');
    expect(oldest.body.results.map(key)).toEqual([...keys].reverse());
    // Only fields every kind has: `ts` is one of them.
    expect(await count(analyst, kinds, 'ts < 2026-11-20T09:06:00Z')).toBe(3);
  });

  it('compares keywords whatever the case, and matches wildcards with % and _ as plain characters', async () => {
    expect(await count(analyst, ['endpoint'], 'host_name: ws-fin-07')).toBe(3);
    expect(await count(analyst, ['endpoint'], 'process_name: POWERSHELL.EXE')).toBe(2);
    expect(await count(analyst, ['endpoint'], 'host_name: ws-*')).toBe(4);
    expect(await count(analyst, ['endpoint'], 'host_name: ws-fin-0?')).toBe(3);
    expect(await count(analyst, ['endpoint'], 'host_name: ws-fin')).toBe(0);
    expect(await count(analyst, ['endpoint'], 'user_name: j%')).toBe(0);
    expect(await count(analyst, ['endpoint'], 'user_name: j_oe')).toBe(0);
    expect(await count(analyst, ['mail'], 'subject: "50%"')).toBe(1);
    expect(await count(analyst, ['mail'], 'subject: "5_%"')).toBe(0);
    expect(await count(analyst, ['mail'], 'sender: BILLING@example-vendor.com')).toBe(1);
    // Kept in a normal form by the pipeline, and looked for in it (gamma's own events).
    const gammaNetwork = async (query: string) =>
      (await hits(admin, { kinds: ['network'], query, company_id: gamma })).length;
    expect(await gammaNetwork('dhcp_mac: AA-BB-CC-DD-EE-0F')).toBe(1);
    expect(await gammaNetwork('tls_serial: "0A:1B:2C:3D"')).toBe(1);
    expect(await gammaNetwork('tls_serial: 0a1b2c3d')).toBe(1);
  });

  it('finds text contained, and free text in the kind’s free-text fields', async () => {
    expect(await count(analyst, ['endpoint'], 'command_line: "-W hidden"')).toBe(1);
    expect(await count(analyst, ['endpoint'], 'powershell')).toBe(2);
    expect(await count(analyst, ['network'], 'example-cdn')).toBe(1);
    expect(await count(analyst, ['mail'], 'invoice')).toBe(1);
    expect(await count(analyst, ['mail'], 'FINANCE@corp')).toBe(1);
    expect(await count(analyst, ['alerts'], 'powershell')).toBe(1);
  });

  it('matches addresses, CIDR blocks and IPv6, and compares addresses', async () => {
    expect(await count(analyst, ['network'], `src_ip: ${CLIENT}`)).toBe(4);
    expect(await count(analyst, ['network'], 'src_ip: 10.20.0.0/16')).toBe(4);
    expect(await count(analyst, ['network'], 'ip: 10.20.0.0/16')).toBe(6);
    expect(await count(analyst, ['network'], 'ip: 2001:db8::/32')).toBe(1);
    expect(await count(analyst, ['network'], 'dest_ip: 2001:db8:ffff::1')).toBe(1);
    expect(await count(analyst, ['network'], 'dest_ip: [198.51.100.0 to 203.0.113.45]')).toBe(2);
    expect(await count(analyst, ['network', 'endpoint'], `dest_ip: ${SERVER}`)).toBe(2);
  });

  it('compares and ranges numbers, ends included and either open', async () => {
    expect(await count(analyst, ['network'], 'dest_port >= 443')).toBe(3);
    expect(await count(analyst, ['network'], 'dest_port: [53 to 443]')).toBe(3);
    expect(await count(analyst, ['network'], 'dest_port: [* to 25]')).toBe(2);
    expect(await count(analyst, ['network'], 'dest_port: (22 or 25)')).toBe(2);
    expect(await count(analyst, ['endpoint'], 'process_pid: 7312')).toBe(2);
    expect(await count(analyst, ['endpoint'], 'process_pid < 99999999999999999999999')).toBe(2);
    expect(await count(analyst, ['network'], 'dest_port: 443.5')).toBe(0);
    expect(await count(analyst, ['alerts'], 'score > -1')).toBe(2);
  });

  it('reads times, relative ones from now', async () => {
    expect(await count(analyst, ['network'], 'ts > now-1h')).toBe(1);
    expect(await count(analyst, ['network'], 'ts: [2026-11-20T10:00:02Z to 2026-11-20T10:00:04Z]')).toBe(3);
    expect(await count(analyst, ['endpoint'], 'ts: 2026-11-20T09:05:00Z')).toBe(1);
    expect(await count(analyst, ['endpoint'], 'ts: 2026-11-20')).toBe(0);
    expect(await count(analyst, ['endpoint'], 'ts: [2026-11-20 to 2026-11-21]')).toBe(4);
    expect(await count(analyst, ['alerts'], 'last_seen < now-1d')).toBe(2);
  });

  it('matches booleans, many-valued fields and fields that have a value', async () => {
    expect(await count(analyst, ['network'], 'file_stored: true')).toBe(1);
    expect(await count(analyst, ['network'], 'file_stored: false')).toBe(0);
    expect(await count(analyst, ['network'], 'smtp_rcpt_to: "<cfo@example.com>"')).toBe(1);
    expect(await count(analyst, ['network'], 'smtp_rcpt_to: *cfo*')).toBe(1);
    expect(await count(analyst, ['mail'], 'recipient: J.DOE@corp.example')).toBe(2);
    expect(await count(analyst, ['alerts'], 'mitre: t1071')).toBe(2);
    expect(await count(analyst, ['network'], 'tls_sni: *')).toBe(1);
    expect(await count(analyst, ['network'], 'smtp_rcpt_to: *')).toBe(1);
    expect(await count(analyst, ['endpoint'], 'process_name: *')).toBe(2);
    expect(await count(analyst, ['alerts'], 'tags: *')).toBe(0);
  });

  it('keeps the rows without the field under NOT, and combines with AND and OR', async () => {
    expect(await count(analyst, ['endpoint'], 'not process_name: powershell.exe')).toBe(2);
    expect(await count(analyst, ['network'], 'not dest_port: 443')).toBe(6);
    expect(await count(analyst, ['network'], 'not tls_sni: *')).toBe(6);
    expect(await count(analyst, ['network'], 'not ip: 10.20.0.0/16')).toBe(1);
    expect(await count(analyst, ['endpoint'], 'host_name: ws-fin-07 and not process_name: *')).toBe(1);
    expect(await count(analyst, ['network'], 'event_type: dns or (event_type: tls and dest_port: 443)')).toBe(2);
    expect(await count(analyst, ['network'], 'dest_port: (not 443 and not 80)')).toBe(5);
  });

  it('keeps each caller to its companies; provider staff sees several and may narrow to some', async () => {
    const alphaOnly = await hits(analyst, { kinds: ['endpoint'], query: 'process_name: powershell.exe' });
    expect(alphaOnly.map((h) => h.company_id)).toEqual([alpha, alpha]);
    const betaOnly = await hits(betaAnalyst, { kinds: ['endpoint', 'network', 'mail', 'alerts'] });
    expect(new Set(betaOnly.map((h) => h.company_id))).toEqual(new Set([beta]));
    expect(betaOnly).toHaveLength(5);

    const both = await hits(staff, { kinds: ['endpoint'], query: 'process_name: powershell.exe' });
    expect(both.map((h) => h.company_id).sort()).toEqual([alpha, alpha, beta].sort());
    const narrowed = await hits(staff, {
      kinds: ['endpoint'],
      query: 'process_name: powershell.exe',
      company_id: beta,
    });
    expect(narrowed.map((h) => h.company_id)).toEqual([beta]);
    expect(await hits(staff, { kinds: ['endpoint'], company_id: [alpha, beta] })).toHaveLength(5);

    // Gamma is outside sam's companies, beta outside alice's: refused, never searched.
    for (const [client, company] of [
      [staff, gamma],
      [analyst, beta],
    ] as const) {
      const refused = await run(client, { kinds: ['endpoint'], company_id: [company] });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.company_id).toEqual([`No company with id ${company}.`]);
    }
  });

  it('takes injection attempts as plain values, and as field names answers unknown field', async () => {
    for (const value of ["'; DROP TABLE alerts; --", '\\" OR 1=1 --']) {
      for (const kinds of [['endpoint'], ['mail'], ['alerts'], ['network']] as Kind[][]) {
        const found = await hits(analyst, { kinds, query: `"${value}"` });
        expect(found, `${kinds[0]} ${value}`).toEqual([]);
      }
      expect(await count(analyst, ['endpoint'], `host_name: "${value}"`)).toBe(0);
      expect(await count(analyst, ['endpoint'], `command_line: "${value}"`)).toBe(0);
    }
    expect(await count(analyst, ['endpoint'], "user_name: jdoe' OR 'x'='x")).toBe(0);
    const { rows } = await t.db.query<{ n: string }>(sql`SELECT count(*)::int8 AS n FROM alerts`);
    expect(Number(rows[0]!.n)).toBe(3);

    for (const name of ['pg_sleep', 'e.company_id', 'company_id', 'constructor', '__proto__']) {
      const answer = await run(analyst, { kinds: ['endpoint'], query: `${name}: 1` });
      expect(answer.status, name).toBe(400);
      expect(answer.body.errors.query![0], name).toMatch(/^At position 1: unknown field/);
    }
  });

  it('answers 400 with the 1-based position of a query it cannot read', async () => {
    const bad = async (kinds: Kind[], query: string) => {
      const answer = await run(analyst, { kinds, query });
      expect(answer.status, query).toBe(400);
      return answer.body.errors.query![0]!;
    };
    expect(await bad(['network'], 'dest_port: eighty')).toMatch(/^At position 12: /);
    expect(await bad(['network'], 'event_type: dns and (dest_port: 53')).toMatch(/^At position 35: /);
    expect(await bad(['network'], 'src_ip: 10.0.0.*')).toMatch(/^At position 9: wildcards are not allowed/);
    expect(await bad(['network', 'endpoint'], 'event_type: dns')).toMatch(/^At position 1: .*network/);
    const nul = await run(analyst, { kinds: ['network'], query: 'dns\u0000' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors.query![0]).toContain('NUL');
    const range = await run(analyst, { kinds: ['network'], from: TO, to: FROM });
    expect(range.status).toBe(400);
    expect(range.body.errors).toHaveProperty('to');
  });

  it('answers 403 naming the kinds the caller may not view', async () => {
    expect((await run(networkOnly, { kinds: ['network'] })).status).toBe(200);
    const refused = await run(networkOnly, { kinds: ['network', 'mail', 'alerts'] });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('mail, alerts');
  });

  it('pages through the results with next and previous, without gaps or repeats', async () => {
    const search: Search = { kinds: ['network', 'endpoint', 'mail', 'alerts'] };
    const all = await hits(analyst, search);
    const walked: SearchHit[] = [];
    let answer = await run(analyst, search, '?page_size=4');
    expect(answer.body.previous).toBeNull();
    const pages: SearchAnswer[] = [];
    for (;;) {
      expect(answer.status).toBe(200);
      expect(answer.body.count).toBe(all.length);
      pages.push(answer.body);
      walked.push(...answer.body.results);
      if (answer.body.next === null) break;
      answer = await analyst.post<SearchAnswer & Errors & { detail?: string }>(answer.body.next, bodyOf(search));
    }
    expect(pages).toHaveLength(4);
    expect(walked.map((h) => `${h.kind}:${h.id}`)).toEqual(all.map((h) => `${h.kind}:${h.id}`));
    const back = await analyst.post<SearchAnswer>(pages[2]!.previous!, bodyOf(search));
    expect(back.body.results).toEqual(pages[1]!.results);
    const past = await run(analyst, search, '?page_size=4&page=5');
    expect(past.status).toBe(400);
    expect(past.body.errors.page![0]).toContain('there are 4 pages');
  });
});

describe('POST /api/search/histogram/', () => {
  it('counts the same hits as the search, per bucket and per kind, every bucket present', async () => {
    const histogram = (search: Search) =>
      analyst.post<SearchHistogram & Errors>('/api/search/histogram/', bodyOf(search));
    for (const search of [
      { kinds: ['network', 'endpoint', 'mail', 'alerts'] },
      { kinds: ['network', 'endpoint'], query: 'dest_ip: 203.0.113.0/24' },
      { kinds: ['alerts'], query: 'not severity: high' },
    ] as Search[]) {
      const answer = await histogram(search);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const { buckets, interval_seconds: width } = answer.body;
      expect(buckets.length).toBeLessThanOrEqual(120);
      buckets.forEach((bucket, i) => {
        if (i > 0) expect(Date.parse(bucket.start) - Date.parse(buckets[i - 1]!.start)).toBe(width * 1000);
        expect(Object.values(bucket.by_kind).reduce((a, b) => a + b, 0)).toBe(bucket.count);
      });
      expect(Date.parse(buckets[0]!.start)).toBeLessThanOrEqual(Date.parse(FROM));
      expect(Date.parse(buckets.at(-1)!.start) + width * 1000).toBeGreaterThan(Date.parse(TO));
      const found = await hits(analyst, search);
      expect(buckets.reduce((sum, b) => sum + b.count, 0)).toBe(found.length);
      for (const kind of search.kinds) {
        const perKind = buckets.reduce((sum, b) => sum + b.by_kind[kind], 0);
        expect(perKind, kind).toBe(found.filter((h) => h.kind === kind).length);
      }
    }

    const minutes = await histogram({
      kinds: ['network'],
      from: '2026-11-20T10:00:00Z',
      to: '2026-11-20T10:01:00Z',
    });
    expect(minutes.body.interval_seconds).toBe(1);
    expect(minutes.body.buckets).toHaveLength(61);
    expect(minutes.body.buckets.filter((b) => b.count > 0).map((b) => b.start)).toEqual(
      [1, 2, 3, 4, 5, 6].map((s) => `2026-11-20T10:00:0${s}.000Z`),
    );
    const refused = await networkOnly.post<{ detail: string }>('/api/search/histogram/', bodyOf({ kinds: ['mail'] }));
    expect(refused.status).toBe(403);
  });
});

describe('POST /api/search/values/', () => {
  const values = (client: TestClient, body: object) =>
    client.post<SearchValuesAnswer & Errors & { detail?: string }>('/api/search/values/', body);
  /** The values of a field over the whole test range, which must be answered. */
  async function known(client: TestClient, kind: Kind, field: string, prefix = '') {
    const answer = await values(client, { kind, field, prefix, from: FROM, to: TO });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.values;
  }

  it('counts the values of a field in the caller’s companies only, most frequent first', async () => {
    expect(await known(analyst, 'endpoint', 'host_name')).toEqual([
      { value: 'WS-FIN-07', count: 3 },
      { value: 'WS-HR-02', count: 1 },
    ]);
    expect(await known(betaAnalyst, 'endpoint', 'host_name')).toEqual([{ value: 'WS-FIN-07', count: 1 }]);
    // Staff of alpha and beta see both, never gamma's.
    expect(await known(staff, 'endpoint', 'host_name')).toEqual([
      { value: 'WS-FIN-07', count: 4 },
      { value: 'WS-HR-02', count: 1 },
    ]);
    expect(await known(analyst, 'network', 'event_type')).toEqual([
      { value: 'flow', count: 2 },
      ...['dns', 'fileinfo', 'http', 'smtp', 'tls'].map((value) => ({ value, count: 1 })),
    ]);
    // Addresses without their mask, either side for `ip`; every element of a many-valued field.
    expect((await known(analyst, 'network', 'ip'))[0]).toEqual({ value: CLIENT, count: 5 });
    expect(await known(analyst, 'mail', 'recipient')).toEqual([
      { value: 'j.doe@corp.example', count: 2 },
      { value: 'finance@corp.example', count: 1 },
    ]);
    expect(await known(analyst, 'network', 'file_stored')).toEqual([{ value: 'true', count: 1 }]);
    expect(await known(analyst, 'alerts', 'severity', 'HI')).toEqual([{ value: 'high', count: 1 }]);
  });

  it('keeps the values starting with the prefix, whatever the case, wildcards read literally', async () => {
    expect(await known(analyst, 'endpoint', 'host_name', 'ws-h')).toEqual([{ value: 'WS-HR-02', count: 1 }]);
    expect(await known(analyst, 'endpoint', 'host_name', 'WS-FIN')).toEqual([{ value: 'WS-FIN-07', count: 3 }]);
    expect(await known(analyst, 'endpoint', 'host_name', '%')).toEqual([]);
    expect(await known(analyst, 'endpoint', 'host_name', 'WS_')).toEqual([]);
    expect(await known(analyst, 'network', 'ip', '10.20.1.')).toEqual([{ value: CLIENT, count: 5 }]);
  });

  it('reads a bounded sample: the newest rows of each company, the sample shared among them', async () => {
    const hostName = fieldColumns('endpoint', 'host_name')!;
    const sampled = (companies: number[], sample: number) =>
      searchValues(t.db, {
        kind: 'endpoint',
        ...hostName,
        scope: { companies },
        from: new Date(FROM),
        to: new Date(TO),
        prefix: '',
        sample,
        limit: 20,
      });
    // Alpha's newest endpoint event is on WS-HR-02, beta's only one on WS-FIN-07.
    expect(await sampled([alpha, beta], 2)).toEqual([
      { value: 'WS-FIN-07', count: 1 },
      { value: 'WS-HR-02', count: 1 },
    ]);
    expect(await sampled([alpha], 2)).toEqual([
      { value: 'WS-FIN-07', count: 1 },
      { value: 'WS-HR-02', count: 1 },
    ]);
    expect(await sampled([alpha], 1)).toEqual([{ value: 'WS-HR-02', count: 1 }]);
    expect(await sampled([], 2)).toEqual([]);
  });

  it('reads the last 7 days when no time range is given', async () => {
    const answer = await values(analyst, { kind: 'network', field: 'event_type', prefix: '' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.values).toEqual([{ value: 'flow', count: 1 }]);
  });

  it('refuses fields the kind lacks or whose values are not suggested, and kinds the caller may not view', async () => {
    for (const [kind, field] of [
      ['network', 'scr_ip'],
      ['mail', 'host_name'],
      ['endpoint', 'command_line'],
      ['network', 'dest_port'],
      ['alerts', 'ts'],
      ['network', 'constructor'],
    ]) {
      const answer = await values(analyst, { kind, field, prefix: '' });
      expect(answer.status, `${kind}.${field}`).toBe(400);
      expect(answer.body.errors.field, `${kind}.${field}`).toHaveLength(1);
    }
    const badKind = await values(analyst, { kind: 'files', field: 'host_name', prefix: '' });
    expect(badKind.status).toBe(400);
    const reversed = await values(analyst, { kind: 'network', field: 'proto', prefix: '', from: TO, to: FROM });
    expect(reversed.status).toBe(400);

    const refused = await values(networkOnly, { kind: 'mail', field: 'sender', prefix: '' });
    expect(refused.status).toBe(403);
    expect((await known(networkOnly, 'network', 'proto')).map((v) => v.value)).toEqual(['TCP', 'UDP']);
  });
});

describe('POST /api/search/export/', () => {
  it('hands the hits to a holder of raw_export as CSV or JSON lines, and refuses anyone else', async () => {
    const search = bodyOf({ kinds: ['mail', 'alerts'] });
    const refused = await analyst.post<{ detail: string }>('/api/search/export/?format=csv', search);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/raw_export/);

    await t.db.query(
      sql`UPDATE users SET privileged_settings = '{"raw_export": true}'::jsonb WHERE username = 'alice'`,
    );
    const found = await hits(analyst, { kinds: ['mail', 'alerts'] });
    const csv = await analyst.post<string>('/api/search/export/?format=csv', search);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="vigil-search-.+\.csv"$/);
    expect(csv.headers.get('x-vigil-truncated')).toBe('false');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('kind,id,company_id,ts,event');
    expect(lines).toHaveLength(found.length + 1);
    // The event column is the hit's JSON, quotes doubled; the subject with its % survives.
    const mailLine = lines.find((line) => line.startsWith('"mail"'))!;
    const eventJson = mailLine.slice(mailLine.indexOf(',"{') + 2, -1).replaceAll('""', '"');
    expect(JSON.parse(eventJson)).toHaveProperty('subject');
    expect(csv.body).toContain('Invoice 50% overdue');

    const json = await analyst.post<string>('/api/search/export/?format=json', search);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const exported = json.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SearchHit);
    expect(exported.map((h) => `${h.kind}:${h.id}`)).toEqual(found.map((h) => `${h.kind}:${h.id}`));
    // Never another company's.
    expect(new Set(exported.map((h) => h.company_id))).toEqual(new Set([alpha]));

    // A bad query and a bad format are refused like any other search.
    expect((await analyst.post('/api/search/export/?format=xml', search)).status).toBe(400);
    expect((await analyst.post('/api/search/export/', { ...search, query: 'subject: (' })).status).toBe(400);
  });
});
