/**
 * The two servers a list or search benchmark talks to: an app in the benchmark's process on a
 * recording database, whose statements are captured to be timed raw; and, on a server database, the
 * server as its own process (as `npm start` runs it) with the bare SQL floor server beside it, which
 * the API figures are timed against. On PGlite (one owner per data directory) the in-process app is
 * timed too.
 */
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig, type Config } from '../../apps/server/src/config';
import type { Database } from '../../apps/server/src/db/database';
import { recordingDatabase } from './database';
import { Client } from './http';
import { startServerProcess, type ServerProcess } from './server-process';
import { startSqlFloor, type SqlFloor } from './sql-floor';

export interface TimedApps<Who extends string> {
  /** Captures the statements the in-process app sends. */
  recorder: ReturnType<typeof recordingDatabase>;
  /** Signed-in clients of the in-process app, by who they are. */
  clients: Record<Who, Client>;
  /** Signed-in clients of the app the figures are timed against. */
  timed: Record<Who, Client>;
  /** The bare SQL floor server, on a server database. */
  floor: SqlFloor | null;
  stop(): Promise<void>;
}

/**
 * Starts both apps and signs every user in to each. `users` maps who to username and password;
 * `adminPassword` is the bootstrap administrator's, given to the server process (`config` has the
 * same one for the in-process app).
 */
export async function startTimedApps<Who extends string>(options: {
  db: Database;
  databaseUrl: string | undefined;
  config: Config;
  adminUsername: string;
  adminPassword: string;
  users: Record<Who, { username: string; password: string }>;
  progress: (message: string) => void;
}): Promise<TimedApps<Who>> {
  const recorder = recordingDatabase(options.db);
  let server: ServerProcess | null = null;
  let floor: SqlFloor | null = null;
  const app = await buildApp({ db: recorder.db, config: options.config, version: 'bench', logger: false });
  const stop = async () => {
    await server?.stop();
    await floor?.stop();
    await app.close();
  };
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address !== 'object') throw new Error('the app is not listening');
    const signInAll = async (origin: string) => {
      const entries: [Who, Client][] = [];
      for (const [who, user] of Object.entries(options.users) as [Who, { username: string; password: string }][]) {
        entries.push([who, await Client.signIn(origin, user.username, user.password)]);
      }
      return Object.fromEntries(entries) as Record<Who, Client>;
    };
    const clients = await signInAll(`http://127.0.0.1:${address.port}`);
    let timed = clients;
    if (options.databaseUrl) {
      server = await startServerProcess({
        DATABASE_URL: options.databaseUrl,
        VIGIL_ADMIN_USERNAME: options.adminUsername,
        VIGIL_ADMIN_PASSWORD: options.adminPassword,
      });
      options.progress(`server process on ${server.url}`);
      floor = await startSqlFloor(options.databaseUrl);
      timed = await signInAll(server.url);
    }
    return { recorder, clients, timed, floor, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The bootstrap administrator of the benchmarks' databases. */
export const BENCH_ADMIN = 'bench-admin';

/** The in-process app's configuration: that administrator, no web console, no job polling, silent. */
export function benchConfig(adminPassword: string): Config {
  const scratch = path.join(os.tmpdir(), 'vigil-bench-no-web');
  return loadConfig({
    VIGIL_ADMIN_USERNAME: BENCH_ADMIN,
    VIGIL_ADMIN_PASSWORD: adminPassword,
    DATA_DIR: scratch,
    WEB_DIST_DIR: scratch,
    LOG_LEVEL: 'silent',
    JOBS_POLL_MS: '0',
  });
}

/** Both apps with the tenant user `bench-tenant` and the administrator signed in to each. */
export function startTenantAndAdminApps(options: {
  db: Database;
  databaseUrl: string | undefined;
  config: Config;
  adminPassword: string;
  tenantPassword: string;
  progress: (message: string) => void;
}): Promise<TimedApps<'tenant' | 'admin'>> {
  return startTimedApps({
    ...options,
    adminUsername: BENCH_ADMIN,
    users: {
      tenant: { username: 'bench-tenant', password: options.tenantPassword },
      admin: { username: BENCH_ADMIN, password: options.adminPassword },
    },
  });
}
