import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database';
import { copyPgliteTemplate } from './pglite-template';

export interface TestDatabase {
  db: Database;
  /** Connection URL of the fresh server database, or undefined for embedded. */
  url: string | undefined;
  /** Data directory of the embedded database, or undefined for a server. */
  dataDir: string | undefined;
  /** Closes and deletes the database. */
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file: a new database on the server named by TEST_DATABASE_URL when
 * it is set, else embedded PGlite in a temporary directory. With `migrated`, an embedded one starts
 * as a copy of a migrated template (pglite-template.ts); `migrate` then finds nothing to apply.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `vigil_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = await openDatabase({ url: url.toString(), poolSize: 5 });
    return {
      db,
      url: url.toString(),
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
