import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { DEFAULT_DEMO_SEED, loadDemo } from '../modules/demo/load-demo';
import { describeDemo, writeDemoAccounts } from '../modules/demo/report';
import { demoScales, type DemoScale } from '../modules/demo/scenario';
import { bootstrap } from '../modules/users/bootstrap';
import { appVersion } from '../version';

function seedOption(value: string): number {
  const seed = Number(value);
  if (!/^\d{1,10}$/.test(value) || !Number.isSafeInteger(seed) || seed > 4_294_967_295) {
    throw new InvalidArgumentError('The seed is a whole number from 0 to 4294967295.');
  }
  return seed;
}

/**
 * PGlite keeps `postmaster.pid` in its directory while a process has the database open, and
 * removes it when it closes. The embedded database takes one process at a time.
 */
function embeddedDatabaseInUse(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pgdata', 'postmaster.pid'));
}

/** `vigil demo load`: the demo data through the application's API, against the configured database. */
export function registerDemoCommands(program: Command): void {
  // Made with program.command() so it inherits the program's settings (exitOverride, help after errors).
  const demo = program.command('demo').description('demo data');
  demo
    .command('load')
    .description('load two demo customers with two weeks of network, endpoint and mail traffic, alerts and incidents')
    .addOption(
      new Option(
        '--scale <scale>',
        'how much traffic: small (a few hundred events), default (~25,000), large (~250,000)',
      )
        .choices(demoScales)
        .default('default'),
    )
    .option(
      '--seed <number>',
      'seed of the generator; the same seed gives the same data',
      seedOption,
      DEFAULT_DEMO_SEED,
    )
    .action(async (options: { scale: DemoScale; seed: number }) => {
      const config = loadConfig();
      if (!config.databaseUrl && embeddedDatabaseInUse(config.dataDir)) {
        throw new Error(
          `The embedded database in ${config.dataDir} is open in another process (a running Vigil server?). ` +
            'It takes one process at a time: stop the server first, or start it with VIGIL_DEMO=1 to load the demo ' +
            `into an empty installation. If no server is running, the last one stopped abruptly; starting and stopping it once clears this.`,
        );
      }
      const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
      try {
        await migrate(db);
        const { admin } = await bootstrap(db, config);
        if (admin?.password) {
          console.log(
            `The first administrator has been created: ${admin.username} / ${admin.password} (change it at the first sign-in).`,
          );
        }
        // This process only serves the loader's own requests; jobs it queues run in the server.
        const app = await buildApp({ db, config: { ...config, jobsPollMs: 0 }, version: appVersion, logger: false });
        try {
          await app.ready();
          const summary = await loadDemo(app, db, {
            scale: options.scale,
            seed: options.seed,
            log: (line) => console.log(line),
          });
          const file = await writeDemoAccounts(config.dataDir, summary);
          console.log(['', ...describeDemo(summary), `The accounts are also in ${file}.`].join('\n'));
        } finally {
          await app.close();
        }
      } finally {
        await db.close();
      }
    });
}
