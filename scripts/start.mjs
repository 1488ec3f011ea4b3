// `npm start`: builds the web app when its sources are newer than apps/web/dist (or it was never
// built), then runs the server in the foreground. SIGINT/SIGTERM go on to the server, which finishes
// the requests in flight; this script exits with the server's exit code.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');

/** What the built app is made from; a change to any of these means the build is out of date. */
const webSources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
].map((entry) => path.join(root, entry));

/** Newest modification time (ms) of a file or of any file below a folder; 0 when it does not exist. */
function newestChange(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(entry)) {
    if (child === 'node_modules') continue;
    newest = Math.max(newest, newestChange(path.join(entry, child)));
  }
  return newest;
}

function buildReason() {
  if (!fs.existsSync(builtIndex)) return 'the web app has not been built yet';
  const builtAt = fs.statSync(builtIndex).mtimeMs;
  const changedAt = Math.max(...webSources.map(newestChange));
  return changedAt > builtAt ? 'the web app sources changed since the last build' : null;
}

const reason = buildReason();
if (reason) {
  console.log(`Building the web app (${reason})…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.error) {
    console.error(`Could not run the web build: ${build.error.message}`);
    process.exit(1);
  }
  if (build.status !== 0) {
    console.error('The web app did not build; the server was not started.');
    process.exit(build.status ?? 1);
  }
}

// Node itself runs the server with tsx as a loader (no wrapper process), so stop signals reach
// the server's own graceful shutdown directly. A larger young generation lets an ingest batch's
// short-lived objects die there instead of being copied into the old one (bench/ingest: 8-10 %
// more events per second).
const server = spawn(process.execPath, ['--max-semi-space-size=128', '--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
});

server.on('error', (error) => {
  console.error(`Could not start the server: ${error.message}`);
  process.exit(1);
});

// Ctrl-C reaches the whole process group, and npm forwards it as well, so the same stop can arrive
// more than once: pass on the first and let the server's own shutdown (with its time limit) run.
let forwarded = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (forwarded || server.exitCode !== null) return;
    forwarded = true;
    server.kill(signal);
  });
}

server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
});
