/**
 * Indicator matching micro-benchmark: builds the in-memory index with 100,000 indicators (IPs,
 * CIDRs v4/v6, domains, URLs, e-mail addresses, hashes, file names over 3 companies plus
 * all-companies ones) and prints lookups per second, and events per second through
 * indicatorDetections' matching (detectWithIndex) for network, endpoint and mail events.
 * No database. Usage: `npx tsx bench/indicators.ts` (BENCH_INDICATORS=… to change the count).
 */
import type { EndpointEvent, IndicatorType, MailMessage, NetworkEvent } from '@vigil/contract';
import { normaliseEndpoint } from '../apps/server/src/modules/ingest/parsers/endpoint';
import { normaliseEve } from '../apps/server/src/modules/ingest/parsers/eve';
import { detectWithIndex } from '../apps/server/src/modules/indicators/indicator-detections';
import {
  IndicatorIndex,
  type IndexedIndicator,
  type LookupKind,
} from '../apps/server/src/modules/indicators/indicator-index';
import { normaliseIndicatorValue } from '../apps/server/src/modules/indicators/indicator-values';
import type { StoredEvent } from '../apps/server/src/modules/pipeline/stored-events';

const total = Number(process.env.BENCH_INDICATORS ?? 100_000);
let seed = 42;
/** xorshift32: a deterministic, well-spread sequence of non-negative integers. */
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) & 0x7fffffff;
};
const hex = (n: number) => Array.from({ length: n }, () => (rand() & 15).toString(16)).join('');
const ip4 = () => `${(rand() % 223) + 1}.${rand() & 255}.${rand() & 255}.${rand() & 255}`;
const word = () => Array.from({ length: 6 + (rand() % 6) }, () => String.fromCharCode(97 + (rand() % 26))).join('');

const types: [IndicatorType, () => string, number][] = [
  ['ip', ip4, 0.3],
  ['cidr', () => `${ip4()}/${[16, 20, 24, 24, 24, 28, 30][rand() % 7]}`, 0.02],
  [
    'cidr',
    () =>
      `2a0${rand() % 10}:${(rand() & 0xffff).toString(16)}:${(rand() & 0xffff).toString(16)}::/${[48, 56, 64][rand() % 3]}`,
    0.01,
  ],
  ['domain', () => `${word()}.${word()}.com`, 0.25],
  ['url', () => `http://${word()}.net/${word()}.php`, 0.07],
  ['email', () => `${word()}@${word()}.org`, 0.05],
  ['md5', () => hex(32), 0.1],
  ['sha1', () => hex(40), 0.05],
  ['sha256', () => hex(64), 0.1],
  ['filename', () => `${word()}.exe`, 0.05],
];

const indicators: IndexedIndicator[] = [];
const samples = new Map<LookupKind, string[]>();
let id = 0;
for (const [type, make, share] of types) {
  const count = Math.round(total * share);
  for (let i = 0; i < count; i += 1) {
    const n = normaliseIndicatorValue(type, make());
    if (!n.ok) continue;
    id += 1;
    indicators.push({
      id,
      companyId: (id % 3) + 1,
      all: id % 10 === 0,
      type,
      value: n.value,
      policy: id % 50 === 0 ? 'ignore' : 'alert',
      severity: 'high',
      expiresAt: id % 7 === 0 ? Date.now() + 86_400_000 : null,
    });
    const kind: LookupKind = type === 'cidr' ? 'ip' : type;
    if (type !== 'cidr') (samples.get(kind) ?? samples.set(kind, []).get(kind)!).push(n.value);
  }
}

let started = process.hrtime.bigint();
const index = new IndicatorIndex(indicators);
const buildMs = Number(process.hrtime.bigint() - started) / 1e6;
console.log(`indicators loaded: ${index.size.toLocaleString('en')} (build ${buildMs.toFixed(0)} ms)`);

// Queries: one in ten hits a loaded value (a subdomain for domains), the rest miss.
const queries: [LookupKind, string][] = [];
const kinds = [...samples.keys()];
for (let i = 0; i < 200_000; i += 1) {
  const kind = kinds[i % kinds.length]!;
  const pool = samples.get(kind)!;
  if (i % 10 === 0) {
    const value = pool[rand() % pool.length]!;
    queries.push([kind, kind === 'domain' ? `www.${value}` : value]);
  } else if (kind === 'ip')
    queries.push([kind, i % 3 === 0 ? `2a0${rand() % 10}:${(rand() & 0xffff).toString(16)}::1` : ip4()]);
  else if (kind === 'domain') queries.push([kind, `a.b.${word()}.${word()}.com`]);
  else if (kind === 'md5') queries.push([kind, hex(32)]);
  else if (kind === 'sha1') queries.push([kind, hex(40)]);
  else if (kind === 'sha256') queries.push([kind, hex(64)]);
  else if (kind === 'email') queries.push([kind, `${word()}@${word()}.org`]);
  else if (kind === 'url') queries.push([kind, `http://${word()}.net/${word()}.php`]);
  else queries.push([kind, `${word()}.exe`]);
}

const now = Date.now();
let hits = 0;
for (const [kind, value] of queries.slice(0, 20_000)) hits += index.match(1, kind, value, now).alerts.length; // warm-up
hits = 0;
const rounds = 10;
started = process.hrtime.bigint();
for (let r = 0; r < rounds; r += 1)
  for (const [kind, value] of queries) hits += index.match((r % 3) + 1, kind, value, now).alerts.length;
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const lookups = queries.length * rounds;
console.log(
  `lookups: ${lookups.toLocaleString('en')} in ${seconds.toFixed(2)} s = ${Math.round(lookups / seconds).toLocaleString('en')} lookups/s (${hits.toLocaleString('en')} alert matches)`,
);

for (const kind of kinds) {
  const mine = queries.filter(([k]) => k === kind);
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r += 1) for (const [k, value] of mine) index.match(1, k, value, now);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`  ${kind}: ${Math.round((mine.length * rounds) / s).toLocaleString('en')} lookups/s`);
}

// Whole events through the same code ingest runs (observable extraction + lookups + detections).
const domains = samples.get('domain')!;
const network = (i: number): NetworkEvent => {
  const record = {
    timestamp: '2026-11-22T10:00:00.000000Z',
    event_type: i % 2 ? 'dns' : 'http',
    src_ip: `10.0.${i & 255}.${(i >> 8) & 255}`,
    dest_ip: ip4(),
    dns: { type: 'query', rrname: i % 20 === 0 ? `x.${domains[i % domains.length]!}` : `${word()}.example.com` },
    http: { hostname: `${word()}.example.net`, url: `/${word()}` },
  };
  return normaliseEve(record, JSON.stringify(record));
};
const endpoint = (i: number): EndpointEvent =>
  normaliseEndpoint({
    '@timestamp': '2026-11-22T10:00:00Z',
    host: { name: `WS-${i % 500}` },
    event: { action: 'process-create' },
    process: { pid: i, executable: `C:\\Windows\\${word()}.exe`, hash: { sha256: hex(64), md5: hex(32) } },
    network: { dest_ip: ip4() },
  });
const mail = (i: number): MailMessage => ({
  message_id: `<${i}@x>`,
  date: '2026-11-22T10:00:00.000Z',
  from: { address: `${word()}@${word()}.org`, name: null },
  to: [{ address: 'user@corp.test', name: null }],
  cc: [],
  reply_to: [],
  subject: 'hello',
  text: null,
  html: null,
  text_truncated: false,
  html_truncated: false,
  header_lines: [],
  headers: {
    received: [],
    return_path: null,
    x_mailer: null,
    spf: null,
    dkim: null,
    dmarc: null,
    arc: null,
    compauth: null,
    authentication_results: [],
  },
  urls: [`https://${word()}.example/${word()}`, `http://${word()}.net/${word()}.php`],
  attachments: [
    {
      filename: `${word()}.pdf`,
      content_type: 'application/pdf',
      size: 10,
      md5: hex(32),
      sha1: hex(40),
      sha256: hex(64),
      detected_type: 'pdf',
      inline: false,
      double_extension: false,
      urls: [],
    },
  ],
  size: 1000,
});
const ts = '2026-11-22T10:00:00.000000Z';
const batches: [string, StoredEvent[]][] = [
  [
    'network',
    Array.from({ length: 20_000 }, (_, i) => ({ kind: 'network', id: i, ts, companyId: 1, event: network(i) })),
  ],
  [
    'endpoint',
    Array.from({ length: 20_000 }, (_, i) => ({ kind: 'endpoint', id: i, ts, companyId: 1, event: endpoint(i) })),
  ],
  ['mail', Array.from({ length: 5_000 }, (_, i) => ({ kind: 'mail', id: i, ts, companyId: 1, event: mail(i) }))],
];
for (const [name, events] of batches) {
  detectWithIndex(index, 1, events.slice(0, 1000), now); // warm-up
  started = process.hrtime.bigint();
  let detections = 0;
  for (let r = 0; r < 3; r += 1) detections += detectWithIndex(index, 1, events, now).length;
  const s = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `${name} events: ${Math.round((events.length * 3) / s).toLocaleString('en')} events/s through indicatorDetections (${detections / 3} detections per ${events.length.toLocaleString('en')})`,
  );
}
