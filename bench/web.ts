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
 *   BENCH_WEB_BASE_DIST=/path/to/other/dist BENCH_WEB_SIZES_ONLY=1 npx tsx bench/web.ts   # sizes beside a baseline build
 *   BENCH_WEB_FILES=1 …                       # also list each first screen's files
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

/** Budgets of the first screen (gzipped KB): what a user downloads before the page can be used. */
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

function findKey(manifest: Manifest, suffix: string): string {
  const key = Object.keys(manifest).find((name) => name.endsWith(suffix));
  if (!key) throw new Error(`No chunk for ${suffix} in the manifest; was apps/web built with build.manifest?`);
  return key;
}

/**
 * The first screens a user waits for: the shell (entry, the application chunk, the core of the
 * dictionary in the heavier language), and the shell plus a landing page's own chunk and everything it imports statically. What
 * a page loads later by itself (a chart library inside a widget) is not counted: the page is usable
 * before it arrives.
 */
const screens = [
  { name: 'main app shell', app: 'src/app/main-app.tsx', page: null, budget: null },
  { name: 'dashboard first screen', app: 'src/app/main-app.tsx', page: 'dashboard-page.tsx', budget: MAIN_BUDGET_KB },
  { name: 'alert queue first screen', app: 'src/app/main-app.tsx', page: 'alerts-page.tsx', budget: MAIN_BUDGET_KB },
  { name: 'reduced app (sign-in)', app: 'src/app/reduced-app.tsx', page: null, budget: REDUCED_BUDGET_KB },
] as const;

interface ScreenSize {
  name: string;
  kb: number;
  budget: number | null;
  files: string[];
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The dictionary sections a page's route loads with it, as app/route-map.tsx declares them. */
function pageSections(pageFile: string): string[] {
  const routeMap = readFileSync(path.join(repoRoot, 'apps/web/src/app/route-map.tsx'), 'utf8');
  const stem = pageFile.replace(/\.tsx$/, '');
  for (const match of routeMap.matchAll(/lazyPage\(\s*\(\) => import\('([^']+)'\),\s*\[([^\]]*)\]/g)) {
    if (match[1]!.endsWith(`/${stem}`)) return [...match[2]!.matchAll(/'(\w+)'/g)].map((section) => section[1]!);
  }
  throw new Error(`app/route-map.tsx loads no page ${pageFile} with lazyPage`);
}

/** Gzipped size of each first screen of the build in `distDir`. */
export function screenSizes(distDir: string): ScreenSize[] {
  const manifestPath = path.join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build\` first.`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const gzipped = new Map<string, number>();
  const sizeOf = (file: string) => {
    let bytes = gzipped.get(file);
    if (bytes === undefined) {
      bytes = gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
      gzipped.set(file, bytes);
    }
    return bytes;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The manifest has no entry chunk.');
  // The dictionary comes in parts loaded before the first render: the core, and the sections the
  // page's route loads with it (app/route-map.tsx). Count them in the language where they weigh more.
  // A build from before the dictionary was split has one chunk per language.
  const whole = (language: string) => Object.keys(manifest).find((key) => key.endsWith(`/locales/${language}.ts`));
  const languageKeys = (language: string, sections: readonly string[]) => {
    const single = whole(language);
    if (single) return [single];
    return ['core', ...sections].map((part) => findKey(manifest, `/locales/${language}/${kebab(part)}.ts`));
  };
  const languageSize = (keys: string[]) => keys.reduce((sum, key) => sum + sizeOf(manifest[key]!.file), 0);
  const heavierLanguage = (sections: readonly string[]) =>
    ['en', 'ru']
      .map((language) => languageKeys(language, sections))
      .sort((a, b) => languageSize(b) - languageSize(a))[0]!;
  return screens.map((screen) => {
    const keys = [entry, findKey(manifest, screen.app)];
    if (screen.page) keys.push(findKey(manifest, screen.page));
    keys.push(...heavierLanguage(screen.page ? pageSections(screen.page) : []));
    const files = [...staticClosure(manifest, keys)].map((key) => manifest[key]!.file).filter((f) => f.endsWith('.js'));
    const bytes = files.reduce((sum, file) => sum + sizeOf(file), 0);
    return { name: screen.name, kb: bytes / 1024, budget: screen.budget, files: files.sort() };
  });
}

/** The sizes as lines; with a baseline build (BENCH_WEB_BASE_DIST), each figure beside the baseline's. */
export function measureSizes(): { lines: string[] } {
  const current = screenSizes(dist);
  const baseDir = process.env.BENCH_WEB_BASE_DIST;
  const base = baseDir ? screenSizes(baseDir) : null;
  const lines: string[] = [];
  for (const [i, size] of current.entries()) {
    const verdict = size.budget === null ? '' : ` (budget ${size.budget} KB) ${size.kb <= size.budget ? 'OK' : 'OVER'}`;
    const baseline = base ? `  baseline ${base[i]!.kb.toFixed(1)} KB, ratio ${(size.kb / base[i]!.kb).toFixed(2)}` : '';
    lines.push(`${size.name.padEnd(26)} ${size.kb.toFixed(1).padStart(7)} KB gzipped${verdict}${baseline}`);
    if (process.env.BENCH_WEB_FILES === '1') lines.push(`  ${size.files.join(' ')}`);
  }
  return { lines };
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
  console.log(
    'Web console first screens (apps/web/dist, Vite manifest: entry, app, page, the dictionary parts they load, and their static imports)',
  );
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
