import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database';
import { migrate, migrationsDir } from '../../src/db/migrate';

/*
 * A migrated embedded database to copy from. Creating a PGlite cluster and running every migration
 * takes about 4.5 s; copying a migrated one and opening it about 1 s, which is most of what each
 * API test file waits for before its first test. The template is keyed by the migrations and the
 * PGlite version, so a changed migration builds a new one; it lives in the system's temporary folder.
 */

const ROOT = path.join(os.tmpdir(), 'vigil-pglite-templates');

/** Names the template by the migration files' names and contents and PGlite's version. */
export function templateKey(): string {
  const hash = createHash('sha256');
  // The package's own manifest (its exports do not let it be imported): its version names the engine.
  const manifest = path.resolve(import.meta.dirname, '../../../../node_modules/@electric-sql/pglite/package.json');
  hash.update(fs.existsSync(manifest) ? fs.readFileSync(manifest) : 'pglite');
  for (const name of fs.readdirSync(migrationsDir).sort()) {
    hash.update(`${name}\n`);
    hash.update(fs.readFileSync(path.join(migrationsDir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

let ready: Promise<string> | null = null;

/** The data directory of the migrated template, built once per set of migrations. */
export function pgliteTemplate(): Promise<string> {
  ready ??= (async () => {
    fs.mkdirSync(ROOT, { recursive: true });
    const dir = path.join(ROOT, templateKey());
    if (fs.existsSync(path.join(dir, 'ready'))) return dir;
    // Built aside and renamed into place: test files that start together may each build one; the
    // first rename wins and the others are deleted.
    const building = fs.mkdtempSync(path.join(ROOT, 'building-'));
    const db = await openDatabase({ dataDir: building });
    await migrate(db);
    await db.close();
    fs.writeFileSync(path.join(building, 'ready'), '');
    try {
      fs.renameSync(building, dir);
    } catch {
      fs.rmSync(building, { recursive: true, force: true });
    }
    return dir;
  })();
  return ready;
}

/** Fills an empty data directory with a copy of the migrated template. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  const template = await pgliteTemplate();
  fs.cpSync(path.join(template, 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
}
