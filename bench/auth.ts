/**
 * bench/auth: authenticated `GET /api/users/me/` requests per second, against a bare Fastify route
 * answering the same JSON, both measured in this run with the same load (autocannon, loopback).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/auth.ts
 *
 * The real server runs as its own process (as in production), on a scratch database created for
 * the run (dropped afterwards) or, without a URL, on embedded PGlite in a temporary directory.
 * BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 32) tune the load; BENCH_SERVER_PROFILE=<dir>
 * makes both servers write a V8 CPU profile there when they stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { scratchTarget } from './lib/database';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const password = 'Bench-password-1';

function log(message: string): void {
  process.stderr.write(`[bench auth] ${message}\n`);
}

/** Starts a process and resolves with the first URL it prints after `marker`. */
function startProcess(
  args: string[],
  env: Record<string, string>,
  marker: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  const profile = process.env.BENCH_SERVER_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = marker.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function main(): Promise<void> {
  // A fresh database for the run.
  const { env: databaseEnv, label, dispose } = await scratchTarget(serverUrl, 'vigil-bench-auth');

  let vigil: ChildProcess | null = null;
  let bare: ChildProcess | null = null;
  try {
    log(`database: ${label}`);
    const started = await startProcess(
      ['apps/server/src/main.ts'],
      {
        ...databaseEnv,
        PORT: '0',
        LOG_LEVEL: 'warn',
        JOBS_POLL_MS: '0',
        WEB_DIST_DIR: '/nonexistent',
        VIGIL_ADMIN_USERNAME: 'admin',
        VIGIL_ADMIN_PASSWORD: password,
      },
      /Vigil is running at (http:\/\/\S+)/,
    );
    vigil = started.child;

    // Sign in as the console does: csrf cookie, then credentials.
    const first = await fetch(`${started.url}/api/auth/`);
    const csrf = /csrf_token=([^;]+)/.exec(first.headers.getSetCookie().join('; '))?.[1] ?? '';
    const signIn = await fetch(`${started.url}/api/auth/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrf_token=${csrf}` },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const session = /vigil_session=([^;]+)/.exec(signIn.headers.getSetCookie().join('; '))?.[1];
    if (!session) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const headers = { cookie: `vigil_session=${session}; csrf_token=${csrf}`, 'x-requested-with': 'XMLHttpRequest' };
    const me = await fetch(`${started.url}/api/users/me/`, { headers });
    const body = await me.text();
    if (me.status !== 200) throw new Error(`GET /api/users/me/ answered ${me.status}: ${body}`);

    const bareStarted = await startProcess(
      ['bench/lib/bare-server.ts'],
      { BARE_BODY: body },
      /listening (http:\/\/\S+)/,
    );
    bare = bareStarted.child;

    log(`warm-up, then ${seconds} s at ${connections} connections each`);
    await load(`${bareStarted.url}/bare/`, {});
    await load(`${started.url}/api/users/me/`, headers);
    const bareLoad = await load(`${bareStarted.url}/bare/`, {});
    const meLoad = await load(`${started.url}/api/users/me/`, headers);

    const row = (name: string, l: Load) =>
      `${name.padEnd(40)} ${l.rps.toFixed(0).padStart(8)} ${l.p50.toFixed(1).padStart(7)} ${l.p99.toFixed(1).padStart(7)} ${String(l.errors + l.non2xx).padStart(7)}`;
    const ratio = meLoad.rps / bareLoad.rps;
    const lines = [
      `bench/auth — ${label}; ${seconds} s, ${connections} connections, answer ${body.length} bytes`,
      `${'case'.padEnd(40)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'failed'.padStart(7)}`,
      row('bare Fastify route (same JSON)', bareLoad),
      row('GET /api/users/me/ (signed in)', meLoad),
      '',
      `ratio me / bare: ${ratio.toFixed(2)}`,
      `targets (server database): >= 10,000 req/s: ${meLoad.rps >= 10_000 ? 'MET' : 'NOT MET'}; >= 1/3 of bare: ${ratio >= 1 / 3 ? 'MET' : 'NOT MET'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (meLoad.errors + meLoad.non2xx > 0) process.exitCode = 1;
  } finally {
    if (bare) await stopProcess(bare);
    if (vigil) await stopProcess(vigil);
    await dispose();
  }
}

await main();
