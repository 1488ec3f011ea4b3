import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';

const screenshotDir = path.join(import.meta.dirname, 'screenshots');

describe('the console served by the real server', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async () => {
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  async function signInThroughForm(username: string, password: string) {
    await page.getByLabel('Username or e-mail').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('shows the sign-in form at /', async () => {
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Vigil Managed XDR' }).waitFor();
    expect(await page.title()).toBe('Vigil Managed XDR');
    expect(await page.getByLabel('Username or e-mail').isVisible()).toBe(true);
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
    expect(await page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
  });

  it('loads the app on a deep link', async () => {
    const response = await page.goto(`${server.url}/alerts`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    await page.getByRole('heading', { name: 'Vigil Managed XDR' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/alerts');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await fetch(`${server.url}/api/unknown`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ detail: 'Not found.' });
  });

  it('shows why a sign-in was refused and keeps the username', async () => {
    await page.goto(`${server.url}/`);
    await signInThroughForm(ADMIN_USERNAME, 'not-the-password');
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe('The username or password is not correct.');
    expect(await page.getByLabel('Username or e-mail').inputValue()).toBe(ADMIN_USERNAME);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
  });

  it('signs in, lists the sign-in in the system log, and signs out', async () => {
    await page.goto(`${server.url}/`);
    await signInThroughForm(ADMIN_USERNAME, ADMIN_PASSWORD);

    await page.getByRole('heading', { name: 'System log' }).waitFor();
    expect(await page.getByTestId('current-user').textContent()).toBe('Administrator');

    const table = page.getByTestId('system-log-table');
    const loginRow = table.locator('tbody tr', { has: page.getByText('login', { exact: true }) }).first();
    await loginRow.waitFor();
    const cells = await loginRow.locator('td').allTextContents();
    expect(cells).toHaveLength(5);
    expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(cells[1]).toBe(ADMIN_USERNAME);
    expect(cells[2]).toBe('login');
    expect(cells[3]).toContain('user');
    expect(cells[3]).toContain(ADMIN_USERNAME);
    expect(cells[4]).toBe('127.0.0.1');
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotDir, 'signed-in.png'), fullPage: true });

    // A reload keeps the session: the cookie, not page state, says who is signed in.
    await page.reload();
    await page.getByRole('heading', { name: 'System log' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Vigil Managed XDR' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    // The session is really over on the server, not only in the page.
    const state = await page.evaluate(async () => (await fetch('/api/auth/')).json());
    expect(state).toMatchObject({ authenticated: false, user: null });
  });

  it('pages through the system log with next and previous', async () => {
    // Enough sign-ins through the API for two pages of the log (the console shows 50 rows a page).
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Vigil Managed XDR' }).waitFor();
    const signIns = await page.evaluate(
      async ({ username, password }) => {
        const csrf = () => /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
        let count = 0;
        for (let i = 0; i < 51; i++) {
          const response = await fetch('/api/auth/', {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              'X-CSRFToken': csrf(),
              'X-Requested-With': 'XMLHttpRequest',
            },
            body: JSON.stringify({ username, password }),
          });
          if (response.ok) count++;
        }
        return count;
      },
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    );
    expect(signIns).toBe(51);

    await page.reload();
    await page.getByRole('heading', { name: 'System log' }).waitFor();
    const range = page.getByTestId('system-log-range');
    await page.waitForFunction(() =>
      /^1–50 of \d+$/.test(document.querySelector('[data-testid="system-log-range"]')?.textContent ?? ''),
    );
    const total = Number((await range.textContent())?.split(' of ')[1]);
    expect(total).toBeGreaterThan(50);
    const firstPageRows = await page.getByTestId('system-log-table').locator('tbody tr').count();
    expect(firstPageRows).toBe(50);

    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForFunction(() =>
      /^51–/.test(document.querySelector('[data-testid="system-log-range"]')?.textContent ?? ''),
    );
    expect(await range.textContent()).toBe(`51–${Math.min(total, 100)} of ${total}`);
    expect(await page.getByRole('button', { name: 'Previous' }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Previous' }).click();
    await page.waitForFunction(() =>
      /^1–50 of/.test(document.querySelector('[data-testid="system-log-range"]')?.textContent ?? ''),
    );
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
  });
});
