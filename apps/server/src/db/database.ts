import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { compile, type SqlFragment } from './sql';

export type Row = Record<string, unknown>;

export interface QueryResult<T> {
  rows: T[];
  /** Rows returned by a SELECT or touched by INSERT/UPDATE/DELETE. */
  rowCount: number;
}

/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<T = Row>(query: SqlFragment): Promise<QueryResult<T>>;
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(text: string): Promise<void>;
  /**
   * `COPY table (columns) FROM STDIN` with `data` in COPY's text format (one row a line, columns
   * tab-separated, `\N` for NULL; see copy.ts). Answers the number of rows copied.
   */
  copyFrom(table: string, columns: readonly string[], data: string | Uint8Array): Promise<number>;
}

export interface Database extends Queryable {
  /** `embedded` is PGlite in a data directory; `server` is a PostgreSQL server through a pool. */
  readonly kind: 'embedded' | 'server';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `handler` on every NOTIFY on `channel` from any process using this database; answers a
   * function that stops listening. Embedded databases belong to one process, so nothing else can
   * notify and this listens to nothing.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** Finishes what is in flight and closes; an embedded data directory is left consistent. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; when absent the embedded database in `dataDir` is used. */
  url?: string | undefined;
  /** Directory for the embedded database (created when missing). */
  dataDir?: string | undefined;
  poolSize?: number;
}

/** `COPY "table" ("a", "b")` with every name quoted as an identifier. */
function copyStatement(table: string, columns: readonly string[]): string {
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return `COPY ${ident(table)} (${columns.map(ident).join(', ')})`;
}

/** Opens the configured database: a PostgreSQL server when a URL is given, else embedded PGlite. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openServerDatabase(options.url, options.poolSize ?? 10);
  if (!options.dataDir) throw new Error('openDatabase needs either a URL or a data directory');
  return openEmbeddedDatabase(options.dataDir);
}

async function openEmbeddedDatabase(dataDir: string): Promise<Database> {
  const dir = path.join(dataDir, 'pgdata');
  fs.mkdirSync(dir, { recursive: true });
  // pg_trgm: the trigram indexes search reads (migration search_text_indexes).
  const lite = new PGlite(dir, { extensions: { pg_trgm } });
  await lite.waitReady;
  let closed = false;
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(query: SqlFragment) {
      const { text, values } = compile(query);
      const result = await target.query<T>(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(text: string) {
      await target.exec(text);
    },
    async copyFrom(table: string, columns: readonly string[], data: string | Uint8Array) {
      // PGlite reads COPY … FROM '/dev/blob' from the blob given with the query.
      const result = await target.query(`${copyStatement(table, columns)} FROM '/dev/blob'`, [], {
        // Our buffers are never shared memory; Blob's type only takes plain ArrayBuffer views.
        blob: new Blob([data as string | Uint8Array<ArrayBuffer>]),
      });
      return result.affectedRows ?? 0;
    },
  });
  return {
    kind: 'embedded',
    ...wrap(lite),
    transaction: (work) => lite.transaction((tx) => work(wrap(tx))),
    listen: async () => async () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      await lite.close();
    },
  };
}

const bigintArrayParser = pg.types.getTypeParser(1016 as Parameters<typeof pg.types.getTypeParser>[0]);

/** Type parsers shared with PGlite's defaults so both kinds answer the same JavaScript values. */
function typeOverrides(): pg.CustomTypesConfig {
  const overrides = new pg.TypeOverrides();
  overrides.setTypeParser(20, (value: string) => Number(value));
  overrides.setTypeParser(1016, (value: string) => (bigintArrayParser(value) as string[]).map(Number));
  return overrides;
}

async function openServerDatabase(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: typeOverrides() });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  const wrap = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(query: SqlFragment) {
      const { text, values } = compile(query);
      const result = await target.query(text, values);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(text: string) {
      await target.query(text);
    },
    async copyFrom(table: string, columns: readonly string[], data: string | Uint8Array) {
      // A pool has no COPY of its own: the rows go through one of its clients.
      const client = target instanceof pg.Pool ? await target.connect() : target;
      try {
        const stream = client.query(copyFromStdin(`${copyStatement(table, columns)} FROM STDIN`));
        await pipeline(Readable.from([data]), stream);
        return stream.rowCount;
      } finally {
        if (client !== target) (client as pg.PoolClient).release();
      }
    },
  });
  return {
    kind: 'server',
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, handler) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Refusing unsafe channel name: ${channel}`);
      let stopped = false;
      let client: pg.Client | null = null;
      const connect = async (): Promise<void> => {
        if (stopped || closed) return;
        const next = new pg.Client({ connectionString: url });
        next.on('notification', (message) => {
          if (message.channel === channel) handler(message.payload ?? '');
        });
        // A dropped connection is replaced after a pause; notifications missed meanwhile are
        // covered by the listeners' own time limits.
        next.on('error', () => {
          void next.end().catch(() => undefined);
          if (client === next) client = null;
          setTimeout(() => void connect().catch(() => undefined), 1000).unref();
        });
        await next.connect();
        await next.query(`LISTEN ${channel}`);
        client = next;
      };
      await connect();
      listeners.add(async () => {
        stopped = true;
        await client?.end().catch(() => undefined);
      });
      return async () => {
        stopped = true;
        await client?.end().catch(() => undefined);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const stop of listeners) await stop();
      await pool.end();
    },
  };
}
