import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { loadDemoAtStart } from './modules/demo/demo-start';
import { migrateUnderMaintenance } from './modules/maintenance/maintenance.repository';
import { openMigrationGate } from './modules/maintenance/migration-gate';
import { bootstrap } from './modules/users/bootstrap';
import { appVersion } from './version';

/** Reads the configuration, prepares the database, and serves until told to stop. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const db = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  // The gate holds the port from here until the application listens: requests made while the
  // database is migrated get 423 (and the console its files) instead of a refused connection.
  const gate = await openMigrationGate({ db, config, version: appVersion });
  let app: FastifyInstance;
  try {
    // Migrate before building the app: modules may read their tables while registering (the
    // indicator index is loaded at start). Other server processes on the same database answer 423
    // meanwhile (the maintenance state is set for the migration).
    const applied = await migrateUnderMaintenance(db);
    app = await buildApp({ db, config, version: appVersion });
    app.addHook('onClose', async () => {
      await db.close();
    });
    if (applied.length > 0) app.log.info({ applied }, 'database migrated');
    const { admin } = await bootstrap(db, config);
    if (admin) {
      const lines = admin.password
        ? [
            'The first administrator has been created:',
            `  username: ${admin.username}`,
            `  password: ${admin.password}`,
            'This password is shown only once; you will choose a new one at the first sign-in.',
          ]
        : [`The first administrator "${admin.username}" has been created from VIGIL_ADMIN_USERNAME/PASSWORD.`];
      process.stdout.write(`\n${lines.join('\n')}\n\n`);
    }
    await app.ready();
  } finally {
    // Hand the port over: the gate stops taking connections just before the application listens on
    // the same port (a connection in the few milliseconds between is refused; Node 20 cannot share a port).
    await gate.close();
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('requests did not finish within 20 s; closing anyway');
      void db.close().finally(() => process.exit(1));
    }, 20_000);
    force.unref();
    app
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: gate.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = config.publicUrl ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  const where = db.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server';
  process.stdout.write(`Vigil is running at ${url} (${where})\n`);
  if (config.demo.enabled) void loadDemoAtStart(app, db, config);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Vigil could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
