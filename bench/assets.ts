/**
 * bench/assets: the My company lists at the scale of a large provider — BENCH_ASSETS assets (default
 * 100,000) and BENCH_INSTALLS software installs (5,000,000) over three companies, with their IP
 * history, employees, products and versions — and ingest with asset discovery on against ingest with
 * it off (ASSET_DISCOVERY=off), measured in the same run.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/assets.ts
 *
 * Lists: the first page (50 rows, count included) of every list as a tenant user and as provider
 * staff, timed through the API (the server in its own process on a server database) and as the very
 * statements the list engine sent (captured from an in-process app on the same database) sent straight
 * to the database. Targets: API p95 < 50 ms and < 2× the raw SQL; resolve of an address at a time
 * p95 < 10 ms.
 *
 * Ingest: BENCH_INGEST_ROUNDS (2) rounds, each on two fresh databases, one server with discovery off
 * and one with it on, each sent BENCH_INGEST_BATCHES (60) batches of 1,000 lines (endpoint events of
 * 300 hosts and Suricata EVE of a 10.0.0.0/20 network the company declares) from 8 clients, twice: the
 * first pass meets every machine for the first time, the second sees them again a minute later.
 * Target: with discovery ≥ 0.9 of without on the known estate (the second pass); the first is shown.
 *
 * Settings: BENCH_REQUESTS (200 per case), BENCH_WARMUP (20), BENCH_SKIP_INGEST=1, BENCH_SKIP_LISTS=1.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { sql } from '../apps/server/src/db/sql';
import { hashPassword } from '../apps/server/src/modules/auth/passwords';
import { bootstrap } from '../apps/server/src/modules/users/bootstrap';
import { fromCompiled, openBenchDatabase, scratchTarget } from './lib/database';
import { type Client } from './lib/http';
import { batchBody, endpointLine, eveLine } from './lib/ingest-lines';
import { createCustomers, type SeededCompany } from './lib/seed';
import { ingestToken, pool, signIn, startServerProcess, type ServerProcess } from './lib/server-process';
import { bounded, formatMs, grid, summarize, time, type Summary } from './lib/stats';
import { benchConfig, startTenantAndAdminApps, type TimedApps } from './lib/timed-apps';
import { intFromEnv, progressReporter, serverUrlFromEnv } from './lib/options';

const env = process.env;
const serverUrl = serverUrlFromEnv(env);
const number = (name: string, fallback: number) => intFromEnv(env, name, fallback, 1, 1_000_000_000);
const ASSETS = number('BENCH_ASSETS', 100_000);
const INSTALLS = number('BENCH_INSTALLS', 5_000_000);
const REQUESTS = number('BENCH_REQUESTS', 200);
const WARMUP = number('BENCH_WARMUP', 20);
const INGEST_ROUNDS = number('BENCH_INGEST_ROUNDS', 2);
const INGEST_BATCHES = number('BENCH_INGEST_BATCHES', 60);
const BATCH_LINES = 1000;
const CLIENTS = 8;
const CASE_SECONDS = 120;
const TARGET_P95 = 50;
const TARGET_RATIO = 2;
const TARGET_RESOLVE_P95 = 10;
const TARGET_INGEST_RATIO = 0.9;
const PRODUCTS_PER_COMPANY = 3000;
const VERSIONS_PER_PRODUCT = 3;

const progress = progressReporter('assets');

/** Seeds the estate straight into the tables (generate_series), companies sharing it 50/30/20. */
async function seed(db: Database, companies: SeededCompany[]): Promise<void> {
  const [a, b, c] = companies.map((x) => x.id) as [number, number, number];
  const companyOf = (g: string) =>
    sql.raw(
      `CASE WHEN ${g} <= ${Math.floor(ASSETS * 0.5)} THEN ${a} WHEN ${g} <= ${Math.floor(ASSETS * 0.8)} THEN ${b} ELSE ${c} END`,
    );
  progress(`seeding ${ASSETS.toLocaleString('en-US')} assets and their IP history`);
  await db.query(sql`
    INSERT INTO assets (company_id, name, kind, os_name, os_version, ips, macs, fqdn, criticality, tags,
      first_seen, last_seen, sources, agent_id)
    SELECT ${companyOf('g')}, 'host-' || lpad(g::text, 6, '0'),
      (ARRAY['workstation','workstation','workstation','server','network_device'])[1 + g % 5],
      CASE WHEN g % 5 = 3 THEN 'Ubuntu' ELSE 'Windows 11 Pro' END, '23H2',
      ARRAY[('10.' || (g / 65536) || '.' || (g / 256 % 256) || '.' || (g % 256))::inet],
      ARRAY['00:50:56:' || lpad(to_hex(g / 65536 % 256), 2, '0') || ':' || lpad(to_hex(g / 256 % 256), 2, '0') || ':' || lpad(to_hex(g % 256), 2, '0')],
      'host-' || lpad(g::text, 6, '0') || '.corp.example',
      (ARRAY['low','medium','medium','high','critical'])[1 + g % 5],
      CASE WHEN g % 7 = 0 THEN ARRAY['pci'] ELSE '{}'::text[] END,
      now() - make_interval(days => 30 + g % 300), now() - make_interval(mins => g % 20000),
      ARRAY['endpoint:host-' || g], 'agent-' || g
    FROM generate_series(1, ${ASSETS}::int) g`);
  await db.query(sql`
    INSERT INTO asset_ip_hosts (company_id, asset_id, ip, mac, first_seen, last_seen, source)
    SELECT a.company_id, a.id, a.ips[1], a.macs[1], a.first_seen, a.last_seen, 'dhcp' FROM assets a
    UNION ALL
    SELECT a.company_id, a.id, ('172.16.' || (a.id / 256 % 256) || '.' || (a.id % 256))::inet, a.macs[1],
      a.first_seen - interval '60 days', a.first_seen, 'dhcp' FROM assets a`);
  progress('seeding employees, products and versions');
  await db.query(sql`
    INSERT INTO employees (company_id, full_name, emails, accounts, department, title)
    SELECT ${companyOf('(g * 5)')}, 'Person ' || g, ARRAY['p' || g || '@corp.example'], ARRAY['corp\\p' || g],
      (ARRAY['Finance','IT','Sales','Operations'])[1 + g % 4], 'Specialist'
    FROM generate_series(1, ${Math.ceil(ASSETS / 5)}::int) g`);
  await db.query(sql`
    UPDATE assets a SET owner_employee_id = e.id FROM employees e
    WHERE a.company_id = e.company_id AND e.full_name = 'Person ' || (a.id / 5 + 1) AND a.id % 5 <> 3`);
  for (const company of [a, b, c]) {
    await db.query(sql`
      INSERT INTO software_products (company_id, vendor, name, product_key, first_seen, last_seen)
      SELECT ${company}::int8, 'Vendor ' || (p % 200), 'Product ' || lpad(p::text, 4, '0'),
        lower('vendor ' || (p % 200) || chr(9) || 'product ' || lpad(p::text, 4, '0')),
        now() - make_interval(days => p % 400), now()
      FROM generate_series(1, ${PRODUCTS_PER_COMPANY}::int) p`);
    await db.query(sql`
      INSERT INTO software_versions (company_id, product_id, version, first_seen, last_seen)
      SELECT p.company_id, p.id, v || '.' || (p.id % 10) || '.0', p.first_seen, now()
      FROM software_products p CROSS JOIN generate_series(1, ${VERSIONS_PER_PRODUCT}::int) v
      WHERE p.company_id = ${company}::int8`);
  }
  const perAsset = Math.max(1, Math.round(INSTALLS / ASSETS));
  progress(`seeding ${(perAsset * ASSETS).toLocaleString('en-US')} software installs (${perAsset} per asset)`);
  // Versions numbered within their company, so each asset's installs are a hash join away.
  await db.exec(`CREATE TEMP TABLE bench_versions AS
    SELECT company_id, id, product_id, (row_number() OVER (PARTITION BY company_id ORDER BY id) - 1)::int8 AS n
    FROM software_versions`);
  await db.exec(`CREATE TEMP TABLE bench_version_totals AS
    SELECT company_id, count(*)::int8 AS total FROM software_versions GROUP BY company_id`);
  await db.exec('CREATE INDEX ON bench_versions (company_id, n); ANALYZE bench_versions; ANALYZE bench_version_totals');
  const chunk = 10_000;
  for (let from = 1; from <= ASSETS; from += chunk) {
    await db.query(sql`
      INSERT INTO software_installs (company_id, product_id, version_id, host_name, host_key, first_seen, last_seen,
        source)
      SELECT a.company_id, v.product_id, v.id, a.name, lower(a.name), a.first_seen, a.last_seen, 'osquery_programs'
      FROM assets a
      JOIN bench_version_totals t ON t.company_id = a.company_id
      CROSS JOIN generate_series(1, ${perAsset}::int) k
      JOIN bench_versions v ON v.company_id = a.company_id AND v.n = (a.id * 7 + k * 131) % t.total
      WHERE a.id BETWEEN ${from}::int8 AND ${from + chunk - 1}::int8`);
    if ((from - 1) % 20_000 === 0) progress(`  installs of assets ${from}…`);
  }
  progress('VACUUM (ANALYZE)');
  for (const table of [
    'assets',
    'asset_ip_hosts',
    'employees',
    'software_products',
    'software_versions',
    'software_installs',
  ]) {
    await db.exec(`VACUUM (ANALYZE) ${table}`);
  }
}

interface ListCase {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, unknown>;
  who: 'tenant' | 'admin';
  /** The statements of the case are the ones naming this table. */
  table: RegExp;
  target: number;
}

interface CaseFigures {
  name: string;
  api: Summary;
  raw: Summary;
  /** The same statements through the bare SQL floor server (server database only). */
  floor: Summary | null;
  statements: number;
  target: number;
}

async function lists(): Promise<{ rows: CaseFigures[]; label: string }> {
  const target = await openBenchDatabase(serverUrl);
  const { db } = target;
  const adminPassword = randomBytes(18).toString('base64url');
  const tenantPassword = randomBytes(18).toString('base64url');
  const config = benchConfig(adminPassword);
  let apps: TimedApps<'tenant' | 'admin'> | null = null;
  try {
    progress(`database: ${target.label}`);
    await migrate(db);
    await bootstrap(db, config);
    const companies = await createCustomers(db);
    const tenantCompany = companies[0]!.id;
    const permissions = ['assets', 'assets/ip_hosts', 'employees', 'software', 'software/versions'].map((basename) => ({
      basename,
      actions: ['view'],
    }));
    const role = await db.query<{ id: number }>(sql`
      INSERT INTO roles (company_id, name, permissions) VALUES (${tenantCompany}, 'Estate reader', ${JSON.stringify(permissions)}::jsonb)
      RETURNING id`);
    const user = await db.query<{ id: number }>(sql`
      INSERT INTO users (company_id, username, first_name, password_hash, password_changed_at)
      VALUES (${tenantCompany}, 'bench-tenant', 'Bench', ${await hashPassword(tenantPassword)}, now()) RETURNING id`);
    await db.query(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${user.rows[0]!.id}, ${role.rows[0]!.id})`);
    const seedMs = await time(() => seed(db, companies));
    progress(`seeded in ${(seedMs / 1000).toFixed(0)} s`);

    apps = await startTenantAndAdminApps({
      db,
      databaseUrl: target.url,
      config,
      adminPassword,
      tenantPassword,
      progress,
    });
    const { recorder, clients, timed, floor } = apps;

    // A version with installs in the tenant's company, and an address some asset held 80 days ago.
    const version = await db.query<{ version_id: number }>(sql`
      SELECT version_id FROM software_installs WHERE company_id = ${tenantCompany} ORDER BY id LIMIT 1`);
    const old = await db.query<{ ip: string; at: Date }>(sql`
      SELECT host(ip) AS ip, first_seen + interval '1 day' AS at FROM asset_ip_hosts
      WHERE company_id = ${tenantCompany} AND source = 'dhcp' AND ip << '172.16.0.0/12'::inet ORDER BY id LIMIT 1 OFFSET 777`);
    const page = 'page_size=50';
    const cases: ListCase[] = [
      {
        name: 'assets, tenant',
        method: 'POST',
        url: `/api/assets/check/?${page}`,
        body: {},
        who: 'tenant',
        table: /\bassets a\b/,
        target: TARGET_P95,
      },
      {
        name: 'assets, provider staff',
        method: 'POST',
        url: `/api/assets/check/?${page}`,
        body: {},
        who: 'admin',
        table: /\bassets a\b/,
        target: TARGET_P95,
      },
      {
        name: 'assets high+critical by last seen, tenant',
        method: 'POST',
        url: `/api/assets/check/?${page}&ordering=-last_seen`,
        body: { criticality: ['high', 'critical'], archived: false },
        who: 'tenant',
        table: /\bassets a\b/,
        target: TARGET_P95,
      },
      {
        name: 'asset IP hosts, tenant',
        method: 'POST',
        url: `/api/assets/ip_hosts/check/?${page}`,
        body: {},
        who: 'tenant',
        table: /asset_ip_hosts/,
        target: TARGET_P95,
      },
      {
        name: 'employees, tenant',
        method: 'POST',
        url: `/api/employees/check/?${page}`,
        body: {},
        who: 'tenant',
        table: /\bemployees\b/,
        target: TARGET_P95,
      },
      {
        name: 'software, tenant',
        method: 'POST',
        url: `/api/software/check/?${page}`,
        body: {},
        who: 'tenant',
        table: /software_products/,
        target: TARGET_P95,
      },
      {
        name: 'software, provider staff',
        method: 'POST',
        url: `/api/software/check/?${page}`,
        body: {},
        who: 'admin',
        table: /software_products/,
        target: TARGET_P95,
      },
      {
        name: 'software versions, tenant',
        method: 'POST',
        url: `/api/software/versions/check/?${page}`,
        body: {},
        who: 'tenant',
        table: /software_versions/,
        target: TARGET_P95,
      },
      {
        name: 'assets of a version, tenant',
        method: 'POST',
        url: `/api/software/versions/installs/check/?${page}`,
        body: { version_id: Number(version.rows[0]!.version_id) },
        who: 'tenant',
        table: /software_installs/,
        target: TARGET_P95,
      },
      {
        name: 'resolve an address 80 days ago, tenant',
        method: 'GET',
        url: `/api/assets/ip_hosts/resolve/?ip=${old.rows[0]!.ip}&at=${encodeURIComponent(old.rows[0]!.at.toISOString())}`,
        who: 'tenant',
        table: /asset_ip_hosts/,
        target: TARGET_RESOLVE_P95,
      },
    ];

    const rows: CaseFigures[] = [];
    for (const c of cases) {
      const call = (client: Client) => client.send<unknown>(c.method, c.url, c.body);
      const { statements } = await recorder.capture(() => call(clients[c.who]));
      const own = statements.filter((s) => c.table.test(s.text)).map(fromCompiled);
      if (own.length === 0) throw new Error(`${c.name}: no statement on the list's table was captured`);
      progress(`${c.name}: API (${WARMUP} + ${REQUESTS})`);
      await bounded(WARMUP, CASE_SECONDS, async () => (await call(timed[c.who])).ms);
      const api = await bounded(REQUESTS, CASE_SECONDS, async () => (await call(timed[c.who])).ms);
      progress(`${c.name}: raw SQL, ${own.length} statement(s)`);
      const rawOnce = () =>
        time(async () => {
          for (const statement of own) await db.query(statement);
        });
      await bounded(WARMUP, CASE_SECONDS, rawOnce);
      const raw = await bounded(REQUESTS, CASE_SECONDS, rawOnce);
      let floorSamples: number[] | null = null;
      if (floor) {
        const sqlFloor = floor;
        progress(`${c.name}: the same statements through the bare SQL floor server`);
        await bounded(WARMUP, CASE_SECONDS, () => sqlFloor.time(...own));
        floorSamples = await bounded(REQUESTS, CASE_SECONDS, () => sqlFloor.time(...own));
      }
      rows.push({
        name: c.name,
        api: summarize(api),
        raw: summarize(raw),
        floor: floorSamples ? summarize(floorSamples) : null,
        statements: own.length,
        target: c.target,
      });
    }
    return { rows, label: target.label };
  } finally {
    await apps?.stop();
    await target.dispose();
  }
}

type IngestBody = { kind: 'network' | 'endpoint'; body: string };

/**
 * Events per second of one server (discovery on or off) on a fresh database: the first pass meets the
 * estate for the first time (every machine is new), the second sees the same machines a minute later
 * (a known estate, as a provider's ingest nearly always is).
 */
async function ingestRun(discovery: boolean, passes: [IngestBody[], IngestBody[]]): Promise<[number, number]> {
  const target = await scratchTarget(serverUrl, 'vigil-bench-assets-ingest');
  let server: ServerProcess | null = null;
  try {
    const password = 'Bench-password-1';
    server = await startServerProcess({
      ...target.env,
      VIGIL_ADMIN_USERNAME: 'admin',
      VIGIL_ADMIN_PASSWORD: password,
      ASSET_DISCOVERY: discovery ? 'on' : 'off',
    });
    const session = await signIn(server.url, 'admin', password);
    const token = await ingestToken(server.url, session);
    const networks = await fetch(`${server.url}/api/assets/networks/`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-csrftoken': session.csrf, cookie: session.cookie },
      body: JSON.stringify({ cidrs: ['10.0.0.0/20'] }),
    });
    if (networks.status !== 200) throw new Error(`networks: ${networks.status}`);
    const url = server.url;
    const send = async (kind: 'network' | 'endpoint', body: string, key: string) => {
      const response = await fetch(`${url}/api/ingest/${kind}/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.key}`,
          'content-type': 'application/x-ndjson',
          'idempotency-key': key,
        },
        body,
      });
      const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
      if (response.status !== 200 || answer.rejected.length > 0)
        throw new Error(`${kind} batch: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
      return answer.accepted;
    };
    // Warm-up (partitions, the parsers' first runs), not measured.
    await send('network', batchBody(eveLine, 900_000, BATCH_LINES), 'warm-network');
    await send('endpoint', batchBody(endpointLine, 900_001, BATCH_LINES), 'warm-endpoint');
    const measure = async (bodies: IngestBody[], pass: number) => {
      let events = 0;
      const started = performance.now();
      await pool(
        bodies.map((b, n) => ({ ...b, n })),
        CLIENTS,
        async ({ kind, body, n }) => {
          events += await send(kind, body, `pass-${pass}-batch-${n}`);
        },
      );
      return events / ((performance.now() - started) / 1000);
    };
    const eps: [number, number] = [await measure(passes[0], 1), await measure(passes[1], 2)];
    if (discovery) {
      const db = serverUrl ? await target.openDirect() : null;
      if (db) {
        const found = await db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM assets`);
        progress(`  discovery made ${found.rows[0]!.n} assets`);
        await db.close();
      }
    }
    return eps;
  } finally {
    await server?.stop();
    await target.dispose();
  }
}

async function ingest(): Promise<{ off: [number, number][]; on: [number, number][] }> {
  // Batch b + 60 holds the same hosts and addresses as batch b, 60 seconds later (lines are a
  // millisecond apart; 300 hosts and 60,000 addresses go round).
  const bodies = (from: number) =>
    Array.from({ length: INGEST_BATCHES }, (_, b): IngestBody =>
      b % 2 === 0
        ? { kind: 'network', body: batchBody(eveLine, from + b, BATCH_LINES) }
        : { kind: 'endpoint', body: batchBody(endpointLine, from + b, BATCH_LINES) },
    );
  const passes: [IngestBody[], IngestBody[]] = [bodies(0), bodies(60)];
  const off: [number, number][] = [];
  const on: [number, number][] = [];
  for (let round = 1; round <= INGEST_ROUNDS; round += 1) {
    // Alternating which goes first, so neither always meets a warmer or a colder machine.
    for (const discovery of round % 2 === 1 ? [false, true] : [true, false]) {
      progress(`ingest round ${round}, discovery ${discovery ? 'on' : 'off'}: ${INGEST_BATCHES} batches`);
      const eps = await ingestRun(discovery, passes);
      progress(`  first sight ${Math.round(eps[0])} events/s, known estate ${Math.round(eps[1])} events/s`);
      (discovery ? on : off).push(eps);
    }
  }
  return { off, on };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const out: string[] = [];
  out.push(
    `bench/assets — ${new Date().toISOString()}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  let failed = false;
  if (env.BENCH_SKIP_LISTS !== '1') {
    const { rows, label } = await lists();
    out.push(
      `database: ${label}; ${ASSETS.toLocaleString('en-US')} assets, ${INSTALLS.toLocaleString('en-US')} installs`,
    );
    out.push(
      grid(
        [
          'case',
          'n',
          'API p50',
          'API p95',
          'raw p50',
          'raw p95',
          'p95 ratio',
          'floor p95',
          'floor ratio',
          'stmts',
          'target',
          'met',
        ],
        rows.map((r) => {
          const ratio = r.api.p95 / r.raw.p95;
          const met = r.api.p95 < r.target && (r.target === TARGET_RESOLVE_P95 || ratio < TARGET_RATIO);
          if (!met) failed = true;
          return [
            r.name,
            String(r.api.n),
            formatMs(r.api.p50),
            formatMs(r.api.p95),
            formatMs(r.raw.p50),
            formatMs(r.raw.p95),
            `${ratio.toFixed(2)}x`,
            r.floor ? formatMs(r.floor.p95) : '-',
            r.floor ? `${(r.floor.p95 / r.raw.p95).toFixed(2)}x` : '-',
            String(r.statements),
            r.target === TARGET_RESOLVE_P95 ? `p95 < ${r.target} ms` : `p95 < ${r.target} ms, < ${TARGET_RATIO}x`,
            met ? 'yes' : 'NO',
          ];
        }),
      ),
    );
    out.push(
      'floor: the same statements (at once, as the engine sends them) through a bare node:http server with a pg pool and nothing else, timed by the same client (bench/lib/sql-floor.ts); floor ratio = floor p95 / raw p95',
    );
  }
  if (env.BENCH_SKIP_INGEST !== '1') {
    const { off, on } = await ingest();
    out.push('');
    for (const [pass, name] of [
      [1, 'known estate'],
      [0, 'first sight of the estate'],
    ] as const) {
      const ratios = on.map((v, i) => v[pass] / off[i]![pass]);
      const ratio = median(ratios);
      if (pass === 1 && ratio < TARGET_INGEST_RATIO) failed = true;
      out.push(
        `ingest, ${name}: events/s discovery off ${off.map((v) => Math.round(v[pass])).join(', ')}; on ${on
          .map((v) => Math.round(v[pass]))
          .join(', ')}; on/off per round ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${ratio.toFixed(3)}` +
          (pass === 1 ? ` (target ≥ ${TARGET_INGEST_RATIO}: ${ratio >= TARGET_INGEST_RATIO ? 'met' : 'NOT met'})` : ''),
      );
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
});
