import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import { openDatabase } from '../src/db/database';
import { bootstrap } from '../src/modules/users/bootstrap';
import { loadConfig } from '../src/config';
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
async function inspect<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = t.url ? t.db : await openDatabase({ dataDir: t.dataDir });
  try {
    return await work(db);
  } finally {
    if (!t.url) await db.close();
  }
}

beforeAll(async () => {
  t = await createTestDatabase({ migrated: true });
  await migrate(t.db);
  await bootstrap(t.db, loadConfig({ VIGIL_ADMIN_USERNAME: 'admin', VIGIL_ADMIN_PASSWORD: 'Admin-password-1' }));
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

describe('vigil command line', () => {
  it('migrates (nothing left to do) and lists migrations', async () => {
    expect(await vigil('migrate')).toMatchObject({ code: 0, output: expect.stringMatching(/up to date/) });
    expect((await vigil('migrations')).output).toMatch(/applied\s+\d{14}\s+foundation/);
  });

  it('creates an administrator, refusing a weak password or a taken name with a readable message', async () => {
    const weak = await vigil('admin', 'create', '--username', 'ops', '--password', '123');
    expect(weak.code).toBe(1);
    expect(weak.output).toMatch(/vigil: The password is not accepted: .*at least 10/);
    const created = await vigil(
      'admin',
      'create',
      '--username',
      'ops',
      '--password',
      'Strong-password-9',
      '--email',
      'ops@example.com',
    );
    expect(created).toMatchObject({ code: 0, output: expect.stringMatching(/Created administrator "ops"/) });
    const again = await vigil('admin', 'create', '--username', 'OPS', '--password', 'Strong-password-9');
    expect(again.output).toMatch(/taken/);
    const missing = await vigil('admin', 'create', '--username', 'x1');
    expect(missing.code).not.toBe(0);
    expect(missing.output).toMatch(/--password/);
    const row = await inspect((db) =>
      db.query<{ is_superuser: boolean }>(sql`SELECT is_superuser FROM users WHERE username = 'ops'`),
    );
    expect(row.rows[0]?.is_superuser).toBe(true);
  });

  it('resets a password so that it must be changed, and unlocks a user', async () => {
    await inspect((db) =>
      db.query(
        sql`UPDATE users SET failed_logins = 9, locked_until = now() + interval '1 hour' WHERE username = 'ops'`,
      ),
    );
    const reset = await vigil('user', 'reset-password', '--username', 'ops');
    expect(reset.code).toBe(0);
    expect(reset.output).toMatch(/New password of "ops": \S{12,}/);
    await inspect(async (db) => {
      await db.query(sql`UPDATE users SET locked_until = now() + interval '1 hour' WHERE username = 'ops'`);
    });
    expect((await vigil('user', 'unlock', '--username', 'ops')).code).toBe(0);
    const row = await inspect((db) =>
      db.query<{ password_must_change: boolean; locked_until: Date | null }>(
        sql`SELECT password_must_change, locked_until FROM users WHERE username = 'ops'`,
      ),
    );
    expect(row.rows[0]).toMatchObject({ password_must_change: true, locked_until: null });
    expect((await vigil('user', 'unlock', '--username', 'ghost')).output).toMatch(/No user named "ghost"/);
  });

  it('explains unknown commands', async () => {
    const answer = await vigil('frobnicate');
    expect(answer.code).not.toBe(0);
    expect(answer.output).toMatch(/unknown command/);
  });

  it('imports rule files into the rule store, printing counts and refused rules; the same files again change nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-rules-import-'));
    try {
      mkdirSync(path.join(dir, 'nested'));
      writeFileSync(
        path.join(dir, 'local.rules'),
        'alert tcp any any -> any any (msg:"cli one"; sid:7100001; rev:1;)\nalert tcp any any => any any (msg:"x";)\n',
      );
      writeFileSync(
        path.join(dir, 'nested', 'more.rules'),
        'alert udp any any -> any 53 (msg:"cli two"; sid:7100002; rev:1;)\n',
      );
      writeFileSync(path.join(dir, 'notes.txt'), 'not a rule file');
      const first = await vigil('rules', 'import', 'suricata', dir);
      expect(first).toEqual({
        code: 0,
        output: [
          '2 created, 0 updated, 0 unchanged, 1 rejected (for all companies).',
          '  local.rules line 2: the rule has no sid: every rule needs a unique sid:N;',
        ].join('\n'),
      });
      const again = await vigil('rules', 'import', 'suricata', dir);
      expect(again.output).toMatch(/^0 created, 0 updated, 2 unchanged, 1 rejected/);
      const own = await vigil('rules', 'import', 'suricata', path.join(dir, 'nested'), '--company', 'Provider');
      expect(own.code).toBe(1);
      expect(own.output).toBe('vigil: no company "Provider"');
      const rows = await inspect((db) =>
        db.query<{ rule_key: string; scope: string; file_name: string }>(
          sql`SELECT rule_key, scope, file_name FROM rules WHERE kind = 'suricata' ORDER BY rule_key`,
        ),
      );
      expect(rows.rows).toEqual([
        { rule_key: '1:7100001', scope: 'all', file_name: 'local.rules' },
        { rule_key: '1:7100002', scope: 'all', file_name: path.join('nested', 'more.rules') },
      ]);
      writeFileSync(path.join(dir, 'bad.rules'), 'alert tcp any any -> any any (msg:"z"; sid:7100003;)\u0000\n');
      const binary = await vigil('rules', 'import', 'suricata', path.join(dir, 'bad.rules'));
      expect(binary).toEqual({
        code: 1,
        output: 'vigil: bad.rules holds binary data (control characters), not the text of Suricata rules.',
      });
      expect((await vigil('rules', 'import', 'snort', dir)).output).toMatch(/unknown rule kind "snort"/);
      expect((await vigil('rules', 'import', 'yara', path.join(dir, 'missing'))).output).toMatch(
        /no such file or folder/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
