/**
 * List engine benchmark: `POST /api/system_logs/check/` and `/count/` over real HTTP against a
 * seeded `system_logs`, each case compared with the same SQL sent straight to the database.
 * Usage and settings: bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql, type CompiledSql, type SqlFragment } from '../apps/server/src/db/sql';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import type { Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { bootstrap } from '../apps/server/src/modules/users/bootstrap';
import { openBenchDatabase, recordingDatabase, type BenchDatabase } from './lib/database';
import {
  countQuery,
  cursorKeys,
  keysetPageQuery,
  offsetPageQuery,
  sameStatement,
  type Companies,
  type LogFilters,
} from './lib/engine-sql';
import { Client } from './lib/http';
import { startServerProcess, type ServerProcess } from './lib/server-process';
import { startSqlFloor, type SqlFloor } from './lib/sql-floor';
import { readOptions, type BenchOptions } from './lib/options';
import { createCustomers, createTenantUser, seedSystemLogs } from './lib/seed';
import { bounded, formatMs, grid, interruption, summarize, table, time, type Row, type Summary } from './lib/stats';

const PAGE_SIZE = 50;
/** Rows timing the same SQL through the bare Node HTTP server (lib/sql-floor.ts), server database only. */
const FLOOR = '(floor) bare node:http + pg,';
const CHECK = '/api/system_logs/check/';
const COUNT = '/api/system_logs/count/';
/** Targets for case (a), the filtered and sorted first page seen by a tenant user. */
const TARGET_P95_MS = 50;
const TARGET_RATIO = 2;

interface ListBody {
  results: { id: number }[];
  count: number;
  next: string | null;
  previous: string | null;
}

const startedAt = Date.now();
function progress(message: string): void {
  process.stderr.write(`[bench ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

const checkUrl = (page: number) => `${CHECK}?page=${page}&page_size=${PAGE_SIZE}&ordering=-date_time`;

/** Raw timings split into the count and the page query, for the breakdown table. */
interface RawSamples {
  total: number[];
  count: number[];
  page: number[];
}

interface CaseResult extends Row {
  rawCount: Summary | null;
  rawPage: Summary | null;
}

class Bench {
  readonly rows: CaseResult[] = [];
  readonly mismatches: string[] = [];
  statementsChecked = 0;
  readonly explains: { title: string; query: SqlFragment }[] = [];

  constructor(
    readonly options: BenchOptions,
    readonly db: Database,
    readonly capture: <T>(work: () => Promise<T>) => Promise<{ result: T; statements: CompiledSql[] }>,
  ) {}

  /** One API call with the engine's statements captured and compared with the replicated SQL. */
  async check<T>(label: string, call: () => Promise<T>, expected: SqlFragment[]): Promise<T> {
    const { result, statements } = await this.capture(call);
    const issued = statements.filter((s) => /\bFROM system_logs l\b/.test(s.text));
    if (issued.length !== expected.length) {
      this.mismatches.push(
        `${label}: the engine sent ${issued.length} statement(s) on system_logs, the bench replicates ${expected.length}:\n` +
          issued.map((s) => `  ${s.text.replace(/\s+/g, ' ')}`).join('\n'),
      );
      return result;
    }
    expected.forEach((fragment, i) => {
      this.statementsChecked += 1;
      const problem = sameStatement(fragment, issued[i] as CompiledSql);
      if (problem) this.mismatches.push(`${label}, statement ${i + 1}: ${problem}`);
    });
    return result;
  }

  /** Sends count then page (or only count) straight to the database, as the engine does. */
  async raw(countSql: SqlFragment | null, pageSql: SqlFragment | null, into?: RawSamples): Promise<number> {
    const countMs = countSql ? await time(() => this.db.query(countSql)) : 0;
    const pageMs = pageSql ? await time(() => this.db.query(pageSql)) : 0;
    if (into) {
      if (countSql) into.count.push(countMs);
      if (pageSql) into.page.push(pageMs);
    }
    return countMs + pageMs;
  }

  /** Warm-up and N measured API requests, then warm-up and N measured raw executions. */
  async series(
    name: string,
    api: () => Promise<number>,
    countSql: SqlFragment | null,
    pageSql: SqlFragment | null,
  ): Promise<void> {
    const { warmup, requests, caseSeconds } = this.options;
    progress(`${name}: API, ${warmup} warm-up + ${requests} measured`);
    await bounded(warmup, caseSeconds, api);
    const apiSamples = await bounded(requests, caseSeconds, api);
    progress(`${name}: raw SQL`);
    await bounded(warmup, caseSeconds, () => this.raw(countSql, pageSql));
    const raw: RawSamples = { total: [], count: [], page: [] };
    raw.total = await bounded(requests, caseSeconds, () => this.raw(countSql, pageSql, raw));
    this.record(name, apiSamples, raw, pageSql !== null);
  }

  /** A series with no raw counterpart (the table shows '-' for raw). */
  async apiOnly(name: string, api: () => Promise<number>): Promise<void> {
    const { warmup, requests, caseSeconds } = this.options;
    progress(`${name}: ${warmup} warm-up + ${requests} measured`);
    await bounded(warmup, caseSeconds, api);
    const samples = await bounded(requests, caseSeconds, api);
    this.rows.push({ name, api: summarize(samples), raw: summarize([]), rawCount: null, rawPage: null });
  }

  record(name: string, api: number[], raw: RawSamples, hasPage: boolean): void {
    this.rows.push({
      name,
      api: summarize(api),
      raw: summarize(raw.total),
      rawCount: summarize(raw.count),
      rawPage: hasPage ? summarize(raw.page) : null,
    });
  }
}

/** A link's path and query: links name the origin that answered, the timed server is another. */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

async function run(options: BenchOptions, target: BenchDatabase): Promise<number> {
  const { db } = target;
  const adminUsername = 'bench-admin';
  const adminPassword = randomBytes(18).toString('base64url');
  const tenantUsername = 'bench-tenant';
  const tenantPassword = randomBytes(18).toString('base64url');
  const scratch = path.join(os.tmpdir(), 'vigil-bench-no-web');
  const config = loadConfig({
    VIGIL_ADMIN_USERNAME: adminUsername,
    VIGIL_ADMIN_PASSWORD: adminPassword,
    DATA_DIR: scratch,
    WEB_DIST_DIR: scratch,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    // No background job polling in the measured process (ignored by servers without a job runner).
    JOBS_POLL_MS: '0',
  });

  progress(`database: ${target.label}`);
  await migrate(db);
  await bootstrap(db, config);
  const companies = await createCustomers(db);
  const tenantCompany = companies[0];
  if (!tenantCompany) throw new Error('no customer company');
  await createTenantUser(db, tenantCompany.id, tenantUsername, tenantPassword);

  const end = new Date(Math.floor(Date.now() / 1000) * 1000);
  progress(`seeding ${options.rows.toLocaleString('en-US')} rows in chunks of ${options.seedChunk}`);
  let lastShown = 0;
  const seedMs = await time(() =>
    seedSystemLogs(db, {
      rows: options.rows,
      companies,
      end,
      days: 90,
      chunk: options.seedChunk,
      stop: () => interruption.requested,
      progress: (done) => {
        if (done - lastShown >= options.rows / 10 || done === options.rows) {
          lastShown = done;
          progress(`  ${done.toLocaleString('en-US')} rows`);
        }
      },
    }),
  );
  if (interruption.requested) return 130;
  if (options.setupSql) {
    progress(`seeded in ${(seedMs / 1000).toFixed(1)} s; running BENCH_SETUP_SQL`);
    await db.exec(options.setupSql);
  }
  progress(`seeded in ${(seedMs / 1000).toFixed(1)} s; VACUUM (ANALYZE) system_logs`);
  // ANALYZE for the planner's statistics; VACUUM sets the visibility map as autovacuum would on a
  // live insert-mostly table, so count(*) may use index-only scans as it would in production.
  await db.exec('VACUUM (ANALYZE) system_logs');

  const perCompany = await db.query<{ company_id: number; n: number }>(
    sql`SELECT company_id, count(*)::int8 AS n FROM system_logs GROUP BY company_id ORDER BY company_id`,
  );

  const recorder = recordingDatabase(db);
  let app: FastifyInstance | null = null;
  let server: ServerProcess | null = null;
  let floor: SqlFloor | null = null;
  try {
    app = await buildApp({ db: recorder.db, config, version: 'bench', logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address !== 'object') throw new Error('the app is not listening on a TCP port');
    const origin = `http://127.0.0.1:${address.port}`;
    progress(`app listening on ${origin}; signing in`);
    const admin = await Client.signIn(origin, adminUsername, adminPassword);
    const tenant = await Client.signIn(origin, tenantUsername, tenantPassword);
    // The statements are checked on the app in this process; the API is timed, on a server
    // database, against the server in a process of its own as in production, so the benchmark's
    // client never shares the server's JavaScript thread.
    let timedAdmin = admin;
    let timedTenant = tenant;
    if (target.url) {
      server = await startServerProcess({
        DATABASE_URL: target.url,
        VIGIL_ADMIN_USERNAME: adminUsername,
        VIGIL_ADMIN_PASSWORD: adminPassword,
      });
      progress(`server process listening on ${server.url}`);
      floor = await startSqlFloor(target.url);
      timedAdmin = await Client.signIn(server.url, adminUsername, adminPassword);
      timedTenant = await Client.signIn(server.url, tenantUsername, tenantPassword);
    }

    const bench = new Bench(options, db, recorder.capture);
    const tenantScope: Companies = [tenantCompany.id];
    const filters: LogFilters = {
      action: ['update', 'delete'],
      date_time_from: new Date(end.getTime() - 30 * 86_400_000).toISOString(),
    };
    const noFilters: LogFilters = {};

    // What any signed-in API call costs without a list: HTTP, session lookup, JSON.
    await bench.apiOnly(
      'API floor: GET /api/auth/ (no list query)',
      async () => (await timedTenant.send('GET', '/api/auth/')).ms,
    );

    // (a) First page, filtered and sorted: the API runs count + page by OFFSET 0.
    const aCount = countQuery(tenantScope, filters);
    const aPage = offsetPageQuery(tenantScope, filters, 1, PAGE_SIZE);
    const aFirst = await bench.check('(a) tenant first page', () => tenant.post<ListBody>(checkUrl(1), filters), [
      aCount,
      aPage,
    ]);
    await crossCheck(db, '(a) tenant first page', aFirst.body, aCount, aPage, bench.mismatches);
    await bench.series(
      '(a) first page, tenant, filtered+sorted',
      async () => (await timedTenant.post<ListBody>(checkUrl(1), filters)).ms,
      aCount,
      aPage,
    );
    bench.explains.push({ title: '(a)/(c) count, tenant, filtered', query: aCount });
    bench.explains.push({ title: '(a) first page, tenant, filtered+sorted', query: aPage });

    const adminCount = countQuery('all', filters);
    const adminPage = offsetPageQuery('all', filters, 1, PAGE_SIZE);
    const adminFirst = await bench.check('(a) admin first page', () => admin.post<ListBody>(checkUrl(1), filters), [
      adminCount,
      adminPage,
    ]);
    await crossCheck(db, '(a) admin first page', adminFirst.body, adminCount, adminPage, bench.mismatches);
    await bench.series(
      '(a) first page, admin (all), filtered+sorted',
      async () => (await timedAdmin.post<ListBody>(checkUrl(1), filters)).ms,
      adminCount,
      adminPage,
    );
    bench.explains.push({ title: '(a) first page, admin, filtered+sorted', query: adminPage });

    // (b) Deep pages: the tenant's whole log, newest first.
    const bCount = countQuery(tenantScope, noFilters);
    const bFirst = await tenant.post<ListBody>(checkUrl(1), noFilters);
    const lastPage = Math.max(1, Math.ceil(bFirst.body.count / PAGE_SIZE));

    // (b1) Walk: follow `next` from page 1, timing every page reached by cursor.
    const walkCase = `(b) keyset walk, pages 2..${options.walkPages + 1} via next`;
    {
      progress(`${walkCase}: warm-up walk of ${options.warmup} pages`);
      let link = bFirst.body.next;
      await bounded(options.warmup, options.caseSeconds, async () => {
        if (!link) return false;
        const answer = await timedTenant.post<ListBody>(pathOf(link), noFilters);
        link = answer.body.next;
        return answer.ms;
      });
      progress(`${walkCase}: API walk`);
      link = bFirst.body.next;
      if (link) {
        const keys = cursorKeys(link).keys;
        // Keyset pages carry the count in the cursor: the engine sends only the page query.
        await bench.check('(b) keyset page 2', () => tenant.post<ListBody>(link as string, noFilters), [
          keysetPageQuery(tenantScope, noFilters, keys, PAGE_SIZE),
        ]);
      }
      const walked: [string, string][] = [];
      const apiSamples = await bounded(options.walkPages, options.caseSeconds, async () => {
        if (!link) return false;
        const cursor = cursorKeys(link);
        if (cursor.direction !== 'a') throw new Error(`a next link carries direction ${cursor.direction}`);
        const answer = await timedTenant.post<ListBody>(pathOf(link), noFilters);
        if (answer.body.results.length === 0) throw new Error(`empty page ${cursor.page} in the walk`);
        walked.push(cursor.keys);
        link = answer.body.next;
        return answer.ms;
      });
      progress(`${walkCase}: raw replay of ${walked.length} pages`);
      const raw: RawSamples = { total: [], count: [], page: [] };
      raw.total = await bounded(walked.length, options.caseSeconds, (i) =>
        bench.raw(null, keysetPageQuery(tenantScope, noFilters, walked[i] as [string, string], PAGE_SIZE), raw),
      );
      bench.record(walkCase, apiSamples, raw, true);
      if (floor) {
        const sqlFloor = floor;
        progress(`${walkCase}: the same pages through the bare SQL floor server`);
        const floorSamples = await bounded(walked.length, options.caseSeconds, (i) =>
          sqlFloor.time(keysetPageQuery(tenantScope, noFilters, walked[i] as [string, string], PAGE_SIZE)),
        );
        bench.record(`${FLOOR} the walk's statements`, floorSamples, raw, true);
      }
    }

    // (b2, b3) The same deep page by cursor (keyset) and by number (OFFSET).
    const deep = Math.min(options.deepPage, lastPage);
    let deepNote = '';
    if (deep < 2) {
      deepNote = `(b) deep page skipped: the tenant has only ${lastPage} page(s)`;
    } else {
      if (deep < options.deepPage) deepNote = `(b) deep page lowered to ${deep}: the tenant has ${lastPage} pages`;
      const before = await tenant.post<ListBody>(checkUrl(deep - 1), noFilters);
      const deepLink = before.body.next;
      if (!deepLink) throw new Error(`page ${deep - 1} has no next link`);
      const keys = cursorKeys(deepLink).keys;
      const keysetSql = keysetPageQuery(tenantScope, noFilters, keys, PAGE_SIZE);
      const offsetSql = offsetPageQuery(tenantScope, noFilters, deep, PAGE_SIZE);
      const byCursor = await bench.check(`(b) keyset page ${deep}`, () => tenant.post<ListBody>(deepLink, noFilters), [
        keysetSql,
      ]);
      const byNumber = await bench.check(
        `(b) OFFSET page ${deep}`,
        () => tenant.post<ListBody>(checkUrl(deep), noFilters),
        [bCount, offsetSql],
      );
      const ids = (body: ListBody) => body.results.map((r) => r.id).join(',');
      if (ids(byCursor.body) !== ids(byNumber.body)) {
        bench.mismatches.push(`(b) page ${deep} by cursor and by number answered different rows`);
      }
      await bench.series(
        `(b) page ${deep} by cursor (keyset)`,
        async () => (await timedTenant.post<ListBody>(pathOf(deepLink), noFilters)).ms,
        null,
        keysetSql,
      );
      if (floor) {
        const sqlFloor = floor;
        await bench.series(`${FLOOR} page ${deep} by cursor`, () => sqlFloor.time(keysetSql), null, keysetSql);
      }
      await bench.series(
        `(b) page ${deep} by number (OFFSET)`,
        async () => (await timedTenant.post<ListBody>(checkUrl(deep), noFilters)).ms,
        bCount,
        offsetSql,
      );
      bench.explains.push({ title: `(b) count, tenant, no filter (pages reached by number pay it)`, query: bCount });
      bench.explains.push({ title: `(b) page ${deep} by cursor (keyset)`, query: keysetSql });
      bench.explains.push({ title: `(b) page ${deep} by number (OFFSET)`, query: offsetSql });
    }

    // (c) The count endpoint with the filters of (a).
    await bench.check('(c) tenant count', () => tenant.post<{ count: number }>(COUNT, filters), [aCount]);
    await bench.series(
      '(c) count, tenant, filters of (a)',
      async () => (await timedTenant.post<{ count: number }>(COUNT, filters)).ms,
      aCount,
      null,
    );
    await bench.check('(c) admin count', () => admin.post<{ count: number }>(COUNT, filters), [adminCount]);
    await bench.series(
      '(c) count, admin (all), filters of (a)',
      async () => (await timedAdmin.post<{ count: number }>(COUNT, filters)).ms,
      adminCount,
      null,
    );
    bench.explains.push({ title: '(c) count, admin, filtered', query: adminCount });

    report(options, target, bench, {
      perCompany: perCompany.rows,
      tenantCompanyId: tenantCompany.id,
      aMatches: aFirst.body.count,
      adminMatches: adminFirst.body.count,
      bMatches: bFirst.body.count,
      filters,
      deepNote,
    });

    if (options.explain && !interruption.requested) {
      process.stdout.write('\nEXPLAIN (ANALYZE, BUFFERS) of the raw statements:\n');
      for (const { title, query } of bench.explains) {
        const plan = await db.query<Record<string, string>>(sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`);
        process.stdout.write(`\n-- ${title}\n${plan.rows.map((r) => Object.values(r)[0]).join('\n')}\n`);
      }
    }
    if (interruption.requested) return 130;
    return bench.mismatches.length > 0 ? 1 : 0;
  } finally {
    if (app) await app.close();
    if (server) await server.stop();
    if (floor) await floor.stop();
  }
}

/** The API's count and first-page ids must equal what the raw SQL answers. */
async function crossCheck(
  db: Database,
  label: string,
  body: ListBody,
  countSql: SqlFragment,
  pageSql: SqlFragment,
  problems: string[],
): Promise<void> {
  const count = await db.query<{ count: number }>(countSql);
  const page = await db.query<{ id: number }>(pageSql);
  if (Number(count.rows[0]?.count) !== body.count) {
    problems.push(`${label}: API count ${body.count}, raw count ${String(count.rows[0]?.count)}`);
  }
  const apiIds = body.results.map((r) => r.id).join(',');
  const rawIds = page.rows.map((r) => Number(r.id)).join(',');
  if (apiIds !== rawIds) problems.push(`${label}: API page and raw page hold different rows`);
}

function report(
  options: BenchOptions,
  target: BenchDatabase,
  bench: Bench,
  facts: {
    perCompany: { company_id: number; n: number }[];
    tenantCompanyId: number;
    aMatches: number;
    adminMatches: number;
    bMatches: number;
    filters: LogFilters;
    deepNote: string;
  },
): void {
  const out: string[] = [];
  const n = (value: number) => value.toLocaleString('en-US');
  out.push('');
  out.push('Vigil list engine benchmark: POST /api/system_logs/check/ and /count/');
  out.push(`database : ${target.label}`);
  out.push(`host     : Node ${process.version}, ${os.cpus().length} CPU(s), ${os.platform()} ${os.arch()}`);
  out.push(
    `server   : ${target.url ? 'its own process (apps/server/src/main.ts, as npm start runs it); statements checked on an app in the benchmark process' : 'in the benchmark process (embedded PGlite has one owner)'}`,
  );
  out.push(
    `data     : ${n(options.rows)} rows over 90 days; per company ${facts.perCompany
      .map((r) => `${r.company_id}: ${n(Number(r.n))}`)
      .join(', ')} (tenant user in company ${facts.tenantCompanyId})`,
  );
  out.push(
    `filters  : action in [${facts.filters.action?.join(', ')}], date_time_from = now - 30 d, ordering -date_time, page_size ${PAGE_SIZE}`,
  );
  out.push(
    `matches  : (a) tenant ${n(facts.aMatches)}, admin ${n(facts.adminMatches)}; (b) tenant, no filter ${n(facts.bMatches)} (${n(Math.ceil(facts.bMatches / PAGE_SIZE))} pages)`,
  );
  out.push(
    `method   : ${options.warmup} warm-up then up to ${options.requests} sequential requests per case (${options.caseSeconds} s cap); ` +
      "API = HTTP round trip incl. JSON; raw = the engine's statements sent straight to the database (count + page for list cases)",
  );
  if (target.url) {
    out.push(
      `floor    : ${FLOOR} rows = the same statements sent through a bare node:http server with a pg pool and nothing else, timed by the same client (bench/lib/sql-floor.ts)`,
    );
  }
  if (options.setupSql) out.push(`setup    : BENCH_SETUP_SQL = ${options.setupSql.replace(/\s+/g, ' ')}`);
  if (facts.deepNote) out.push(`note     : ${facts.deepNote}`);
  out.push('');
  out.push('Latency in ms');
  out.push(table(bench.rows));
  out.push('');
  out.push('Raw SQL breakdown in ms (p50 / p95)');
  out.push(
    grid(
      ['case', 'count(*) p50', 'count(*) p95', 'page p50', 'page p95'],
      bench.rows.map((row) => [
        row.name,
        formatMs(row.rawCount?.p50 ?? Number.NaN),
        formatMs(row.rawCount?.p95 ?? Number.NaN),
        formatMs(row.rawPage?.p50 ?? Number.NaN),
        formatMs(row.rawPage?.p95 ?? Number.NaN),
      ]),
    ),
  );
  out.push('');
  out.push(
    bench.mismatches.length === 0
      ? `SQL check: the ${bench.statementsChecked} statements the engine sent match the replicated raw SQL (text and parameters); API counts and pages match raw results.`
      : `SQL check: ${bench.mismatches.length} MISMATCH(ES), ratios are not trustworthy:\n${bench.mismatches.join('\n')}`,
  );
  const a = bench.rows.find((row) => row.name.startsWith('(a) first page, tenant'));
  if (a) {
    const server = target.db.kind === 'server';
    const ratio = a.api.p95 / a.raw.p95;
    const p95Met = a.api.p95 < TARGET_P95_MS;
    out.push('');
    out.push(`Targets for (a), the tenant's filtered sorted first page:`);
    out.push(
      `  p95 < ${TARGET_P95_MS} ms on the server database : ${formatMs(a.api.p95)} ms  ${
        server
          ? p95Met
            ? 'MET'
            : 'NOT MET'
          : `(${p95Met ? 'under' : 'over'}; the target applies to the server database, this run is embedded)`
      }`,
    );
    out.push(
      `  p95 < ${TARGET_RATIO}x raw SQL p95                  : ${ratio.toFixed(2)}x  ${ratio < TARGET_RATIO ? 'MET' : 'NOT MET'}`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const options = readOptions();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    interruption.requested = true;
    if (signals === 1) progress(`${signal}: stopping after the current step and cleaning up`);
    else process.exit(130);
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
