import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type RunningServer, startServer } from './harness';
import { apiInPage, signInInPage } from './helpers';

interface AlertRow {
  id: number;
  company_id: number;
  title: string;
  status: string;
  resolution: string | null;
}

/** A customer's analyst at work on the demo data: what a new user sees after `VIGIL_DEMO=1 npm start`. */
describe('the demo, as a customer analyst', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer({ demo: 'small' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('starts on the dashboard and triages a Northwind alert from the queue to closed', async () => {
    const demo = server.demo!;
    const northwind = demo.companies.find((c) => c.name === 'Northwind Logistics')!;
    await page.goto(`${server.url}/login`);
    await signInInPage(page, 'tom.ramirez', demo.account('tom.ramirez').password);
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/dashboard$/);

    const open = await apiInPage<{ results: AlertRow[]; count: number }>(
      page,
      'POST',
      '/api/alerts/check/?page_size=100&ordering=-last_seen',
      { status: 'new' },
    );
    expect(open.count).toBeGreaterThan(0);
    // Only the analyst's own company, whatever the demo holds for the other customer.
    expect(open.results.every((a) => a.company_id === northwind.id)).toBe(true);
    const target = open.results[0]!;

    await page.goto(`${server.url}/alerts?status=new`);
    const rows = page.getByTestId('alerts-table').locator('[role="row"][data-index]');
    await rows.first().filter({ hasText: target.title }).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('c');
    await page.getByTestId('resolution-true_positive').waitFor();
    await page.keyboard.press('2');
    await rows.first().getByText('Closed', { exact: true }).waitFor();
    const closed = await apiInPage<AlertRow>(page, 'GET', `/api/alerts/${target.id}/`);
    expect(closed).toMatchObject({ status: 'closed', resolution: 'false_positive' });
    expect(pageErrors).toEqual([]);
  });
});
