import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { readMaintenance } from '../src/modules/maintenance/maintenance.repository';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';
import { runCliCaptured } from '../src/cli/run-cli-captured';

let t: TestDatabase;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

/** Runs the command line against the test database and captures what it prints. */
async function vigil(...args: string[]) {
  const { code, output } = await runCliCaptured(args);
  return { code, output };
}

/** The embedded database allows one connection: the CLI opens its own, so the test's is closed between uses. */
async function stored() {
  const db = t.url ? t.db : await openDatabase({ dataDir: t.dataDir });
  try {
    return await readMaintenance(db);
  } finally {
    if (!t.url) await db.close();
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  await migrate(t.db);
  if (t.url) process.env.DATABASE_URL = t.url;
  else {
    await t.db.close();
    process.env.DATA_DIR = t.dataDir;
    delete process.env.DATABASE_URL;
  }
});
afterAll(async () => {
  process.env.DATA_DIR = saved.DATA_DIR;
  if (saved.DATABASE_URL === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved.DATABASE_URL;
  if (!t.url) t.db = await openDatabase({ dataDir: t.dataDir });
  await t?.drop();
});

describe('vigil maintenance', () => {
  it('turns maintenance on and off in the database, and tells its state', async () => {
    expect(await vigil('maintenance', 'status')).toEqual({
      code: 0,
      output: 'Maintenance is off: the API answers as usual.',
    });
    const on = await vigil('maintenance', 'on');
    expect(on.code).toBe(0);
    expect(on.output).toMatch(
      /^Maintenance is on since \d{4}-\d\d-\d\dT.*: the API answers 423 except the health check\.$/,
    );
    expect(await stored()).toEqual({ reason: 'administrator', since: expect.any(Date) });
    expect((await vigil('maintenance', 'status')).output).toBe(on.output);

    // Migrating with maintenance turned on by hand leaves it on.
    expect((await vigil('migrate')).code).toBe(0);
    expect(await stored()).toMatchObject({ reason: 'administrator' });

    expect(await vigil('maintenance', 'off')).toEqual({
      code: 0,
      output: 'Maintenance is off: the API answers as usual.',
    });
    expect(await stored()).toBeNull();
  });

  it('refuses an unknown switch', async () => {
    expect((await vigil('maintenance', 'sideways')).code).not.toBe(0);
    expect(await stored()).toBeNull();
  });
});
