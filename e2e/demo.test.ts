import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type RunningServer, startServer } from './harness';
import { apiInPage, screenshot, signInInPage } from './helpers';

interface AlertRow {
  id: number;
  company_id: number;
  title: string;
  status: string;
  resolution: string | null;
  last_seen: string;
  observables: { kind: string; value: string }[];
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

  it('links the hosts and addresses of an alert to their assets, and the recipients of a mail to their employees', async () => {
    const demo = server.demo!;
    const northwind = demo.companies.find((c) => c.name === 'Northwind Logistics')!;
    // An alert naming a machine of the estate.
    const alerts = await apiInPage<{ results: AlertRow[] }>(page, 'POST', '/api/alerts/check/?page_size=200', {});
    let chosen: { alert: AlertRow; asset: { id: number; name: string } } | null = null;
    for (const alert of alerts.results) {
      const query = new URLSearchParams({ company_id: String(alert.company_id), at: alert.last_seen });
      for (const o of alert.observables) if (o.kind === 'ip' || o.kind === 'host') query.append(o.kind, o.value);
      if (!query.has('ip') && !query.has('host')) continue;
      const found = await apiInPage<{ found: { asset: { id: number; name: string } }[] }>(
        page,
        'GET',
        `/api/assets/lookup/?${query}`,
      );
      if (found.found.length > 0) {
        chosen = { alert, asset: found.found[0]!.asset };
        break;
      }
    }
    expect(chosen, 'an alert of the demo names an asset').not.toBeNull();
    await page.goto(`${server.url}/alerts/${chosen!.alert.id}`);
    const link = page.getByTestId('alert-observables').locator('a.vigil-entity-link').first();
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/^\/my-company\/assets\/\d+$/);
    await screenshot(page, 'demo-alert-asset-link-en');
    // Its mail addresses and accounts name the company's employees where the estate knows them.
    const people = page.getByTestId('alert-observables').getByTestId('employee-link');
    const named = chosen!.alert.observables.some(
      (o) => o.kind === 'email' && o.value.endsWith('@northwind-logistics.com'),
    );
    if (named) await people.first().waitFor();
    await link.click();
    await page.waitForURL(/\/my-company\/assets\/\d+$/);

    // A mail to one of Northwind's people shows the employee beside the address.
    const mails = await apiInPage<{ results: { id: number }[] }>(page, 'POST', '/api/mailing/check/?page_size=5', {
      company_id: northwind.id,
    });
    expect(mails.results.length).toBeGreaterThan(0);
    await page.goto(`${server.url}/investigation/emails/${mails.results[0]!.id}`);
    const employee = page.getByTestId('employee-link').first();
    await employee.waitFor();
    expect(await employee.getAttribute('href')).toMatch(/^\/my-company\/employees\/\d+$/);
    await screenshot(page, 'demo-mail-employee-link-en');
    expect(pageErrors).toEqual([]);
  });
});
