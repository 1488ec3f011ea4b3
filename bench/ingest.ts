/**
 * bench/ingest: events per second through the real ingest API (`POST /api/ingest/network/` with
 * Suricata EVE lines, `POST /api/ingest/endpoint/` with ECS lines), batches of BENCH_BATCH lines
 * from BENCH_CLIENTS concurrent clients, end to end (HTTP, parse, store, detect, commit) — against
 * a raw batched COPY (`copyWritten`, one transaction per batch, same concurrency) of the very
 * same rows into the same tables, measured in the same run.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/ingest.ts
 *
 * The server runs as its own process on a scratch database (dropped at the end) or, without a
 * URL, on embedded PGlite in a temporary directory (the raw insert then runs after the server
 * has stopped, as the directory has one owner). Settings: BENCH_EVE_BATCHES (default 200),
 * BENCH_ENDPOINT_BATCHES (100), BENCH_BATCH (1000 lines), BENCH_CLIENTS (8).
 *
 * BENCH_INDICATORS (default 100,000) policy indicators are imported first through the API (IPs,
 * domains, SHA-256s; a handful match the traffic), so every batch is matched against them.
 */
import { randomBytes } from 'node:crypto';
import type { EndpointEvent, NetworkEvent } from '@vigil/contract';
import { bulkInsert } from '../apps/server/src/db/bulk';
import { CopyWriter, copyWritten } from '../apps/server/src/db/copy';
import type { Queryable } from '../apps/server/src/db/database';
import { parseEndpointLines, parseEveLines } from '../apps/server/src/modules/ingest/parsers';
import {
  endpointColumnNames,
  endpointColumns,
  endpointRow,
  ensurePartitions,
  networkColumnNames,
  networkColumns,
  networkRow,
  writeEndpointRow,
  writeNetworkRow,
} from '../apps/server/src/modules/ingest/storage';
import { batchBody as linesBody, endpointLine, eveLine } from './lib/ingest-lines';
import { ingestToken, pool, signIn, startServerProcess, type ServerProcess } from './lib/server-process';
import { scratchTarget } from './lib/database';

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const eveBatches = Number(process.env.BENCH_EVE_BATCHES ?? 200);
const endpointBatches = Number(process.env.BENCH_ENDPOINT_BATCHES ?? 100);
const batchLines = Number(process.env.BENCH_BATCH ?? 1000);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const indicatorCount = Number(process.env.BENCH_INDICATORS ?? 100_000);
const poolSize = 10;
const password = 'Bench-password-1';
const TARGET_EPS = 30_000;
const TARGET_RATIO = 0.5;

function log(message: string): void {
  process.stderr.write(`[bench ingest] ${message}\n`);
}

/** One batch's events for the raw inserts: values, their source lines and ids. */
interface Prepared {
  batch: number;
  events: (NetworkEvent | EndpointEvent)[];
  texts: string[];
  ids: number[];
}

interface Figure {
  label: string;
  events: number;
  seconds: number;
}

const eps = (f: Figure) => f.events / f.seconds;

async function main(): Promise<void> {
  const { env, label, openDirect, dispose } = await scratchTarget(serverUrl, 'vigil-bench-ingest', poolSize);

  let server: ServerProcess | null = null;
  try {
    log(`database: ${label}`);
    log(`generating ${eveBatches} EVE and ${endpointBatches} endpoint batches of ${batchLines} lines`);
    const eve = Array.from({ length: eveBatches }, (_, b) => linesBody(eveLine, b, batchLines));
    const endpoint = Array.from({ length: endpointBatches }, (_, b) =>
      linesBody(endpointLine, b + eveBatches, batchLines),
    );

    const started = await startServerProcess({
      ...env,
      VIGIL_ADMIN_USERNAME: 'admin',
      VIGIL_ADMIN_PASSWORD: password,
    });
    server = started;
    const session = await signIn(started.url, 'admin', password);
    const token = await ingestToken(started.url, session);

    // Indicators: mostly values the traffic never shows, a few it does (alerts on a match).
    const csv = ['type,value,policy,severity'];
    for (let i = 0; i < indicatorCount; i += 1) {
      if (i < 5) csv.push(`ip,203.0.113.${200 + i},alert,high`);
      else if (i % 3 === 0) csv.push(`ip,${100 + ((i >> 16) & 99)}.${(i >> 8) & 255}.${i & 255}.7,alert,medium`);
      else if (i % 3 === 1) csv.push(`domain,bad${i}.example.invalid,alert,medium`);
      else csv.push(`sha256,${randomBytes(32).toString('hex')},alert,high`);
    }
    const imported = await fetch(`${started.url}/api/indicators/import/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrftoken': session.csrf,
        cookie: session.cookie,
      },
      body: JSON.stringify({ csv: csv.join('\n') }),
    });
    const importAnswer = (await imported.json()) as { created?: number; rejected?: unknown[] };
    if (imported.status !== 200)
      throw new Error(`indicator import: ${imported.status} ${JSON.stringify(importAnswer).slice(0, 300)}`);
    log(`indicators loaded: ${importAnswer.created ?? 0} (${importAnswer.rejected?.length ?? 0} refused)`);

    const send = async (kind: 'network' | 'endpoint', body: string, n: number) => {
      const response = await fetch(`${started.url}/api/ingest/${kind}/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.key}`,
          'content-type': 'application/x-ndjson',
          'idempotency-key': `${kind}-${n}`,
        },
        body,
      });
      const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
      if (response.status !== 200 || answer.rejected.length > 0)
        throw new Error(`${kind} batch ${n}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
      return answer.accepted;
    };
    // Warm-up: one batch of each (partitions, JIT of the parsers), not measured.
    await send('network', linesBody(eveLine, 100_000, batchLines), -1);
    await send('endpoint', linesBody(endpointLine, 100_001, batchLines), -1);

    const figures: Figure[] = [];
    const measureHttp = async (kind: 'network' | 'endpoint', bodies: string[]) => {
      let events = 0;
      const t0 = performance.now();
      await pool(
        bodies.map((body, n) => ({ body, n })),
        clients,
        async ({ body, n }) => {
          const accepted = await send(kind, body, n);
          events += accepted;
        },
      );
      const seconds = (performance.now() - t0) / 1000;
      figures.push({ label: `HTTP ingest ${kind === 'network' ? 'EVE' : 'endpoint'}`, events, seconds });
      log(`${kind}: ${events} events in ${seconds.toFixed(2)} s`);
    };
    await measureHttp('network', eve);
    await measureHttp('endpoint', endpoint);

    if (!serverUrl) {
      await server.stop();
      server = null;
    }
    // Raw: the same rows, one bulkInsert per batch in its own transaction, same concurrency.
    const db = await openDirect();
    try {
      const company = token.company_id;
      const measureRaw = async (method: 'copy' | 'insert', kind: 'network' | 'endpoint', prepared: Prepared[]) => {
        const table = kind === 'network' ? 'network_events' : 'endpoint_events';
        await ensurePartitions(db, table, prepared[0]?.events.map((e) => e.timestamp) ?? []);
        let events = 0;
        const t0 = performance.now();
        await pool(prepared, serverUrl ? clients : 1, async (batch) => {
          // Timed from the rows' values: turning them into what goes on the wire is part of any insert.
          const inserted = await db.transaction(async (tx) =>
            method === 'copy' ? copyBatch(tx, kind, batch) : insertBatch(tx, kind, batch),
          );
          events += inserted;
        });
        const seconds = (performance.now() - t0) / 1000;
        const what = method === 'copy' ? 'raw COPY' : 'unnest INSERT';
        figures.push({ label: `${what} ${kind === 'network' ? 'EVE' : 'endpoint'}`, events, seconds });
        log(`${what} ${kind}: ${events} rows in ${seconds.toFixed(2)} s`);
      };
      const copyBatch = (tx: Queryable, kind: 'network' | 'endpoint', b: Prepared) => {
        const out = new CopyWriter(b.events.length * 1536);
        b.events.forEach((e, i) => {
          if (kind === 'network') writeNetworkRow(out, company, b.batch, b.ids[i]!, e as NetworkEvent, b.texts[i]);
          else writeEndpointRow(out, company, b.batch, b.ids[i]!, e as EndpointEvent, b.texts[i]);
        });
        return copyWritten(tx, `${kind}_events`, kind === 'network' ? networkColumnNames : endpointColumnNames, out);
      };
      const insertBatch = (tx: Queryable, kind: 'network' | 'endpoint', b: Prepared) =>
        bulkInsert(
          tx,
          `${kind}_events`,
          kind === 'network' ? networkColumns : endpointColumns,
          b.events.map((e, i) =>
            kind === 'network'
              ? networkRow(company, b.batch, b.ids[i]!, e as NetworkEvent, b.texts[i])
              : endpointRow(company, b.batch, b.ids[i]!, e as EndpointEvent, b.texts[i]),
          ),
        );
      // The same rows the pipeline stores, parsed before the clock starts, with fresh ids.
      let nextId = 10_000_000_000;
      const prepare = (kind: 'network' | 'endpoint', bodies: string[]): Prepared[] =>
        bodies.map((body, b) => {
          const prepared: Prepared = { batch: 1_000_000 + b, events: [], texts: [], ids: [] };
          for (const r of kind === 'network' ? parseEveLines(body) : parseEndpointLines(body)) {
            if (!r.ok) continue;
            prepared.events.push(r.event);
            prepared.texts.push(r.text);
            prepared.ids.push(nextId++);
          }
          return prepared;
        });
      // The baseline: COPY, PostgreSQL's fastest way in (what the pipeline itself uses). A
      // multi-row INSERT … SELECT FROM unnest of the same rows (new ids) is printed for reference.
      await measureRaw('copy', 'network', prepare('network', eve));
      await measureRaw('copy', 'endpoint', prepare('endpoint', endpoint));
      await measureRaw('insert', 'network', prepare('network', eve));
      await measureRaw('insert', 'endpoint', prepare('endpoint', endpoint));
    } finally {
      await db.close();
    }

    const byLabel = new Map(figures.map((f) => [f.label, f]));
    const total = (prefix: string) => {
      const parts = figures.filter((f) => f.label.startsWith(prefix));
      return { events: parts.reduce((s, f) => s + f.events, 0), seconds: parts.reduce((s, f) => s + f.seconds, 0) };
    };
    const http = total('HTTP');
    const raw = total('raw COPY');
    const httpEps = http.events / http.seconds;
    const rawEps = raw.events / raw.seconds;
    console.log(`\nbench/ingest — ${label}`);
    console.log(
      `batches of ${batchLines} lines, ${clients} concurrent clients, ${indicatorCount.toLocaleString('en-US')} indicators loaded\n`,
    );
    console.log('case                          events     seconds   events/s');
    for (const f of figures) {
      console.log(
        `${f.label.padEnd(28)} ${String(f.events).padStart(8)} ${f.seconds.toFixed(2).padStart(10)} ${Math.round(eps(f)).toLocaleString('en-US').padStart(10)}`,
      );
    }
    console.log(
      `${'HTTP ingest, all'.padEnd(28)} ${String(http.events).padStart(8)} ${http.seconds.toFixed(2).padStart(10)} ${Math.round(httpEps).toLocaleString('en-US').padStart(10)}`,
    );
    console.log(
      `${'raw COPY, all'.padEnd(28)} ${String(raw.events).padStart(8)} ${raw.seconds.toFixed(2).padStart(10)} ${Math.round(rawEps).toLocaleString('en-US').padStart(10)}`,
    );
    const ratio = httpEps / rawEps;
    console.log(
      `\nend to end / raw: ${(ratio * 100).toFixed(0)} % (target ≥ ${TARGET_RATIO * 100} %: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}); ` +
        `${Math.round(httpEps).toLocaleString('en-US')} events/s (target ≥ ${TARGET_EPS.toLocaleString('en-US')} on the server database: ${httpEps >= TARGET_EPS ? 'met' : 'NOT met'})`,
    );
    void byLabel;
  } finally {
    if (server) await server.stop();
    await dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
