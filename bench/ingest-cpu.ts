/**
 * bench/ingest-cpu: the server's own CPU time per event on the ingest path, stage by stage,
 * without HTTP or a database — what bounds `bench/ingest` on a machine of few cores, where the
 * server's one JavaScript thread and PostgreSQL share them.
 *
 *   npx tsx bench/ingest-cpu.ts
 *
 * For EVE and ECS batches (BENCH_BATCH lines, default 1000; BENCH_ROUNDS rounds of BENCH_BATCHES
 * batches, defaults 5 and 40) it times: parsing and normalising the lines; turning the events
 * into COPY data (UTF-8 bytes, as the pipeline sends them); Suricata and policy-indicator
 * detection against BENCH_INDICATORS (default 100,000) indicators in the in-memory index; asset
 * discovery's reading and planning in memory (its few statements per batch are not timed here). The
 * baseline is `JSON.parse` of the same lines alone, timed in the same run: the least any reading
 * of them costs. Prints the median µs per event of each stage over the rounds.
 */
import { randomBytes } from 'node:crypto';
import type { EndpointEvent, NetworkEvent } from '@vigil/contract';
import type { Queryable } from '../apps/server/src/db/database';
import { CopyWriter, copyWritten } from '../apps/server/src/db/copy';
import { IndicatorIndex, type IndexedIndicator } from '../apps/server/src/modules/indicators/indicator-index';
import { detectWithIndex } from '../apps/server/src/modules/indicators/indicator-detections';
import { parseEndpointLines, parseEveLines } from '../apps/server/src/modules/ingest/parsers';
import {
  endpointColumnNames,
  networkColumnNames,
  writeEndpointRow,
  writeNetworkRow,
} from '../apps/server/src/modules/ingest/storage';
import { suricataDetections } from '../apps/server/src/modules/pipeline/suricata-stage';
import { networksOf, observationsOf } from '../apps/server/src/modules/assets/discovery-observations';
import { planDiscovery } from '../apps/server/src/modules/assets/discovery-plan';
import type { StoredEvent } from '../apps/server/src/modules/pipeline/stored-events';
import { batchBody, endpointLine, eveLine } from './lib/ingest-lines';

const batchLines = Number(process.env.BENCH_BATCH ?? 1000);
const batches = Number(process.env.BENCH_BATCHES ?? 40);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const indicatorCount = Number(process.env.BENCH_INDICATORS ?? 100_000);

/** A Queryable that takes the COPY data and counts its bytes. */
let copiedBytes = 0;
const sink: Queryable = {
  query: () => Promise.reject(new Error('not in this bench')),
  exec: () => Promise.reject(new Error('not in this bench')),
  copyFrom: (_table, _columns, data) => {
    copiedBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    return Promise.resolve(1);
  },
};

function indicators(): IndicatorIndex {
  const entries: IndexedIndicator[] = [];
  for (let i = 0; i < indicatorCount; i += 1) {
    const base = {
      id: i + 1,
      companyId: 1,
      all: false,
      policy: 'alert' as const,
      severity: 'medium' as const,
      expiresAt: null,
    };
    if (i < 5) entries.push({ ...base, type: 'ip', value: `203.0.113.${200 + i}` });
    else if (i % 3 === 0)
      entries.push({ ...base, type: 'ip', value: `${100 + ((i >> 16) & 99)}.${(i >> 8) & 255}.${i & 255}.7` });
    else if (i % 3 === 1) entries.push({ ...base, type: 'domain', value: `bad${i}.example.invalid` });
    else entries.push({ ...base, type: 'sha256', value: randomBytes(32).toString('hex') });
  }
  return new IndicatorIndex(entries);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const index = indicators();
  const networks = networksOf(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']);
  const noPins = { ip: new Map<string, number>(), mac: new Map<string, number>(), source: new Map<string, number>() };
  const kinds = [
    { name: 'EVE', bodies: Array.from({ length: batches }, (_, b) => batchBody(eveLine, b, batchLines)) },
    {
      name: 'ECS',
      bodies: Array.from({ length: batches }, (_, b) => batchBody(endpointLine, b + batches, batchLines)),
    },
  ];
  console.log(
    `\nbench/ingest-cpu — ${batches} batches of ${batchLines} lines, ${rounds} rounds, ${indicatorCount.toLocaleString('en-US')} indicators`,
  );
  console.log('µs per event (median of rounds)\n');
  console.log('kind  JSON.parse  parse+normalise  COPY text  detection  discovery  pipeline  pipeline/JSON.parse');
  for (const kind of kinds) {
    const buffers = kind.bodies.map((b) => Buffer.from(b));
    const times: Record<'json' | 'parse' | 'copy' | 'detect' | 'discover', number[]> = {
      json: [],
      parse: [],
      copy: [],
      detect: [],
      discover: [],
    };
    let id = 1;
    for (let round = 0; round <= rounds; round += 1) {
      let json = 0;
      let parse = 0;
      let copy = 0;
      let detect = 0;
      let discover = 0;
      let events = 0;
      for (const buffer of buffers) {
        let t = performance.now();
        for (const line of buffer.toString('utf8').split('\n')) JSON.parse(line);
        json += performance.now() - t;

        t = performance.now();
        const results = kind.name === 'EVE' ? parseEveLines(buffer) : parseEndpointLines(buffer);
        parse += performance.now() - t;
        events += results.length;

        t = performance.now();
        const stored: StoredEvent[] = [];
        const out = new CopyWriter(results.length * 1536);
        for (const r of results) {
          if (!r.ok) throw new Error(r.reason);
          const ts = r.event.timestamp;
          if (kind.name === 'EVE') {
            const event = r.event as NetworkEvent;
            writeNetworkRow(out, 1, 1, id, event, r.text);
            stored.push({ kind: 'network', companyId: 1, id: id++, ts, event });
          } else {
            const event = r.event as EndpointEvent;
            writeEndpointRow(out, 1, 1, id, event, r.text);
            stored.push({ kind: 'endpoint', companyId: 1, id: id++, ts, event });
          }
        }
        const [table, columns] =
          kind.name === 'EVE' ? ['network_events', networkColumnNames] : ['endpoint_events', endpointColumnNames];
        await copyWritten(sink, table, columns, out);
        copy += performance.now() - t;

        t = performance.now();
        suricataDetections(stored);
        detectWithIndex(index, 1, stored);
        detect += performance.now() - t;

        t = performance.now();
        planDiscovery(observationsOf(stored, networks), [], noPins);
        discover += performance.now() - t;
      }
      if (round === 0) continue; // warm-up
      const per = (ms: number) => (ms * 1000) / events;
      times.json.push(per(json));
      times.parse.push(per(parse));
      times.copy.push(per(copy));
      times.detect.push(per(detect));
      times.discover.push(per(discover));
    }
    const [json, parse, copy, detect, discover] = [
      times.json,
      times.parse,
      times.copy,
      times.detect,
      times.discover,
    ].map(median) as [number, number, number, number, number];
    const pipeline = parse + copy + detect + discover;
    const cell = (v: number, width: number) => v.toFixed(1).padStart(width);
    console.log(
      `${kind.name.padEnd(4)} ${cell(json, 11)} ${cell(parse, 16)} ${cell(copy, 10)} ${cell(detect, 10)} ${cell(discover, 10)} ${cell(pipeline, 9)} ${(pipeline / json).toFixed(1).padStart(20)}×`,
    );
  }
  console.log(`\nCOPY text: ${(copiedBytes / 1e6).toFixed(0)} MB in all`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
