import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMigration, migrate, readMigrations } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe('migrations', () => {
  it('build the expected schema from an empty database, once', async () => {
    expect(await currentMigration(t.db)).toBeNull();
    const all = readMigrations();
    expect(await migrate(t.db)).toEqual(all.map((m) => m.version));
    expect(await migrate(t.db)).toEqual([]);
    expect(await currentMigration(t.db)).toBe(all[all.length - 1]?.version);
    const { rows } = await t.db.query<{ table_name: string }>(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['companies', 'roles', 'schema_migrations', 'sessions', 'system_logs', 'users']),
    );
  });

  it('keep company_id first in the key of tenant tables', async () => {
    const { rows } = await t.db.query<{ column_name: string }>(sql`
      SELECT a.attname AS column_name
      FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
      WHERE i.indrelid = 'system_logs'::regclass AND i.indisprimary`);
    expect(rows[0]?.column_name).toBe('company_id');
  });

  it('name files so that they sort by date', () => {
    for (const m of readMigrations()) expect(m.version).toMatch(/^20\d{12}$/);
  });
});
