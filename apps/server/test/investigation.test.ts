import type {
  EventDetail,
  FileDetail,
  IngestTokenCreated,
  ListAnswer,
  MailDetail,
  MailListItem,
  ProcessTree,
  StoredEventItem,
  WarehouseHash,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILEINFO, FLOW } from '../src/modules/ingest/parsers/fixtures/eve';
import { phishingMessage, PHISH_ATTACHMENTS } from '../src/modules/ingest/parsers/fixtures/mail';
import { createHash } from 'node:crypto';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let alphaUser: TestClient;
let betaUser: TestClient;
let alphaKey: string;
let betaKey: string;

const eventPermissions = ['network', 'eclipse_events', 'mailing', 'attaches', 'warehouse', 'warehouse/hashes'].map(
  (basename) => ({ basename, actions: ['view', 'download'] }),
);

async function ingest(kind: 'network' | 'endpoint' | 'mail', key: string, body: string | Buffer): Promise<number> {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: {
      'content-type': kind === 'mail' ? 'message/rfc822' : 'application/x-ndjson',
      authorization: `Bearer ${key}`,
    },
    body,
  });
  const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(answer.rejected).toEqual([]);
  return answer.accepted;
}

const lines = (records: readonly object[]) => records.map((r) => JSON.stringify(r)).join('\n');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An ECS process event on host WS-TREE. */
function proc(
  at: string,
  pid: number,
  name: string,
  parent: { pid: number; name: string } | null,
  extra: Record<string, unknown> = {},
) {
  return {
    '@timestamp': at,
    host: { name: 'WS-TREE' },
    event: { action: 'start', category: ['process'] },
    process: {
      pid,
      name,
      executable: `C:\\Windows\\System32\\${name}`,
      command_line: `${name} --run ${pid}`,
      ...(parent ? { parent: { pid: parent.pid, name: parent.name } } : {}),
      ...extra,
    },
    user: { name: 'jdoe' },
  };
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Investigations');
  beta = await buildCompany(t.db, 'Beta Investigations');
  await buildUser(t.db, { username: 'ivy', companyId: alpha, permissions: eventPermissions });
  await buildUser(t.db, { username: 'ben', companyId: beta, permissions: eventPermissions });
  admin = await t.admin();
  alphaUser = t.client();
  await alphaUser.signIn('ivy', 'User-password-1');
  betaUser = t.client();
  await betaUser.signIn('ben', 'User-password-1');
  const a = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'alpha', company_id: alpha });
  const b = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'beta', company_id: beta });
  alphaKey = a.body.key;
  betaKey = b.body.key;
});
afterAll(async () => {
  await t?.close();
});

describe('event details', () => {
  it('answers a network event with its raw record, by id alone or with its time, and 404 to another company', async () => {
    await ingest('network', alphaKey, lines([FLOW, FILEINFO]));
    const listed = await alphaUser.post<ListAnswer<StoredEventItem>>('/api/network/check/', { event_type: 'flow' });
    const flow = listed.body.results[0]!;
    expect(flow).not.toHaveProperty('raw');
    const byId = await alphaUser.get<EventDetail>(`/api/network/${flow.id}/`);
    expect(byId.status).toBe(200);
    expect(byId.body.raw).toMatchObject({ event_type: 'flow', src_ip: FLOW.src_ip });
    expect(byId.body.event).toMatchObject({ event_type: 'flow' });
    const withTs = await alphaUser.get<EventDetail>(`/api/network/${flow.id}/?ts=${encodeURIComponent(flow.ts)}`);
    expect(withTs.body.id).toBe(flow.id);
    const wrongTs = await alphaUser.get(`/api/network/${flow.id}/?ts=2001-01-01T00:00:00Z`);
    expect(wrongTs.status).toBe(404);
    const badTs = await alphaUser.get<{ errors: Record<string, string[]> }>(`/api/network/${flow.id}/?ts=yesterday`);
    expect(badTs.status).toBe(400);
    expect(Object.keys(badTs.body.errors)).toEqual(['ts']);
    expect((await betaUser.get(`/api/network/${flow.id}/`)).status).toBe(404);
    expect((await alphaUser.get('/api/network/999999999/')).status).toBe(404);
  });

  it('answers an endpoint event with its raw record and 404 to another company', async () => {
    await ingest('endpoint', alphaKey, lines([proc('2024-05-01T08:00:00Z', 10, 'cmd.exe', null)]));
    const listed = await alphaUser.post<ListAnswer<StoredEventItem>>('/api/eclipse_events/check/', {
      host_name: 'WS-TREE',
    });
    const id = listed.body.results[0]!.id;
    const detail = await alphaUser.get<EventDetail>(`/api/eclipse_events/${id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body.raw).toMatchObject({ '@timestamp': '2024-05-01T08:00:00Z', host: { name: 'WS-TREE' } });
    expect((await betaUser.get(`/api/eclipse_events/${id}/`)).status).toBe(404);
  });
});

describe('mail detail', () => {
  it('parses authentication results, lists URLs and attachments with indicator verdicts', async () => {
    const pe = sha256(PHISH_ATTACHMENTS.pe);
    const indicator = await admin.post<{ id: number }>('/api/indicators/', {
      type: 'sha256',
      value: pe,
      severity: 'critical',
      company_id: alpha,
    });
    expect(indicator.status).toBe(201);
    const url = await admin.post<{ id: number }>('/api/indicators/', {
      type: 'domain',
      value: 'login.example-phish.com',
      severity: 'high',
      company_id: alpha,
    });
    expect(url.status).toBe(201);
    await ingest('mail', alphaKey, phishingMessage());
    const listed = await alphaUser.post<ListAnswer<MailListItem>>('/api/mailing/check/', {});
    const mail = listed.body.results[0]!;
    expect(mail.event).not.toHaveProperty('html');
    expect(mail.verdict).toMatchObject({ verdict: 'malicious', severity: 'critical' });
    const { status, body } = await alphaUser.get<MailDetail>(`/api/mailing/${mail.id}/`);
    expect(status).toBe(200);
    expect(body.event.html).toContain('Verify now');
    expect(body.event.text).toContain('Dear customer');
    expect(body.raw).toMatchObject({ subject: body.event.subject });
    // Any passing DKIM signature makes the message's DKIM verdict a pass.
    expect(body.authentication).toMatchObject({ spf: 'softfail', dkim: 'pass', dmarc: 'fail' });
    expect(body.authentication.headers).toHaveLength(2);
    const top = body.authentication.headers[0]!;
    expect(top.authserv_id).toBe('mx.corp.example');
    expect(top.results.map((r) => `${r.method}=${r.result}`)).toEqual([
      'spf=softfail',
      'dkim=fail',
      'dkim=pass',
      'dmarc=fail',
    ]);
    expect(top.results[1]).toMatchObject({
      reason: 'signature did not verify',
      properties: { 'header.d': 'example-bank.com', 'header.s': 's1' },
    });
    expect(top.results[3]!.properties['header.from']).toBe('example-bank.com');
    expect(body.authentication.headers[1]).toMatchObject({
      authserv_id: 'relay.example.net',
      results: [{ method: 'spf', result: 'pass', properties: { 'smtp.mailfrom': 'example-phish.com' } }],
    });

    const login = body.urls.find((u) => u.host === 'login.example-phish.com');
    expect(login?.verdict).toMatchObject({ verdict: 'malicious', severity: 'high', indicator_ids: [url.body.id] });
    const tracker = body.urls.find((u) => u.host === 'track.example-phish.com');
    expect(tracker?.verdict.verdict).toBe('unknown');

    expect(body.attachments).toHaveLength(3);
    const exe = body.attachments.find((a) => a.sha256 === pe)!;
    expect(exe).toMatchObject({ filename: 'Statement_0312.pdf.exe', detected_type: 'pe', stored: true });
    expect(exe.size).toBe(PHISH_ATTACHMENTS.pe.length);
    expect(exe.verdict).toMatchObject({ verdict: 'malicious', severity: 'critical' });
    expect(body.attachments.find((a) => a.filename === 'Invoice.pdf')!.verdict.verdict).toBe('unknown');
    expect(body.verdict).toMatchObject({ verdict: 'malicious', severity: 'critical' });

    expect((await betaUser.get(`/api/mailing/${mail.id}/`)).status).toBe(404);
  });
});

describe('files', () => {
  it('tells where a SHA-256 was seen, only within the caller’s companies', async () => {
    const pe = sha256(PHISH_ATTACHMENTS.pe);
    await ingest('mail', betaKey, phishingMessage());
    const mine = await alphaUser.get<FileDetail>(`/api/warehouse/${pe}/`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      sha256: pe,
      detected_type: 'pe',
      stored: true,
      size: PHISH_ATTACHMENTS.pe.length,
    });
    expect(mine.body.companies.map((c) => c.company_id)).toEqual([alpha]);
    expect(mine.body.mails).toHaveLength(1);
    expect(mine.body.mails[0]!).toMatchObject({ company_id: alpha, filename: 'Statement_0312.pdf.exe' });
    expect(mine.body.verdict.verdict).toBe('malicious');
    // Beta saw the same bytes but has no indicator for them.
    const theirs = await betaUser.get<FileDetail>(`/api/warehouse/${pe.toUpperCase()}/`);
    expect(theirs.body.companies.map((c) => c.company_id)).toEqual([beta]);
    expect(theirs.body.verdict.verdict).toBe('unknown');
    const everyone = await admin.get<FileDetail>(`/api/warehouse/${pe}/`);
    expect(everyone.body.companies.map((c) => c.company_id).sort()).toEqual([alpha, beta].sort());
    expect(everyone.body.mails).toHaveLength(2);

    // A file Suricata saw on the wire: a network sighting without bytes.
    const wire = FILEINFO.fileinfo.sha256;
    const seen = await alphaUser.get<FileDetail>(`/api/warehouse/${wire}/`);
    expect(seen.status).toBe(200);
    expect(seen.body.stored).toBe(false);
    expect(seen.body.network_events).toHaveLength(1);
    expect(seen.body.network_events[0]).toMatchObject({ company_id: alpha, src_ip: FILEINFO.src_ip });
    expect((await betaUser.get(`/api/warehouse/${wire}/`)).status).toBe(404);
    expect((await alphaUser.get(`/api/warehouse/${'0'.repeat(64)}/`)).status).toBe(404);
  });

  it('filters hashes by verdict and type and gives their size, type and verdict', async () => {
    const pe = sha256(PHISH_ATTACHMENTS.pe);
    const malicious = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/', {
      verdict: 'malicious',
    });
    expect(malicious.body.results.map((r) => r.sha256)).toEqual([pe]);
    expect(malicious.body.results[0]).toMatchObject({ verdict: 'malicious', detected_type: 'pe', stored: true });
    const pdfs = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/', {
      detected_type: 'pdf',
    });
    expect(pdfs.body.results).toHaveLength(1);
    expect(pdfs.body.results[0]!.verdict).toBe('unknown');
    const bad = await alphaUser.post<{ errors: Record<string, string[]> }>('/api/warehouse/hashes/check/', {
      verdict: 'evil',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('verdict');
  });
});

describe('process tree', () => {
  const window = { from: '2024-06-01T00:00:00Z', to: '2024-06-01T23:59:59Z' };

  it('links children to parents, the latest parent started before the child when a pid is reused', async () => {
    await ingest(
      'endpoint',
      alphaKey,
      lines([
        proc('2024-06-01T09:00:00Z', 100, 'explorer.exe', { pid: 4, name: 'System' }),
        proc('2024-06-01T09:01:00Z', 200, 'winword.exe', { pid: 100, name: 'explorer.exe' }),
        proc('2024-06-01T09:02:00Z', 300, 'powershell.exe', { pid: 200, name: 'winword.exe' }),
        // Activity of powershell (not a start): belongs to the process, adds no node.
        {
          '@timestamp': '2024-06-01T09:02:30Z',
          host: { name: 'WS-TREE' },
          event: { action: 'connection-attempted', category: ['network'] },
          process: { pid: 300, name: 'powershell.exe' },
          destination: { ip: '203.0.113.50', port: 443 },
        },
        // pid 200 is reused by a second process, which starts its own child.
        proc('2024-06-01T10:00:00Z', 200, 'notepad.exe', { pid: 100, name: 'explorer.exe' }),
        proc('2024-06-01T10:05:00Z', 400, 'calc.exe', { pid: 200, name: 'notepad.exe' }),
        // Entity ids win over pids.
        proc('2024-06-01T11:00:00Z', 500, 'svchost.exe', null, { entity_id: '{AAAA-1}' }),
        proc(
          '2024-06-01T11:01:00Z',
          600,
          'rundll32.exe',
          { pid: 999, name: 'svchost.exe' },
          {
            entity_id: '{AAAA-2}',
            parent: { pid: 999, name: 'svchost.exe', entity_id: 'AAAA-1' },
          },
        ),
        // Other host, same pids: not part of the tree.
        { ...proc('2024-06-01T09:03:00Z', 300, 'other.exe', { pid: 200, name: 'x' }), host: { name: 'WS-OTHER' } },
      ]),
    );
    const { status, body } = await alphaUser.post<ProcessTree>('/api/eclipse_events/process_tree/', {
      host_name: 'WS-TREE',
      ...window,
    });
    expect(status).toBe(200);
    expect(body.truncated).toBe(false);
    const byName = new Map(body.processes.map((p) => [p.name, p]));
    const parentOf = (name: string) => {
      const key = byName.get(name)!.parent_key;
      return key === null ? null : body.processes.find((p) => p.key === key)!.name;
    };
    expect(body.processes.map((p) => p.name)).toEqual([
      'explorer.exe',
      'winword.exe',
      'powershell.exe',
      'notepad.exe',
      'calc.exe',
      'svchost.exe',
      'rundll32.exe',
    ]);
    expect(parentOf('explorer.exe')).toBeNull();
    expect(parentOf('winword.exe')).toBe('explorer.exe');
    expect(parentOf('powershell.exe')).toBe('winword.exe');
    expect(parentOf('notepad.exe')).toBe('explorer.exe');
    expect(parentOf('calc.exe')).toBe('notepad.exe');
    expect(parentOf('rundll32.exe')).toBe('svchost.exe');
    expect(byName.get('powershell.exe')).toMatchObject({
      pid: 300,
      parent_pid: 200,
      command_line: 'powershell.exe --run 300',
      start: '2024-06-01T09:02:00.000Z',
      start_seen: true,
      event_count: 2,
    });
    expect(byName.get('rundll32.exe')!.entity_id).toBe('{AAAA-2}');

    const subtree = await alphaUser.post<ProcessTree>('/api/eclipse_events/process_tree/', {
      host_name: 'WS-TREE',
      ...window,
      root_pid: 200,
    });
    expect(subtree.body.processes.map((p) => [p.name, p.parent_key === null])).toEqual([
      ['winword.exe', true],
      ['powershell.exe', false],
      ['notepad.exe', true],
      ['calc.exe', false],
    ]);

    const theirs = await betaUser.post<ProcessTree>('/api/eclipse_events/process_tree/', {
      host_name: 'WS-TREE',
      ...window,
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.processes).toEqual([]);
  });

  it('refuses a request without a host or with the window backwards', async () => {
    const missing = await alphaUser.post<{ errors: Record<string, string[]> }>('/api/eclipse_events/process_tree/', {
      from: window.from,
    });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['host_name', 'to']);
    const backwards = await alphaUser.post<{ errors: Record<string, string[]> }>('/api/eclipse_events/process_tree/', {
      host_name: 'WS-TREE',
      from: window.to,
      to: window.from,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors.to).toEqual(['The start must not be after the end.']);
  });
});
