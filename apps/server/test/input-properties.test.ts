import { gzipSync } from 'node:zlib';
import type { IngestAnswer, IngestTokenCreated } from '@vigil/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_SAMPLES } from '../src/modules/ingest/parsers/fixtures/endpoint';
import { EVE_SAMPLES } from '../src/modules/ingest/parsers/fixtures/eve';
import { phishingMessage } from '../src/modules/ingest/parsers/fixtures/mail';
import type { TestClient } from './helpers/http-client';
import { filterNames, listEndpointGroups } from './helpers/list-endpoints';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Random bytes and random text where a hostile or broken sender puts them: as lines of every ingest
 * endpoint (NUL, invalid UTF-8, gzip, binary, JSON string values of any code unit), as a whole mail,
 * and as the search of every list the contract declares. Nothing answers 5xx, every good line of a
 * mixed batch is kept, and every reason given back is text that can be stored and shown.
 * Seeded, so a failure is reproduced by running the file again.
 */

const SEED = 20_261_125;

let t: TestApp;
let admin: TestClient;
let key: string;
let batchNumber = 0;

beforeAll(async () => {
  t = await startTestApp();
  const companyId = await buildCompany(t.db, 'Epsilon Works');
  admin = await t.admin();
  const created = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'fuzz', company_id: companyId });
  expect(created.status).toBe(201);
  key = created.body.key;
});
afterAll(async () => {
  await t?.close();
});

/** Any UTF-16 code unit, lone surrogates and NUL included, with JSON's and LIKE's special characters common. */
const anyCodeUnit = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\\', '"', '%', '_', '!', '\ud800', '\udc00', '\ufffd', '\n') },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);
const anyText = fc.string({ unit: anyCodeUnit, maxLength: 60 });

/** Text that cannot be stored must be refused; everything else must be searchable. */
const unstorable = (text: string): boolean => text.includes('\u0000') || /\p{Cs}/u.test(text);

/** Bytes a reason may never hold raw. */
const CLEAN = /^[^\p{Cc}\p{Cs}]*$/u;

type Line = { good: boolean; bytes: Buffer };

/** A line that is not text: bytes of any value except LF (a line break would make it two lines). */
function junkLines(good: string): fc.Arbitrary<Line> {
  const noLf = (bytes: Uint8Array) => Buffer.from(bytes.map((b) => (b === 10 ? 0 : b)));
  return fc
    .oneof(
      fc.uint8Array({ minLength: 1, maxLength: 120 }).map(noLf),
      fc.uint8Array({ minLength: 1, maxLength: 16 }).map((b) => Buffer.concat([Buffer.from([0]), noLf(b)])),
      fc.constant(Buffer.from([0, 0, 0, 0])),
      fc.constant(Buffer.concat([Buffer.from([0]), Buffer.from(good)])),
      fc.constant(noLf(gzipSync(Buffer.from(good)))),
      fc
        .uint8Array({ minLength: 1, maxLength: 8 })
        .map((b) => Buffer.concat([Buffer.from(good.slice(0, 20)), Buffer.from([0xc3, 0x28, 0xff]), noLf(b)])),
    )
    .map((bytes) => ({ good: false, bytes }));
}

/** A good record with a JSON string value of any code units added: its escapes must be stored mended. */
function goodLines(samples: readonly object[]): fc.Arbitrary<Line> {
  return fc
    .tuple(fc.constantFrom(...samples), anyText, fc.constantFrom('note', 'comment', 'extra.value'))
    .map(([sample, value, field]) => ({
      good: true,
      bytes: Buffer.from(JSON.stringify({ ...sample, [field]: value })),
    }));
}

async function ingest(kind: 'network' | 'endpoint' | 'mail', body: Buffer, idempotencyKey: string) {
  const response = await fetch(`${t.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: {
      'content-type': kind === 'mail' ? 'message/rfc822' : 'application/x-ndjson',
      authorization: `Bearer ${key}`,
      'idempotency-key': idempotencyKey,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, body: (text ? JSON.parse(text) : {}) as IngestAnswer };
}

const isBlank = (bytes: Buffer): boolean => bytes.every((b) => b === 32 || b === 9 || b === 13);

const batchKinds = [
  { kind: 'network', samples: EVE_SAMPLES },
  { kind: 'endpoint', samples: ENDPOINT_SAMPLES },
] as const;

describe.each(batchKinds)('$kind ingest of random lines', ({ kind, samples }) => {
  it('never answers 5xx, keeps every good line, refuses the rest with clean reasons, answers a retry the same', async () => {
    const good = JSON.stringify(samples[0]);
    const line = fc.oneof(goodLines(samples), junkLines(good));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), async (lines) => {
        const body = Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l.bytes] : [Buffer.from('\n'), l.bytes])));
        const idempotencyKey = `fuzz-${kind}-${batchNumber++}`;
        const answer = await ingest(kind, body, idempotencyKey);
        expect(answer.status).toBeLessThan(500);
        const goodCount = lines.filter((l) => l.good).length;
        const refused = lines.flatMap((l, i) => (!l.good && !isBlank(l.bytes) ? [i + 1] : []));
        expect(answer.body.accepted).toBe(goodCount);
        expect(answer.body.rejected.map((r) => r.line)).toEqual(refused);
        for (const r of answer.body.rejected) expect(r.reason).toMatch(CLEAN);
        expect(answer.status).toBe(goodCount === 0 && refused.length > 0 ? 400 : 200);
        const retry = await ingest(kind, body, idempotencyKey);
        expect(retry.status).toBe(answer.status);
        expect(retry.body).toEqual(answer.body);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});

describe('mail ingest of random bytes', () => {
  it('never answers 5xx for any bytes, nor for any subject in a real message', async () => {
    const message = phishingMessage().toString('latin1');
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b)),
      fc
        .uint8Array({ maxLength: 64 })
        .map((b) =>
          Buffer.from(message.replace(/^Subject: .*$/m, `Subject: ${Buffer.from(b).toString('latin1')}`), 'latin1'),
        ),
      fc
        .uint8Array({ minLength: 1, maxLength: 24 })
        .map((b) =>
          Buffer.from(
            message.replace(/^Subject: .*$/m, `Subject: =?utf-16le?B?${Buffer.from(b).toString('base64')}?=`),
            'latin1',
          ),
        ),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await ingest('mail', body, `fuzz-mail-${batchNumber++}`);
        expect(answer.status).toBeLessThan(500);
        for (const r of answer.body.rejected ?? []) expect(r.reason).toMatch(CLEAN);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});

describe('random text as the search, and every other filter, of every list', () => {
  const lists = listEndpointGroups();

  it('finds the lists of the contract and their filters', () => {
    expect(lists.length).toBeGreaterThanOrEqual(18);
    for (const { group } of lists) expect(filterNames(group).length).toBeGreaterThan(0);
  });

  for (const { name, group } of lists) {
    const filters = filterNames(group);
    const searched = filters.includes('search');
    it(`${name}: 400 for text that cannot be stored${searched ? ', a search of any other text answers 200' : ''}, never 5xx`, async () => {
      // The search most of the time, any declared filter otherwise (whose type may well refuse text).
      const filter = searched
        ? fc.oneof(
            { weight: 3, arbitrary: fc.constant('search') },
            { weight: 1, arbitrary: fc.constantFrom(...filters) },
          )
        : fc.constantFrom(...filters);
      await fc.assert(
        fc.asyncProperty(filter, anyText, fc.boolean(), async (field, text, count) => {
          const endpoint = count ? group.count : group.list;
          const answer = await admin.post<{ errors?: Record<string, string[]> }>(endpoint.path, { [field]: text });
          const shown = `${field}=${JSON.stringify(text)}: ${answer.status} ${JSON.stringify(answer.body)}`;
          expect(answer.status, shown).toBeLessThan(500);
          if (unstorable(text)) {
            expect(answer.status, shown).toBe(400);
            expect(answer.body.errors?.[field], shown).toBeDefined();
          } else if (field === 'search') expect(answer.status, shown).toBe(200);
        }),
        { seed: SEED, numRuns: 30 },
      );
    });
  }
});
