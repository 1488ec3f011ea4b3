/**
 * Maintenance in the browser: `vigil maintenance on` (the real command line, against the server's
 * PostgreSQL database) puts the console on its full-page system-update view, and `off` gives the
 * user back the page they were on. Needs the PostgreSQL server of the API tests (TEST_DATABASE_URL,
 * else postgres://postgres@127.0.0.1:5432/test), because an embedded database belongs to the server
 * process alone and the command line could not open it meanwhile.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, repoRoot, startServer, type RunningServer } from './harness';
import { screenshot, signInInPage } from './helpers';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = `vigil_e2e_maintenance_${process.pid}`;

function databaseUrl(): string {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Runs `vigil <args>` as an administrator would, against the server's database. */
function vigil(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl() },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`vigil ${args.join(' ')}: ${output}`)),
    );
  });
}

describe('maintenance in the console', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${databaseName}`);
    server = await startServer({ env: { DATABASE_URL: databaseUrl() } });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  const updatePage = () => page.getByTestId('system-update-page');

  it('shows "System update in progress" while maintenance is on and returns to the same page afterwards', async () => {
    await page.goto(`${server.url}/login`);
    await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.goto(`${server.url}/settings/system-logs`);
    await page.locator('[data-testid="system-log-table"][data-loading="false"] [role="cell"]').first().waitFor();

    expect(await vigil('maintenance', 'on')).toMatch(/Maintenance is on/);
    // The console notices with its next call: open another page from the menu.
    await page.locator('a[href="/alerts"]').first().click();
    await updatePage().waitFor({ timeout: 15_000 });
    expect(await updatePage().textContent()).toContain('System update in progress');
    expect(new URL(page.url()).pathname).toBe('/alerts');
    await screenshot(page, 'maintenance-en');

    // A fresh load during maintenance (in Russian) shows the same page from the start.
    await page.evaluate(() => localStorage.setItem('user-language', JSON.stringify('ru')));
    await page.reload();
    await updatePage().waitFor({ timeout: 15_000 });
    expect(await updatePage().textContent()).toContain('Идёт обновление системы');
    await screenshot(page, 'maintenance-ru');

    expect(await vigil('maintenance', 'off')).toMatch(/Maintenance is off/);
    // The page asks again every 5 s; the console comes back where the user was.
    await page.getByTestId('alerts-search').waitFor({ timeout: 20_000 });
    expect(await updatePage().count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/alerts');
    await screenshot(page, 'maintenance-back-ru');
    expect(pageErrors).toEqual([]);
  });
});
