/**
 * Web console figures: the gzipped size of the initial JavaScript of the main and the reduced
 * application, computed from the Vite manifest of apps/web/dist (run `npm run build` first; this
 * script builds nothing), and the time from navigation to an interactive list — the users list
 * (settings → users, with the administration data a provider has) and the system log — in headless
 * Chromium against a real server started by the e2e harness.
 *
 *   npx tsx bench/web.ts            # sizes and timing
 *   BENCH_WEB_RUNS=10 npx tsx bench/web.ts
 *   BENCH_WEB_SIZES_ONLY=1 npx tsx bench/web.ts
 *   BENCH_WEB_USERS=200 npx tsx bench/web.ts   # users created before timing (default 60)
 *   BENCH_WEB_ALERTS=1 npx tsx bench/web.ts    # the alert queue over 1,000,000 alerts (PostgreSQL server)
 *
 * The alert queue: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the
 * server; the database `vigil_bench_web` is created on it and dropped at the end. BENCH_WEB_ALERT_ROWS
 * (default 1000000) alerts are seeded, BENCH_WEB_SCROLL_ROWS (default 10000) rows are scrolled through.
 * BENCH_WEB_KEEP_DB=1 keeps the seeded database and uses it again while it holds that many alerts;
 * BENCH_WEB_DIST=/path/to/dist serves another build of the console (e.g. an older commit's) to compare.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, repoRoot, startServer } from '../e2e/harness';
import { measureAlertQueue } from './lib/alert-queue';

const dist = path.join(repoRoot, 'apps/web/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');

/** Budgets of issue 4 (gzipped KB). */
const MAIN_BUDGET_KB = 250;
const REDUCED_BUDGET_KB = 120;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The chunk and everything it imports statically (what the browser must download before it runs). */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no chunk ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

function gzippedBytes(manifest: Manifest, keys: Set<string>): { bytes: number; files: string[] } {
  let bytes = 0;
  const files: string[] = [];
  for (const key of keys) {
    const file = manifest[key]!.file;
    if (!file.endsWith('.js')) continue;
    files.push(file);
    bytes += gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  }
  return { bytes, files: files.sort() };
}

function findKey(manifest: Manifest, suffix: string): string {
  const key = Object.keys(manifest).find((name) => name.endsWith(suffix));
  if (!key) throw new Error(`No chunk for ${suffix} in the manifest; was apps/web built with build.manifest?`);
  return key;
}

export function measureSizes(): { mainKb: number; reducedKb: number; lines: string[] } {
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build\` first.`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The manifest has no entry chunk.');
  const mainKey = findKey(manifest, 'src/app/main-app.tsx');
  const reducedKey = findKey(manifest, 'src/app/reduced-app.tsx');
  // The interface language is a chunk of its own, loaded before the first render: count the larger one.
  const locales = Object.keys(manifest).filter((key) => /\/locales\/[a-z]{2}\.ts$/.test(key));
  const largestLocale = locales.sort(
    (a, b) =>
      gzipSync(readFileSync(path.join(dist, manifest[b]!.file))).length -
      gzipSync(readFileSync(path.join(dist, manifest[a]!.file))).length,
  )[0];
  const withLocale = (keys: string[]) => (largestLocale ? [...keys, largestLocale] : keys);
  const main = staticClosure(manifest, withLocale([entry, mainKey]));
  const reduced = staticClosure(manifest, withLocale([entry, reducedKey]));
  const mainSize = gzippedBytes(manifest, main);
  const reducedSize = gzippedBytes(manifest, reduced);
  const kb = (bytes: number) => bytes / 1024;
  const lines = [
    `main app initial JS    ${kb(mainSize.bytes).toFixed(1).padStart(7)} KB gzipped (budget ${MAIN_BUDGET_KB} KB) ${kb(mainSize.bytes) <= MAIN_BUDGET_KB ? 'OK' : 'OVER'}`,
    `  ${mainSize.files.join(' ')}`,
    `reduced app initial JS ${kb(reducedSize.bytes).toFixed(1).padStart(7)} KB gzipped (budget ${REDUCED_BUDGET_KB} KB) ${kb(reducedSize.bytes) <= REDUCED_BUDGET_KB ? 'OK' : 'OVER'}`,
    `  ${reducedSize.files.join(' ')}`,
    `reduced app downloads the main app's own chunk: ${reduced.has(mainKey) ? 'YES (wrong)' : 'no'}`,
  ];
  return { mainKb: kb(mainSize.bytes), reducedKb: kb(reducedSize.bytes), lines };
}

/** A list page and what shows it is interactive: its table, done loading, with a row. */
interface ListPage {
  name: string;
  path: string;
  ready: string;
}

const listPages: ListPage[] = [
  {
    name: 'users list',
    path: '/settings/users',
    ready: '[data-testid="users-table"][data-loading="false"] [data-testid="user-row"]',
  },
  {
    name: 'system-log list',
    path: '/settings/system-logs',
    ready: '[data-testid="system-log-table"][data-loading="false"] tbody tr td',
  },
];

/** Users, roles and units enough to fill a page of the users list, made through the API. */
async function seedUsers(base: string, cookie: string, csrf: string, count: number): Promise<void> {
  const call = async (url: string, body: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRFToken': csrf,
        Cookie: cookie,
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
  const role = await call('/api/roles/', {
    name: 'Analysts',
    permissions: [{ basename: 'system_logs', actions: ['view'] }],
  });
  const unit = await call('/api/units/', { name: 'Security operations' });
  for (let i = 0; i < count; i++) {
    await call('/api/users/', {
      username: `analyst${String(i).padStart(3, '0')}`,
      first_name: 'Analyst',
      last_name: String(i),
      email: `analyst${i}@example.com`,
      role_ids: [role.id],
      unit_id: unit.id,
    });
  }
}

async function measureLists(runs: number, seededUsers: number): Promise<Map<string, number[]>> {
  const server = await startServer();
  const browser = await launchBrowser();
  const times = new Map<string, number[]>(listPages.map((list) => [list.name, []]));
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // Sign in through the API, as the console would.
    await page.goto(`${server.url}/login`);
    await page.evaluate(
      async ({ username, password }) => {
        await fetch('/api/auth/');
        const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
        const response = await fetch('/api/auth/', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' },
          body: JSON.stringify({ username, password }),
        });
        if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
      },
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    );
    const cookies = await context.cookies();
    const cookie = cookies.map((item) => `${item.name}=${item.value}`).join('; ');
    const csrf = cookies.find((item) => item.name === 'csrf_token')?.value ?? '';
    await seedUsers(server.url, cookie, csrf, seededUsers);
    for (const list of listPages) {
      for (let run = 0; run <= runs; run++) {
        const started = performance.now();
        await page.goto(`${server.url}${list.path}`);
        await page.waitForSelector(list.ready);
        const elapsed = performance.now() - started;
        if (run > 0) times.get(list.name)!.push(elapsed); // run 0 warms the server and the browser cache
        process.stderr.write(`  ${list.name} run ${run}: ${elapsed.toFixed(0)} ms${run === 0 ? ' (warm-up)' : ''}\n`);
      }
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  return times;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
};

/** The alert queue over a million alerts: navigation to interactive, and scrolling. */
async function alertQueue(runs: number): Promise<void> {
  const alerts = Math.max(1000, Number(process.env.BENCH_WEB_ALERT_ROWS ?? 1_000_000));
  const scrollRows = Math.max(100, Number(process.env.BENCH_WEB_SCROLL_ROWS ?? 10_000));
  const figures = await measureAlertQueue({
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    database: 'vigil_bench_web',
    alerts,
    runs,
    scrollRows,
    keep: process.env.BENCH_WEB_KEEP_DB === '1',
    webDist: process.env.BENCH_WEB_DIST || undefined,
  });
  const nav = [...figures.navigationMs].sort((a, b) => a - b);
  const s = figures.scroll;
  const expected = Math.max(1, s.frames - s.waitingFrames + s.dropped);
  console.log(
    `Alert queue over ${alerts.toLocaleString('en')} alerts (PostgreSQL server, ` +
      `${figures.seedSeconds === null ? 'kept database used again' : `seeded in ${figures.seedSeconds.toFixed(1)} s`})`,
  );
  console.log(`  raw SQL, first page (101 rows, -last_seen): ${ms(figures.sqlFirstPageMs)}`);
  console.log(`  raw SQL, count of all alerts:               ${ms(figures.sqlCountMs)}`);
  console.log(`  API POST /api/alerts/check/ (page + count): ${ms(figures.apiFirstPageMs)}`);
  console.log(
    `  navigation → interactive queue: ${ms(figures.navigationMs)} over ${nav.length} runs ` +
      `(target < 1000 ms: ${percentile(nav, 50) < 1000 ? 'OK' : 'OVER'})`,
  );
  console.log(
    `  scrolling ${s.rowsReached.toLocaleString('en')} rows in ${s.seconds.toFixed(1)} s: ${s.frames} frames, ` +
      `${s.dropped} dropped (${((100 * s.dropped) / expected).toFixed(2)} % of the frames while moving), ` +
      `${s.waitingFrames} frames waiting for the next page`,
  );
  console.log(
    `  long tasks while scrolling: ${s.longTasks} (longest ${s.longestTaskMs.toFixed(0)} ms, total ${s.longTasksTotalMs.toFixed(0)} ms)`,
  );
}

async function main(): Promise<void> {
  if (process.env.BENCH_WEB_ALERTS === '1') {
    await alertQueue(Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 5)));
    return;
  }
  const sizes = measureSizes();
  console.log('Web console bundle (apps/web/dist, Vite manifest, static imports of each entry)');
  for (const line of sizes.lines) console.log(line);
  if (process.env.BENCH_WEB_SIZES_ONLY === '1') return;
  const runs = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 5));
  const seeded = Math.max(0, Number(process.env.BENCH_WEB_USERS ?? 60));
  process.stderr.write(`Navigation to an interactive list, ${runs} runs after a warm-up (${seeded} users seeded)…\n`);
  const measured = await measureLists(runs, seeded);
  for (const [name, values] of measured) {
    const times = [...values].sort((a, b) => a - b);
    const mean = times.reduce((sum, value) => sum + value, 0) / times.length;
    console.log(
      `navigation → interactive ${name}: p50 ${percentile(times, 50).toFixed(0)} ms, ` +
        `max ${times[times.length - 1]!.toFixed(0)} ms, mean ${mean.toFixed(0)} ms over ${times.length} runs (headless Chromium, signed in, cached assets)`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
