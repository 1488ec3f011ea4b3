/** Benchmark settings, read once from the environment. Every loop bound comes from here. */
export interface BenchOptions {
  /** PostgreSQL server to create the scratch database on; undefined means embedded PGlite. */
  serverUrl: string | undefined;
  /** Rows seeded into `system_logs`. */
  rows: number;
  /** Measured requests (and raw queries) per case. */
  requests: number;
  /** Unmeasured requests before each measured series. */
  warmup: number;
  /** Pages followed through `next` links in the keyset walk. */
  walkPages: number;
  /** Page reached both by keyset and by OFFSET for the deep-page comparison. */
  deepPage: number;
  /** Wall-clock budget of one measured series; a series stops early when it runs out. */
  caseSeconds: number;
  /** Rows per seeding statement. */
  seedChunk: number;
  /** Print EXPLAIN (ANALYZE, BUFFERS) of the raw queries after the table. */
  explain: boolean;
  /**
   * SQL run after seeding, before VACUUM ANALYZE, to try a change on the scratch database (an
   * index, a setting) without touching the migrations; echoed in the report.
   */
  setupSql: string | undefined;
}

/** A whole number setting from min to max, `_` allowed between digits; the fallback when unset. */
export function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name}=${JSON.stringify(raw)}: must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** The PostgreSQL server a benchmark runs on (BENCH_DATABASE_URL, else DATABASE_URL); undefined: PGlite. */
export function serverUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = (env.BENCH_DATABASE_URL ?? '').trim() || (env.DATABASE_URL ?? '').trim() || undefined;
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('BENCH_DATABASE_URL / DATABASE_URL must start with postgres:// or postgresql://');
  }
  return url;
}

/** Progress lines on stderr, with the seconds since the benchmark started. */
export function progressReporter(name: string): (message: string) => void {
  const startedAt = Date.now();
  return (message) =>
    process.stderr.write(`[bench ${name} ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

export function readOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  return {
    serverUrl: serverUrlFromEnv(env),
    rows: intFromEnv(env, 'BENCH_ROWS', 1_000_000, 1_000, 20_000_000),
    requests: intFromEnv(env, 'BENCH_REQUESTS', 200, 1, 10_000),
    warmup: intFromEnv(env, 'BENCH_WARMUP', 20, 0, 1_000),
    walkPages: intFromEnv(env, 'BENCH_WALK_PAGES', 200, 1, 5_000),
    deepPage: intFromEnv(env, 'BENCH_DEEP_PAGE', 2_000, 2, 1_000_000),
    caseSeconds: intFromEnv(env, 'BENCH_CASE_SECONDS', 120, 1, 3_600),
    seedChunk: intFromEnv(env, 'BENCH_SEED_CHUNK', 10_000, 100, 100_000),
    explain: ['1', 'true', 'yes'].includes((env.BENCH_EXPLAIN ?? '').trim().toLowerCase()),
    setupSql: (env.BENCH_SETUP_SQL ?? '').trim() || undefined,
  };
}
