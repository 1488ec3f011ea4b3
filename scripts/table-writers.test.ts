import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTableWriters, moduleOf, report, writesIn } from './table-writers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const checker = join(here, 'table-writers.mjs');
const serverSource = join(here, '..', 'apps', 'server', 'src');

let root: string | undefined;

/** A fixture source folder: path → content. */
function tree(files: Record<string, string>): string {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'table-writers-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function runChecker(folder: string): { code: number; output: string } {
  try {
    const out = execFileSync(process.execPath, [checker, folder], { encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, output: out };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

/** Tests that start the checker as `npm run lint` does, or read the whole server source. */
const SLOW = { timeout: 60_000 };

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('what counts as a write', () => {
  it('finds INSERT, UPDATE, DELETE, TRUNCATE and COPY targets and the bulk helpers’ table argument', () => {
    const text = [
      "import { sql } from '../../db/sql';",
      'const a = sql`INSERT INTO users AS u (username) VALUES (${name})`;',
      'const b = sql`\n  WITH upd AS (\n    UPDATE alerts a SET tags = ${tags}\n  ) DELETE FROM "sessions" WHERE id = 1`;',
      "await tx.exec('TRUNCATE indicator_import');",
      "await bulkInsert(tx, 'system_logs', columns, rows);",
      "await copyWritten(tx, 'network_events', names, out);",
      "await db.copyFrom('warehouse_sightings_queue', names, data);",
      'const c = sql`COPY public.jobs (id) FROM STDIN`;',
    ].join('\n');
    expect(writesIn('x.ts', text)).toEqual([
      { table: 'users', kind: 'INSERT INTO', line: 2 },
      { table: 'alerts', kind: 'UPDATE', line: 5 },
      { table: 'sessions', kind: 'DELETE FROM', line: 6 },
      { table: 'indicator_import', kind: 'TRUNCATE', line: 7 },
      { table: 'system_logs', kind: 'bulkInsert()', line: 8 },
      { table: 'network_events', kind: 'copyWritten()', line: 9 },
      { table: 'warehouse_sightings_queue', kind: 'copyFrom()', line: 10 },
      { table: 'jobs', kind: 'COPY', line: 11 },
    ]);
  });

  it('does not count row locks, ON CONFLICT … DO UPDATE, comments or lower-case prose', () => {
    const text = [
      '// Matchers UPDATE alerts in one statement; INSERT INTO system_logs happens in audit.',
      'const a = sql`SELECT 1 FROM users WHERE id = ${id} FOR UPDATE`;',
      'const b = sql`SELECT 1 FROM users u FOR UPDATE OF u`;',
      'const c = sql`SELECT 1 FROM companies c FOR NO KEY UPDATE`;',
      'const d = sql`INSERT INTO widgets (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id`;',
      "const e = 'Could not update users now, delete from the list first.';",
      'const f = sql`SELECT * FROM jobs FOR UPDATE SKIP LOCKED`;',
    ].join('\n');
    expect(writesIn('x.ts', text)).toEqual([{ table: 'widgets', kind: 'INSERT INTO', line: 5 }]);
  });

  it('reads sql.ident with a literal as the table, and any other substitution as a table named at run time', () => {
    const text = [
      "const a = sql`DELETE FROM ${sql.ident('mail_messages')} WHERE id = ${id}`;",
      'const b = sql`DELETE FROM ${sql.ident(table)} WHERE id = ${id}`;',
      'await bulkInsert(tx, table, columns, rows);',
    ].join('\n');
    expect(writesIn('x.ts', text)).toEqual([
      { table: 'mail_messages', kind: 'DELETE FROM', line: 1 },
      { table: null, kind: 'DELETE FROM', line: 2 },
      { table: null, kind: 'bulkInsert()', line: 3 },
    ]);
  });

  it('gives each file the module of its folder under modules/, else its own folder or name', () => {
    expect(moduleOf('modules/users/users.repository.ts')).toBe('users');
    expect(moduleOf('modules/auth/lockout.ts')).toBe('auth');
    expect(moduleOf('db/migrate.ts')).toBe('db/');
    expect(moduleOf('app.ts')).toBe('app.ts');
  });
});

describe('table writer checker', () => {
  it('passes a tree where every table has one writing module, tests and migrations left out', SLOW, () => {
    const folder = tree({
      'modules/users/users.repository.ts': 'const a = sql`UPDATE users SET name = ${n}`;\n',
      'modules/users/account.repository.ts': 'const a = sql`UPDATE users SET otp = NULL`;\n',
      'modules/auth/auth.repository.ts': 'const a = sql`SELECT * FROM users WHERE id = ${id} FOR UPDATE`;\n',
      'modules/auth/auth.test.ts': 'const a = sql`UPDATE users SET name = 1`;\n',
      'db/migrations/seed.ts': 'const a = sql`INSERT INTO users (name) VALUES (1)`;\n',
      'db/migrate.ts': 'const a = sql`INSERT INTO schema_migrations (v) VALUES (1)`;\n',
    });
    const result = checkTableWriters(folder, { dynamicWriters: [], exceptions: [] });
    expect(result).toMatchObject({ files: 4, tables: 2, conflicts: [], undeclared: [], stale: [] });
    expect(runChecker(folder)).toEqual({ code: 0, output: 'table writers: 2 tables, each written by one module\n' });
  });

  it('fails on a table written from two modules, naming the table, the modules and the files', SLOW, () => {
    const folder = tree({
      'modules/users/users.repository.ts': 'export const a = sql`INSERT INTO users (name) VALUES (${n})`;\n',
      'modules/auth/lockout.ts': '\nexport const b = sql`UPDATE users SET failed_logins = 0`;\n',
      'modules/audit/audit.repository.ts': 'export const c = sql`INSERT INTO system_logs (action) VALUES (${a})`;\n',
      'modules/alerts/system-audit.ts': "await bulkInsert(tx, 'system_logs', columns, rows);\n",
    });
    const { conflicts } = checkTableWriters(folder, { dynamicWriters: [], exceptions: [] });
    expect(conflicts).toEqual([
      {
        table: 'system_logs',
        modules: [
          { module: 'alerts', places: ['modules/alerts/system-audit.ts:1'] },
          { module: 'audit', places: ['modules/audit/audit.repository.ts:1'] },
        ],
      },
      {
        table: 'users',
        modules: [
          { module: 'auth', places: ['modules/auth/lockout.ts:2'] },
          { module: 'users', places: ['modules/users/users.repository.ts:1'] },
        ],
      },
    ]);
    const run = runChecker(folder);
    expect(run.code).toBe(1);
    expect(run.output).toContain('2 table(s) written from more than one module');
    expect(run.output).toContain('  users — written by auth, users:\n    auth: modules/auth/lockout.ts:2\n');
    expect(run.output).toContain('  system_logs — written by alerts, audit:');
  });

  it('fails on a write whose table is named only at run time unless the file is declared with its tables', () => {
    const folder = tree({
      'modules/ingest/storage.ts': "await copyWritten(tx, 'network_events', names, out);\n",
      'modules/events/retention.ts': 'await db.query(sql`DELETE FROM ${sql.ident(table)} WHERE ts < ${t}`);\n',
    });
    const undeclared = checkTableWriters(folder, { dynamicWriters: [], exceptions: [] });
    expect(undeclared.undeclared).toEqual(['modules/events/retention.ts:1 (DELETE FROM a table named at run time)']);
    expect(report(undeclared).ok).toBe(false);
    // Declared, its tables count for its module: events and ingest now both write network_events.
    const declared = checkTableWriters(folder, {
      dynamicWriters: [{ file: 'modules/events/retention.ts', tables: ['network_events'], reason: 'retention' }],
      exceptions: [],
    });
    expect(declared.undeclared).toEqual([]);
    expect(declared.conflicts.map((c) => [c.table, c.modules.map((m) => m.module)])).toEqual([
      ['network_events', ['events', 'ingest']],
    ]);
  });

  it('lets a declared exception stand, and reports declarations the code no longer needs', () => {
    const folder = tree({
      'modules/alerts/alerts.repository.ts': 'const a = sql`UPDATE alerts SET tags = ${t}`;\n',
      'modules/demo/seed.ts': "await bulkInsert(db, 'alerts', columns, rows);\n",
      'modules/units/units.repository.ts': 'const a = sql`DELETE FROM units WHERE id = ${id}`;\n',
    });
    const result = checkTableWriters(folder, {
      dynamicWriters: [{ file: 'modules/units/units.repository.ts', tables: [], reason: 'none' }],
      exceptions: [
        { table: 'alerts', module: 'demo', reason: 'demo seed' },
        { table: 'units', module: 'alerts', reason: 'gone' },
      ],
    });
    expect(result.conflicts).toEqual([]);
    expect(result.stale).toEqual([
      'modules/units/units.repository.ts: declared as writing tables named at run time, but it writes none',
      'exception alerts → units: alerts no longer writes units',
    ]);
  });
});

describe('the server source', () => {
  it('has one writing module per table, system_logs written only by the audit module', SLOW, () => {
    const result = checkTableWriters(serverSource);
    expect(report(result)).toEqual({ ok: true, lines: [expect.stringMatching(/^table writers: \d+ tables/)] });
    expect(result.owners).toMatchObject({
      alerts: ['alerts'],
      ingest_batches: ['ingest'],
      sessions: ['sessions'],
      system_logs: ['audit'],
      user_roles: ['users'],
      users: ['users'],
      warehouse_files: ['ingest'],
      warehouse_hashes: ['ingest'],
      network_events: ['ingest'],
    });
    expect(runChecker(serverSource).code).toBe(0);
  });

  it('fails once a second module writes one of its tables', SLOW, () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'table-writers-')));
    const copy = join(root, 'src');
    cpSync(serverSource, copy, { recursive: true });
    appendFileSync(
      join(copy, 'modules', 'matchers', 'apply-matchers.ts'),
      '\nexport const closeAll = sql`UPDATE alerts SET status = ${"closed"}`;\n' +
        "export const auditAll = () => bulkInsert(db, 'system_logs', [], []);\n",
    );
    const run = runChecker(copy);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/ {2}alerts — written by alerts, matchers:\n/);
    expect(run.output).toMatch(/ {4}matchers: modules\/matchers\/apply-matchers\.ts:\d+\n/);
    expect(run.output).toMatch(/ {2}system_logs — written by audit, matchers:\n/);
  });
});
