import type { Permission } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { sql } from '../../src/db/sql';
import { hashPassword } from '../../src/modules/auth/passwords';
import { bootstrap } from '../../src/modules/users/bootstrap';
import { TestClient } from './http-client';
import { recordRouteHits } from './route-hits';
import { createTestDatabase, type TestDatabase } from './test-database';

export const ADMIN = { username: 'admin', password: 'Admin-password-1' } as const;

export interface TestApp {
  url: string;
  db: Database;
  /** Connection URL of the server database (TEST_DATABASE_URL runs), for a second server process. */
  databaseUrl: string | undefined;
  app: FastifyInstance;
  config: Config;
  /** A new client with its own cookies. */
  client(): TestClient;
  /** A client signed in as the bootstrap administrator (superuser, all companies). */
  admin(): Promise<TestClient>;
  /** A client signed in as a user made by `buildUser` (its default password unless another is given). */
  signedIn(username: string, password?: string): Promise<TestClient>;
  /** A new ingest key of a company, made by `admin` through the API. */
  ingestToken(admin: TestClient, companyId: number): Promise<string>;
  close(): Promise<void>;
}

/** The password `buildUser` gives a user unless told another. */
export const DEFAULT_USER_PASSWORD = 'User-password-1';

/** Builds the real app on a fresh database and listens on a free loopback port. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database: TestDatabase = await createTestDatabase({ migrated: true });
  const config = loadConfig({
    DATA_DIR: database.dataDir ?? '/nonexistent',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    VIGIL_ADMIN_USERNAME: ADMIN.username,
    VIGIL_ADMIN_PASSWORD: ADMIN.password,
    // Tests drain the job queue themselves (app.jobs.runDueJobs()); pass JOBS_POLL_MS to run it by itself.
    JOBS_POLL_MS: '0',
    // Tests change rows behind the server's back; they read identities fresh unless they test the cache.
    AUTH_CACHE_SECONDS: '0',
    ...env,
  });
  await migrate(database.db);
  await bootstrap(database.db, config);
  const app = await buildApp({ db: database.db, config, version: 'test', logger: false });
  const saveRouteHits = recordRouteHits(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    db: database.db,
    databaseUrl: database.url,
    app,
    config,
    client: () => new TestClient(url),
    async admin() {
      const client = new TestClient(url);
      await client.signIn(ADMIN.username, ADMIN.password);
      return client;
    },
    async signedIn(username, password = DEFAULT_USER_PASSWORD) {
      const client = new TestClient(url);
      await client.signIn(username, password);
      return client;
    },
    async ingestToken(admin, companyId) {
      const created = await admin.post<{ key: string }>('/api/ingest/tokens/', {
        name: `sensor ${companyId}`,
        company_id: companyId,
      });
      if (created.status !== 201) throw new Error(`no ingest key for company ${companyId}: ${created.status}`);
      return created.body.key;
    },
    async close() {
      saveRouteHits();
      await app.close();
      await database.drop();
    },
  };
}

/** Factory: a customer company. */
export async function buildCompany(db: Database, name: string, kind: 'customer' | 'provider' = 'customer') {
  const { rows } = await db.query<{ id: number }>(
    sql`INSERT INTO companies (name, kind) VALUES (${name}, ${kind}) RETURNING id`,
  );
  return rows[0]!.id;
}

/** Factory: a user of a company with a role granting exactly `permissions`. */
/**
 * Hashes by password: a test makes many users with the same password, and one hash (with its own salt)
 * serves them all; each Argon2 hash costs tens of milliseconds.
 */
const passwordHashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hash = passwordHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    passwordHashes.set(password, hash);
  }
  return hash;
}

export async function buildUser(
  db: Database,
  options: {
    username: string;
    password?: string;
    companyId: number;
    permissions?: Permission[];
    extraCompanies?: number[];
    allCompanies?: boolean;
    /** Privileged flags granted by name, e.g. `{ api_tokens: true }`. */
    privileged?: Record<string, boolean>;
  },
) {
  const password = options.password ?? DEFAULT_USER_PASSWORD;
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO users (company_id, username, password_hash, password_changed_at, all_companies, privileged_settings)
    VALUES (${options.companyId}, ${options.username}, ${await hashOnce(password)}, now(), ${options.allCompanies ?? false},
            ${JSON.stringify(options.privileged ?? {})}::jsonb)
    RETURNING id`);
  const userId = rows[0]!.id;
  if (options.permissions) {
    const role = await db.query<{ id: number }>(sql`
      INSERT INTO roles (company_id, name, permissions)
      VALUES (${options.companyId}, ${`role of ${options.username}`}, ${JSON.stringify(options.permissions)}::jsonb)
      RETURNING id`);
    await db.query(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${userId}, ${role.rows[0]!.id})`);
  }
  for (const companyId of options.extraCompanies ?? []) {
    await db.query(sql`INSERT INTO user_companies (user_id, company_id) VALUES (${userId}, ${companyId})`);
  }
  return { id: userId, username: options.username, password };
}
