/**
 * The server as its own process for the HTTP benchmarks, started the way `npm start` runs it, and
 * what a sensor needs to send it events: a signed-in administrator's ingest token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** A Vigil server started as its own process, as `npm start` starts it. */
export interface ServerProcess {
  child: ChildProcess;
  /** Where it listens, e.g. http://127.0.0.1:41234 */
  url: string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `apps/server/src/main.ts` in a child process with the given environment added (the
 * database URL, admin credentials…) and waits for its "Vigil is running at" line. The server
 * then has a JavaScript thread of its own, as in production, instead of sharing the benchmark
 * client's. `BENCH_SERVER_NODE_ARGS` adds Node flags; `BENCH_SERVER_PROFILE=<dir>` makes it write
 * a V8 CPU profile there when it stops; `BENCH_SERVER_LOGS=1` shows what it logs.
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const profile = process.env.BENCH_SERVER_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
    : [];
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // As `npm start` runs it (scripts/start.mjs), young generation size included.
  const child = spawn(
    process.execPath,
    [...profile, '--max-semi-space-size=128', ...extra, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        LOG_LEVEL: 'warn',
        JOBS_POLL_MS: '0',
        WEB_DIST_DIR: '/nonexistent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the server did not start within 120 s:\n${output}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Vigil is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep reading its output so a chatty server never blocks on a full pipe; shown with BENCH_SERVER_LOGS=1.
        if (process.env.BENCH_SERVER_LOGS === '1') {
          child.stdout?.pipe(process.stderr);
          child.stderr?.pipe(process.stderr);
        } else {
          child.stdout?.resume();
          child.stderr?.resume();
        }
        resolve({ child, url: match[1].replace(/\/$/, ''), stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
}

/** Runs `work` over the items with at most `concurrency` at a time. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await work(item);
      }
    }),
  );
}

/** A signed-in administrator's session cookies and CSRF token. */
export interface AdminSession {
  csrf: string;
  cookie: string;
}

export async function signIn(url: string, username: string, password: string): Promise<AdminSession> {
  const first = await fetch(`${url}/api/auth/`);
  const csrf = /csrf_token=([^;]+)/.exec(first.headers.getSetCookie().join('; '))?.[1] ?? '';
  const answer = await fetch(`${url}/api/auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrf_token=${csrf}` },
    body: JSON.stringify({ username, password }),
  });
  const session = /vigil_session=([^;]+)/.exec(answer.headers.getSetCookie().join('; '))?.[1];
  if (!session) throw new Error(`sign-in failed: ${answer.status}`);
  return { csrf, cookie: `vigil_session=${session}; csrf_token=${csrf}` };
}

/** A new ingest token of the administrator's company. */
export async function ingestToken(url: string, session: AdminSession): Promise<{ key: string; company_id: number }> {
  const answer = await fetch(`${url}/api/ingest/tokens/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': session.csrf, cookie: session.cookie },
    body: JSON.stringify({ name: 'bench sensor' }),
  });
  const token = (await answer.json()) as { key: string; company_id: number };
  if (!token.key) throw new Error(`token creation failed: ${answer.status}`);
  return token;
}
