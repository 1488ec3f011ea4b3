import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, goInApp, openConsole, screenshot, type ConsolePage } from './helpers';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** An encoded PowerShell start on a host, in ECS as an agent sends it. */
const encodedPowerShell = (host: string, ago: number) => ({
  '@timestamp': minutesAgo(ago),
  host: { name: host },
  event: { action: 'start', category: ['process'], type: ['start'], kind: 'event' },
  process: {
    name: 'powershell.exe',
    pid: 5151,
    executable: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    command_line: 'powershell.exe -nop -w hidden -enc SQBFAFgA',
  },
  user: { name: 'jdoe', domain: 'CORP' },
});

/**
 * Saved searches and their reports against the real server, in English and Russian: a search saved
 * from the search page with a schedule and an alert, switched on in the list, run by hand after new
 * events arrive, and its report, where the caller asks for its reports by mail and which reopens the
 * search. Screenshots go to e2e/screenshots.
 */
describe('saved searches', () => {
  let server: RunningServer;
  let browser: Browser;
  let opened: ConsolePage | undefined;
  let page: Page;
  let key: string;

  const ingest = async (lines: object[]) => {
    const response = await fetch(`${server.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
    });
    expect(response.status, await response.text()).toBe(200);
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    key = (await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'agents' })).key;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async () => {
    await opened?.context.close();
    expect(opened?.pageErrors).toEqual([]);
    expect(opened?.missingTranslations).toEqual([]);
  });

  for (const language of ['en', 'ru'] as const) {
    it(`in ${language}: saves a search, switches it on, runs it and opens its report`, async () => {
      opened = await openConsole(browser, server.url, { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, language);
      page = opened.page;
      await page.setViewportSize({ width: 1440, height: 900 });
      const name = `Encoded PowerShell ${language}`;
      const host = `WS-${language.toUpperCase()}-42`;

      // Save the search from the search page.
      await page.goto(
        `${server.url}/search?kind=endpoint&q=${encodeURIComponent(`command_line: "-enc" and host_name: ${host}`)}`,
      );
      await page.getByTestId('search-save').click();
      await page.getByTestId('saved-search-name').fill(name);
      await page.getByTestId('saved-search-raise').check();
      await screenshot(page, `saved-search-form-${language}`);
      await page.getByTestId('saved-search-submit').click();
      await page.getByTestId('saved-search-form').waitFor({ state: 'detached' });

      // The list shows it, off; switch it on.
      await goInApp(page, '/searches', '[data-testid="saved-search-row"]');
      const row = page.getByTestId('saved-search-row').filter({ hasText: name });
      await row.waitFor();
      // The row's first switch runs it on schedule (the other mails its reports to the caller).
      await row
        .locator('.mantine-Switch-root', { has: page.getByTestId('saved-search-toggle') })
        .locator('.mantine-Switch-track')
        .click();
      await page.waitForFunction(
        (wanted) =>
          Array.from(document.querySelectorAll('[data-testid="saved-search-row"]')).some(
            (r) =>
              r.textContent?.includes(wanted) &&
              (r.querySelector('input[data-testid="saved-search-toggle"]') as HTMLInputElement)?.checked,
          ),
        name,
      );

      // Events arrive after it was switched on; run it now.
      await ingest([encodedPowerShell(host, 1), encodedPowerShell(host, 0)]);
      await row.getByTestId('saved-search-run').click();
      await page.waitForFunction(
        (wanted) =>
          Array.from(document.querySelectorAll('[data-testid="saved-search-row"]')).some(
            (r) => r.textContent?.includes(wanted) && /2/.test(r.textContent ?? ''),
          ),
        name,
      );
      await screenshot(page, `saved-searches-${language}`);

      // Its report: two hits, the alert it raised, and a way back to the search.
      await goInApp(page, '/searches/reports', '[data-testid="search-report-row"]');
      await page.getByTestId('search-report-row').filter({ hasText: name }).first().click();
      await page.getByTestId('search-report-hits').waitFor();
      expect(await page.getByTestId('search-report-hits').textContent()).toBe('2');
      expect(await page.getByTestId('search-report-hit').count()).toBe(2);
      await page.getByTestId('search-report-alert').waitFor();
      await screenshot(page, `search-report-${language}`);
      // Its reports are to be mailed to the caller from now on.
      await page
        .locator('.mantine-Switch-root', { has: page.getByTestId('saved-search-subscribe') })
        .locator('.mantine-Switch-track')
        .click();
      await page.waitForFunction(
        () => (document.querySelector('input[data-testid="saved-search-subscribe"]') as HTMLInputElement)?.checked,
      );
      // The search again, as JSON lines: the report's two hits.
      await page.getByTestId('search-export').click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('search-export-json').click(),
      ]);
      const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines.map((line) => (JSON.parse(line) as { kind: string }).kind)).toEqual(['endpoint', 'endpoint']);
      await page.getByTestId('search-report-reopen').click();
      await page.waitForURL((url) => url.pathname === '/search');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-row"]').length === 2);
    });
  }
});
