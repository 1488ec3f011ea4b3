import { createHash } from 'node:crypto';
import { endpointEventSchema, networkEventSchema, type EndpointEvent, type NetworkEvent } from '@vigil/contract';
import fc from 'fast-check';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { parseEndpointLines } from './endpoint';
import { parseEveLines } from './eve';
import { ENDPOINT_SAMPLES } from './fixtures/endpoint';
import { EVE_SAMPLES } from './fixtures/eve';
import { phishingMessage } from './fixtures/mail';
import type { LineParseOptions, LineResult } from './lines';
import { parseMail } from './mail';
import { normaliseIp, normaliseTimestamp } from './values';

type Parser<T> = (body: string | Uint8Array, options?: LineParseOptions) => LineResult<T>[];

const parsers = [
  {
    name: 'EVE',
    parse: parseEveLines as Parser<NetworkEvent | EndpointEvent>,
    schema: networkEventSchema,
    samples: EVE_SAMPLES,
  },
  {
    name: 'endpoint',
    parse: parseEndpointLines as Parser<NetworkEvent | EndpointEvent>,
    schema: endpointEventSchema,
    samples: ENDPOINT_SAMPLES,
  },
] as const;

/** The line numbers a body's non-blank lines have, by the documented rules (LF, optional CR, BOM). */
function nonBlankLines(body: string): number[] {
  const lines = body.replace(/^\uFEFF/, '').split('\n');
  return lines.flatMap((line, i) => (/^[ \t\r]*$/.test(line) ? [] : [i + 1]));
}

/** Any code unit, lone surrogates included; newlines common so that bodies have many lines. */
const anyText = fc.string({
  unit: fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n', '\r', ' ', '\t', '{', '}', '"', '\\', '\u0000', '\uFEFF') },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
  ),
  maxLength: 400,
});

/** Keys that would pollute prototypes if copied carelessly, mixed with the parsers' own field names. */
const trickyKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'timestamp',
  '@timestamp',
  'event_type',
  'src_ip',
  'flow_id',
  'alert',
  'dns',
  'Event',
  'System',
  'EventData',
  'process',
  'host.ip',
  'winlog',
);
const trickyObject = fc.dictionary(fc.oneof(trickyKey, fc.string()), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });

/** A sample with one field replaced by anything JSON can hold. */
function mutatedSample(samples: readonly object[]) {
  return fc
    .tuple(fc.constantFrom(...samples), fc.oneof(trickyKey, fc.string()), fc.jsonValue({ maxDepth: 2 }))
    .map(([sample, key, value]) => JSON.stringify({ ...sample, [key]: value }));
}

function checkAccounting<T>(results: LineResult<T>[], body: string): void {
  expect(results.map((r) => r.line)).toEqual(nonBlankLines(body));
  for (const result of results) {
    if (!result.ok) expect(result.reason).toMatch(new RegExp(`^line ${result.line}: \\S`));
  }
}

describe.each(parsers)('$name parser properties', ({ parse, schema, samples }) => {
  it('never throws on any text, and reports every non-blank line exactly once', () => {
    fc.assert(
      fc.property(anyText, (body) => {
        checkAccounting(parse(body), body);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on any bytes, and reports every non-blank line once', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const results = parse(bytes);
        const buffer = Buffer.from(bytes);
        const start = buffer.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
        let line = 0;
        const expected: number[] = [];
        for (let from = start; from <= buffer.length;) {
          let end = buffer.indexOf(10, from);
          if (end < 0) end = buffer.length;
          line++;
          if (!/^[ \t\r]*$/.test(buffer.toString('utf8', from, end))) expected.push(line);
          from = end + 1;
        }
        expect(results.map((r) => r.line)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('answers any JSON value and any object with tricky keys; what it accepts matches the contract', () => {
    const line = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      trickyObject.map((v) => JSON.stringify(v)),
      mutatedSample(samples),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const body = lines.join('\n');
        const results = parse(body);
        checkAccounting(results, body);
        for (const result of results) if (result.ok) schema.parse(result.event);
        expect(Object.prototype).not.toHaveProperty('polluted');
        expect(({} as Record<string, unknown>).timestamp).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every good line among junk, each as it would be alone', () => {
    const alone = samples.map((s) => {
      const [result] = parse(JSON.stringify(s));
      if (result === undefined || !result.ok) throw new Error('sample refused');
      return { event: result.event, text: result.text };
    });
    const entry = fc.oneof(
      fc.nat({ max: samples.length - 1 }).map((i) => ({ sample: i })),
      fc.string({ maxLength: 60 }).map((junk) => ({ junk: junk.replace(/[\r\n]/g, ' ') })),
      fc.constant({ junk: '' }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), fc.constantFrom('\n', '\r\n'), (entries, eol) => {
        const lines = entries.map((e) => ('sample' in e ? JSON.stringify(samples[e.sample]) : e.junk));
        const body = lines.join(eol);
        const results = parse(body);
        checkAccounting(results, body);
        const byLine = new Map(results.map((r) => [r.line, r]));
        entries.forEach((e, i) => {
          if (!('sample' in e)) return;
          expect(byLine.get(i + 1)).toEqual({ line: i + 1, ok: true, ...alone[e.sample] });
        });
      }),
      { numRuns: 200 },
    );
  });

  it('parses a body in two parts as it parses the whole', () => {
    const line = fc.oneof(
      fc.constantFrom(...samples).map((s) => JSON.stringify(s)),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.array(line, { maxLength: 10 }), (a, b) => {
        const first = a.join('\n');
        const second = b.join('\n');
        const shift = first.split('\n').length;
        const shifted = parse(second).map((r) => ({
          ...r,
          line: r.line + shift,
          ...(r.ok ? {} : { reason: r.reason.replace(/^line \d+/, `line ${r.line + shift}`) }),
        }));
        expect(parse(`${first}\n${second}`)).toEqual([...parse(first), ...shifted]);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses exactly the lines longer than the limit, by their UTF-8 length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 60 }),
        (texts, limit) => {
          const lines = texts.map((t) => JSON.stringify({ t }));
          const results = parse(lines.join('\n'), { maxLineBytes: limit });
          lines.forEach((line, i) => {
            const result = results.find((r) => r.line === i + 1);
            const tooLong = Buffer.byteLength(line) > limit;
            expect(!result?.ok && result?.reason.includes('over the limit')).toBe(tooLong);
          });
        },
      ),
    );
  });
});

/** A Suricata record built from generated values; flow_id written as a raw 64-bit number. */
const eveRecord = fc.record({
  time: fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }),
  micros: fc.integer({ min: 0, max: 999 }),
  offsetMinutes: fc.integer({ min: -14 * 60, max: 14 * 60 }),
  eventType: fc.oneof(
    fc.constantFrom('alert', 'flow', 'dns', 'http', 'tls', 'fileinfo', 'anomaly'),
    fc.stringMatching(/^[a-z_]{1,20}$/),
  ),
  srcIp: fc.oneof(fc.ipV4(), fc.ipV6()),
  destIp: fc.oneof(fc.ipV4(), fc.ipV6()),
  srcPort: fc.integer({ min: 0, max: 65535 }),
  destPort: fc.integer({ min: 0, max: 65535 }),
  flowId: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  signatureId: fc.integer({ min: 1, max: 2 ** 31 }),
  severity: fc.integer({ min: 1, max: 255 }),
  signature: fc.string({ unit: 'binary', maxLength: 80 }),
  host: fc.string({ minLength: 1, maxLength: 30 }),
});

/** `2024-05-06T12:11:12.123456+0200`: EVE's way of writing a time, at the given offset. */
function eveTime(time: Date, micros: number, offsetMinutes: number): string {
  const local = new Date(time.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${local}${String(micros).padStart(3, '0')}${zone}`;
}

describe('round trips', () => {
  it('EVE: what goes in comes out normalised, flow ids exact', () => {
    fc.assert(
      fc.property(eveRecord, (r) => {
        const record = {
          timestamp: eveTime(r.time, r.micros, r.offsetMinutes),
          flow_id: 0,
          event_type: r.eventType,
          src_ip: r.srcIp,
          src_port: r.srcPort,
          dest_ip: r.destIp,
          dest_port: r.destPort,
          proto: 'TCP',
          host: r.host,
          alert: { signature_id: r.signatureId, rev: 1, signature: r.signature, severity: r.severity },
        };
        const line = JSON.stringify(record).replace('"flow_id":0', `"flow_id":${r.flowId}`);
        const [result] = parseEveLines(line);
        if (result === undefined || !result.ok) throw new Error(JSON.stringify(result));
        const event = networkEventSchema.parse(result.event);
        expect(event.flow_id).toBe(r.flowId.toString());
        const expectedTime = `${r.time.toISOString().slice(0, 23)}${String(r.micros).padStart(3, '0')}`.replace(
          /\.?0+$/,
          '',
        );
        expect(event.timestamp).toBe(`${expectedTime}Z`);
        expect([event.src_port, event.dest_port, event.host]).toEqual([r.srcPort, r.destPort, r.host]);
        expect(event.alert).toMatchObject({
          signature_id: r.signatureId,
          severity: r.severity,
          signature: r.signature.replaceAll('\u0000', '\uFFFD'),
        });
        for (const [given, got] of [
          [r.srcIp, event.src_ip],
          [r.destIp, event.dest_ip],
        ] as const) {
          if (given.includes('.') && !given.includes(':')) expect(got).toBe(given);
          else if (got !== null && got.includes(':')) {
            // The WHATWG URL parser writes IPv6 hosts in the same canonical form.
            expect(`[${got}]`).toBe(new URL(`http://[${given}]/`).hostname);
          } else expect(new URL(`http://[${given}]/`).hostname).toMatch(/^\[::ffff:/);
          expect(normaliseIp(got ?? '')).toBe(got);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('EVTX: every EventData value comes back in event_data, NUL made U+FFFD', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,20}$/);
    const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 15 }), fc.integer({ min: 0, max: 65535 }), (data, eventId) => {
        // Fields the normaliser reads as numbers or addresses must hold such values.
        const safe = Object.fromEntries(
          Object.entries(data).filter(([key]) => !/Id$|Ip$|Port$|^(ProcessId|IpAddress|IpPort)$/i.test(key)),
        );
        const record = {
          Event: {
            System: {
              Provider: { '#attributes': { Name: 'Microsoft-Windows-Sysmon' } },
              EventID: eventId,
              TimeCreated: { '#attributes': { SystemTime: '2024-03-12T14:12:45.118342Z' } },
              Channel: 'Microsoft-Windows-Sysmon/Operational',
              Computer: 'WS-FIN-07',
            },
            EventData: safe,
          },
        };
        const [result] = parseEndpointLines(JSON.stringify(record));
        if (result === undefined || !result.ok) throw new Error(JSON.stringify(result));
        const expected = Object.fromEntries(
          Object.entries(safe).map(([k, v]) => [k, typeof v === 'string' ? v.replaceAll('\u0000', '\uFFFD') : v]),
        );
        expect(result.event.event_data).toEqual(expected);
        expect(result.event.event.code).toBe(String(eventId));
        endpointEventSchema.parse(result.event);
      }),
      { numRuns: 300 },
    );
  });

  it('ECS: process, user and network fields come back as sent', () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(
        fc.record({
          pid: fc.nat(),
          executable: text,
          commandLine: text,
          user: text,
          srcIp: fc.ipV4(),
          destPort: fc.integer({ min: 0, max: 65535 }),
          time: fc.date({ min: new Date(0), max: new Date('2999-01-01'), noInvalidDate: true }),
        }),
        (r) => {
          const record = {
            '@timestamp': r.time.toISOString(),
            process: { pid: r.pid, executable: r.executable, command_line: r.commandLine },
            user: { name: r.user },
            source: { ip: r.srcIp },
            destination: { port: r.destPort },
          };
          const [result] = parseEndpointLines(JSON.stringify(record));
          if (result === undefined || !result.ok) throw new Error(JSON.stringify(result));
          const nul = (s: string) => s.replaceAll('\u0000', '\uFFFD');
          expect(result.event).toMatchObject({
            timestamp: normaliseTimestamp(r.time.toISOString()),
            process: { pid: r.pid, executable: nul(r.executable), command_line: nul(r.commandLine) },
            user: { name: nul(r.user) },
            network: { src_ip: r.srcIp, dest_port: r.destPort },
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('timestamps: any instant at any offset comes back as the same UTC instant', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0002-01-01T00:00:00Z'), max: new Date('9998-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: -23 * 60, max: 23 * 60 }),
        (time, micros, offset) => {
          const got = normaliseTimestamp(eveTime(time, micros, offset));
          expect(got).not.toBeNull();
          expect(new Date(got ?? '').getTime()).toBe(time.getTime());
          expect(normaliseTimestamp(got ?? '')).toBe(got);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('mail parser properties', () => {
  it('never throws or rejects on any bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const result = await parseMail(Buffer.from(bytes));
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on a real message cut short or with bytes changed', async () => {
    const original = phishingMessage();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: original.length }),
        fc.array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 20 }),
        async (cut, flips) => {
          const bytes = Buffer.from(original.subarray(0, cut));
          for (const [at, value] of flips) if (at < bytes.length) bytes[at] = value;
          const result = await parseMail(bytes);
          if (result.ok) {
            for (const a of result.message.attachments) {
              expect(a.sha256).toBe(createHash('sha256').update(a.content).digest('hex'));
              expect(a.size).toBe(a.content.length);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives back the subject, text and attachments a mail composer put in', async () => {
    const words = fc.string({
      unit: fc.constantFrom(...'abcXYZ019 éжあ€😀-_.,!?'),
      minLength: 1,
      maxLength: 60,
    });
    const filename = fc.stringMatching(/^[a-z0-9_-]{1,20}\.(txt|bin|pdf|exe|docx)$/);
    await fc.assert(
      fc.asyncProperty(
        words,
        fc.array(words, { minLength: 1, maxLength: 5 }),
        fc.array(fc.record({ filename, content: fc.uint8Array({ maxLength: 3000 }) }), { maxLength: 6 }),
        async (subject, paragraphs, attachments) => {
          const raw = await new MailComposer({
            from: 'sender@example.com',
            to: 'analyst@corp.example',
            subject,
            text: paragraphs.join('\n'),
            attachments: attachments.map((a) => ({ filename: a.filename, content: Buffer.from(a.content) })),
          })
            .compile()
            .build();
          const result = await parseMail(raw);
          if (!result.ok) throw new Error(result.reason);
          const message = result.message;
          expect(message.subject).toBe(subject.trim() || null);
          expect(message.text?.trimEnd()).toBe(paragraphs.join('\n').trimEnd());
          expect(message.from).toEqual({ address: 'sender@example.com', name: null });
          expect(message.attachments.map((a) => [a.filename, a.sha256])).toEqual(
            attachments.map((a) => [a.filename, createHash('sha256').update(a.content).digest('hex')]),
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});
