/**
 * bench/sigma: endpoint events per second through the real ingest API (`POST /api/ingest/endpoint/`)
 * with every Windows Sigma rule of a rule folder enabled in the rule store, against the very same
 * batches with no rule, in the same run on the same database; and the cost per event of the Sigma
 * stage's matching, measured in this process on the same events with the same rules.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/sigma.ts [rule folder]
 *
 * The folder defaults to the SigmaHQ rules beside the repository (shared/data/sigma/rules/windows).
 * The server runs as its own process on a scratch database (dropped at the end) or, without a URL,
 * on embedded PGlite in a temporary directory. It is started twice: first with no rule (the
 * baseline), then, after the rules are written into the store, with all of them enabled; each run
 * begins with an unmeasured batch (partitions, compiling the rules). Settings: BENCH_BATCHES
 * (default 100), BENCH_BATCH (1000 lines), BENCH_CLIENTS (8). One line in 100 is a real Windows
 * event of the Sigma regression samples (when present), so rules fire as they would in a fleet.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { bulkInsert } from '../apps/server/src/db/bulk';
import { sql } from '../apps/server/src/db/sql';
import { parseEndpointLines } from '../apps/server/src/modules/ingest/parsers';
import { SIGMAHQ_LICENSE, SigmaEngine, checkSigmaFiles } from '../apps/server/src/modules/rules/sigma';
import { endpointLine } from './lib/ingest-lines';
import { ingestToken, pool, signIn, startServerProcess, type ServerProcess } from './lib/server-process';
import { scratchTarget } from './lib/database';

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const batches = Number(process.env.BENCH_BATCHES ?? 100);
const batchLines = Number(process.env.BENCH_BATCH ?? 1000);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const poolSize = 10;
const password = 'Bench-password-1';
const TARGET_EPS = 15_000;
const TARGET_RATIO = 0.75;
const shared = path.resolve(import.meta.dirname, '../../shared/data/sigma');
const folder = process.argv[2] ?? path.join(shared, 'rules/windows');

function log(message: string): void {
  process.stderr.write(`[bench sigma] ${message}\n`);
}

/** The real Windows events of the regression samples, one JSON line each. */
function regressionLines(): string[] {
  const dir = path.join(shared, 'regression');
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!file.endsWith('.json')) continue;
    // The samples are pretty-printed objects one after another; each starts a line with `{`.
    for (const part of readFileSync(path.join(dir, file), 'utf8').split(/\n(?=\{)/))
      out.push(JSON.stringify(JSON.parse(part)));
  }
  return out;
}

/** Batch `b`: ECS process, network and file events, one line in 100 a real Windows event. */
function batchBody(b: number, real: readonly string[]): string {
  const lines: string[] = [];
  for (let i = 0; i < batchLines; i++) {
    const n = b * batchLines + i;
    lines.push(real.length > 0 && n % 100 === 0 ? real[(n / 100) % real.length]! : endpointLine(b, i, batchLines));
  }
  return lines.join('\n');
}

const sigmaLevel = (level: string | null) =>
  level === 'informational'
    ? 'info'
    : level && ['low', 'medium', 'high', 'critical'].includes(level)
      ? level
      : 'medium';

async function main(): Promise<void> {
  if (!existsSync(folder)) throw new Error(`No rule folder at ${folder}; give one as the argument.`);
  const target = await scratchTarget(serverUrl, 'vigil-bench-sigma', poolSize);
  const { env, label, openDirect, dispose } = target;
  const serverEnv = {
    ...env,
    PORT: '0',
    LOG_LEVEL: 'warn',
    JOBS_POLL_MS: '0',
    WEB_DIST_DIR: '/nonexistent',
    VIGIL_ADMIN_USERNAME: 'admin',
    VIGIL_ADMIN_PASSWORD: password,
  };

  let server: ServerProcess | null = null;
  try {
    log(`database: ${label}`);
    const compileStart = performance.now();
    const results = checkSigmaFiles([folder], { defaultLicense: SIGMAHQ_LICENSE });
    const compiled = results.flatMap((r) => (r.status === 'compiled' ? [r] : []));
    log(
      `${compiled.length} of ${results.length} rule files compile (${Math.round(performance.now() - compileStart)} ms)`,
    );
    const real = regressionLines();
    log(`generating ${batches} batches of ${batchLines} lines (${real.length} real Windows events mixed in)`);
    const bodies = Array.from({ length: batches }, (_, b) => batchBody(b, real));
    const warmup = batchBody(batches, real);

    /** One server run over every batch: events and seconds. */
    const run = async (phase: string) => {
      const started = await startServerProcess(serverEnv);
      server = started;
      const token = await ingestToken(started.url, await signIn(started.url, 'admin', password));
      const send = async (body: string, n: number) => {
        const response = await fetch(`${started.url}/api/ingest/endpoint/`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token.key}`,
            'content-type': 'application/x-ndjson',
            'idempotency-key': `${phase.replace(/\W+/g, '-')}-${n}`,
          },
          body,
        });
        const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
        if (response.status !== 200 || answer.rejected.length > 0)
          throw new Error(`${phase} batch ${n}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
        return answer.accepted;
      };
      // Warm-up, not measured: partitions, the parsers' JIT, and with rules their compilation.
      const warmStart = performance.now();
      await send(warmup, -1);
      log(`${phase}: first batch (unmeasured) in ${Math.round(performance.now() - warmStart)} ms`);
      let events = 0;
      const t0 = performance.now();
      await pool(
        bodies.map((body, n) => ({ body, n })),
        clients,
        async ({ body, n }) => {
          const accepted = await send(body, n);
          events += accepted;
        },
      );
      const seconds = (performance.now() - t0) / 1000;
      log(`${phase}: ${events} events in ${seconds.toFixed(2)} s`);
      await started.stop();
      server = null;
      return { events, seconds, companyId: token.company_id };
    };

    const none = await run('no rules');

    // Every compiled rule into the store, for all companies, as provider staff would import them.
    // (PGlite has one owner at a time: the connection is closed while the server runs.)
    let db = await openDirect();
    let stored: number;
    try {
      const provider = Number(
        (await db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!.id,
      );
      stored = await db.transaction((tx) =>
        bulkInsert(
          tx,
          'rules',
          [
            { name: 'company_id', type: 'int8' },
            { name: 'kind', type: 'text' },
            { name: 'scope', type: 'text' },
            { name: 'rule_key', type: 'text' },
            { name: 'title', type: 'text' },
            { name: 'level', type: 'text' },
            { name: 'techniques', type: 'text[]' },
            { name: 'author', type: 'text' },
            { name: 'licence', type: 'text' },
            { name: 'source', type: 'text' },
            { name: 'source_sha256', type: 'text' },
            { name: 'file_name', type: 'text' },
          ],
          // One row per Sigma id (the store keeps one rule per id for all companies).
          [...new Map(compiled.map((r) => [r.rule.info.id, r])).values()].map((r) => {
            const source = readFileSync(r.file, 'utf8');
            const info = r.rule.info;
            return [
              provider,
              'sigma',
              'all',
              info.id,
              info.title,
              sigmaLevel(info.level),
              [...info.techniques],
              info.author ?? '',
              info.license ?? '',
              source,
              createHash('sha256').update(source).digest('hex'),
              path.relative(folder, r.file),
            ];
          }),
        ),
      );
      log(`${stored} rules stored, enabled for every company`);
    } finally {
      await db.close();
    }
    const all = await run('all rules');
    db = await openDirect();
    try {
      const alerts = Number(
        (await db.query<{ n: string }>(sql`SELECT coalesce(sum(hits), 0) AS n FROM rule_hits`)).rows[0]!.n,
      );
      const noneEps = none.events / none.seconds;
      const allEps = all.events / all.seconds;

      // The stage's matching alone, in this process: the same rules, the same events.
      const engine = new SigmaEngine(compiled.map((r) => r.rule));
      // The server's batches, the unmeasured one included, so that the match counts compare.
      const events = [warmup, ...bodies].flatMap((body) =>
        parseEndpointLines(body).flatMap((r) => (r.ok ? [r.event] : [])),
      );
      let matches = 0;
      for (const event of events) matches += engine.match(event).length;
      // Timed rounds after that first one (compiled code), at least a second's worth; the median.
      const rounds: number[] = [];
      const until = performance.now() + 1000;
      while (rounds.length < 5 || performance.now() < until) {
        const start = process.hrtime.bigint();
        for (const event of events) engine.match(event);
        rounds.push(Number(process.hrtime.bigint() - start) / 1000 / events.length);
        if (rounds.length >= 50) break;
      }
      rounds.sort((a, b) => a - b);
      const usPerEvent = rounds[Math.floor(rounds.length / 2)]!;

      const ratio = allEps / noneEps;
      console.log(`\nbench/sigma — ${label}`);
      console.log(`batches of ${batchLines} lines, ${clients} concurrent clients, rule folder ${folder}\n`);
      console.log(`rules loaded: ${stored} (${compiled.length} of ${results.length} files compile)`);
      console.log(`rules the prefilter cannot narrow: ${engine.unfiltered}`);
      console.log(`case          events     seconds   events/s`);
      for (const [caseName, f] of [
        ['no rules', none],
        ['all rules', all],
      ] as const) {
        console.log(
          `${caseName.padEnd(11)} ${String(f.events).padStart(8)} ${f.seconds.toFixed(2).padStart(11)} ${Math.round(
            f.events / f.seconds,
          )
            .toLocaleString('en-US')
            .padStart(10)}`,
        );
      }
      console.log(`\nrule matches counted by the server: ${alerts}; by the engine here: ${matches}`);
      console.log(`Sigma stage matching: ${usPerEvent.toFixed(2)} µs per event (this process, same rules and events)`);
      console.log(
        `wall time added per event with all rules: ${((1 / allEps - 1 / noneEps) * 1e6).toFixed(2)} µs (${clients} clients)`,
      );
      console.log(
        `\nall rules / no rules: ${(ratio * 100).toFixed(0)} % (target ≥ ${TARGET_RATIO * 100} %: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}); ` +
          `${Math.round(allEps).toLocaleString('en-US')} events/s with all rules (target ≥ ${TARGET_EPS.toLocaleString('en-US')} on the server database: ${allEps >= TARGET_EPS ? 'met' : 'NOT met'})`,
      );
    } finally {
      await db.close();
    }
  } finally {
    if (server) await server.stop();
    await dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
