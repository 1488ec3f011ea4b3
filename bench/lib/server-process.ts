/**
 * The server as its own process for the HTTP benchmarks, started the way `npm start` runs it, and
 * what a sensor needs to send it events: a signed-in administrator's ingest token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** Starts apps/server/src/main.ts with the environment given; resolves once it listens. */
export function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_SERVER_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
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
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Vigil is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
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
