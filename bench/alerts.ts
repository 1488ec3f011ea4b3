/**
 * Alerts benchmark: seeds 1,000,000 alerts over 3 companies, then times the alert queue
 * (`POST /api/alerts/check/`, filtered by status and severity, sorted by last seen) for a tenant
 * user and for an all-companies admin, and a bulk close of 100,000 alerts
 * (`POST /api/alerts/bulk/` by filter). Each API case is compared with the very statements the
 * server sent, replayed straight to the database ("raw").
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/alerts.ts
 *
 * Settings: BENCH_ROWS (1,000,000), BENCH_REQUESTS (200), BENCH_WARMUP (20), BENCH_CASE_SECONDS,
 * BENCH_SEED_CHUNK (10,000), BENCH_BULK_RUNS (3).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { bulkInsert } from '../apps/server/src/db/bulk';
import type { Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { sql, type SqlFragment } from '../apps/server/src/db/sql';
import { hashPassword } from '../apps/server/src/modules/auth/passwords';
import { bootstrap } from '../apps/server/src/modules/users/bootstrap';
import { openBenchDatabase, type BenchDatabase } from './lib/database';
import { Client } from './lib/http';
import { startServerProcess, type ServerProcess } from './lib/server-process';
import { readOptions, type BenchOptions } from './lib/options';
import { createCustomers, random } from './lib/seed';
import { bounded, formatMs, interruption, summarize, table, time, type Row } from './lib/stats';

const TARGET_P95_MS = 50;
const TARGET_BULK_MS = 5000;
const scores = { info: 10, low: 30, medium: 50, high: 75, critical: 95 } as const;

const startedAt = Date.now();
function progress(message: string): void {
  process.stderr.write(`[bench ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

/** A database wrapper that keeps the statements sent, so the raw replay is exactly what the API ran. */
function capturing(inner: Database): { db: Database; capture<T>(work: () => Promise<T>): Promise<SqlFragment[]> } {
  let log: SqlFragment[] | null = null;
  const db: Database = {
    get kind() {
      return inner.kind;
    },
    query<T>(query: SqlFragment) {
      log?.push(query);
      return inner.query<T>(query);
    },
    exec: (text) => inner.exec(text),
    copyFrom: (table, columns, data) => inner.copyFrom(table, columns, data),
    transaction: (work) =>
      inner.transaction((tx) =>
        work({
          query<T>(query: SqlFragment) {
            log?.push(query);
            return tx.query<T>(query);
          },
          exec: (text) => tx.exec(text),
          copyFrom: (table, columns, data) => tx.copyFrom(table, columns, data),
        }),
      ),
    listen: (channel, handler) => inner.listen(channel, handler),
    close: () => inner.close(),
  };
  return {
    db,
    async capture(work) {
      log = [];
      try {
        await work();
        return log;
      } finally {
        log = null;
      }
    },
  };
}

function pick<T>(r: number, table: readonly (readonly [T, number])[]): T {
  let point = r * table.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of table) {
    point -= weight;
    if (point < 0) return value;
  }
  return (table[table.length - 1] as readonly [T, number])[0];
}

/** Seeds alerts: 10% new, 5% in progress, 15% resolved, 70% closed; every alert tagged batch-(i mod 10). */
async function seedAlerts(db: Database, options: BenchOptions, companies: { id: number; share: number }[]) {
  const rnd = random(42);
  const end = Date.now();
  const columns = [
    { name: 'company_id', type: 'int8' },
    { name: 'title', type: 'text' },
    { name: 'severity', type: 'text' },
    { name: 'score', type: 'int4' },
    { name: 'status', type: 'text' },
    { name: 'resolution', type: 'text' },
    { name: 'source', type: 'text' },
    { name: 'detection', type: 'jsonb' },
    { name: 'dedup_key', type: 'text' },
    { name: 'first_seen', type: 'timestamptz' },
    { name: 'last_seen', type: 'timestamptz' },
    { name: 'count', type: 'int8' },
    { name: 'observables', type: 'jsonb' },
    { name: 'tags', type: 'text[]' },
  ] as const;
  const companyTable = companies.map((c) => [c.id, c.share] as const);
  for (let start = 0; start < options.rows && !interruption.requested; start += options.seedChunk) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(options.rows, start + options.seedChunk); i += 1) {
      const severity = pick(rnd(), [
        ['info', 20],
        ['low', 30],
        ['medium', 30],
        ['high', 15],
        ['critical', 5],
      ] as const);
      const status = pick(rnd(), [
        ['new', 10],
        ['in_progress', 5],
        ['resolved', 15],
        ['closed', 70],
      ] as const);
      const resolution =
        status === 'resolved' || status === 'closed'
          ? pick(rnd(), [
              ['true_positive', 2],
              ['false_positive', 5],
              ['benign', 3],
            ] as const)
          : null;
      const last = new Date(end - Math.floor(rnd() * 90 * 86_400_000));
      const sid = 2_000_000 + Math.floor(rnd() * 5000);
      const ip = `10.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}`;
      rows.push([
        pick(rnd(), companyTable),
        `ET POLICY signature ${sid} from ${ip}`,
        severity,
        scores[severity],
        status,
        resolution,
        'network',
        { type: 'rule', engine: 'suricata', ruleId: String(sid), name: `sig ${sid}` },
        `rule:suricata:${sid}|ip:${ip}`,
        new Date(last.getTime() - Math.floor(rnd() * 3_600_000)),
        last,
        1 + Math.floor(rnd() * 20),
        [{ kind: 'ip', value: ip, role: 'src_ip' }],
        [`batch-${i % 10}`],
      ]);
    }
    await bulkInsert(db, 'alerts', columns, rows);
    const done = Math.min(options.rows, start + options.seedChunk);
    if (done % (options.rows / 10) < options.seedChunk) progress(`  ${done.toLocaleString('en-US')} alerts`);
  }
}

async function createTenantAnalyst(db: Database, companyId: number, username: string, password: string) {
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const role = await tx.query<{ id: number }>(sql`
      INSERT INTO roles (company_id, name, permissions)
      VALUES (${companyId}, 'Bench analyst', ${JSON.stringify([{ basename: 'alerts', actions: ['view', 'change', 'bulk'] }])}::jsonb)
      RETURNING id`);
    const user = await tx.query<{ id: number }>(sql`
      INSERT INTO users (company_id, username, first_name, password_hash, password_changed_at)
      VALUES (${companyId}, ${username}, 'Bench', ${hash}, now()) RETURNING id`);
    await tx.query(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${user.rows[0]?.id}, ${role.rows[0]?.id})`);
  });
}

interface ListBody {
  results: { id: number }[];
  count: number;
}

async function run(options: BenchOptions, target: BenchDatabase): Promise<number> {
  const { db } = target;
  const adminUsername = 'bench-admin';
  const adminPassword = randomBytes(18).toString('base64url');
  const tenantPassword = randomBytes(18).toString('base64url');
  const scratch = path.join(os.tmpdir(), 'vigil-bench-no-web');
  const config = loadConfig({
    VIGIL_ADMIN_USERNAME: adminUsername,
    VIGIL_ADMIN_PASSWORD: adminPassword,
    DATA_DIR: scratch,
    WEB_DIST_DIR: scratch,
    LOG_LEVEL: 'silent',
    JOBS_POLL_MS: '0',
  });
  progress(`database: ${target.label}`);
  await migrate(db);
  await bootstrap(db, config);
  const companies = await createCustomers(db);
  const tenantCompany = companies[0];
  if (!tenantCompany) throw new Error('no customer company');
  await createTenantAnalyst(db, tenantCompany.id, 'bench-analyst', tenantPassword);
  progress(`seeding ${options.rows.toLocaleString('en-US')} alerts in chunks of ${options.seedChunk}`);
  const seedMs = await time(() => seedAlerts(db, options, companies));
  if (interruption.requested) return 130;
  progress(`seeded in ${(seedMs / 1000).toFixed(1)} s; VACUUM (ANALYZE) alerts`);
  await db.exec('VACUUM (ANALYZE) alerts');

  const recorder = capturing(db);
  let app: FastifyInstance | null = null;
  let server: ServerProcess | null = null;
  const rows: Row[] = [];
  const facts: string[] = [];
  const one = { status: 'new', severity: 'high' };
  const many = { status: ['new', 'in_progress'], severity: ['high', 'critical'] };
  const cases = [
    { name: 'queue, tenant, status=new severity=high', who: 'tenant', filters: one },
    { name: 'queue, admin (all), status=new severity=high', who: 'admin', filters: one },
    { name: 'queue, tenant, 2 statuses x 2 severities', who: 'tenant', filters: many },
    { name: 'queue, admin (all), 2 statuses x 2 severities', who: 'admin', filters: many },
  ] as const;
  const url = '/api/alerts/check/?ordering=-last_seen&page_size=50';
  try {
    // 1. The statements each case sends, captured from the app in this process.
    app = await buildApp({ db: recorder.db, config, version: 'bench', logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address !== 'object') throw new Error('the app is not listening');
    let origin = `http://127.0.0.1:${address.port}`;
    const signIn = async () => ({
      admin: await Client.signIn(origin, adminUsername, adminPassword),
      tenant: await Client.signIn(origin, 'bench-analyst', tenantPassword),
    });
    let clients = await signIn();
    const listStatements = new Map<string, SqlFragment[]>();
    for (const c of cases) {
      let count = 0;
      const statements = await recorder.capture(async () => {
        count = (await clients[c.who].post<ListBody>(url, c.filters)).body.count;
      });
      listStatements.set(c.name, statements.filter((s) => s.strings.join(' ').includes('FROM ')).slice(-2));
      facts.push(`${c.name}: ${count.toLocaleString('en-US')} matching alerts`);
    }
    // 2. On a server database the API is timed against the server in a process of its own, as in
    //    production, so the benchmark's client never shares the server's JavaScript thread.
    if (target.url) {
      await app.close();
      app = null;
      server = await startServerProcess({
        DATABASE_URL: target.url,
        VIGIL_ADMIN_USERNAME: adminUsername,
        VIGIL_ADMIN_PASSWORD: adminPassword,
      });
      origin = server.url;
      clients = await signIn();
      facts.push('server  : its own process (apps/server/src/main.ts, as npm start runs it)');
    } else {
      facts.push('server  : in this process (embedded PGlite has one owner)');
    }

    for (const c of cases) {
      const client = clients[c.who];
      progress(`${c.name}: API`);
      await bounded(options.warmup, options.caseSeconds, async () => (await client.post<ListBody>(url, c.filters)).ms);
      const api = await bounded(
        options.requests,
        options.caseSeconds,
        async () => (await client.post<ListBody>(url, c.filters)).ms,
      );
      progress(`${c.name}: raw`);
      const replay = async () => {
        for (const s of listStatements.get(c.name) ?? []) await db.query(s);
      };
      await bounded(options.warmup, options.caseSeconds, replay);
      const raw = await bounded(options.requests, options.caseSeconds, replay);
      rows.push({ name: c.name, api: summarize(api), raw: summarize(raw) });
    }
    const { admin } = clients;

    // Bulk close: each run closes the ~100,000 alerts of one batch tag (every company: the admin).
    const runs = Math.max(1, Math.min(5, Number(process.env.BENCH_BULK_RUNS ?? 3) || 3));
    const bulkApi: number[] = [];
    const bulkRaw: number[] = [];
    for (let k = 0; k < runs && !interruption.requested; k += 1) {
      progress(`bulk close ${k + 1}/${runs}: API`);
      const answer = await admin.post<{ updated: number }>('/api/alerts/bulk/', {
        filter: { tags: `batch-${k}` },
        action: { action: 'set_status', status: 'closed', resolution: 'duplicate' },
      });
      bulkApi.push(answer.ms);
      // Stands in for autovacuum, which would run on a live table after this many changed rows.
      await db.exec('VACUUM alerts');
      facts.push(`bulk close API run ${k + 1}: ${answer.body.updated.toLocaleString('en-US')} alerts closed`);
      progress(`bulk close ${k + 1}/${runs}: raw UPDATE`);
      const tag = `batch-${k + 5}`;
      bulkRaw.push(
        await time(() =>
          db.query(sql`UPDATE alerts a SET status = 'closed', resolution = 'duplicate', updated_at = now()
                       WHERE a.tags && ${[tag]}::text[]
                         AND (a.status, a.resolution) IS DISTINCT FROM ('closed'::text, 'duplicate'::text)`),
        ),
      );
      await db.exec('VACUUM alerts');
    }
    rows.push({
      name: `bulk close of ${(options.rows / 10).toLocaleString('en-US')} alerts (by filter)`,
      api: summarize(bulkApi),
      raw: summarize(bulkRaw),
    });
  } finally {
    if (app) await app.close();
    if (server) await server.stop();
  }

  const out: string[] = [];
  out.push('');
  out.push('Vigil alerts benchmark: POST /api/alerts/check/ (queue) and POST /api/alerts/bulk/ (close)');
  out.push(`database : ${target.label}`);
  out.push(`host     : Node ${process.version}, ${os.cpus().length} CPU(s), ${os.platform()} ${os.arch()}`);
  out.push(
    `data     : ${options.rows.toLocaleString('en-US')} alerts over 3 companies (50/30/20%), 90 days; 10% new, 5% in progress, 15% resolved, 70% closed`,
  );
  for (const fact of facts) out.push(`           ${fact}`);
  out.push(
    `method   : ${options.warmup} warm-up then up to ${options.requests} sequential requests per queue case; API = HTTP round trip (count + first page of 50, ordering -last_seen); raw = the same statements replayed to the database; bulk raw = a bare UPDATE of another tenth of the alerts; VACUUM alerts (untimed) after each bulk, as autovacuum would`,
  );
  out.push('');
  out.push('Latency in ms');
  out.push(table(rows));
  out.push('');
  const onServer = target.db.kind === 'server';
  const queueRows = rows.filter((r) => r.name.startsWith('queue'));
  for (const r of queueRows) {
    out.push(
      `  ${r.name}: p95 ${formatMs(r.api.p95)} ms ${r.api.p95 < TARGET_P95_MS ? 'MET' : 'NOT MET'} (target < ${TARGET_P95_MS} ms${onServer ? '' : ', meant for the server database'})`,
    );
    const ratio = r.api.p95 / r.raw.p95;
    out.push(`  ${r.name}: API p95 / raw p95 ${ratio.toFixed(2)} ${ratio <= 2 ? 'MET' : 'NOT MET'} (target ≤ 2)`);
  }
  const bulk = rows.find((r) => r.name.startsWith('bulk'));
  if (bulk)
    out.push(
      `  bulk close: max ${formatMs(bulk.api.p95)} ms ${bulk.api.p95 < TARGET_BULK_MS ? 'MET' : 'NOT MET'} (target < ${TARGET_BULK_MS} ms)`,
    );
  process.stdout.write(`${out.join('\n')}\n`);
  return interruption.requested ? 130 : 0;
}

async function main(): Promise<void> {
  const options = readOptions();
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    interruption.requested = true;
    if (signals > 1) process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const target = await openBenchDatabase(options.serverUrl);
  let code = 1;
  try {
    code = await run(options, target);
  } finally {
    progress('dropping the scratch database');
    await target.dispose();
  }
  process.exitCode = code;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
