import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { currentMigration, readMigrations } from '../db/migrate';
import { pruneEvents } from '../modules/events/retention';
import { migrateUnderMaintenance } from '../modules/maintenance/maintenance.repository';
import { appVersion } from '../version';
import { registerDemoCommands } from './demo-commands';
import { registerMaintenanceCommands } from './maintenance-commands';
import { registerRulesCommands } from './rules-commands';
import { createAdmin, resetPassword, unlock } from './user-commands';

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
    .description('apply pending database migrations (running servers answer 423 meanwhile)')
    .action(async () => {
      const applied = await withDatabase((db) => migrateUnderMaintenance(db));
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

  const events = program.command('events').description('stored events');
  events
    .command('prune')
    .description(
      "drop events, hash sightings and unreferenced files older than their company's retention (companies.retention_days)",
    )
    .action(async () => {
      const result = await withDatabase((db) => pruneEvents(db));
      console.log(
        `Dropped ${result.droppedPartitions.length} partition(s)${result.droppedPartitions.length ? ` (${result.droppedPartitions.join(', ')})` : ''} and deleted ${result.deletedRows} row(s), ${result.deletedHashes} hash sighting(s), ${result.deletedFiles} stored file(s) and ${result.deletedOriginals} mail original(s).`,
      );
    });

  const admin = program.command('admin').description('administrators');
  admin
    .command('create')
    .description('create a superuser who sees every company')
    .requiredOption('--username <username>', 'sign-in name')
    .requiredOption('--password <password>', 'initial password (checked against the password policy)')
    .option('--email <email>', 'e-mail address')
    .option('--company <name>', 'company the user belongs to (default: the provider company)')
    .option('--role <name>', 'a role of that company to give the user')
    .action(
      async (options: { username: string; password: string; email?: string; company?: string; role?: string }) => {
        const created = await withDatabase((db) => createAdmin(db, loadConfig(), options));
        console.log(`Created administrator "${created.username}" (id ${created.id}) in ${created.company}.`);
      },
    );

  const user = program.command('user').description('user accounts');
  user
    .command('reset-password')
    .description('set a new password (generated when not given) that must be changed at the next sign-in')
    .requiredOption('--username <username>', 'the user')
    .option('--password <password>', 'the new password (default: a random one, printed)')
    .action(async (options: { username: string; password?: string }) => {
      const password = await withDatabase((db) => resetPassword(db, loadConfig(), options.username, options.password));
      console.log(
        options.password
          ? `The password of "${options.username}" was changed; it must be replaced at the next sign-in.`
          : `New password of "${options.username}": ${password}\nIt must be replaced at the next sign-in.`,
      );
    });
  user
    .command('unlock')
    .description('clear a lock-out after too many failed sign-ins')
    .requiredOption('--username <username>', 'the user')
    .action(async (options: { username: string }) => {
      await withDatabase((db) => unlock(db, options.username));
      console.log(`"${options.username}" can sign in again.`);
    });

  registerDemoCommands(program);
  registerMaintenanceCommands(program, withDatabase);
  registerRulesCommands(program, withDatabase);

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
