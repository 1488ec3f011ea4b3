/**
 * Browser-test harness: the real server on a fresh embedded database, and Debian's Chromium driven by
 * playwright-core (never a downloaded browser).
 *
 * Demo data: `const server = await startServer({ demo: 'small' })` starts the server with VIGIL_DEMO=1
 * and resolves only once the demo is loaded (two customers, "Northwind Logistics" and "Aurora Clinic",
 * two weeks of network, endpoint and mail events, alerts, incidents). `server.demo` then has the
 * companies and the accounts with their passwords (no change is asked at sign-in), e.g.
 * `server.demo.account('tom.ramirez').password`. Accounts: irina.volkova (SOC analyst) and mark.hollis
 * (SOC lead) of the provider, who see every company; tom.ramirez and dana.fischer (Northwind analyst
 * and administrator); omar.haddad and lena.sokolova (Aurora). The admin keeps ADMIN_PASSWORD.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { copyPgliteTemplate } from '../apps/server/test/helpers/pglite-template';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'e2e-Correct-Horse-7';

/** Where the browser tests find Chromium; CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Configuration the server reads from its environment. None is inherited from the shell that runs the
 * tests, so a developer's DATABASE_URL or PORT never leaks into a test server.
 */
const serverConfigKeys = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'LOG_LEVEL',
  'PUBLIC_URL',
  'WEB_DIST_DIR',
  'COOKIE_SECURE',
  'VIGIL_ADMIN_USERNAME',
  'VIGIL_ADMIN_PASSWORD',
  'VIGIL_PROVIDER_NAME',
  'VIGIL_DEMO',
  'VIGIL_DEMO_SCALE',
  'VIGIL_DEMO_SEED',
  'VIGIL_DEMO_PASSWORDS',
];

const READY_LINE = /Vigil is running at (\S+)/;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

export interface StartServerOptions {
  /** Extra or overriding environment for the server (e.g. `{ DATABASE_URL: 'postgres://…' }`). */
  env?: Record<string, string>;
  /** Pass this process's DATABASE_URL on to the server; by default the server uses a fresh PGlite. */
  passDatabaseUrl?: boolean;
  /**
   * Start without VIGIL_ADMIN_PASSWORD, as a real first start does: the server creates `admin` with a
   * random password, prints it once and marks it expired. It is read from the output (`adminPassword`).
   */
  generatedAdminPassword?: boolean;
  /** Load the demo data at this scale (VIGIL_DEMO=1) and wait until it is loaded; see `RunningServer.demo`. */
  demo?: 'small' | 'default';
  /**
   * Start on an empty embedded database, migrated by the server as on a first start. By default the
   * data directory starts with a copy of a migrated one (seconds faster; the server finds nothing to
   * migrate and bootstraps the administrator as usual).
   */
  emptyDatabase?: boolean;
}

/** A demo account (see apps/server/src/modules/demo/load-demo.ts, DemoAccount). */
export interface DemoAccount {
  username: string;
  password: string;
  company: string;
  companyId: number;
  role: string;
  fullName: string;
}

/** What the demo loaded: written by the server to `<DATA_DIR>/demo-accounts.json`. */
export interface LoadedDemo {
  companies: { id: number; name: string }[];
  accounts: DemoAccount[];
  /** The account of that username; throws when the demo has none. */
  account: (username: string) => DemoAccount;
}

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Everything the server printed so far (stdout and stderr), for failure messages. */
  output: () => string;
  /** The administrator's password: the fixed test one, or the one the server generated and printed. */
  adminPassword: string;
  /** Set when started with `demo`. */
  demo: LoadedDemo | null;
  /** SIGTERM, wait for the process to exit, then delete its data directory. */
  stop: () => Promise<void>;
}

/** Servers still running, killed if the test process ends without stopping them. */
const running = new Set<{ kill: () => void }>();
process.once('exit', () => {
  for (const server of running) server.kill();
});

/**
 * Starts `tsx apps/server/src/main.ts` on a free port (PORT=0; the port is read from the ready line)
 * with a fresh temporary DATA_DIR and the test administrator, and resolves once it is serving.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vigil-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of serverConfigKeys) delete env[key];
  Object.assign(env, {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    VIGIL_ADMIN_USERNAME: ADMIN_USERNAME,
    VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
  });
  if (options.generatedAdminPassword) delete env.VIGIL_ADMIN_PASSWORD;
  if (options.demo)
    Object.assign(env, { VIGIL_DEMO: '1', VIGIL_DEMO_SCALE: options.demo, VIGIL_DEMO_PASSWORDS: 'permanent' });
  if (options.passDatabaseUrl && process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  Object.assign(env, options.env);
  if (!env.DATABASE_URL && !options.emptyDatabase) await copyPgliteTemplate(dataDir);

  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const handle = { kill: () => child.kill('SIGKILL') };
  running.add(handle);

  let output = '';
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(handle);
      resolve(code ?? (signal ? 128 : null));
    });
  });
  const echo = process.env.E2E_SERVER_LOGS === '1';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    if (echo) process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: string) => {
    output += chunk;
    if (echo) process.stderr.write(chunk);
  });

  async function stop(): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  }

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      const onData = () => {
        const match = READY_LINE.exec(output);
        if (!match?.[1]) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(match[1].replace(/\/+$/, ''));
      };
      child.stdout.on('data', onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with code ${code} before it was ready`));
      });
    });
    let adminPassword = ADMIN_PASSWORD;
    if (options.generatedAdminPassword) {
      const printed = /^\s*password: (\S+)\s*$/m.exec(output)?.[1];
      if (!printed) throw new Error('the server did not print a generated administrator password');
      adminPassword = printed;
    }
    const demo = options.demo ? await demoLoaded(dataDir, () => output, exited) : null;
    return { url, output: () => output, adminPassword, demo, stop };
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}. Server output:\n${output.slice(-4000)}`, { cause: error });
  }
}

const DEMO_TIMEOUT_MS = 300_000;

/** Waits for the server's "Demo data loaded" line, then reads the accounts it wrote. */
async function demoLoaded(dataDir: string, output: () => string, exited: Promise<unknown>): Promise<LoadedDemo> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + DEMO_TIMEOUT_MS;
  while (!/^Demo data loaded/m.test(output())) {
    const failed = /^(Demo data could not be loaded|Demo data not loaded).*$/m.exec(output());
    if (failed) throw new Error(failed[0]);
    if (gone) throw new Error('the server exited while loading the demo data');
    if (Date.now() > deadline) throw new Error(`the demo data was not loaded within ${DEMO_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const loaded = JSON.parse(await readFile(path.join(dataDir, 'demo-accounts.json'), 'utf8')) as Omit<
    LoadedDemo,
    'account'
  >;
  return {
    companies: loaded.companies,
    accounts: loaded.accounts,
    account(username) {
      const found = loaded.accounts.find((a) => a.username === username);
      if (!found) throw new Error(`the demo has no account ${username}`);
      return found;
    },
  };
}

/** Launches Debian's headless Chromium; playwright-core never downloads a browser. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium was not found at ${chromiumPath}. Install it with \`apt-get install -y chromium\`.`);
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}
