/**
 * bench/ingest: events per second through the real ingest API (`POST /api/ingest/network/` with
 * Suricata EVE lines, `POST /api/ingest/endpoint/` with ECS lines), batches of BENCH_BATCH lines
 * from BENCH_CLIENTS concurrent clients, end to end (HTTP, parse, store, detect, commit) — against
 * a raw batched COPY (`copyRows`, one transaction per batch, same concurrency) of the very
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
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bulkInsert } from '../apps/server/src/db/bulk';
import { copyRows } from '../apps/server/src/db/copy';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { parseEndpointLines, parseEveLines } from '../apps/server/src/modules/ingest/parsers';
import {
  endpointColumns,
  endpointRow,
  ensurePartitions,
  networkColumns,
  networkRow,
} from '../apps/server/src/modules/ingest/storage';

const root = path.resolve(import.meta.dirname, '..');
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

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_SERVER_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_SERVER_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
    : [];
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...extra, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Vigil is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

// ------------------------------------------------------------------------------------------
// Realistic lines: EVE (flow, dns, http, tls, 5 % alerts) and ECS process/network/file events.
// ------------------------------------------------------------------------------------------

const base = Date.now() - 3_600_000;
const ip = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;

function eveLine(batch: number, i: number): string {
  const n = batch * batchLines + i;
  const common = {
    timestamp: new Date(base + n).toISOString().replace('Z', '+0000'),
    flow_id: 1_000_000_000_000 + n,
    in_iface: 'eth0',
    src_ip: ip(n % 60_000),
    src_port: 1024 + (n % 60_000),
    dest_ip: `203.0.113.${n % 250}`,
    dest_port: [80, 443, 53, 22][n % 4],
    proto: n % 4 === 2 ? 'UDP' : 'TCP',
    community_id: `1:${randomBytes(20).toString('base64').slice(0, 27)}=`,
    host: `sensor-${n % 4}`,
  };
  const kind = n % 20;
  if (kind === 0)
    return JSON.stringify({
      ...common,
      event_type: 'alert',
      alert: {
        action: 'allowed',
        gid: 1,
        signature_id: 2_024_000 + (n % 50),
        rev: 3,
        signature: `ET POLICY Suspicious outbound request ${n % 50}`,
        category: 'Potentially Bad Traffic',
        severity: (n % 3) + 1,
      },
      app_proto: 'http',
      http: { hostname: `host${n % 500}.example.net`, url: `/path/${n % 1000}`, http_method: 'GET', status: 200 },
    });
  if (kind < 6)
    return JSON.stringify({
      ...common,
      event_type: 'dns',
      dns: { type: 'query', id: n % 65_535, rrname: `name${n % 5000}.example.org`, rrtype: 'A', tx_id: 0 },
    });
  if (kind < 10)
    return JSON.stringify({
      ...common,
      event_type: 'http',
      http: {
        hostname: `host${n % 500}.example.net`,
        url: `/index/${n % 1000}.html`,
        http_user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
        http_method: 'GET',
        protocol: 'HTTP/1.1',
        status: 200,
        length: 5120,
      },
    });
  if (kind < 13)
    return JSON.stringify({
      ...common,
      event_type: 'tls',
      tls: { sni: `svc${n % 300}.example.com`, version: 'TLS 1.3', ja3: { hash: 'e7d705a3286e19ea42f587b344ee6865' } },
    });
  return JSON.stringify({
    ...common,
    event_type: 'flow',
    flow: {
      pkts_toserver: 12,
      pkts_toclient: 10,
      bytes_toserver: 1800,
      bytes_toclient: 9400,
      start: new Date(base + n - 1000).toISOString().replace('Z', '+0000'),
      end: new Date(base + n).toISOString().replace('Z', '+0000'),
      age: 1,
      state: 'closed',
      reason: 'timeout',
    },
  });
}

const binaryHashes = Array.from({ length: 5000 }, () => randomBytes(32).toString('hex'));

function endpointLine(batch: number, i: number): string {
  const n = batch * batchLines + i;
  return JSON.stringify({
    '@timestamp': new Date(base + n).toISOString(),
    host: { name: `WS-${n % 300}`, ip: [ip(n % 300)], os: { name: 'Windows 10' } },
    event: { action: n % 3 === 0 ? 'process-create' : n % 3 === 1 ? 'network-connection' : 'file-create', code: '1' },
    process: {
      pid: 4000 + (n % 1000),
      name: ['powershell.exe', 'chrome.exe', 'svchost.exe', 'outlook.exe'][n % 4],
      executable: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      command_line: `powershell.exe -NoProfile -Command Get-Item C:\\Users\\user${n % 50}`,
      parent: { pid: 1000, name: 'explorer.exe' },
      // A fleet runs a few thousand distinct binaries, not a new one per process.
      hash: { sha256: binaryHashes[n % binaryHashes.length] },
    },
    user: { name: `user${n % 50}`, domain: 'CORP' },
    network: n % 3 === 1 ? undefined : undefined,
    destination: n % 3 === 1 ? { ip: `198.51.100.${n % 250}`, port: 443 } : undefined,
    file: n % 3 === 2 ? { path: `C:\\Users\\user${n % 50}\\Downloads\\f${n}.tmp` } : undefined,
  });
}

function batchBody(make: (batch: number, i: number) => string, batch: number): string {
  return Array.from({ length: batchLines }, (_, i) => make(batch, i)).join('\n');
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await work(item);
      }
    }),
  );
}

interface Figure {
  label: string;
  events: number;
  seconds: number;
}

const eps = (f: Figure) => f.events / f.seconds;

async function main(): Promise<void> {
  const name = `vigil_bench_${randomBytes(5).toString('hex')}`;
  let env: Record<string, string>;
  let dispose: () => Promise<void>;
  let openDirect: () => Promise<Database>;
  let label: string;
  if (serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: String(poolSize) };
    label = `PostgreSQL server, scratch database ${name}`;
    openDirect = () => openDatabase({ url: url.toString(), poolSize });
    dispose = async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-ingest-'));
    env = { DATA_DIR: dir, DATABASE_URL: '' };
    label = `embedded PGlite in ${dir}`;
    openDirect = () => openDatabase({ dataDir: dir });
    dispose = async () => fs.rmSync(dir, { recursive: true, force: true });
  }

  let server: ChildProcess | null = null;
  try {
    log(`database: ${label}`);
    log(`generating ${eveBatches} EVE and ${endpointBatches} endpoint batches of ${batchLines} lines`);
    const eve = Array.from({ length: eveBatches }, (_, b) => batchBody(eveLine, b));
    const endpoint = Array.from({ length: endpointBatches }, (_, b) => batchBody(endpointLine, b + eveBatches));

    const started = await startServer({
      ...env,
      PORT: '0',
      LOG_LEVEL: 'warn',
      JOBS_POLL_MS: '0',
      WEB_DIST_DIR: '/nonexistent',
      VIGIL_ADMIN_USERNAME: 'admin',
      VIGIL_ADMIN_PASSWORD: password,
    });
    server = started.child;
    const first = await fetch(`${started.url}/api/auth/`);
    const csrf = /csrf_token=([^;]+)/.exec(first.headers.getSetCookie().join('; '))?.[1] ?? '';
    const signIn = await fetch(`${started.url}/api/auth/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrf_token=${csrf}` },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const session = /vigil_session=([^;]+)/.exec(signIn.headers.getSetCookie().join('; '))?.[1];
    if (!session) throw new Error(`sign-in failed: ${signIn.status}`);
    const tokenAnswer = await fetch(`${started.url}/api/ingest/tokens/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrftoken': csrf,
        cookie: `vigil_session=${session}; csrf_token=${csrf}`,
      },
      body: JSON.stringify({ name: 'bench sensor' }),
    });
    const token = (await tokenAnswer.json()) as { key: string; company_id: number };
    if (!token.key) throw new Error(`token creation failed: ${tokenAnswer.status}`);

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
        'x-csrftoken': csrf,
        cookie: `vigil_session=${session}; csrf_token=${csrf}`,
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
    await send('network', batchBody(eveLine, 100_000), -1);
    await send('endpoint', batchBody(endpointLine, 100_001), -1);

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
      await stopServer(server);
      server = null;
    }
    // Raw: the same rows, one bulkInsert per batch in its own transaction, same concurrency.
    const db = await openDirect();
    try {
      const company = token.company_id;
      const measureRaw = async (
        method: 'copy' | 'insert',
        kind: 'network' | 'endpoint',
        bodies: string[],
        toRows: (body: string, batch: number) => { rows: unknown[][]; ts: string[] },
      ) => {
        const prepared = bodies.map((body, b) => toRows(body, b));
        await ensurePartitions(db, kind === 'network' ? 'network_events' : 'endpoint_events', prepared[0]?.ts ?? []);
        let events = 0;
        const t0 = performance.now();
        await pool(prepared, serverUrl ? clients : 1, async ({ rows }) => {
          const inserted = await db.transaction(async (tx) =>
            (method === 'copy' ? copyRows : bulkInsert)(
              tx,
              kind === 'network' ? 'network_events' : 'endpoint_events',
              kind === 'network' ? networkColumns : endpointColumns,
              rows,
            ),
          );
          events += inserted;
        });
        const seconds = (performance.now() - t0) / 1000;
        const what = method === 'copy' ? 'raw COPY' : 'unnest INSERT';
        figures.push({ label: `${what} ${kind === 'network' ? 'EVE' : 'endpoint'}`, events, seconds });
        log(`${what} ${kind}: ${events} rows in ${seconds.toFixed(2)} s`);
      };
      let nextId = 10_000_000_000;
      const networkRows = (body: string, b: number) => {
        const events = parseEveLines(body).flatMap((r) => (r.ok ? [r.event] : []));
        return {
          rows: events.map((e) => networkRow(company, 1_000_000 + b, nextId++, e)),
          ts: events.map((e) => e.timestamp),
        };
      };
      const endpointRows = (body: string, b: number) => {
        const events = parseEndpointLines(body).flatMap((r) => (r.ok ? [r.event] : []));
        return {
          rows: events.map((e) => endpointRow(company, 1_000_000 + b, nextId++, e)),
          ts: events.map((e) => e.timestamp),
        };
      };
      // The baseline: COPY, PostgreSQL's fastest way in (what the pipeline itself uses). A
      // multi-row INSERT … SELECT FROM unnest of the same rows is printed for reference.
      await measureRaw('copy', 'network', eve, networkRows);
      await measureRaw('copy', 'endpoint', endpoint, endpointRows);
      await measureRaw('insert', 'network', eve, networkRows);
      await measureRaw('insert', 'endpoint', endpoint, endpointRows);
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
    if (server) await stopServer(server);
    await dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
