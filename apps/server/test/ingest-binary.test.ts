import { gzipSync } from 'node:zlib';
import type { IngestAnswer, IngestTokenCreated } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { ENDPOINT_SAMPLES } from '../src/modules/ingest/parsers/fixtures/endpoint';
import { FLOW } from '../src/modules/ingest/parsers/fixtures/eve';
import { phishingMessage } from '../src/modules/ingest/parsers/fixtures/mail';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

/*
 * What a sensor sends that is not text: NUL bytes, gzip, other binary, text in another encoding.
 * Each such line is refused on its own with a reason that is itself clean text; the good lines of
 * the batch are kept, the batch is recorded, and a retry under its Idempotency-Key answers the same.
 */

let t: TestApp;
let companyId: number;
let key: string;

type Answer = IngestAnswer & { errors?: Record<string, string[]> };

async function ingest(kind: 'network' | 'endpoint' | 'mail', body: Buffer, idempotencyKey?: string) {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: {
      'content-type': kind === 'mail' ? 'message/rfc822' : 'application/x-ndjson',
      authorization: `Bearer ${key}`,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Answer };
}

/** Text safe to store and show: no C0 control character (NUL included) and no lone surrogate. */
const CLEAN = /^[^\p{Cc}\p{Cs}]*$/u;

const joinLines = (lines: (string | Buffer)[]): Buffer =>
  Buffer.concat(lines.flatMap((line, i) => [i > 0 ? Buffer.from('\n') : Buffer.alloc(0), Buffer.from(line)]));

beforeAll(async () => {
  t = await startTestApp();
  companyId = await buildCompany(t.db, 'Gamma Logistics');
  const admin = await t.admin();
  const created = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
    name: 'sensor',
    company_id: companyId,
  });
  expect(created.status).toBe(201);
  key = created.body.key;
});
afterAll(async () => {
  await t?.close();
});

const samples = {
  network: JSON.stringify(FLOW),
  endpoint: JSON.stringify(ENDPOINT_SAMPLES[0]),
} as const;

describe.each(['network', 'endpoint'] as const)('%s ingest of lines that are not text', (kind) => {
  const good = samples[kind];

  it('refuses each binary line with a clean reason, keeps the good ones and answers a retry the same', async () => {
    const body = joinLines([
      good,
      Buffer.from([0, 0, 0, 0]),
      gzipSync(Buffer.from(good)).subarray(0, 10), // a gzip header sent as a line
      Buffer.concat([Buffer.from([0]), Buffer.from(good)]), // \x00{…}
      Buffer.concat([Buffer.from('{"timestamp":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]), // not UTF-8
      `${good.slice(0, -1)},"note":"a\\ud800b"}`, // half a surrogate pair, escaped: stored mended
      `${good.slice(0, -1)},"note":"x\\u0000y"}`, // an escaped NUL: stored mended
      good,
    ]);
    const first = await ingest(kind, body, `binary-${kind}`);
    expect(first.status).toBe(200);
    expect(first.text).not.toContain('\\u0000');
    expect(first.body.accepted).toBe(4);
    expect(first.body.rejected.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    const reasons = first.body.rejected.map((r) => r.reason);
    for (const reason of reasons) expect(reason).toMatch(CLEAN);
    expect(reasons[0]).toMatch(/^line 2: not JSON text: it holds the control character U\+0000 at character 1/);
    expect(reasons[1]).toMatch(/^line 3: gzip-compressed data, not text/);
    expect(reasons[2]).toMatch(/^line 4: not JSON text: it holds the control character U\+0000 at character 1/);
    expect(reasons[3]).toMatch(/^line 5: not UTF-8 text: byte 15 \(0xFF\)/);

    // The batch is recorded with its answer; a retry stores nothing more and answers the same.
    const { rows } = await t.db.query<{ accepted: number; rejected: unknown }>(
      sql`SELECT accepted, rejected FROM ingest_batches WHERE id = ${first.body.batch_id}`,
    );
    expect(rows[0]).toEqual({ accepted: 4, rejected: first.body.rejected });
    const retry = await ingest(kind, body, `binary-${kind}`);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    const table = kind === 'network' ? sql`network_events` : sql`endpoint_events`;
    const stored = await t.db.query<{ raw: string }>(
      sql`SELECT raw::text AS raw FROM ${table} WHERE batch_id = ${first.body.batch_id} ORDER BY id`,
    );
    expect(stored.rows).toHaveLength(4);
    expect(stored.rows[1]!.raw).toContain('"note":"a\\ufffdb"');
    expect(stored.rows[2]!.raw).toContain('"note":"x\\ufffdy"');
  });

  it('answers 400 for a batch of NUL bytes alone, and the same 400 to its retry', async () => {
    const body = Buffer.from([0, 0, 0, 0]);
    const first = await ingest(kind, body, `nul-only-${kind}`);
    expect(first.status).toBe(400);
    expect(first.body.accepted).toBe(0);
    expect(first.body.rejected[0]!.reason).toMatch(/^line 1: not JSON text: it holds the control character U\+0000/);
    expect(first.body.errors?.body?.[0]).toMatch(/every line was rejected/);
    const retry = await ingest(kind, body, `nul-only-${kind}`);
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual(first.body);
  });
});

describe('mail ingest of a message holding NUL', () => {
  it('stores the message with NUL made U+FFFD in every text it keeps', async () => {
    const message = phishingMessage()
      .toString('latin1')
      .replace(/^Subject: (.*)$/m, 'Subject: =?utf-8?B?QQBC?= $1\u0000')
      .replace('\r\n\r\n', '\r\nX-Mailer: evil\u0000mailer\r\n\r\n');
    const answer = await ingest('mail', Buffer.from(message, 'latin1'), 'mail-with-nul');
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(1);
    const { rows } = await t.db.query<{ subject: string }>(
      sql`SELECT subject FROM mail_messages WHERE batch_id = ${answer.body.batch_id}`,
    );
    expect(rows[0]!.subject).toMatch(/^A\uFFFDB/);
    expect(rows[0]!.subject).toMatch(CLEAN);
    const retry = await ingest('mail', Buffer.from(message, 'latin1'), 'mail-with-nul');
    expect(retry.body).toEqual(answer.body);
  });
});
