import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './database';
import { sql } from './sql';

export const migrationsDir = path.resolve(import.meta.dirname, '../../migrations');

export interface Migration {
  version: string;
  name: string;
  text: string;
}

/** Migrations on disk, oldest first. File names are `<YYYYMMDDHHMMSS>_<name>.sql`. */
export function readMigrations(dir = migrationsDir): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{14}_[a-z0-9_-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: file.slice(0, 14),
      name: file.slice(15, -4),
      text: fs.readFileSync(path.join(dir, file), 'utf8'),
    }));
}

/** Lock key shared by every process migrating the same database ("vigil" in ASCII). */
const MIGRATION_LOCK = 0x76696769;

/**
 * Applies pending migrations, each in its own transaction under an advisory lock, so two
 * servers starting together never apply one twice. Returns the versions applied now.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      const { rows } = await tx.query(sql`SELECT 1 FROM schema_migrations WHERE version = ${migration.version}`);
      if (rows.length > 0) return false;
      await tx.exec(migration.text);
      await tx.query(
        sql`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`,
      );
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** The newest applied migration, or null on an empty database. */
export async function currentMigration(db: Database): Promise<string | null> {
  const exists = await db.query<{ present: boolean }>(
    sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
  );
  if (!exists.rows[0]?.present) return null;
  const { rows } = await db.query<{ version: string }>(
    sql`SELECT version FROM schema_migrations ORDER BY version DESC LIMIT 1`,
  );
  return rows[0]?.version ?? null;
}
