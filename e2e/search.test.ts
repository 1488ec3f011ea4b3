import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, openConsole, screenshot, type ConsolePage } from './helpers';

/** Texts the test looks for, in each language. */
const words = {
  en: { found: 'Found', problem: 'At position 14', precedence: 'not binds tightest' },
  ru: { found: 'Найдено', problem: 'Позиция 14', precedence: 'Сильнее всего связывает not' },
} as const;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Process starts on two hosts (one encoded PowerShell), in ECS as an agent sends them. */
const endpointLines = [
  ['WS-FIN-01', 'powershell.exe', 'powershell.exe -nop -enc SQBFAFgA', 50],
  ['WS-FIN-01', 'cmd.exe', 'cmd.exe /c whoami', 40],
  ['WS-HR-02', 'powershell.exe', 'powershell.exe -File backup.ps1', 30],
  ['WS-HR-02', 'notepad.exe', 'notepad.exe report.txt', 20],
].map(([host, name, commandLine, ago]) => ({
  '@timestamp': minutesAgo(ago as number),
  host: { name: host },
  event: { action: 'start', category: ['process'], type: ['start'], kind: 'event' },
  process: { name, pid: 4242, executable: `C:\\Windows\\System32\\${name}`, command_line: commandLine },
  user: { name: 'jdoe', domain: 'CORP' },
}));

/** DNS queries of the same hosts' addresses, as Suricata writes them. */
const networkLines = ['evil.example.ru', 'intranet.corp.example'].map((rrname, index) => ({
  timestamp: minutesAgo(25 + index),
  flow_id: 9_100_000 + index,
  event_type: 'dns',
  src_ip: `10.20.0.${11 + index}`,
  src_port: 53_000 + index,
  dest_ip: '10.20.0.2',
  dest_port: 53,
  proto: 'UDP',
  host: 'sensor-1',
  dns: { type: 'query', id: 100 + index, rrname, rrtype: 'A', tx_id: 0 },
}));

/**
 * Searches → Search against the real server, in English and Russian: a field and a value suggested while
 * typing, the query-language help with an example taken from it,
 * a mistake shown at its position before anything is sent, the hits of a query in the table and the
 * histogram, a bar narrowing the time range, and a hit's drawer. Screenshots go to e2e/screenshots.
 */
describe('search', () => {
  let server: RunningServer;
  let browser: Browser;
  let opened: ConsolePage | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const { key } = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'agents' });
    for (const [path, lines] of [
      ['/api/ingest/endpoint/', endpointLines],
      ['/api/ingest/network/', networkLines],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
        body: lines.map((line) => JSON.stringify(line)).join('\n'),
      });
      expect(response.status, await response.text()).toBe(200);
    }
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

  const rows = () => page.locator('[data-testid="search-results"][data-loading="false"] [data-testid="search-row"]');

  for (const language of ['en', 'ru'] as const) {
    const w = words[language];
    it(`in ${language}: suggests fields, shows a mistake at its place, finds, narrows and opens hits`, async () => {
      opened = await openConsole(browser, server.url, { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, language);
      page = opened.page;
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${server.url}/search?kind=endpoint`);
      const query = page.getByTestId('search-query');
      await query.waitFor();

      // A field is suggested while its name is typed, and chosen with Enter.
      await query.click();
      await query.pressSequentially('process_n');
      await page.getByTestId('search-suggestion').first().waitFor();
      expect(await page.getByTestId('search-suggestion').first().textContent()).toContain('process_name');
      await screenshot(page, `search-suggest-${language}`);
      await query.press('Enter');
      expect(await query.inputValue()).toBe('process_name: ');

      // After field: the values the data holds are suggested with their counts, and chosen with Enter.
      await query.fill('');
      await query.pressSequentially('host_name: ws-h');
      await page.getByTestId('search-suggestion').filter({ hasText: 'WS-HR-02' }).waitFor();
      expect(await page.getByTestId('search-suggestion').allTextContents()).toEqual(['WS-HR-022']);
      await screenshot(page, `search-values-${language}`);
      await query.press('Enter');
      expect(await query.inputValue()).toBe('host_name: WS-HR-02 ');

      // The query-language help opens by its button (and its address); an example goes into the box.
      await page.getByTestId('search-syntax').click();
      await page.getByTestId('search-help-precedence').waitFor();
      expect(new URL(page.url()).searchParams.get('help')).toBe('1');
      expect(await page.getByTestId('search-help-precedence').textContent()).toContain(w.precedence);
      await screenshot(page, `search-help-${language}`);
      await page.getByTestId('search-help-fieldValue').getByTestId('search-help-example').first().click();
      await page.getByTestId('search-help-precedence').waitFor({ state: 'detached' });
      expect(await query.inputValue()).toBe('host_name: WS-FIN-07');
      expect(new URL(page.url()).searchParams.has('help')).toBe(false);

      // A mistake is shown at its place, and nothing runs.
      await query.fill('process_name: (powershell.exe or');
      await page.getByTestId('search-problem').waitFor();
      expect(await page.getByTestId('search-run').isDisabled()).toBe(true);
      await query.fill('dest_port >= abc');
      await page.getByText(w.problem).waitFor();
      await screenshot(page, `search-problem-${language}`);

      // A good query: the encoded PowerShell start and the other PowerShell, nothing else.
      await query.fill('process_name: POWERSHELL.EXE and not user_name: nobody');
      await page.getByTestId('search-run').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-row"]').length === 2);
      expect(await rows().count()).toBe(2);
      expect((await rows().allTextContents()).join('\n')).toContain('-enc SQBFAFgA');
      expect(await page.locator('h1, h2').first().textContent()).toBeTruthy();
      expect(await page.getByText(`${w.found}: 2`).count()).toBe(1);
      expect(new URL(page.url()).searchParams.get('q')).toBe('process_name: POWERSHELL.EXE and not user_name: nobody');
      await page.getByTestId('search-histogram').waitFor();
      await screenshot(page, `search-results-${language}`);

      // Network and endpoint events together, by free text: the DNS query of evil.example.ru.
      await page.getByTestId('search-kind-network').click();
      await page.waitForFunction(() => new URL(location.href).searchParams.getAll('kind').length === 2);
      await query.fill('evil.example.ru');
      await query.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-row"]').length === 1);
      expect(await rows().first().textContent()).toContain('evil.example.ru');

      // A histogram bar narrows the range to its interval; the hit is still there.
      await query.fill('');
      await query.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-row"]').length === 6);
      const bar = page.locator('[data-testid="search-histogram-bar"]:not([disabled])').first();
      const inBar = Number(await bar.getAttribute('data-count'));
      await bar.click();
      await page.waitForFunction(() => new URL(location.href).searchParams.has('from'));
      await page.waitForFunction(
        (expected) => document.querySelectorAll('[data-testid="search-row"]').length === expected,
        inBar,
      );

      // A hit opens its drawer.
      await page.goto(`${server.url}/search?kind=endpoint&q=${encodeURIComponent('command_line: "-enc"')}`);
      await rows().first().waitFor();
      await rows().first().click();
      await page.getByTestId('endpoint-drawer').getByTestId('raw-json').waitFor();
      expect(await page.getByTestId('endpoint-drawer').textContent()).toContain('-enc');
      await screenshot(page, `search-drawer-${language}`);
    });
  }
});
