/**
 * The alert queue in a browser over a big table: a fresh database on a PostgreSQL server, the real
 * server on it, 1,000,000 alerts seeded by one `generate_series` INSERT, then
 *  - navigation → interactive queue (first rows and the count shown) in headless Chromium, against
 *    the same first page read by raw SQL and by the API in the same run;
 *  - frames dropped while a script scrolls through 10,000 rows (requestAnimationFrame intervals in the
 *    page) and long tasks (PerformanceObserver) meanwhile.
 */
import type { Page } from 'playwright-core';
import { openDatabase, type Database } from '../../apps/server/src/db/database';
import { sql } from '../../apps/server/src/db/sql';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, startServer } from '../../e2e/harness';

export interface AlertQueueOptions {
  /** A PostgreSQL server URL; the database in it is replaced by `database`. */
  serverUrl: string;
  database: string;
  alerts: number;
  runs: number;
  scrollRows: number;
  /**
   * Keep the seeded database at the end and use it again next time when it already holds `alerts`
   * alerts (seeding a million takes minutes); the server still starts on it with its migrations.
   */
  keep: boolean;
  /** Another build of the console to serve (WEB_DIST_DIR), e.g. an older commit's, to compare. */
  webDist?: string;
}

export interface AlertQueueFigures {
  /** Null when a kept database was used again. */
  seedSeconds: number | null;
  sqlFirstPageMs: number[];
  sqlCountMs: number[];
  apiFirstPageMs: number[];
  navigationMs: number[];
  scroll: ScrollFigures;
}

export interface ScrollFigures {
  rowsReached: number;
  seconds: number;
  frames: number;
  /** Frames that should have been drawn at 60 Hz but were not, while the table was moving. */
  dropped: number;
  /** Frames spent at the end of the loaded rows waiting for the next page (not counted as dropped). */
  waitingFrames: number;
  longTasks: number;
  longestTaskMs: number;
  longTasksTotalMs: number;
}

const ROW_HEIGHT = 40;
const READY = '[data-testid="alerts-table"] [role="row"][data-index="0"]';

function urlWithDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One INSERT … SELECT over generate_series: severities, statuses and activity spread like a busy SOC's. */
async function seedAlerts(db: Database, count: number): Promise<number> {
  const { rows } = await db.query<{ id: string }>(sql`SELECT id FROM companies ORDER BY id LIMIT 1`);
  const company = Number(rows[0]?.id);
  const started = performance.now();
  await db.query(sql`
    INSERT INTO alerts (company_id, title, description, severity, score, status, resolution, source, detection,
                        dedup_key, first_seen, last_seen, count, observables, mitre, tags)
    SELECT ${company}::int8,
           (ARRAY['ET MALWARE Cobalt Strike Beacon Observed', 'ET POLICY Outbound TLS to a rarely seen host',
                  'ET SCAN Nmap Scripting Engine User-Agent', 'ET TROJAN Possible Qakbot C2 check-in',
                  'ET INFO Suspicious DNS query to a .top domain'])[1 + g % 5] || ' #' || (g % 9973),
           'Synthetic alert of the queue benchmark',
           (ARRAY['info', 'low', 'medium', 'high', 'critical'])[1 + (g * 7) % 5],
           (ARRAY[10, 30, 50, 75, 95])[1 + (g * 7) % 5],
           (ARRAY['new', 'new', 'new', 'in_progress', 'resolved', 'closed'])[1 + g % 6],
           CASE WHEN g % 6 >= 4 THEN 'benign' END,
           'network',
           jsonb_build_object('type', 'rule', 'engine', 'suricata', 'ruleId', (2030000 + g % 9973)::text,
                              'name', 'Synthetic'),
           'bench:' || g,
           now() - g * interval '3 seconds' - interval '5 minutes',
           now() - g * interval '3 seconds',
           1 + g % 7,
           jsonb_build_array(jsonb_build_object('kind', 'ip', 'role', 'src_ip',
                             'value', '10.' || (g % 250) || '.' || ((g / 250) % 250) || '.' || (1 + g % 200))),
           '{}'::text[],
           CASE WHEN g % 11 = 0 THEN ARRAY['vip'] ELSE '{}'::text[] END
    FROM generate_series(1, ${count}::int) AS g`);
  await db.exec('VACUUM (ANALYZE) alerts');
  return (performance.now() - started) / 1000;
}

/** How many alerts a kept benchmark database holds; null when there is no such database (or no table yet). */
async function seededAlerts(maintenance: Database, url: string, name: string): Promise<number | null> {
  const { rows } = await maintenance.query<{ n: string }>(
    sql`SELECT count(*) AS n FROM pg_database WHERE datname = ${name}`,
  );
  if (Number(rows[0]?.n) === 0) return null;
  const db = await openDatabase({ url, poolSize: 1 });
  try {
    const found = await db.query<{ n: string }>(sql`SELECT count(*) AS n FROM alerts`);
    return Number(found.rows[0]?.n);
  } catch {
    return null;
  } finally {
    await db.close();
  }
}

async function timeSql(db: Database, runs: number) {
  // The statements the list engine sends for the unfiltered queue of staff who see every company.
  const page = sql`SELECT a.id, a.company_id, a.title, a.description, a.severity, a.score, a.status, a.resolution,
      a.assignee_id, a.source, a.detection, a.dedup_key, a.first_seen, a.last_seen, a.count, a.observables, a.mitre,
      a.tags, a.incident_id, a.created_at, a.updated_at
    FROM alerts a WHERE TRUE ORDER BY a.last_seen DESC, a.id DESC LIMIT 101`;
  const count = sql`SELECT count(*) AS count FROM alerts a WHERE TRUE`;
  const pageMs: number[] = [];
  const countMs: number[] = [];
  for (let run = 0; run <= runs; run++) {
    let started = performance.now();
    await db.query(page);
    if (run > 0) pageMs.push(performance.now() - started);
    started = performance.now();
    await db.query(count);
    if (run > 0) countMs.push(performance.now() - started);
  }
  return { pageMs, countMs };
}

async function signIn(page: Page): Promise<void> {
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
}

/** The API's first page, timed inside the page (same session, same browser). */
async function timeApi(page: Page, runs: number): Promise<number[]> {
  return page.evaluate(async (n) => {
    const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const times: number[] = [];
    for (let run = 0; run <= n; run++) {
      const started = performance.now();
      const response = await fetch('/api/alerts/check/?page_size=100&ordering=-last_seen', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' },
        body: '{}',
      });
      await response.json();
      if (run > 0) times.push(performance.now() - started);
    }
    return times;
  }, runs);
}

/**
 * Scrolls the queue by a fixed step per animation frame until `rows` rows have gone by, recording
 * the interval of every frame and the long tasks. At the end of the loaded rows the script waits
 * for the next page (those frames are counted apart).
 */
async function scrollThrough(page: Page, rows: number): Promise<ScrollFigures> {
  return page.evaluate(
    async ({ rows: target, rowHeight }) => {
      const scroller = document.querySelector<HTMLElement>('[data-testid="alerts-table"] .vigil-vtable__scroll');
      if (!scroller) throw new Error('no queue scroller');
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry.duration);
      });
      observer.observe({ type: 'longtask', buffered: false });
      const frame = 1000 / 60;
      const step = rowHeight * 3; // 180 rows a second at 60 frames a second
      const goal = target * rowHeight;
      let frames = 0;
      let dropped = 0;
      let waiting = 0;
      let last = performance.now();
      const started = last;
      await new Promise<void>((resolve) => {
        const tick = (now: number) => {
          const interval = now - last;
          last = now;
          frames += 1;
          const before = scroller.scrollTop;
          const stuck = before + scroller.clientHeight >= scroller.scrollHeight - 1;
          if (stuck) waiting += 1;
          else if (frames > 1) dropped += Math.max(0, Math.round(interval / frame) - 1);
          if (before >= goal || now - started > 180_000) {
            resolve();
            return;
          }
          scroller.scrollTop = Math.min(goal, before + step);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      observer.disconnect();
      const seconds = (performance.now() - started) / 1000;
      return {
        rowsReached: Math.floor(scroller.scrollTop / rowHeight),
        seconds,
        frames,
        dropped,
        waitingFrames: waiting,
        longTasks: longTasks.length,
        longestTaskMs: longTasks.length ? Math.max(...longTasks) : 0,
        longTasksTotalMs: longTasks.reduce((sum, value) => sum + value, 0),
      };
    },
    { rows, rowHeight: ROW_HEIGHT },
  );
}

export async function measureAlertQueue(options: AlertQueueOptions): Promise<AlertQueueFigures> {
  const maintenance = await openDatabase({ url: options.serverUrl, poolSize: 1 });
  if (!/^[a-z_][a-z0-9_]*$/.test(options.database)) throw new Error(`Unsafe database name ${options.database}`);
  const url = urlWithDatabase(options.serverUrl, options.database);
  const reuse = options.keep && (await seededAlerts(maintenance, url, options.database)) === options.alerts;
  if (!reuse) {
    await maintenance.exec(`DROP DATABASE IF EXISTS ${options.database} WITH (FORCE)`);
    await maintenance.exec(`CREATE DATABASE ${options.database}`);
  }
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let db: Database | null = null;
  const browser = await launchBrowser();
  try {
    server = await startServer({
      env: { DATABASE_URL: url, ...(options.webDist ? { WEB_DIST_DIR: options.webDist } : {}) },
    });
    db = await openDatabase({ url, poolSize: 2 });
    let seedSeconds: number | null = null;
    if (reuse) log(`Using the kept ${options.database} with ${options.alerts.toLocaleString('en')} alerts`);
    else {
      log(`Seeding ${options.alerts.toLocaleString('en')} alerts into ${options.database}…`);
      seedSeconds = await seedAlerts(db, options.alerts);
      log(`  seeded and analysed in ${seedSeconds.toFixed(1)} s`);
    }
    const raw = await timeSql(db, options.runs);
    log(
      `  raw SQL first page ${raw.pageMs.map((v) => v.toFixed(1)).join(', ')} ms; count ${raw.countMs.map((v) => v.toFixed(1)).join(', ')} ms`,
    );

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await signIn(page);
    const apiFirstPageMs = await timeApi(page, options.runs);
    log(`  API first page ${apiFirstPageMs.map((v) => v.toFixed(1)).join(', ')} ms`);

    const navigationMs: number[] = [];
    for (let run = 0; run <= options.runs; run++) {
      await page.goto('about:blank');
      const started = performance.now();
      await page.goto(`${server.url}/alerts`);
      await page.waitForSelector(READY);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="alerts-count"]')?.getAttribute('data-count') !== '',
      );
      const elapsed = performance.now() - started;
      if (run > 0) navigationMs.push(elapsed);
      // Where the time went: the queue's own API call and when the page's scripts were done.
      const parts = await page.evaluate(() => {
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const check = entries.find((entry) => entry.name.includes('/api/alerts/check/'));
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        return {
          checkStart: check?.startTime ?? -1,
          checkMs: check?.duration ?? -1,
          domReady: nav?.domContentLoadedEventEnd ?? -1,
        };
      });
      log(
        `  queue run ${run}: ${elapsed.toFixed(0)} ms${run === 0 ? ' (warm-up)' : ''} — scripts ready at ` +
          `${parts.domReady.toFixed(0)} ms, queue call from ${parts.checkStart.toFixed(0)} ms for ${parts.checkMs.toFixed(0)} ms`,
      );
    }
    log(`Scrolling through ${options.scrollRows.toLocaleString('en')} rows…`);
    // tsx keeps function names with a helper the page does not have.
    await page.evaluate('window.__name = (fn) => fn');
    const scroll = await scrollThrough(page, options.scrollRows);
    await context.close();
    return {
      seedSeconds,
      sqlFirstPageMs: raw.pageMs,
      sqlCountMs: raw.countMs,
      apiFirstPageMs,
      navigationMs,
      scroll,
    };
  } finally {
    await browser.close();
    await db?.close().catch(() => undefined);
    await server?.stop();
    if (!options.keep)
      await maintenance.exec(`DROP DATABASE IF EXISTS ${options.database} WITH (FORCE)`).catch(() => undefined);
    await maintenance.close();
  }
}
