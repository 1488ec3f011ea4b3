// `npm run dev`: the server under `tsx watch` (restarts when its code changes) and the Vite dev server
// on http://127.0.0.1:5173 (hot reload, /api proxied to the server), with their output interleaved and
// prefixed. Ctrl-C stops both; a second Ctrl-C a moment later kills them outright.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', process.platform === 'win32' ? `${name}.cmd` : name);

const serverPort = process.env.PORT || '8080';
const serverHost = !process.env.HOST || ['0.0.0.0', '::'].includes(process.env.HOST) ? '127.0.0.1' : process.env.HOST;
const apiTarget = `http://${serverHost.includes(':') ? `[${serverHost}]` : serverHost}:${serverPort}`;

const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const childEnv = { ...process.env, ...(colour ? { FORCE_COLOR: '1' } : {}) };

const children = [
  {
    name: 'server',
    tint: '\x1b[36m',
    command: bin('tsx'),
    args: ['watch', '--clear-screen=false', 'apps/server/src/main.ts'],
    cwd: root,
    env: childEnv,
  },
  {
    name: 'web',
    tint: '\x1b[35m',
    command: bin('vite'),
    args: [],
    cwd: path.join(root, 'apps/web'),
    env: { ...childEnv, VIGIL_API_TARGET: apiTarget },
  },
];
const width = Math.max(...children.map((child) => child.name.length));

function prefixLines(stream, name, tint, out) {
  const label = colour ? `${tint}${name.padEnd(width)} │\x1b[0m ` : `${name.padEnd(width)} | `;
  readline.createInterface({ input: stream }).on('line', (line) => out.write(`${label}${line}\n`));
}

let stopping = false;
let exitCode = 0;
const running = new Set();

// Each child leads its own process group, so one Ctrl-C reaches each exactly once (through us) and
// `tsx watch` does not take a second signal as a request to kill the server without a clean stop.
for (const child of children) {
  const proc = spawn(child.command, child.args, {
    cwd: child.cwd,
    env: child.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  child.proc = proc;
  running.add(child);
  prefixLines(proc.stdout, child.name, child.tint, process.stdout);
  prefixLines(proc.stderr, child.name, child.tint, process.stderr);
  proc.on('error', (error) => {
    console.error(`Could not start ${child.name}: ${error.message}`);
  });
  proc.on('exit', (code, signal) => {
    running.delete(child);
    if (!stopping) {
      // One half without the other is no use: stop the rest and report the failure.
      console.error(`${child.name} exited (${signal ?? `code ${code}`}); stopping the others.`);
      exitCode = code || 1;
      stopAll('SIGTERM');
    }
    if (running.size === 0) process.exit(exitCode);
  });
}

function signalChild(child, signal) {
  const pid = child.proc?.pid;
  if (pid === undefined || child.proc.exitCode !== null) return;
  try {
    if (process.platform === 'win32') child.proc.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

let firstStopAt = 0;
function stopAll(signal) {
  const now = Date.now();
  if (!stopping) {
    stopping = true;
    firstStopAt = now;
    for (const child of running) signalChild(child, signal);
    return;
  }
  // npm forwards Ctrl-C too, so a repeat within a second is the same request; later, it means "now".
  if (now - firstStopAt < 1000) return;
  console.error('Killing what is still running.');
  for (const child of running) signalChild(child, 'SIGKILL');
}

process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
process.on('exit', () => {
  for (const child of running) signalChild(child, 'SIGKILL');
});
