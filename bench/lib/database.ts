import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile, sql, type CompiledSql, type SqlFragment } from '../../apps/server/src/db/sql';
import { openDatabase, type Database } from '../../apps/server/src/db/database';

/** The scratch database of one run, and how to get rid of it. */
export interface BenchDatabase {
  db: Database;
  /** Human-readable description for the report header. */
  label: string;
  /** The scratch database's URL on a PostgreSQL server (undefined for PGlite), for a server process. */
  url?: string;
  /** Closes the connection and drops the scratch database or removes the temporary directory. */
  dispose(): Promise<void>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * With a server URL: creates `vigil_bench_<random>` on that server and connects to it; the
 * database is dropped by `dispose`. Without one: embedded PGlite in a fresh temporary directory.
 */
export async function openBenchDatabase(serverUrl: string | undefined, poolSize = 10): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-'));
    let db: Database;
    try {
      db = await openDatabase({ dataDir: dir });
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return {
      db,
      label: `embedded PGlite in ${dir}`,
      async dispose() {
        await db.close().catch(() => undefined);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  const name = `vigil_bench_${randomBytes(5).toString('hex')}`;
  const maintenance = await openDatabase({ url: serverUrl, poolSize: 1 });
  // The name is generated above from hex digits only, so it can be spliced into DDL.
  await maintenance.exec(`CREATE DATABASE ${name}`);
  let db: Database;
  try {
    db = await openDatabase({ url: withDatabaseName(serverUrl, name), poolSize });
  } catch (error) {
    await maintenance.exec(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
    await maintenance.close();
    throw error;
  }
  const version = await db.query<{ server_version: string }>(sql.raw('SHOW server_version'));
  return {
    db,
    url: withDatabaseName(serverUrl, name),
    label: `PostgreSQL ${version.rows[0]?.server_version ?? '?'} server, scratch database ${name} on ${safeUrl(serverUrl)}`,
    async dispose() {
      await db.close().catch(() => undefined);
      try {
        await maintenance.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch {
        // PostgreSQL before 13 has no FORCE; the pool above is closed, so a plain drop is enough.
        await maintenance.exec(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await maintenance.close();
      }
    },
  };
}

/**
 * Wraps a database so the statements the application sends can be captured: the benchmark
 * checks that the SQL it times "raw" is exactly what the list engine issued.
 */
export function recordingDatabase(inner: Database): {
  db: Database;
  capture<T>(work: () => Promise<T>): Promise<{ result: T; statements: CompiledSql[] }>;
} {
  let log: CompiledSql[] | null = null;
  const db: Database = {
    get kind() {
      return inner.kind;
    },
    query<T>(query: SqlFragment) {
      log?.push(compile(query));
      return inner.query<T>(query);
    },
    exec: (text) => inner.exec(text),
    copyFrom: (table, columns, data) => inner.copyFrom(table, columns, data),
    transaction: (work) => inner.transaction(work),
    listen: (channel, handler) => inner.listen(channel, handler),
    close: () => inner.close(),
  };
  return {
    db,
    async capture(work) {
      log = [];
      try {
        const result = await work();
        return { result, statements: log };
      } finally {
        log = null;
      }
    },
  };
}

/** A captured statement as a fragment again, to send it as the application did. */
export function fromCompiled(statement: CompiledSql): SqlFragment {
  const parts = statement.text.split(/\$(\d+)/);
  const strings = parts.filter((_, i) => i % 2 === 0);
  const values = parts.filter((_, i) => i % 2 === 1).map((n) => statement.values[Number(n) - 1]);
  return sql(Object.assign([...strings], { raw: strings }) as unknown as TemplateStringsArray, ...values);
}

/**
 * A scratch database for a server the benchmark runs as its own process: the environment that
 * points the server at it, a way to open it directly between server runs (PGlite has one owner at a
 * time: close it before the server starts again), and its removal.
 */
export interface ScratchTarget {
  /** DATABASE_URL (and pool size) on a server, or DATA_DIR for PGlite. */
  env: Record<string, string>;
  label: string;
  openDirect(): Promise<Database>;
  dispose(): Promise<void>;
}

export async function scratchTarget(
  serverUrl: string | undefined,
  prefix: string,
  poolSize = 10,
): Promise<ScratchTarget> {
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    return {
      env: { DATA_DIR: dir, DATABASE_URL: '' },
      label: `embedded PGlite in ${dir}`,
      openDirect: () => openDatabase({ dataDir: dir }),
      dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `vigil_bench_${randomBytes(5).toString('hex')}`;
  const maintenance = await openDatabase({ url: serverUrl, poolSize: 1 });
  // The name is generated above from hex digits only, so it can be spliced into DDL.
  await maintenance.exec(`CREATE DATABASE ${name}`);
  const url = withDatabaseName(serverUrl, name);
  return {
    env: { DATABASE_URL: url, DATABASE_POOL_SIZE: String(poolSize) },
    label: `PostgreSQL server, scratch database ${name} on ${safeUrl(serverUrl)}`,
    openDirect: () => openDatabase({ url, poolSize: 2 }),
    async dispose() {
      try {
        await maintenance.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await maintenance.close();
      }
    },
  };
}
