import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, goInApp, paste, screenshot, signInInPage, totp } from './helpers';

const USERS = '/settings/users';
const SESSIONS_READY = '[data-testid="sessions-table"][data-loading="false"] [data-testid="session-row"]';

/**
 * The administration pages and the user's own pages, against the real server: users (create,
 * archive, restore, act as), the profile (a field kept after reload, two-factor set up and used),
 * my sessions (ending another one), and screenshots of each page in both themes and languages.
 */
describe('administration and profile pages', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let missingTranslations: string[];
  let admin: ApiClient;

  /** A user who has chosen a password through its activation link (as a person would), with the given roles. */
  async function createActiveUser(username: string, password: string, fields: Record<string, unknown> = {}) {
    const created = await admin.request<{ id: number; activation_link: string }>('POST', '/api/users/', {
      username,
      ...fields,
    });
    const activation = new ApiClient(server.url);
    await activation.request('POST', new URL(created.activation_link).pathname, {
      new_password: password,
      new_password_retry: password,
    });
    // Activating signs in (unless an allow-list keeps this address out); that session is not part of any test.
    await activation.request('DELETE', '/api/auth/').catch(() => undefined);
    return created.id;
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'en-US' });
    page = await context.newPage();
    pageErrors = [];
    missingTranslations = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.text().includes('Missing translation')) missingTranslations.push(message.text());
    });
  });

  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
    expect(missingTranslations).toEqual([]);
  });

  async function signIn(username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
    await page.goto(`${server.url}/login`);
    await signInInPage(page, username, password);
  }

  const usersTable = () => page.locator('[data-testid="users-table"][data-loading="false"]');
  const userRows = () => page.getByTestId('users-table').getByTestId('user-row');

  it('creates a user without a password (activation link shown), archives it and restores it', async () => {
    await signIn();
    await page.goto(`${server.url}${USERS}`);
    await usersTable().locator('[role="cell"]').first().waitFor();
    expect(await page.getByTestId('sidebar').getByRole('link', { name: 'Users' }).isVisible()).toBe(true);

    await page.getByTestId('user-create').click();
    const form = page.getByTestId('user-form');
    await form.getByLabel('Username').fill('grace');
    await form.getByLabel('E-mail').fill('grace@example.com');
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await page.getByTestId('user-form-submit').click();
    const link = page.getByLabel('Activation link', { exact: true });
    await link.waitFor();
    expect(await link.inputValue()).toMatch(/\/api\/activate\/[^/]+\/$/);
    await page.getByRole('button', { name: 'Done' }).click();

    // A field problem is shown beside its field, and what was typed stays.
    await page.getByTestId('user-create').click();
    await form.getByLabel('Username').fill('grace');
    await form.getByLabel('First name').fill('Second');
    await page.getByTestId('user-form-submit').click();
    await form.getByText('This username is taken.').waitFor();
    expect(await form.getByLabel('First name').inputValue()).toBe('Second');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Search narrows the list, and lives in the URL.
    await page.getByRole('searchbox', { name: 'Search' }).fill('grace');
    await page.waitForURL((url) => url.searchParams.get('search') === 'grace');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    expect(await userRows().first().textContent()).toContain('Grace Hopper');
    expect(await userRows().first().textContent()).toContain('Not activated');

    // Archive through the selection.
    await page.getByLabel('Select grace').check();
    await page.getByTestId('bulk-archive').click();
    await page.getByTestId('confirm').click();
    await page.getByText('No user matches these filters.').waitFor();

    // The archive shows it; restore it from there.
    await page.getByTestId('filter-archived').getByText('Archived').click();
    await page.waitForURL((url) => url.searchParams.get('archived') === 'true');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    expect(await userRows().first().textContent()).toContain('Archived');
    await page.getByLabel('Select grace').check();
    await page.getByTestId('bulk-restore').click();
    await page.getByTestId('confirm').click();
    await page.getByText('No user matches these filters.').waitFor();

    await page.getByTestId('filter-archived').getByText('Active').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
    const state = await admin.request<{ results: { username: string; archived: boolean }[] }>(
      'POST',
      '/api/users/check/',
      { search: 'grace' },
    );
    expect(state.results).toEqual([expect.objectContaining({ username: 'grace', archived: false })]);

    // The user's page shows both timelines, newest first, with what changed.
    await userRows().first().click();
    await page.getByTestId('user-name').waitFor();
    expect(await page.getByTestId('user-name').textContent()).toBe('Grace Hopper');
    const timeline = page.getByTestId('timeline-timeline');
    await timeline.getByTestId('timeline-entry').first().waitFor();
    const actions = await timeline.getByTestId('timeline-entry').locator('.vigil-table__badge').allTextContents();
    expect(actions).toEqual(['Restored', 'Archived', 'Created']);
    expect(await timeline.getByTestId('timeline-entry').first().getByTestId('changes').textContent()).toContain(
      'archived',
    );
  });

  it('edits a user and its privileged settings from its page; ordering of the list is kept in the URL', async () => {
    const id = await createActiveUser('edsger', 'Goto-Considered-Harmful-68', {
      first_name: 'Edsger',
      last_name: 'Dijkstra',
    });
    await signIn();
    await page.goto(`${server.url}${USERS}?ordering=-email`);
    await usersTable().getByTestId('user-row').first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'E-mail' }).getAttribute('aria-sort')).toBe('descending');
    await page.getByRole('button', { name: 'Last sign-in' }).click();
    await page.waitForURL((url) => url.searchParams.get('ordering') === 'last_login_at');
    await page.reload();
    await usersTable().getByTestId('user-row').first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'Last sign-in' }).getAttribute('aria-sort')).toBe('ascending');

    await page.goto(`${server.url}${USERS}/${id}`);
    await page.getByTestId('user-edit').click();
    const form = page.getByTestId('user-form');
    await form.getByLabel('Last name').fill('Dijkstra-Wybe');
    await form.getByLabel('IP allow-list').fill('not an address');
    await form.getByLabel('IP allow-list').press('Enter');
    await page.getByTestId('user-form-submit').click();
    // The server's problem with one address shows beside the field; the rest stays as typed.
    await form.getByText(/An address or range looks like/).waitFor();
    expect(await form.getByLabel('Last name').inputValue()).toBe('Dijkstra-Wybe');
    await form.getByLabel('IP allow-list').press('Backspace');
    await page.getByTestId('user-form-submit').click();
    await page.getByTestId('user-name').filter({ hasText: 'Edsger Dijkstra-Wybe' }).waitFor();

    await page.getByTestId('privileged-remote_response').check();
    await page.getByTestId('privileged-save').click();
    await page.getByText('Privileged settings are saved.').waitFor();
    const saved = await admin.request<{ privileged_settings: Record<string, boolean> }>('GET', `/api/users/${id}/`);
    expect(saved.privileged_settings).toEqual({ remote_response: true });
  });

  it('gives a customer administrator its own users only: no company, unit, superuser or all-companies controls', async () => {
    const customer = await admin.request<{ id: number }>('POST', '/api/companies/', { name: 'Fabrikam' });
    const role = await admin.request<{ id: number }>('POST', '/api/roles/', {
      name: 'Customer administrators',
      company_id: customer.id,
      permissions: [{ basename: 'users', actions: ['view', 'add', 'change', 'delete', 'restore'] }],
    });
    await createActiveUser('fabrikam-admin', 'Runs-The-Customer-42', {
      first_name: 'Fay',
      last_name: 'Brick',
      company_id: customer.id,
      role_ids: [role.id],
    });
    await signIn('fabrikam-admin', 'Runs-The-Customer-42');
    await page.goto(`${server.url}${USERS}`);
    await usersTable().getByTestId('user-row').first().waitFor();
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getByRole('link', { name: 'Users' }).isVisible()).toBe(true);
    expect(await sidebar.getByRole('link', { name: 'Companies' }).count()).toBe(0);
    expect(await sidebar.getByRole('link', { name: 'Units' }).count()).toBe(0);
    // Only this company's users; no company or unit filters.
    expect(await userRows().allTextContents()).toEqual([expect.stringContaining('Fay Brick')]);
    expect(await page.getByTestId('filter-company').count()).toBe(0);
    // The roles picker offers this company's roles only.
    await page.getByTestId('user-create').click();
    const form = page.getByTestId('user-form');
    await form.getByLabel('Username').waitFor();
    await form.getByLabel('Roles').click();
    await page.getByRole('option', { name: 'Customer administrators' }).waitFor();
    expect(await page.getByRole('option').count()).toBe(1);
    await form.getByLabel('Roles').press('Escape');
    expect(await form.getByLabel('Company').count()).toBe(0);
    expect(await form.getByLabel('Unit').count()).toBe(0);
    expect(await form.getByText('Superuser').count()).toBe(0);
    expect(await form.getByText('All companies').count()).toBe(0);
    await page.goto(`${server.url}/settings/companies`);
    await page.getByTestId('no-access').waitFor();
  });

  it('acts as another user from its page and comes back', async () => {
    const id = await createActiveUser('ivan', 'Reads-Logs-Daily-9', { first_name: 'Ivan', last_name: 'Petrov' });
    await signIn();
    await page.goto(`${server.url}${USERS}/${id}`);
    await page.getByTestId('impersonate').click();
    await page.getByTestId('confirm').click();
    await page.getByTestId('impersonation').waitFor();
    expect(await page.getByTestId('current-user').textContent()).toBe('Ivan Petrov');
    await page.getByRole('button', { name: 'Return to my account' }).click();
    await page.getByTestId('current-user').filter({ hasText: 'Administrator' }).waitFor();
    expect(await page.getByTestId('impersonation').count()).toBe(0);
  });

  it('keeps a profile field after a reload', async () => {
    await createActiveUser('ada', 'Counts-Numbers-11', { first_name: 'Ada', last_name: 'Lovelace' });
    await signIn('ada', 'Counts-Numbers-11');
    await page.goto(`${server.url}/profile`);
    const personal = page.getByTestId('profile-personal');
    await personal.getByLabel('First name').fill('Augusta');
    await personal.getByLabel('Phone').fill('+44 20 7946 0000');
    await page.getByTestId('profile-save').click();
    await page.getByText('Your profile is saved.').waitFor();
    expect(await page.getByTestId('current-user').textContent()).toBe('Augusta Lovelace');

    // A refused value is shown beside its field and nothing typed is lost.
    await personal.getByLabel('Phone').fill('call me maybe');
    await page.getByTestId('profile-save').click();
    await personal.getByText('A phone number has digits, spaces and + ( ) - . only.').waitFor();
    expect(await personal.getByLabel('Phone').inputValue()).toBe('call me maybe');

    await page.reload();
    await page.getByTestId('profile-name').waitFor();
    expect(await personal.getByLabel('First name').inputValue()).toBe('Augusta');
    expect(await personal.getByLabel('Phone').inputValue()).toBe('+44 20 7946 0000');
  });

  it('turns on two-factor from the profile with the QR code, then signs in through /otp', async () => {
    const password = 'Two-Factor-Is-Good-5';
    await createActiveUser('otto', password, { first_name: 'Otto', last_name: 'Factor' });
    await signIn('otto', password);
    await page.goto(`${server.url}/profile`);
    const section = page.getByTestId('profile-two-factor');
    expect(await section.getByTestId('two-factor-status').textContent()).toBe('Off');
    await page.getByTestId('two-factor-start').click();
    await section.locator('[data-testid="two-factor-qr"] svg').waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'profile-two-factor-dark-en');
    const secret = await section.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await section.getByLabel('Enter the six-digit code the app shows').fill(totp(secret));
    await page.getByTestId('two-factor-confirm').click();
    await section.getByTestId('two-factor-status').filter({ hasText: 'On' }).waitFor();

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${server.url}/profile`);
    await page.getByLabel('Username or e-mail').fill('otto');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByTestId('sign-in-submit').click();
    await page.getByRole('heading', { name: 'Two-factor check' }).waitFor();
    // The code of the next step: the current one turned two-factor on and cannot be used twice.
    await paste(page, '.vigil-code__box', totp(secret, Date.now() + 30_000));
    await page.getByTestId('profile-name').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect(await page.getByTestId('two-factor-status').textContent()).toBe('On');
  });

  it('ends another session from My sessions', async () => {
    const password = 'Many-Browsers-Here-3';
    await createActiveUser('sam', password, { first_name: 'Sam', last_name: 'Sessions' });
    // Another browser (here: a script) signed in as the same person.
    const elsewhere = new ApiClient(server.url);
    await elsewhere.signIn('sam', password);
    await signIn('sam', password);
    await page.goto(`${server.url}/profile/sessions`);
    const rows = page.getByTestId('sessions-table').getByTestId('session-row');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 2);
    expect(await page.getByTestId('this-session').count()).toBe(1);
    const other = rows.filter({ hasNot: page.getByTestId('this-session') });
    expect(await other.textContent()).toContain('Node.js');
    await other.getByTestId('end-session').click();
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
    expect(await rows.first().getByTestId('this-session').count()).toBe(1);
    // The other session is really over.
    await expect(elsewhere.request('GET', '/api/users/me/')).rejects.toThrow(/answered 401/);
  });

  it('takes screenshots of each page in both themes and both languages', async () => {
    // Something to show: a customer, units, roles and users.
    const customer = await admin.request<{ id: number }>('POST', '/api/companies/', {
      name: 'Northwind Trading',
      label_name: 'Northwind',
      description: 'Retail customer, 24/7 monitoring of offices and warehouses.',
    });
    await admin.request('POST', '/api/companies/', { name: 'Contoso Pharma', description: 'Pilot customer.' });
    const soc = await admin.request<{ id: number }>('POST', '/api/units/', {
      name: 'Security operations',
      description: 'First and second line analysts.',
    });
    await admin.request('POST', '/api/units/', { name: 'IT infrastructure', description: 'Servers and network.' });
    await admin.request('POST', '/api/units/', { name: 'Store security', company_id: customer.id });
    const analysts = await admin.request<{ id: number }>('POST', '/api/roles/', {
      name: 'Analysts',
      description: 'Triage alerts and run investigations.',
      permissions: [
        { basename: 'alerts', actions: ['view', 'change', 'export'] },
        { basename: 'incidents', actions: ['view', 'add', 'change'] },
        { basename: 'system_logs', actions: ['view'] },
      ],
    });
    const people = [
      ['linus', 'Linus', 'Torvalds', 'linus@example.com'],
      ['margaret', 'Margaret', 'Hamilton', 'margaret@example.com'],
      ['alan', 'Alan', 'Turing', 'alan@example.com'],
    ] as const;
    let shownId = 0;
    for (const [username, first, last, email] of people) {
      const id = await createActiveUser(username, 'Correct-Staple-Horse-8', {
        first_name: first,
        last_name: last,
        email,
        unit_id: soc.id,
        role_ids: [analysts.id],
        ip_whitelist: username === 'alan' ? ['10.0.0.0/24', '192.168.10.5'] : [],
      });
      if (username === 'margaret') shownId = id;
    }
    await admin.request('POST', `/api/users/${shownId}/change_privileged_settings/`, {
      privileged_settings: { api_tokens: true, raw_export: true },
    });
    await admin.request('PUT', `/api/users/${shownId}/`, { phone: '+1 617 555 0100' });
    const other = new ApiClient(server.url);
    await other.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);

    await signIn();
    for (const theme of ['dark', 'light'] as const) {
      for (const language of ['en', 'ru'] as const) {
        await apiInPage(page, 'PUT', '/api/users/me/', { theme, locale: language });
        await page.evaluate((value) => localStorage.setItem('user-language', JSON.stringify(value)), language);
        const name = (what: string) => `${what}-${theme}-${language}`;
        const settle = async (selector: string) => {
          await page.locator(selector).first().waitFor();
          await page.locator('[data-testid="progress-bar"][data-active="false"]').waitFor({ state: 'attached' });
        };

        await page.goto(`${server.url}/profile`);
        await settle('[data-testid="profile-personal"]');
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
        await screenshot(page, name('profile'), { fullPage: true });

        const open = async (path: string, selector: string) => {
          await goInApp(page, path, selector);
          await settle(selector);
        };
        await open('/profile/sessions', SESSIONS_READY);
        await screenshot(page, name('sessions'));

        await open(USERS, '[data-testid="users-table"][data-loading="false"] [data-testid="user-row"]');
        await screenshot(page, name('users'));

        await open(`${USERS}/${shownId}`, '[data-testid="timeline-entry"]');
        await screenshot(page, name('user'), { fullPage: true });
        await page.getByTestId('user-edit').click();
        await settle('[data-testid="user-form"]');
        await page.waitForTimeout(300);
        await screenshot(page, name('user-edit'));

        await open(`${USERS}/roles`, '[data-testid="roles-table"][data-loading="false"] [data-testid="role-row"]');
        await screenshot(page, name('roles'));
        await page.getByTestId('role-row').first().click();
        await settle('[data-testid="permission-grid"]');
        await page.waitForTimeout(300);
        await screenshot(page, name('role-edit'));

        await open(
          '/settings/companies',
          '[data-testid="companies-table"][data-loading="false"] [data-testid="company-row"]',
        );
        await screenshot(page, name('companies'));
        await page.getByTestId('company-row').filter({ hasText: 'Northwind' }).click();
        await page.getByTestId('company-sso-tab').click();
        await settle('[data-testid="sso-form"]');
        await page.waitForTimeout(300);
        await screenshot(page, name('company-sso'));

        await open('/settings/units', '[data-testid="units-table"][data-loading="false"] [data-testid="unit-row"]');
        await screenshot(page, name('units'));
      }
    }
    // Back to the defaults for whoever runs next.
    await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'dark', locale: 'en' });
  });
});
