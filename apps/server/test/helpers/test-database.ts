import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { copyPgliteTemplate, templateKey } from './pglite-template';

export interface TestDatabase {
  db: Database;
  /** Connection URL of the fresh server database, or undefined for embedded. */
  url: string | undefined;
  /** Data directory of the embedded database, or undefined for a server. */
  dataDir: string | undefined;
  /** Closes and deletes the database. */
  drop(): Promise<void>;
}

const withName = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Advisory lock key of building the server template ("vtpl" in ASCII). */
const TEMPLATE_LOCK = 0x7674706c;
let serverTemplateReady: Promise<string> | null = null;

/**
 * The name of a migrated database on the server to create test databases from: `CREATE DATABASE …
 * TEMPLATE` copies it in a fraction of the time all migrations take. Named by the migrations (as the
 * PGlite template is), built once under an advisory lock by whichever test file comes first, and kept
 * for the next run; templates of older migrations are dropped when a new one is built.
 */
function serverTemplate(serverUrl: string): Promise<string> {
  serverTemplateReady ??= (async () => {
    const name = `vigil_test_template_${templateKey()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const old = await admin.query<{ datname: string }>(
          "SELECT datname FROM pg_database WHERE datname LIKE 'vigil\\_test\\_template\\_%'",
        );
        for (const { datname } of old.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
        const building = `${name}_building`;
        await admin.query(`CREATE DATABASE ${building}`);
        const db = await openDatabase({ url: withName(serverUrl, building), poolSize: 1 });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
    } finally {
      await admin.end();
    }
    return name;
  })();
  return serverTemplateReady;
}

/**
 * A fresh database for one test file: a new database on the server named by TEST_DATABASE_URL when
 * it is set, else embedded PGlite in a temporary directory. With `migrated`, it starts as a copy of a
 * migrated template (`serverTemplate` above, pglite-template.ts); `migrate` then finds nothing to apply.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `vigil_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const template = options.migrated ? await serverTemplate(serverUrl) : null;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    await admin.end();
    const url = withName(serverUrl, name);
    const db = await openDatabase({ url, poolSize: 5 });
    return {
      db,
      url,
      dataDir: undefined,
      async drop() {
        await db.close();
        const cleanup = new pg.Client({ connectionString: serverUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-test-'));
  if (options.migrated) await copyPgliteTemplate(dataDir);
  const db = await openDatabase({ dataDir });
  return {
    db,
    url: undefined,
    dataDir,
    async drop() {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
