import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { currentMigration, migrate, readMigrations } from '../db/migrate';
import { appVersion } from '../version';

/** Opens the configured database, runs `work`, and always closes it. */
async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

export function buildCli(): Command {
  const program = new Command('vigil')
    .description(
      'Vigil Managed XDR command-line tool. Uses the same environment as the server (DATABASE_URL, DATA_DIR).',
    )
    .version(appVersion)
    .showHelpAfterError()
    .exitOverride();

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const applied = await withDatabase((db) => migrate(db));
      console.log(
        applied.length === 0
          ? 'The database is up to date.'
          : `Applied ${applied.length} migration(s): ${applied.join(', ')}`,
      );
    });

  program
    .command('migrations')
    .description('list migrations and which are applied')
    .action(async () => {
      const current = await withDatabase((db) => currentMigration(db));
      for (const m of readMigrations()) {
        console.log(`${current !== null && m.version <= current ? 'applied' : 'pending'}  ${m.version}  ${m.name}`);
      }
    });

  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildCli().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    console.error(`vigil: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runCli(process.argv.slice(2));
}
