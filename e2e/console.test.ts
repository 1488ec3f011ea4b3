import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, screenshot, signInInPage } from './helpers';

const SYSTEM_LOG = '/settings/system-logs';
const checkRoute = '**/api/system_logs/check/**';

describe('the signed-in console', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let consoleMessages: { type: string; text: string }[];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(locale = 'en-US') {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
    page = await context.newPage();
    pageErrors = [];
    consoleMessages = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => consoleMessages.push({ type: message.type(), text: message.text() }));
  }

  beforeEach(async () => {
    await newPage();
  });

  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
    // The console works under its own Content-Security-Policy: the browser refused nothing.
    expect(consoleMessages.filter((message) => message.text.includes('Content Security Policy'))).toEqual([]);
  });

  /** Signs in as the administrator (through the API, inside the page) and opens the system log. */
  async function openSystemLog(search = '') {
    await page.goto(`${server.url}/login`);
    await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    await page.goto(`${server.url}${SYSTEM_LOG}${search}`);
    await page.locator('[data-testid="system-log-table"][data-loading="false"] [role="cell"]').first().waitFor();
  }

  const notifications = () => page.getByTestId('notification');

  it('serves its pages under a Content-Security-Policy that forbids framing, and works under it', async () => {
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportViolation: (text: string) => void }).reportViolation(
          `${location.pathname}: ${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
        );
      });
    });
    const login = await page.goto(`${server.url}/login`);
    expect(login?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(login?.headers()['x-frame-options']).toBe('DENY');
    await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    for (const deepLink of [SYSTEM_LOG, '/dashboard', '/profile']) {
      const answer = await page.goto(`${server.url}${deepLink}`);
      expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.getByTestId('current-user').waitFor();
    }
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('dashboard-grid').waitFor();
    await page.locator('[data-testid="widget-loading"]').first().waitFor({ state: 'detached' });
    expect(violations).toEqual([]);

    // Another site cannot show the console in a frame: the browser puts its error page there.
    const framing = await browser.newPage();
    await framing.setContent(`<iframe src="${server.url}/login"></iframe>`, { waitUntil: 'load' });
    const frame = framing.frames()[1];
    expect(frame?.url()).not.toContain(server.url);
    expect(await frame?.locator('#root > *').count()).toBe(0);
    await framing.close();
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await fetch(`${server.url}/api/unknown`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ detail: 'Not found.' });
  });

  it('shows the system log in the main layout, pages through it, and signs out', async () => {
    await openSystemLog();
    expect(await page.title()).toBe('Vigil Managed XDR');
    expect(await page.getByTestId('app-label').textContent()).toBe('Vigil Managed XDR');
    expect(await page.getByTestId('current-user').textContent()).toBe('Administrator');
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getByRole('link', { name: 'System logs' }).isVisible()).toBe(true);
    // A section of one page (its detail pages aside) is a plain link, not a group of one.
    expect(await sidebar.getByRole('link', { name: 'Alerts' }).getAttribute('href')).toBe('/alerts');
    // Sections whose pages are not built yet are in the route map but not in the menu.
    expect(await sidebar.getByRole('link', { name: 'Assets' }).count()).toBe(0);

    const loginRow = page
      .getByTestId('system-log-table')
      .locator('[role="row"][data-index]', { hasText: 'Signed in' })
      .first();
    const cells = await loginRow.locator('[role="cell"]').allTextContents();
    expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(cells[1]).toBe(ADMIN_USERNAME);
    // The recorded action (`login`) is named in the interface language.
    expect(cells[2]).toBe('Signed in');
    expect(cells[4]).toBe('127.0.0.1');
    await screenshot(page, 'main-system-log-dark-en');

    // Ordering and filters live in the URL, so a view can be shared.
    await page.getByRole('button', { name: 'Action' }).click();
    await page.waitForURL((url) => url.searchParams.get('ordering') === 'action');
    await page.getByRole('searchbox', { name: 'Search' }).fill('login');
    await page.waitForURL((url) => url.searchParams.get('search') === 'login');
    await page.reload();
    await page.locator('[data-testid="system-log-table"][data-loading="false"] [role="cell"]').first().waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('login');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    const state = await page.evaluate(async () => (await fetch('/api/auth/')).json());
    expect(state).toMatchObject({ authenticated: false, user: null });
  });

  it('pages through the system log, the page kept in the URL', async () => {
    // Enough sign-ins for two pages of 50.
    const client = new ApiClient(server.url);
    for (let i = 0; i < 51; i++) await client.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    await openSystemLog();
    const range = page.getByTestId('system-log-range');
    const total = Number((await range.textContent())?.split(' of ')[1]);
    expect(await range.textContent()).toMatch(/^1–50 of \d+$/);
    expect(total).toBeGreaterThan(50);
    // The table holds the page's 50 rows (it draws only those in view).
    expect(await page.getByRole('table', { name: 'System log' }).getAttribute('aria-rowcount')).toBe('51');

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction(() =>
      /^51–/.test(document.querySelector('[data-testid="system-log-range"]')?.textContent ?? ''),
    );
    expect(await range.textContent()).toBe(`51–${Math.min(total, 100)} of ${total}`);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await page.goBack();
    await page.waitForFunction(() =>
      /^1–50 of/.test(document.querySelector('[data-testid="system-log-range"]')?.textContent ?? ''),
    );
  });

  it('sends the browser to /login on a 401 and back to the page after signing in', async () => {
    await openSystemLog();
    // The session ends behind the console's back (another tab signed out, or it expired).
    await apiInPage(page, 'DELETE', '/api/auth/');
    await page.getByRole('button', { name: 'Action' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Username or e-mail').fill(ADMIN_USERNAME);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByTestId('sign-in-submit').click();
    await page.getByRole('heading', { name: 'System log' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe(SYSTEM_LOG);
    expect(url.searchParams.get('ordering')).toBe('action');
  });

  it('switches language and theme, keeps both after a reload, and has every Russian text', async () => {
    await openSystemLog();
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-ru').click();
    await page.getByRole('heading', { name: 'Системный журнал' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user-language'))).toBe('"ru"');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    // The user's locale is kept on the server too.
    await page.waitForFunction(async () => (await (await fetch('/api/users/me/')).json()).locale === 'ru');

    await page.reload();
    await page.getByRole('heading', { name: 'Системный журнал' }).waitFor();
    await page.locator('[data-testid="system-log-table"][data-loading="false"] [role="cell"]').first().waitFor();
    expect(await page.getByTestId('sidebar').getByRole('link', { name: 'Системный журнал' }).isVisible()).toBe(true);
    await screenshot(page, 'main-system-log-dark-ru');

    // Theme: dark by default, light after the switch and after a reload (kept with the user).
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByTestId('theme-switch').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.waitForFunction(async () => (await (await fetch('/api/users/me/')).json()).theme === 'light');
    await page.reload();
    await page.locator('[data-testid="system-log-table"][data-loading="false"] [role="cell"]').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('light');
    await screenshot(page, 'main-system-log-light-ru');

    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-en').click();
    await page.getByRole('heading', { name: 'System log' }).waitFor();
    await screenshot(page, 'main-system-log-light-en');
    expect(await page.evaluate(() => localStorage.getItem('user-language'))).toBe('"en"');

    // Back to dark for the other tests.
    await page.getByTestId('theme-switch').click();
    await page.waitForFunction(async () => (await (await fetch('/api/users/me/')).json()).theme === 'dark');

    const missing = consoleMessages.filter((message) => message.text.includes('Missing translation'));
    expect(missing).toEqual([]);
  });

  it('starts in the browser language, and in Russian shows the sign-in screens fully translated', async () => {
    await context.close();
    await newPage('ru-RU');
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    expect(await page.getByLabel('Имя пользователя или e-mail').isVisible()).toBe(true);
    await screenshot(page, 'sign-in-dark-ru');
    // `?theme=` renders a page in a theme without saving it (reports opened by a headless browser).
    await page.goto(`${server.url}/login?theme=light`);
    await page.getByRole('heading', { name: 'Вход' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await screenshot(page, 'sign-in-light-ru');
    expect(consoleMessages.filter((message) => message.text.includes('Missing translation'))).toEqual([]);
  });

  it('refuses an unknown theme with a console warning and keeps the current one', async () => {
    await openSystemLog('?theme=sepia');
    const warning = consoleMessages.find((message) => message.type === 'warning' && message.text.includes('sepia'));
    expect(warning?.text).toContain('Unknown theme "sepia" refused');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  });

  it('shows error notifications for 4xx answers: timing, hover pause, Escape, throttling', async () => {
    await page.clock.install();
    await openSystemLog();
    await page.clock.pauseAt(new Date(Date.now() + 1000));
    let answer = { status: 409, body: { detail: 'Conflict.' } as unknown };
    await page.route(checkRoute, (route: Route) =>
      route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) }),
    );
    const sort = page.getByRole('button', { name: 'Action' });
    // Each click changes the ordering, so the list is fetched again; the clock runs a little so the
    // page can render the answer (its scheduling uses timers, which are fake here).
    const trigger = async () => {
      await Promise.all([
        page.waitForResponse((response) => response.url().includes('/api/system_logs/check/')),
        sort.click(),
      ]);
      await page.clock.runFor(50);
    };

    await trigger();
    const first = notifications().first();
    await first.waitFor();
    expect(await first.textContent()).toContain('Something wrong happened');
    expect(await first.textContent()).toContain('Backend answered with 409');
    expect(await first.evaluate((element) => element.getBoundingClientRect().width)).toBe(312);

    // A second failure within 2 s adds nothing (one notification per 2 s, the first one wins).
    await trigger();
    expect(await notifications().count()).toBe(1);

    // Hover pauses the 4.5 s timer; leaving resumes it.
    await first.hover();
    await page.clock.runFor(6000);
    expect(await notifications().count()).toBe(1);
    expect(await first.getAttribute('data-timer')).toBe('paused');
    await page.mouse.move(640, 700);
    await page.clock.runFor(4000);
    expect(await notifications().count()).toBe(1);
    await page.clock.runFor(600);
    expect(await notifications().count()).toBe(0);

    // Escape closes it (while hovered).
    await trigger();
    await notifications().first().waitFor();
    await notifications().first().hover();
    await page.keyboard.press('Escape');
    expect(await notifications().count()).toBe(0);

    // Delete stops the timer; another key starts it again from the full duration.
    await page.clock.runFor(2100);
    await trigger();
    await notifications().first().waitFor();
    await notifications().first().hover();
    await page.keyboard.press('Delete');
    expect(await notifications().first().getAttribute('data-timer')).toBe('stopped');
    await page.mouse.move(640, 700);
    await page.clock.runFor(10_000);
    expect(await notifications().count()).toBe(1);
    await notifications().first().hover();
    await page.keyboard.press('Shift');
    await page.mouse.move(640, 700);
    await page.clock.runFor(4600);
    expect(await notifications().count()).toBe(0);

    // 5xx: no notification.
    await page.clock.runFor(2100);
    answer = { status: 503, body: { detail: 'Unavailable.' } };
    await trigger();
    await page.getByText('The system log could not be loaded.').waitFor();
    expect(await notifications().count()).toBe(0);

    // 423: the full-page system-update view instead of the console, no notification.
    answer = { status: 423, body: { detail: 'The system is being updated.', code: 'maintenance' } };
    await trigger();
    await page.getByTestId('system-update-page').waitFor();
    expect(await notifications().count()).toBe(0);

    // Messages in a successful answer: shown as they are, 100 px from the top, with a close button.
    answer = {
      status: 200,
      body: {
        results: [],
        count: 0,
        next: null,
        previous: null,
        messages: [{ title: 'Export ready', message: 'Your export has been mailed.', type: 'success' }],
      },
    };
    // The view asks the server again after 5 s; its normal answer gives the console back, on the same
    // page, which loads its list again.
    await page.clock.runFor(5000);
    await page.getByTestId('system-update-page').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(SYSTEM_LOG);
    const message = notifications().filter({ hasText: 'Export ready' });
    await message.waitFor();
    // The stack of server messages starts 100 px from the top.
    expect(await message.evaluate((element) => element.parentElement!.getBoundingClientRect().top)).toBe(100);
    await message.getByRole('button', { name: 'Close' }).click();
    expect(await notifications().count()).toBe(0);
  });

  it('shows the progress bar while a request is in flight and ends it after the last one', async () => {
    await openSystemLog();
    // The page's own loading has ended (200 ms after its last call).
    await page.locator('[data-testid="progress-bar"][data-active="false"]').waitFor({ state: 'attached' });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(checkRoute, async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Action' }).click();
    await page.locator('[data-testid="progress-bar"][data-active="true"]').waitFor({ state: 'attached' });
    release();
    await page.locator('[data-testid="progress-bar"][data-active="false"]').waitFor({ state: 'attached' });
    await page.locator('[data-testid="system-log-table"][data-loading="false"]').waitFor();
  });

  it('hides what a user may not use and shows "no access" on a direct link; activation opens the console', async () => {
    // An auditor: may read the system log, nothing else.
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const role = await admin.request<{ id: number }>('POST', '/api/roles/', {
      name: 'Auditors',
      permissions: [{ basename: 'system_logs', actions: ['view'] }],
    });
    const created = await admin.request<{ activation_link: string }>('POST', '/api/users/', {
      username: 'auditor',
      first_name: 'Ada',
      last_name: 'Auditor',
      role_ids: [role.id],
    });
    // The link exactly as mailed (`/api/activate/<token>/`): the server answers a browser with the console.
    const activationPath = new URL(created.activation_link).pathname;

    await page.goto(`${server.url}${activationPath}`);
    await page.getByRole('heading', { name: 'Activate your account' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('Reads-Logs-Daily-7');
    await page.getByLabel('Repeat the new password').fill('Reads-Logs-Daily-7');
    await page.getByRole('button', { name: 'Activate and sign in' }).click();
    await page.getByRole('heading', { name: 'System log' }).waitFor();
    expect(await page.getByTestId('current-user').textContent()).toBe('Ada Auditor');

    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getByRole('link', { name: 'System logs' }).isVisible()).toBe(true);
    expect(await sidebar.getByText('Users', { exact: true }).count()).toBe(0);

    await page.goto(`${server.url}/settings/users`);
    await page.getByTestId('no-access').waitFor();
    expect(await page.getByRole('heading', { name: 'No access' }).isVisible()).toBe(true);
    await screenshot(page, 'no-access-dark-en');

    // The administrator may open it.
    await context.close();
    await newPage();
    await openSystemLog();
    await page.goto(`${server.url}/settings/users`);
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(await page.getByTestId('no-access').count()).toBe(0);
    expect(await page.getByTestId('sidebar').getByRole('link', { name: 'Users' }).isVisible()).toBe(true);
  });
});
