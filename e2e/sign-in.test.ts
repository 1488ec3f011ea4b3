import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { apiInPage, paste, screenshot, totp } from './helpers';

const NEW_PASSWORD = 'Fresh-Console-Key-42';

/**
 * A first start as it happens for real: the administrator's password is generated, printed and
 * expired. These tests run in order: the first changes that password, the second turns on two-factor.
 */
describe('signing in to a freshly installed console', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];
  let consoleErrors: string[];

  beforeAll(async () => {
    server = await startServer({ generatedAdminPassword: true, emptyDatabase: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    page = await context.newPage();
    pageErrors = [];
    consoleErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });

  afterEach(async () => {
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  const username = () => page.getByLabel('Username or e-mail');
  const password = () => page.getByLabel('Password', { exact: true });

  it('sends a visitor to /login, shows a refusal without losing the username, and logs it', async () => {
    const response = await page.goto(`${server.url}/settings/system-logs`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.title()).toBe('Vigil Managed XDR');
    expect(await page.getByTestId('app-label').textContent()).toBe('Vigil Managed XDR');
    await screenshot(page, 'sign-in-dark-en');

    await username().fill(ADMIN_USERNAME);
    await password().fill('not-the-password');
    await page.getByTestId('sign-in-submit').click();
    const error = page.getByTestId('sign-in-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('The username or password is not correct.');
    expect(await username().inputValue()).toBe(ADMIN_USERNAME);
    expect(await password().inputValue()).toBe('');
    // The loading state is over: the button can be pressed again.
    expect(await page.getByTestId('sign-in-submit').isEnabled()).toBe(true);
    // Sign-in errors are logged to the console.
    expect(consoleErrors.some((text) => text.includes('Sign-in failed'))).toBe(true);
  });

  it('takes the bootstrap administrator through the password-expired screen to the saved page', async () => {
    await page.goto(`${server.url}/settings/system-logs?ordering=action`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await username().fill(ADMIN_USERNAME);
    await password().fill(server.adminPassword);
    await page.getByTestId('sign-in-submit').click();

    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/password_expired');
    await page.getByLabel('Current password').fill(server.adminPassword);
    await page.getByLabel('New password', { exact: true }).fill('short');
    // The rules are shown and follow the typing.
    expect(await page.locator('li[data-met="false"]').count()).toBeGreaterThan(0);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    expect(await page.locator('li[data-met="false"]').count()).toBe(0);
    await screenshot(page, 'password-expired-dark-en');
    await page.getByRole('button', { name: 'Change password and continue' }).click();

    // The main application opens where the visitor first wanted to go.
    await page.getByRole('heading', { name: 'System log' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/settings/system-logs');
    expect(url.searchParams.get('ordering')).toBe('action');
    expect(await page.getByTestId('current-user').textContent()).toBe('Administrator');
  });

  it('signs in with two-factor through /otp, pasting the code, and returns to the saved page', async () => {
    // Turn two-factor on for the administrator (signed in inside the page, as the profile page would).
    await page.goto(`${server.url}/login`);
    await username().fill(ADMIN_USERNAME);
    await password().fill(NEW_PASSWORD);
    await page.getByTestId('sign-in-submit').click();
    // The start page: the first of the menu (the administrator's is Units).
    await page.getByTestId('current-user').waitFor();
    const { secret } = await apiInPage<{ secret: string }>(page, 'GET', '/api/users/otp/secret/generate/');
    await apiInPage(page, 'POST', '/api/users/otp/secret/save/', { code: totp(secret) });
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    // A deep link while signed out is remembered.
    await page.goto(`${server.url}/settings/system-logs?action=login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await username().fill(ADMIN_USERNAME);
    await password().fill(NEW_PASSWORD);
    await page.getByTestId('sign-in-submit').click();
    await page.getByRole('heading', { name: 'Two-factor check' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/otp');
    await screenshot(page, 'otp-dark-en');

    // The language can be switched before the code: kept in this browser, the profile untouched
    // (the server lets a half-signed-in session change nothing of the account).
    const errorsBefore = consoleErrors.length;
    const profileWrites: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/users/me/') && request.method() !== 'GET') profileWrites.push(request.method());
    });
    await page.getByTestId('language-ru').click();
    await page.getByRole('heading', { name: 'Двухфакторная проверка' }).waitFor();
    await page.getByTestId('language-en').click();
    await page.getByRole('heading', { name: 'Two-factor check' }).waitFor();
    expect(profileWrites).toEqual([]);
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);

    // A wrong code is refused and said so.
    await paste(page, '.vigil-code__box', '000000');
    await page.getByTestId('otp-error').waitFor();

    // The code of the next step (the current one was used to turn two-factor on): pasting fills every box.
    await paste(page, '.vigil-code__box', totp(secret, Date.now() + 30_000));
    await page.getByRole('heading', { name: 'System log' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/settings/system-logs');
    expect(url.searchParams.getAll('action')).toEqual(['login']);
  });
});
