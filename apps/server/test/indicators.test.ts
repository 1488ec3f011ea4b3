import type { Indicator, IndicatorImportAnswer, IngestTokenCreated, ListAnswer } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let alphaUser: TestClient;
let betaUser: TestClient;

async function userOf(name: string, companyId: number): Promise<TestClient> {
  const user = await buildUser(t.db, {
    username: name,
    companyId,
    permissions: [{ basename: 'indicators', actions: ['view', 'add', 'change', 'delete', 'import', 'export'] }],
  });
  const client = t.client();
  await client.signIn(user.username, user.password);
  return client;
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  admin = await t.admin();
  alphaUser = await userOf('alpha-analyst', alpha);
  betaUser = await userOf('beta-analyst', beta);
});
afterAll(async () => {
  await t?.close();
});

const list = (client: TestClient, filters: object = {}, query = '') =>
  client.post<ListAnswer<Indicator>>(`/api/indicators/check/${query}`, filters);

describe('indicators API', () => {
  it('creates, normalises, changes and deletes an indicator, audited, with per-field errors', async () => {
    const created = await alphaUser.post<Indicator>('/api/indicators/', {
      type: 'domain',
      value: 'Evil.EXAMPLE.',
      severity: 'high',
      tags: ['apt', 'apt'],
      source: 'feed-a',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      company_id: alpha,
      scope: 'company',
      value: 'evil.example',
      policy: 'alert',
      severity: 'high',
      tags: ['apt'],
      active: true,
    });
    // The index knows it at once.
    expect(t.app.indicatorIndex.current().match(alpha, 'domain', 'www.evil.example').alerts).toHaveLength(1);

    const bad = await alphaUser.post<Errors>('/api/indicators/', { type: 'ip', value: '999.1.1.1', severity: 'huge' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['severity']);
    const badIp = await alphaUser.post<Errors>('/api/indicators/', { type: 'ip', value: '999.1.1.1' });
    expect(badIp.body.errors.value?.[0]).toMatch(/not an IPv4 or IPv6 address/);
    const badHash = await alphaUser.post<Errors>('/api/indicators/', { type: 'sha256', value: 'abc' });
    expect(badHash.body.errors.value?.[0]).toBe('An SHA256 is 64 hexadecimal digits.');
    const duplicate = await alphaUser.post<Errors>('/api/indicators/', { type: 'domain', value: 'evil.example' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors.value).toBeDefined();

    const patched = await alphaUser.patch<Indicator>(`/api/indicators/${created.body.id}/`, {
      policy: 'ignore',
      expires_at: '2099-01-01T00:00:00Z',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ policy: 'ignore', expires_at: '2099-01-01T00:00:00.000Z' });
    expect(t.app.indicatorIndex.current().match(alpha, 'domain', 'evil.example').ignored).toBe(true);
    const detail = await alphaUser.get<Indicator>(`/api/indicators/${created.body.id}/`);
    expect(detail.body.policy).toBe('ignore');

    const { rows } = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'indicator' AND object_id = ${String(created.body.id)} ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update']);

    expect((await alphaUser.delete(`/api/indicators/${created.body.id}/`)).status).toBe(204);
    expect((await alphaUser.get(`/api/indicators/${created.body.id}/`)).status).toBe(404);
    expect(t.app.indicatorIndex.current().match(alpha, 'domain', 'evil.example')).toEqual({
      ignored: false,
      alerts: [],
    });
  });

  it('keeps tenants apart; all-companies indicators are for staff who see every company', async () => {
    const mine = await alphaUser.post<Indicator>('/api/indicators/', { type: 'ip', value: '203.0.113.10' });
    expect(mine.status).toBe(201);
    expect((await betaUser.get(`/api/indicators/${mine.body.id}/`)).status).toBe(404);
    expect((await betaUser.patch(`/api/indicators/${mine.body.id}/`, { severity: 'low' })).status).toBe(404);
    expect((await betaUser.delete(`/api/indicators/${mine.body.id}/`)).status).toBe(404);
    expect((await list(betaUser)).body.results.map((i) => i.id)).not.toContain(mine.body.id);
    expect(
      (await alphaUser.post<Errors>('/api/indicators/', { type: 'ip', value: '1.1.1.1', company_id: beta })).status,
    ).toBe(400);
    const forAll = await alphaUser.post('/api/indicators/', { type: 'ip', value: '1.1.1.1', all_companies: true });
    expect(forAll.status).toBe(403);

    const global = await admin.post<Indicator>('/api/indicators/', {
      type: 'cidr',
      value: '198.51.100.7/24',
      all_companies: true,
      severity: 'critical',
    });
    expect(global.status).toBe(201);
    expect(global.body).toMatchObject({ scope: 'all', value: '198.51.100.0/24' });
    expect((await alphaUser.get(`/api/indicators/${global.body.id}/`)).status).toBe(404);
    expect((await list(alphaUser)).body.results.map((i) => i.id)).toEqual([mine.body.id]);
    expect((await list(admin, { scope: 'all' })).body.results.map((i) => i.id)).toEqual([global.body.id]);
    // It applies to both companies' events.
    expect(t.app.indicatorIndex.current().match(alpha, 'ip', '198.51.100.200').alerts).toHaveLength(1);
    expect(t.app.indicatorIndex.current().match(beta, 'ip', '198.51.100.200').alerts).toHaveLength(1);
    expect(t.app.indicatorIndex.current().match(beta, 'ip', '203.0.113.10').alerts).toHaveLength(0);

    const bulk = await betaUser.post<{ deleted: number }>('/api/indicators/bulk_delete/', {
      ids: [mine.body.id, global.body.id],
    });
    expect(bulk.body).toEqual({ deleted: 0 });
    const gone = await admin.post<{ deleted: number }>('/api/indicators/bulk_delete/', {
      ids: [mine.body.id, global.body.id],
    });
    expect(gone.body).toEqual({ deleted: 2 });
  });

  it('lists with filters, counts, and refuses callers without the permission', async () => {
    const csv = [
      'type,value,policy,severity,expires_at,tags,source,description',
      'md5,' + 'A'.repeat(32) + ',alert,low,,x;y,feed-b,one',
      'sha1,' + 'b'.repeat(40) + ',ignore,info,2000-01-01T00:00:00Z,y,feed-b,old',
      'email,Boss@Evil.Example,alert,critical,,,feed-c,"quoted, with comma"',
    ].join('\n');
    const imported = await betaUser.post<IndicatorImportAnswer>('/api/indicators/import/', { csv });
    expect(imported.body).toEqual({ created: 3, updated: 0, rejected: [] });
    expect((await list(betaUser, { tags: 'y' })).body.count).toBe(2);
    expect((await list(betaUser, { active: false })).body.results.map((i) => i.type)).toEqual(['sha1']);
    expect((await list(betaUser, { type: ['email', 'md5'], severity: 'critical' })).body.results[0]?.value).toBe(
      'boss@evil.example',
    );
    expect((await list(betaUser, { search: 'COMMA' })).body.count).toBe(1);
    expect((await betaUser.post<{ count: number }>('/api/indicators/count/', { source: 'feed-b' })).body).toEqual({
      count: 2,
    });
    expect((await list(betaUser, { policy: 'bogus' })).status).toBe(400);

    const exported = await betaUser.get('/api/indicators/export/');
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(String(exported.body)).toContain('email,boss@evil.example,alert,critical,,,feed-c,"quoted, with comma"');

    const viewer = await buildUser(t.db, {
      username: 'alpha-viewer',
      companyId: alpha,
      permissions: [{ basename: 'indicators', actions: ['view'] }],
    });
    const client = t.client();
    await client.signIn(viewer.username, viewer.password);
    expect((await list(client)).status).toBe(200);
    expect((await client.post('/api/indicators/', { type: 'ip', value: '10.0.0.1' })).status).toBe(403);
    expect((await client.post('/api/indicators/import/', { csv: 'type,value\nip,10.0.0.1' })).status).toBe(403);
    expect((await client.get('/api/indicators/export/')).status).toBe(403);
  });

  it('imports CSV with bad rows reported apart, upserting good ones (text/csv too)', async () => {
    const csv = [
      'type,value,severity,tags',
      'ip,10.9.9.9,high,a',
      'ip,10.9.9.300,high,',
      'sha256,xyz,high,',
      'bogus,1,high,',
      'domain,ok.example,extreme,',
      'cidr,10.0.0.0/40,low,',
      'ip,10.9.9.9,critical,b',
      'url,https://Ok.Example/path?q=1,low,',
    ].join('\r\n');
    const answer = await alphaUser.post<IndicatorImportAnswer>('/api/indicators/import/', { csv });
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(2);
    expect(answer.body.rejected).toEqual([
      { row: 3, field: 'value', reason: expect.stringMatching(/not an IPv4/) as string },
      { row: 4, field: 'value', reason: 'An SHA256 is 64 hexadecimal digits.' },
      { row: 5, field: 'type', reason: expect.stringMatching(/^The type is one of/) as string },
      { row: 6, field: 'severity', reason: expect.stringMatching(/^Severity is one of/) as string },
      { row: 7, field: 'value', reason: 'The prefix length must be a whole number from 0 to 32.' },
    ]);
    const ip = (await list(alphaUser, { type: 'ip', search: '10.9.9.9' })).body.results[0];
    // The later row for the same value wins.
    expect(ip).toMatchObject({ severity: 'critical', tags: ['b'] });

    const response = await fetch(`${t.url}/api/indicators/import/`, {
      method: 'POST',
      headers: {
        'content-type': 'text/csv',
        cookie: `vigil_session=${alphaUser.cookie('vigil_session')}; csrf_token=${alphaUser.cookie('csrf_token')}`,
        'x-csrftoken': alphaUser.cookie('csrf_token') ?? '',
      },
      body: 'type,value,policy\nip,10.9.9.9,ignore\nemail,not-an-address,alert\n',
    });
    expect(response.status).toBe(200);
    const second = (await response.json()) as IndicatorImportAnswer;
    expect(second.created).toBe(0);
    expect(second.updated).toBe(1);
    expect(second.rejected).toEqual([{ row: 3, field: 'value', reason: 'not-an-address is not an e-mail address.' }]);
    expect(t.app.indicatorIndex.current().match(alpha, 'ip', '10.9.9.9').ignored).toBe(true);

    const header = await alphaUser.post<IndicatorImportAnswer>('/api/indicators/import/', {
      csv: 'kind,value\nip,1.2.3.4',
    });
    expect(header.body.rejected[0]).toMatchObject({ row: 1, field: 'header' });
  });

  it('imports 20,000 rows in one request', async () => {
    const rows = ['type,value,severity'];
    for (let i = 0; i < 20_000; i += 1) rows.push(`ip,10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},low`);
    const answer = await betaUser.post<IndicatorImportAnswer>('/api/indicators/import/', { csv: rows.join('\n') });
    expect(answer.body).toEqual({ created: 20_000, updated: 0, rejected: [] });
    expect(t.app.indicatorIndex.current().match(beta, 'ip', '10.0.78.31').alerts).toHaveLength(1);
  });
  it('answers random bytes and NUL characters with a 400 or row errors, never a 500', async () => {
    const post = (body: Uint8Array | string, contentType: string) =>
      fetch(`${t.url}/api/indicators/import/`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          cookie: `vigil_session=${alphaUser.cookie('vigil_session')}; csrf_token=${alphaUser.cookie('csrf_token')}`,
          'x-csrftoken': alphaUser.cookie('csrf_token') ?? '',
        },
        body,
      });
    // Bytes from a fixed linear congruential sequence: the same "random" file on every run.
    let seed = 12345;
    const noise = Uint8Array.from({ length: 4096 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed >> 16;
    });
    const header = new TextEncoder().encode('type,value,description\n');
    for (const body of [noise, Uint8Array.from([...header, ...noise])]) {
      const answer = await post(body, 'text/csv');
      expect(answer.status).toBe(200);
      const json = (await answer.json()) as IndicatorImportAnswer;
      expect(json.created).toBe(0);
      expect(json.rejected.length).toBeGreaterThan(0);
      for (const r of json.rejected) expect(r.row).toBeGreaterThanOrEqual(1);
    }
    expect((await post(noise, 'application/json')).status).toBe(400);

    const nul = await alphaUser.post<IndicatorImportAnswer>('/api/indicators/import/', {
      csv: 'type,value,description\nip,10.77.0.1,"a\u0000b"\nip,10.77.0.2,fine\n',
    });
    expect(nul.status).toBe(200);
    expect(nul.body).toMatchObject({ created: 1, rejected: [{ row: 2, field: 'row' }] });
  });

  it('exports cells that start like a formula with a leading quote', async () => {
    const made = await betaUser.post<IndicatorImportAnswer>('/api/indicators/import/', {
      csv: 'type,value,source,description\ndomain,formula.example,@feed,"=HYPERLINK(""http://x.example"")"\n',
    });
    expect(made.body).toMatchObject({ created: 1, rejected: [] });
    const exported = String((await betaUser.get('/api/indicators/export/')).body);
    expect(exported).toContain(`domain,formula.example,alert,medium,,,'@feed,"'=HYPERLINK(""http://x.example"")"\r\n`);
  });
});

describe('retro-hunt', () => {
  async function ingest(kind: 'network' | 'endpoint' | 'mail', key: string, body: string) {
    const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
      method: 'POST',
      headers: {
        'content-type': kind === 'mail' ? 'message/rfc822' : 'application/x-ndjson',
        authorization: `Bearer ${key}`,
      },
      body,
    });
    expect(response.status).toBe(200);
  }

  it('raises alerts for past sightings of new alert indicators, in the right company only', async () => {
    const alphaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'a', company_id: alpha }))
      .body.key;
    const betaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'b', company_id: beta })).body
      .key;
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const old = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const dns = (ts: string, name: string, src: string) =>
      JSON.stringify({
        timestamp: ts,
        event_type: 'dns',
        src_ip: src,
        dest_ip: '192.0.2.53',
        dns: { type: 'query', rrname: name, rrtype: 'A' },
      });
    await ingest(
      'network',
      alphaKey,
      [dns(recent, 'x.c2.hunt.example', '10.1.1.1'), dns(old, 'c2.hunt.example', '10.1.1.2')].join('\n'),
    );
    await ingest('network', betaKey, dns(recent, 'c2.hunt.example', '10.2.2.2'));
    await ingest(
      'endpoint',
      alphaKey,
      JSON.stringify({
        '@timestamp': recent,
        host: { name: 'WS-7' },
        event: { action: 'process-create' },
        process: { pid: 1, executable: 'C:\\tmp\\implant.exe', hash: { sha256: '7'.repeat(64) } },
      }),
    );
    await ingest(
      'mail',
      alphaKey,
      [
        'From: Boss <boss@phish.hunt.example>',
        'To: victim@alpha.test',
        'Subject: urgent',
        `Date: ${new Date(Date.now() - 86_400_000).toUTCString()}`,
        'Message-ID: <1@hunt>',
        '',
        'Pay here: https://pay.hunt.example/now',
        '',
      ].join('\r\n'),
    );

    const made = await alphaUser.post<IndicatorImportAnswer>('/api/indicators/import/', {
      csv: [
        'type,value,severity',
        'domain,hunt.example,high',
        `sha256,${'7'.repeat(64)},critical`,
        'email,boss@phish.hunt.example,medium',
      ].join('\n'),
    });
    expect(made.body.created).toBe(3);
    // An ignore indicator for one name keeps it quiet.
    await alphaUser.post('/api/indicators/', { type: 'domain', value: 'pay.hunt.example', policy: 'ignore' });
    const outcomes = await t.app.jobs.runDueJobs();
    const hunts = outcomes.filter((o) => o.kind === 'indicators.retro_hunt');
    expect(hunts.length).toBeGreaterThan(0);
    expect(hunts.every((o) => o.outcome === 'done')).toBe(true);

    // The same file again changes nothing that alerts: nothing is hunted again.
    const again = await alphaUser.post<IndicatorImportAnswer>('/api/indicators/import/', {
      csv: `type,value,severity\nsha256,${'7'.repeat(64)},critical`,
    });
    expect(again.body.updated).toBe(1);
    expect((await t.app.jobs.runDueJobs()).filter((o) => o.kind === 'indicators.retro_hunt')).toEqual([]);

    const { rows } = await t.db.query<{ company_id: number; title: string; source: string; events: number }>(sql`
      SELECT a.company_id, a.title, a.source,
        (SELECT count(*)::int4 FROM alert_events e WHERE e.company_id = a.company_id AND e.alert_id = a.id) AS events
      FROM alerts a WHERE a.title LIKE 'Indicator match:%' ORDER BY a.source, a.title`);
    expect(rows.map((r) => [Number(r.company_id), r.source, r.title])).toEqual([
      [alpha, 'endpoint', `Indicator match: sha256 ${'7'.repeat(64)}`],
      [alpha, 'mail', 'Indicator match: domain hunt.example'],
      [alpha, 'mail', 'Indicator match: email boss@phish.hunt.example'],
      // Only the sighting within RETRO_HUNT_DAYS (30) counts; beta's event is another tenant's.
      [alpha, 'network', 'Indicator match: domain hunt.example'],
    ]);
  });
});
