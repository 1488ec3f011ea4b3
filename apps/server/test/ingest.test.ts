import { createHash } from 'node:crypto';
import type {
  IngestAnswer,
  IngestTokenCreated,
  ListAnswer,
  StoredEventItem,
  WarehouseFile,
  WarehouseHash,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { pruneEvents } from '../src/modules/events/retention';
import { ENDPOINT_SAMPLES } from '../src/modules/ingest/parsers/fixtures/endpoint';
import { ALERT, EVE_SAMPLES, FILEINFO, FLOW } from '../src/modules/ingest/parsers/fixtures/eve';
import {
  manyAttachmentsMessage,
  phishingMessage,
  PHISH_ATTACHMENTS,
} from '../src/modules/ingest/parsers/fixtures/mail';
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

/** Posts a body to an ingest endpoint with a key, the way a sensor does (no cookies, no CSRF). */
async function ingest(
  kind: 'network' | 'endpoint' | 'mail',
  key: string | null,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: IngestAnswer & { detail?: string } }> {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: {
      'content-type': kind === 'mail' ? 'message/rfc822' : 'application/x-ndjson',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as IngestAnswer & { detail?: string }) : ({} as IngestAnswer),
  };
}

const lines = (records: readonly object[]) => records.map((r) => JSON.stringify(r)).join('\n');

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions: eventPermissions });
  await buildUser(t.db, { username: 'bob', companyId: beta, permissions: eventPermissions });
  admin = await t.admin();
  alphaUser = t.client();
  await alphaUser.signIn('alice', 'User-password-1');
  betaUser = t.client();
  await betaUser.signIn('bob', 'User-password-1');
  const a = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'alpha sensor', company_id: alpha });
  const b = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'beta sensor', company_id: beta });
  expect(a.status).toBe(201);
  alphaKey = a.body.key;
  betaKey = b.body.key;
});
afterAll(async () => {
  await t?.close();
});

describe('ingest tokens', () => {
  it('shows a key once, stores only its SHA-256, lists and revokes it with an audit record', async () => {
    const created = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
      name: 'short-lived',
      company_id: alpha,
    });
    expect(created.body.key).toMatch(/^vgi_/);
    const { rows } = await t.db.query<{ key_hash: string }>(
      sql`SELECT key_hash FROM ingest_tokens WHERE id = ${created.body.id}`,
    );
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(created.body.key).digest('hex'));
    const listed = await admin.post<ListAnswer<Record<string, unknown>>>('/api/ingest/tokens/check/', {
      company_id: alpha,
    });
    expect(listed.body.results.map((r) => r.name)).toContain('short-lived');
    expect(listed.body.results.every((r) => !('key' in r) && !('key_hash' in r))).toBe(true);
    expect((await ingest('network', created.body.key, lines([FLOW]))).status).toBe(200);
    expect((await admin.delete(`/api/ingest/tokens/${created.body.id}/`)).status).toBe(204);
    expect((await ingest('network', created.body.key, lines([FLOW]))).status).toBe(401);
    const audit = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'ingest_token' AND object_id = ${String(created.body.id)} ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'delete']);
  });

  it('refuses a missing or wrong key with 401, and needs no CSRF token', async () => {
    expect((await ingest('network', null, lines([FLOW]))).status).toBe(401);
    expect((await ingest('network', 'vgi_wrong', lines([FLOW]))).status).toBe(401);
    const asUserToken = await fetch(`${t.url}/api/ingest/network/`, {
      method: 'POST',
      headers: { authorization: `Token ${alphaKey}`, 'content-type': 'application/x-ndjson' },
      body: lines([FLOW]),
    });
    expect(asUserToken.status).toBe(401);
  });

  it("answers 404 for another company's token", async () => {
    const listed = await admin.post<ListAnswer<{ id: number; company_id: number }>>('/api/ingest/tokens/check/', {
      company_id: beta,
    });
    const betaToken = listed.body.results[0]!.id;
    const alphaAdmin = t.client();
    await buildUser(t.db, {
      username: 'alpha-admin',
      companyId: alpha,
      permissions: [{ basename: 'appliances', actions: ['view', 'add', 'delete'] }],
    });
    await alphaAdmin.signIn('alpha-admin', 'User-password-1');
    expect((await alphaAdmin.get(`/api/ingest/tokens/${betaToken}/`)).status).toBe(404);
    expect((await alphaAdmin.delete(`/api/ingest/tokens/${betaToken}/`)).status).toBe(404);
  });
});

describe('ingest and lists', () => {
  it('stores real EVE records, lists them with filters, and hides them from another tenant', async () => {
    const answer = await ingest('network', alphaKey, lines(EVE_SAMPLES));
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(EVE_SAMPLES.length);
    expect(answer.body.rejected).toEqual([]);
    const all = await alphaUser.post<ListAnswer<StoredEventItem>>('/api/network/check/', {
      batch_id: answer.body.batch_id,
    });
    // The stats record is the sensor's health, not a network event.
    expect(all.body.count).toBe(EVE_SAMPLES.length - 1);
    expect(all.body.results.map((e) => e.event.event_type)).not.toContain('stats');
    const alerts = await alphaUser.post<ListAnswer<StoredEventItem>>('/api/network/check/', {
      event_type: 'alert',
      src_ip: '10.20.0.0/16',
      signature_id: ALERT.alert.signature_id,
    });
    expect(alerts.body.count).toBe(1);
    expect(alerts.body.results[0]!.event.src_ip).toBe(ALERT.src_ip);
    const detail = await alphaUser.get<StoredEventItem>(`/api/network/${alerts.body.results[0]!.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body.raw?.flow_id).toBe(ALERT.flow_id);
    expect((await betaUser.get(`/api/network/${alerts.body.results[0]!.id}/`)).status).toBe(404);
    const fileinfo = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/', {
      source: 'network',
    });
    expect(fileinfo.body.results.map((h) => h.sha256)).toEqual([FILEINFO.fileinfo.sha256]);
    expect(fileinfo.body.results[0]!.stored).toBe(false);
    const foreign = await betaUser.post<ListAnswer<StoredEventItem>>('/api/network/check/', {});
    expect(foreign.body.count).toBe(0);
    const range = await alphaUser.post<{ count: number }>('/api/network/count/', {
      ts_from: '2024-03-12T14:02:11Z',
      ts_to: '2024-03-12T14:02:12Z',
      dest_ip: ALERT.dest_ip,
    });
    expect(range.body.count).toBeGreaterThanOrEqual(1);
  });

  it('raises an alert from a Suricata alert record, deduplicated, only in its own company', async () => {
    const before = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int8 AS n FROM alerts WHERE company_id = ${beta}`,
    );
    expect(Number(before.rows[0]!.n)).toBe(0);
    const alertsOf = async (company: number) =>
      (
        await t.db.query<{ title: string; count: number; dedup_key: string }>(
          sql`SELECT title, count, dedup_key FROM alerts WHERE company_id = ${company} AND title = ${ALERT.alert.signature}`,
        )
      ).rows;
    const first = await alertsOf(alpha);
    expect(first).toHaveLength(1);
    expect(first[0]!.dedup_key).toBe(
      `rule:suricata:${ALERT.alert.signature_id}|${[ALERT.src_ip, ALERT.dest_ip].sort().join('|')}`,
    );
    await ingest('network', alphaKey, lines([ALERT]));
    const again = await alertsOf(alpha);
    expect(again).toHaveLength(1);
    expect(Number(again[0]!.count)).toBe(Number(first[0]!.count) + 1);
    expect(await alertsOf(beta)).toHaveLength(0);
  });

  it('raises an alert when an event matches a policy indicator', async () => {
    const created = await admin.post('/api/indicators/', {
      type: 'ip',
      value: '198.51.100.77',
      policy: 'alert',
      severity: 'high',
      company_id: alpha,
    });
    expect(created.status).toBe(201);
    const matching = lines([{ ...FLOW, dest_ip: '198.51.100.77' }]);
    const alertsOn = async () =>
      (
        await t.db.query<{ n: number }>(
          sql`SELECT count(*)::int8 AS n FROM alerts WHERE company_id = ${alpha} AND dedup_key LIKE 'indicator:%'`,
        )
      ).rows[0]!.n;
    // The index is rebuilt after the indicator's commit; give it a moment.
    for (let attempt = 0; attempt < 50 && Number(await alertsOn()) === 0; attempt += 1) {
      expect((await ingest('network', alphaKey, matching)).body.accepted).toBe(1);
      if (Number(await alertsOn()) === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(Number(await alertsOn())).toBe(1);
    await ingest('network', betaKey, matching);
    const beta_ = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int8 AS n FROM alerts WHERE company_id = ${beta} AND dedup_key LIKE 'indicator:%'`,
    );
    expect(Number(beta_.rows[0]!.n)).toBe(0);
  });

  it('stores ECS and EVTX endpoint events and filters them by host, process and user', async () => {
    const answer = await ingest('endpoint', alphaKey, lines(ENDPOINT_SAMPLES));
    expect(answer.status).toBe(200);
    expect(answer.body.rejected).toEqual([]);
    expect(answer.body.accepted).toBe(ENDPOINT_SAMPLES.length);
    const listed = await alphaUser.post<ListAnswer<StoredEventItem>>('/api/eclipse_events/check/?page_size=500', {});
    expect(listed.body.count).toBe(ENDPOINT_SAMPLES.length);
    const withProcess = listed.body.results.find((r) => (r.event.process as { name: string | null } | null)?.name);
    const processName = (withProcess!.event.process as { name: string }).name;
    const byProcess = await alphaUser.post<{ count: number }>('/api/eclipse_events/count/', {
      process_name: processName,
    });
    expect(byProcess.body.count).toBeGreaterThanOrEqual(1);
    expect((await betaUser.post<{ count: number }>('/api/eclipse_events/count/', {})).body.count).toBe(0);
    expect((await alphaUser.get(`/api/eclipse_events/${withProcess!.id}/`)).status).toBe(200);
    expect((await betaUser.get(`/api/eclipse_events/${withProcess!.id}/`)).status).toBe(404);
    // Hashes of processes that ran and files written are the company's sightings in warehouse/hashes.
    const hashed = listed.body.results.flatMap((r) => {
      const event = r.event as { process?: { hash?: { sha256?: string | null } } | null; file?: typeof r.event.file };
      const file = event.file as { hash?: { sha256?: string | null } } | null | undefined;
      return [event.process?.hash?.sha256, file?.hash?.sha256].filter((h): h is string => Boolean(h));
    });
    expect(hashed.length).toBeGreaterThan(0);
    const sightings = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/?page_size=500', {
      source: 'endpoint',
    });
    expect(sightings.body.results.map((h) => h.sha256).sort()).toEqual([...new Set(hashed)].sort());
    // The hash seen most often here (also the one only endpoints saw: the network test saw another).
    const occurrences = (hash: string) => hashed.filter((h) => h === hash).length;
    const top = [...new Set(hashed)].sort((a, b) => occurrences(b) - occurrences(a))[0]!;
    const counted = sightings.body.results.find((h) => h.sha256 === top);
    expect(counted!.sightings).toBe(occurrences(top));
    expect(counted!.sources).toEqual(['endpoint']);
    expect(counted!.stored).toBe(false);
    const foreign = await betaUser.post<{ count: number }>('/api/warehouse/hashes/count/', { source: 'endpoint' });
    expect(foreign.body.count).toBe(0);
  });

  it('counts every sighting of hashes shared by concurrent batches exactly once, and keeps each line as sent', async () => {
    const shared = Array.from({ length: 20 }, (_, i) =>
      createHash('sha256').update(`shared binary ${i}`).digest('hex'),
    );
    const batch = (b: number) =>
      Array.from({ length: 40 }, (_, i) => {
        const line = JSON.stringify({
          '@timestamp': new Date(Date.UTC(2026, 10, 20, 10, b, i)).toISOString(),
          host: { name: `CONC-${b}` },
          event: { action: 'process-create' },
          process: { pid: 100 + i, name: `tool${i % 20}.exe`, hash: { sha256: shared[(i + b) % 20] } },
        });
        // Spacing and key order as a sensor wrote them, and a number beyond 2^53.
        return i === 0 ? line.replace('{"@timestamp"', '{ "seq": 18446744073709551615, "@timestamp"') : line;
      }).join('\n');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, b) => ingest('endpoint', alphaKey, batch(b))));
    expect(answers.map((a) => [a.status, a.body.rejected ?? a.body])).toEqual(
      Array.from({ length: 6 }, () => [200, []]),
    );
    const counted = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/?page_size=500', {
      hash: shared[0],
    });
    expect(counted.body.count).toBe(1);
    // 6 batches × 40 processes over 20 hashes: 12 sightings each, and first/last seen span the batches.
    expect(counted.body.results[0]!.sightings).toBe(12);
    expect(counted.body.results[0]!.sources).toEqual(['endpoint']);
    expect(counted.body.results[0]!.first_seen < counted.body.results[0]!.last_seen).toBe(true);
    const queued = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM warehouse_sightings_queue`);
    expect(queued.rows[0]!.n).toBe(0);
    // Reading again folds nothing twice.
    const again = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/', { hash: shared[0] });
    expect(again.body.results[0]!.sightings).toBe(12);
    const stored = await t.db.query<{ raw: string }>(
      sql`SELECT raw::text AS raw FROM endpoint_events WHERE host_name = 'CONC-0' AND process_pid = 100`,
    );
    expect(stored.rows[0]!.raw.startsWith('{ "seq": 18446744073709551615, "@timestamp"')).toBe(true);
  });

  it('makes a month partition once when several transactions ask for it at the same time', async () => {
    const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 13, 1)).toISOString();
    const made = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.db.transaction((tx) =>
          tx.query<{ child: string }>(
            sql`SELECT vigil_ensure_month_partition('network_events', ${month}::timestamptz) AS child`,
          ),
        ),
      ),
    );
    expect(new Set(made.map((r) => r.rows[0]!.child)).size).toBe(1);
  });

  it('makes partitions of several months of one table at once, with rows of each waiting in the default partition', async () => {
    const now = new Date();
    const months = Array.from({ length: 6 }, (_, i) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 14 - i, 3)).toISOString(),
    );
    // Rows of those months are in the default partition: each creation moves its month's rows out.
    for (const month of months)
      await t.db.query(sql`
        INSERT INTO endpoint_events_default (company_id, ts, batch_id, source_format, event, raw)
        SELECT ${alpha}, ${month}::timestamptz + (g || ' minutes')::interval, 0, 'ecs', '{}'::jsonb, '{}'::jsonb
        FROM generate_series(1, 50) g`);
    const made = await Promise.all(
      [...months, ...[...months].reverse()].map((month) =>
        t.db.transaction((tx) =>
          tx.query<{ child: string }>(
            sql`SELECT vigil_ensure_month_partition('endpoint_events', ${month}::timestamptz) AS child`,
          ),
        ),
      ),
    );
    expect(new Set(made.map((r) => r.rows[0]!.child)).size).toBe(6);
    const { rows } = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM endpoint_events_default WHERE company_id = ${alpha} AND batch_id = 0`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('stores a mail, its attachments and their files once in the warehouse, whoever sends them', async () => {
    const first = await ingest('mail', alphaKey, phishingMessage());
    expect(first.status).toBe(200);
    expect(first.body.accepted).toBe(1);
    const again = await ingest('mail', alphaKey, phishingMessage());
    const other = await ingest('mail', betaKey, phishingMessage());
    expect(again.body.accepted).toBe(1);
    expect(other.body.accepted).toBe(1);
    const mails = await alphaUser.post<ListAnswer<StoredEventItem>>('/api/mailing/check/', { has_attachments: true });
    expect(mails.body.count).toBe(2);
    const subject = mails.body.results[0]!.event.subject as string;
    expect(
      (await alphaUser.post<{ count: number }>('/api/mailing/count/', { search: subject.slice(0, 8) })).body.count,
    ).toBe(2);
    const attaches = await alphaUser.post<ListAnswer<{ sha256: string }>>('/api/attaches/check/', {});
    expect(attaches.body.count).toBe(6);
    const peSha = createHash('sha256').update(PHISH_ATTACHMENTS.pe).digest('hex');
    const files = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM warehouse_files WHERE sha256 = ${peSha}`,
    );
    expect(files.rows[0]!.n).toBe(1);
    const warehouse = await alphaUser.post<ListAnswer<WarehouseFile>>('/api/warehouse/check/', { hash: peSha });
    expect(warehouse.body.count).toBe(1);
    expect(warehouse.body.results[0]!.detected_type).toBe('pe');
    const hashes = await alphaUser.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/', { hash: peSha });
    expect(hashes.body.results[0]!.sightings).toBe(2);
    expect(hashes.body.results[0]!.sources).toEqual(['mail']);
    const download = await fetch(`${t.url}/api/warehouse/${peSha}/download/`, {
      headers: { cookie: `vigil_session=${alphaUser.cookie('vigil_session')}` },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PHISH_ATTACHMENTS.pe)).toBe(true);
    const gamma = await buildCompany(t.db, 'Gamma Energy');
    await buildUser(t.db, { username: 'carol', companyId: gamma, permissions: eventPermissions });
    const carol = t.client();
    await carol.signIn('carol', 'User-password-1');
    expect((await carol.get(`/api/warehouse/${peSha}/download/`)).status).toBe(404);
    expect((await carol.post<{ count: number }>('/api/warehouse/count/', {})).body.count).toBe(0);
  });
});

describe('mail handed over later', () => {
  it('is stored at the arrival time the sender gives, and so are its files’ sightings', async () => {
    const delta = await buildCompany(t.db, 'Delta Shipping');
    await buildUser(t.db, { username: 'dora', companyId: delta, permissions: eventPermissions });
    const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
      name: 'delta relay',
      company_id: delta,
    });
    const dora = t.client();
    await dora.signIn('dora', 'User-password-1');
    const send = (query: string) =>
      fetch(`${t.url}/api/ingest/mail/${query}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${token.body.key}` },
        body: phishingMessage(),
      });

    const arrived = '2026-03-02T08:30:15.000Z';
    const sent = await send(`?received_at=${encodeURIComponent('2026-03-02T09:30:15+01:00')}`);
    expect(sent.status).toBe(200);
    const mails = await dora.post<ListAnswer<StoredEventItem>>('/api/mailing/check/', {});
    expect(mails.body.results.map((mail) => Date.parse(mail.ts))).toEqual([Date.parse(arrived)]);
    const attaches = await dora.post<ListAnswer<{ ts: string }>>('/api/attaches/check/', {});
    expect(new Set(attaches.body.results.map((a) => Date.parse(a.ts)))).toEqual(new Set([Date.parse(arrived)]));
    const peSha = createHash('sha256').update(PHISH_ATTACHMENTS.pe).digest('hex');
    const hashes = await dora.post<ListAnswer<WarehouseHash>>('/api/warehouse/hashes/check/', { hash: peSha });
    expect(Date.parse(hashes.body.results[0]!.first_seen)).toBe(Date.parse(arrived));
    expect(Date.parse(hashes.body.results[0]!.last_seen)).toBe(Date.parse(arrived));

    // Not ahead of the server's clock, and a date and time with a zone; nothing is stored otherwise.
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    for (const value of [ahead, 'yesterday', '2026-03-02 08:30']) {
      const refused = await send(`?received_at=${encodeURIComponent(value)}`);
      expect([value, refused.status]).toEqual([value, 400]);
      const body = (await refused.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors)).toEqual(['received_at']);
    }
    expect((await dora.post<{ count: number }>('/api/mailing/count/', {})).body.count).toBe(1);
  });
});

describe('bad input', () => {
  it('keeps every good line and reports every bad one with its line number', async () => {
    const good = JSON.stringify(FLOW);
    const body = [
      good,
      '{"timestamp": "2024-03-12T14:02:11Z", "event_type": "flow"', // truncated
      '',
      JSON.stringify({ ...FLOW, src_port: 'eighty' }), // wrong type
      '\u0001\u0002binary\u00ff junk',
      '[1,2,3]',
      `{"timestamp":"2024-03-12T14:02:11Z","event_type":"flow","x":"${'a'.repeat(3000)}"}`,
      good,
    ].join('\n');
    const answer = await ingest('network', alphaKey, body);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(2 + 1); // the long line is within the default 1 MiB
    expect(answer.body.rejected.map((r) => r.line)).toEqual([2, 4, 5, 6]);
    for (const r of answer.body.rejected) expect(r.reason).toMatch(new RegExp(`^line ${r.line}: `));
    const count = await alphaUser.post<{ count: number }>('/api/network/count/', { batch_id: answer.body.batch_id });
    expect(count.body.count).toBe(3);
  });

  it('refuses a line over the limit with its reason, and a body over the limit with 413', async () => {
    const huge = `{"timestamp":"2024-03-12T14:02:11Z","event_type":"flow","x":"${'a'.repeat(1_100_000)}"}`;
    const answer = await ingest('network', alphaKey, `${JSON.stringify(FLOW)}\n${huge}`);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(1);
    expect(answer.body.rejected[0]!.line).toBe(2);
    expect(answer.body.rejected[0]!.reason).toMatch(/over the limit/);
    const tooBig = await ingest('network', alphaKey, Buffer.alloc(21 * 1024 * 1024, 0x20));
    expect(tooBig.status).toBe(413);
  });

  it('takes raw bytes whatever the content type, and refuses garbage mail with a reason', async () => {
    const asJson = await ingest('endpoint', alphaKey, lines(ENDPOINT_SAMPLES.slice(0, 2)), {
      'content-type': 'application/json',
    });
    expect(asJson.status).toBe(200);
    expect(asJson.body.accepted).toBe(2);
    const junk = await ingest('mail', alphaKey, Buffer.from([0, 1, 2, 3, 255, 254]));
    expect(junk.status).toBeLessThan(500);
    const empty = await ingest('mail', alphaKey, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.accepted).toBe(0);
    expect(empty.body.rejected[0]!.reason).toMatch(/empty/);
  });

  it('answers 400 when no line at all could be read, and the same again for a retry of that batch', async () => {
    const before = await alphaUser.post<{ count: number }>('/api/network/count/', {});
    const bad = await ingest('network', alphaKey, 'not json\n{"event_type": 5}\n', { 'idempotency-key': 'all-bad-1' });
    expect(bad.status).toBe(400);
    const body = bad.body as IngestAnswer & { errors: Record<string, string[]> };
    expect(body.accepted).toBe(0);
    expect(body.rejected.map((r) => r.line)).toEqual([1, 2]);
    expect(body.errors.body?.[0]).toMatch(/every line was rejected/);
    const retried = await ingest('network', alphaKey, 'not json\n{"event_type": 5}\n', {
      'idempotency-key': 'all-bad-1',
    });
    expect(retried.status).toBe(400);
    expect(retried.body.batch_id).toBe(body.batch_id);
    // Blank lines only: nothing to read and nothing wrong.
    expect((await ingest('network', alphaKey, '\n\n')).status).toBe(200);
    const mixed = await ingest('network', alphaKey, `${lines([FLOW])}\nnot json`);
    expect(mixed.status).toBe(200);
    expect(mixed.body.accepted).toBe(1);
    const after = await alphaUser.post<{ count: number }>('/api/network/count/', {});
    expect(after.body.count).toBe(before.body.count + 1);
  });

  it('stores a mail with 200 attachments', async () => {
    const answer = await ingest('mail', betaKey, manyAttachmentsMessage(200));
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(1);
    const count = await betaUser.post<{ count: number }>('/api/attaches/count/', {});
    expect(count.body.count).toBe(3 + 200);
  });
});

describe('idempotency', () => {
  it('stores a retried batch once and answers the original result', async () => {
    const body = `${lines([FLOW, ALERT])}\nnot json`;
    const first = await ingest('network', betaKey, body, { 'idempotency-key': 'batch-0001' });
    const retry = await ingest('network', betaKey, body, { 'idempotency-key': 'batch-0001' });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const count = await betaUser.post<{ count: number }>('/api/network/count/', { batch_id: first.body.batch_id });
    expect(count.body.count).toBe(2);
    // The same key from another company is another batch.
    const alphaBatch = await ingest('network', alphaKey, body, { 'idempotency-key': 'batch-0001' });
    expect(alphaBatch.body.batch_id).not.toBe(first.body.batch_id);
  });
});

describe('retention', () => {
  it('drops whole partitions past every retention and deletes older rows of shorter retentions', async () => {
    const delta = await buildCompany(t.db, 'Delta Short');
    await t.db.query(sql`UPDATE companies SET retention_days = 10 WHERE id = ${delta}`);
    const key = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'delta', company_id: delta })).body
      .key;
    const now = new Date();
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
    const flowAt = (ts: string) => JSON.stringify({ ...FLOW, timestamp: ts });
    // 200 days ago: past every company's retention (90 at most); 30 days ago: past Delta's only.
    await ingest('network', key, [flowAt(at(200)), flowAt(at(30)), flowAt(at(1))].join('\n'));
    await ingest('network', alphaKey, [flowAt(at(200)), flowAt(at(30)), flowAt(at(1))].join('\n'));
    const result = await pruneEvents(t.db, now);
    const oldMonth = at(200).slice(0, 7).replace('-', '');
    expect(result.droppedPartitions).toContain(`network_events_p${oldMonth}`);
    const left = await t.db.query<{ company_id: number; ts: Date }>(
      sql`SELECT company_id, ts FROM network_events WHERE company_id IN (${alpha}, ${delta}) AND ts > now() - interval '400 days' ORDER BY company_id, ts`,
    );
    const days = (ts: Date) => Math.round((now.getTime() - new Date(ts).getTime()) / 86_400_000);
    expect(left.rows.filter((r) => Number(r.company_id) === delta).map((r) => days(r.ts))).toEqual([1]);
    expect(left.rows.filter((r) => Number(r.company_id) === alpha).map((r) => days(r.ts))).toEqual([30, 1]);
    // A new event for a dropped month is still accepted (the partition is made again).
    expect((await ingest('network', alphaKey, flowAt(at(200)))).body.accepted).toBe(1);
  });

  it("forgets a company's hash sightings past its retention, and the bytes once nothing names them", async () => {
    const echo = await buildCompany(t.db, 'Echo Short');
    await t.db.query(sql`UPDATE companies SET retention_days = 10 WHERE id = ${echo}`);
    const key = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'echo', company_id: echo })).body
      .key;
    const now = new Date();
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
    const sha = (label: string) => createHash('sha256').update(label).digest('hex');
    const processAt = (ts: string, label: string) =>
      JSON.stringify({
        '@timestamp': ts,
        host: { name: 'ECHO-1' },
        event: { action: 'process-create' },
        process: { pid: 1, name: `${label}.exe`, hash: { sha256: sha(label) } },
      });
    await ingest('endpoint', key, [processAt(at(30), 'echo-old'), processAt(at(1), 'echo-new')].join('\n'));
    // Files whose bytes are held: the stored mail names them until the mail itself goes.
    expect((await ingest('mail', key, phishingMessage())).body.accepted).toBe(1);
    const bytesHeld = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM warehouse_files`);
    expect(bytesHeld.rows[0]!.n).toBeGreaterThan(0);
    await t.db
      .query(sql`INSERT INTO warehouse_files (sha256, md5, sha1, size, detected_type, content, first_seen, last_seen)
      VALUES (${sha('orphan bytes')}, 'm', 's', 1, 'unknown', decode('00', 'hex'), now(), now())`);
    const result = await pruneEvents(t.db, now);
    expect(result.deletedHashes).toBeGreaterThanOrEqual(1);
    const left = await t.db.query<{ sha256: string }>(
      sql`SELECT sha256 FROM warehouse_hashes WHERE company_id = ${echo} ORDER BY sha256`,
    );
    expect(left.rows.map((r) => r.sha256)).toContain(sha('echo-new'));
    expect(left.rows.map((r) => r.sha256)).not.toContain(sha('echo-old'));
    // The mail's attachments were seen today: their sightings stay.
    expect(left.rows).toHaveLength(1 + 3);
    const files = await t.db.query<{ sha256: string }>(sql`SELECT sha256 FROM warehouse_files`);
    expect(files.rows.map((r) => r.sha256)).not.toContain(sha('orphan bytes'));
    // Files other companies' mails still name are kept.
    expect(files.rows.length).toBe(bytesHeld.rows[0]!.n);
  });
});
