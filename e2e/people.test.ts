import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, goInApp, openConsole, screenshot, type ConsolePage } from './helpers';

const EMPLOYEES = '/my-company/employees';
const SOFTWARE = '/my-company/software';

/** Texts the tests look for, in each language. */
const words = {
  en: {
    employees: 'Employees',
    emailError: 'Each address must be a valid e-mail address',
    importEmailError: 'is not an e-mail address.',
    created: 'is added',
    archived: 'Archived',
    software: 'Software',
  },
  ru: {
    employees: 'Сотрудники',
    emailError: 'Каждый адрес должен быть корректным адресом электронной почты',
    importEmailError: 'Каждый адрес должен быть корректным адресом электронной почты',
    created: 'добавлен',
    archived: 'В архиве',
    software: 'Программное обеспечение',
  },
} as const;

/** An osquery differential result line, as osqueryd logs it. */
const osquery = (name: string, host: string, columns: object) => ({
  name,
  hostIdentifier: host,
  calendarTime: 'Fri Nov 20 08:00:00 2026 UTC',
  unixTime: 1_795_161_600,
  epoch: 0,
  counter: 1,
  numerics: false,
  columns,
  action: 'added',
});

/** Software inventory of a few hosts, and a logon of the seeded employee. */
const endpointLines = [
  ...['WS-ACC-01', 'WS-ACC-02'].map((host) =>
    osquery('pack_inventory_programs', host, {
      name: 'Google Chrome',
      version: '120.0.6099.130',
      publisher: 'Google LLC',
    }),
  ),
  osquery('pack_inventory_programs', 'WS-HR-07', {
    name: 'Google Chrome',
    version: '119.0.6045.200',
    publisher: 'Google LLC',
  }),
  osquery('pack_inventory_programs', 'WS-HR-07', {
    name: '7-Zip 23.01 (x64)',
    version: '23.01',
    publisher: 'Igor Pavlov',
  }),
  osquery('deb_packages', 'srv-web-01', { name: 'openssl', version: '3.0.2-0ubuntu1.10', arch: 'amd64' }),
  {
    '@timestamp': '2026-11-20T08:00:00Z',
    host: { name: 'srv-web-01', os: { family: 'debian' } },
    event: { dataset: 'system.package', action: 'existing_package', category: ['package'], kind: 'state' },
    package: { name: 'curl', version: '7.81.0-1ubuntu1.15', type: 'deb' },
  },
  {
    '@timestamp': '2026-11-20T08:05:00Z',
    host: { name: 'WS-ACC-01' },
    event: {
      action: 'logged-in',
      category: ['authentication'],
      outcome: 'success',
      code: '4624',
      provider: 'Microsoft-Windows-Security-Auditing',
    },
    user: { name: 'asmirnova', domain: 'CORP' },
    source: { ip: '10.1.17.215' },
  },
];

/**
 * My company → Employees and Software against the real server, in English and Russian: the employee
 * form shows the server's field error beside its field, the CSV import lists the row it refused, the
 * employee page shows the sign-ins of their accounts, and the software pages show what endpoints sent
 * as inventory. Screenshots go to e2e/screenshots.
 */
describe('employees and software', () => {
  let server: RunningServer;
  let browser: Browser;
  let opened: ConsolePage | undefined;
  let page: Page;
  let annaId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const boris = await admin.request<{ id: number }>('POST', '/api/employees/', {
      full_name: 'Boris Volkov',
      emails: ['b.volkov@corp.example'],
      accounts: ['corp\\bvolkov'],
      department: 'Finance',
      title: 'Head of finance',
    });
    const anna = await admin.request<{ id: number }>('POST', '/api/employees/', {
      full_name: 'Anna Smirnova',
      emails: ['a.smirnova@corp.example', 'anna@corp.example'],
      accounts: ['corp\\asmirnova', 'asmirnova@corp.example'],
      department: 'Finance',
      title: 'Senior accountant',
      phone: '+7 495 123-45-67',
      manager_id: boris.id,
    });
    annaId = anna.id;
    // Her laptop, owned by her.
    await admin.request('POST', '/api/assets/', {
      name: 'LT-ASMIRNOVA',
      kind: 'workstation',
      ips: ['10.30.4.17'],
      criticality: 'high',
      owner_employee_id: anna.id,
    });
    // A phishing domain: the mail to Anna from it raises an alert naming her address.
    await admin.request('POST', '/api/indicators/', { type: 'domain', value: 'evil.example', severity: 'high' });
    const { key } = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'agents' });
    const response = await fetch(`${server.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: endpointLines.map((line) => JSON.stringify(line)).join('\n'),
    });
    expect(response.status).toBe(200);
    const mail = [
      'From: "Accounts payable" <billing@evil.example>',
      'To: Anna Smirnova <a.smirnova@corp.example>',
      'Subject: Invoice 4471 overdue',
      'Message-ID: <invoice-4471@evil.example>',
      'Date: Fri, 20 Nov 2026 08:00:00 +0000',
      '',
      'Pay today to avoid penalties.',
      '',
    ].join('\r\n');
    const mailed = await fetch(`${server.url}/api/ingest/mail/`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${key}` },
      body: mail,
    });
    expect(mailed.status).toBe(200);
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

  const settled = (table: string) => page.locator(`[data-testid="${table}"][data-loading="false"]`);
  /** From here on the page's notifications are not drawn, so that screenshots show the page under them. */
  const hideNotifications = () => page.addStyleTag({ content: '[data-testid="notification"] { visibility: hidden; }' });

  for (const language of ['en', 'ru'] as const) {
    const w = words[language];

    it(`in ${language}: employees list, form with a field error, CSV import, employee page, software pages`, async () => {
      opened = await openConsole(browser, server.url, { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, language);
      page = opened.page;
      await page.goto(`${server.url}${EMPLOYEES}`);
      await settled('employees-table').locator('[role="cell"]').first().waitFor();
      expect(await page.getByTestId('sidebar').getByRole('link', { name: w.employees }).isVisible()).toBe(true);
      const listed = (await page.getByTestId('employee-row').allTextContents()).join('\n');
      expect(listed).toContain('Anna Smirnova');
      expect(listed).toContain('Boris Volkov');
      await screenshot(page, `employees-list-1280-${language}`);
      // How many assets each one owns, linked to the assets list filtered by that owner.
      const owned = page
        .getByTestId('employee-row')
        .filter({ hasText: 'Anna Smirnova' })
        .getByTestId('employee-asset-count');
      expect(await owned.textContent()).toBe('1');
      expect(await owned.getAttribute('href')).toBe(`/my-company/assets?owner_employee_id=${annaId}`);

      // A new employee with a bad address: the server's refusal stands beside the field.
      const name = language === 'en' ? 'Olga Petrova' : 'Ольга Петрова';
      await page.getByTestId('employee-create').click();
      await page.getByTestId('employee-full-name').fill(name);
      await page.getByTestId('employee-emails').fill('olga-at-corp');
      await page.getByTestId('employee-emails').press('Enter');
      await page.getByTestId('employee-department').fill('Finance');
      await page.getByTestId('employee-form-submit').click();
      await page.getByText(w.emailError).waitFor();
      await screenshot(page, `employee-field-error-1280-${language}`);
      await page.getByTestId('employee-emails').press('Backspace');
      await page.getByTestId('employee-emails').fill(`olga.${language}@corp.example`);
      await page.getByTestId('employee-emails').press('Enter');
      await page.getByTestId('employee-manager').click();
      await page.getByRole('option', { name: 'Boris Volkov' }).click();
      await page.getByTestId('employee-form-submit').click();
      await page.getByText(w.created).first().waitFor();
      await page.getByTestId('employee-form').waitFor({ state: 'detached' });
      await page.getByTestId('employee-row').filter({ hasText: name }).waitFor();

      // CSV import: the good rows go in, the bad one is listed with its row and reason.
      await page.getByTestId('employee-import-open').click();
      const csv = [
        'full_name,emails,accounts,department,title,manager',
        `Pavel Orlov ${language},pavel.${language}@corp.example,corp\\porlov${language},Finance,Accountant,Boris Volkov`,
        'Bad Row,not-an-address,,Finance,Clerk,',
        `Irina Sokolova ${language},irina.${language}@corp.example,,Legal,Counsel,`,
      ].join('\n');
      await page
        .getByTestId('employee-import-file')
        .setInputFiles({ name: 'staff.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByText('staff.csv').waitFor();
      await page.getByTestId('employee-import-submit').click();
      const rejection = page.getByTestId('employee-import-rejection');
      await rejection.first().waitFor();
      expect(await rejection.count()).toBe(1);
      expect(await rejection.first().textContent()).toContain('3');
      expect(await rejection.first().textContent()).toContain(w.importEmailError);
      expect(await page.getByTestId('employee-import-report').textContent()).toMatch(/2.*0.*1/);
      await screenshot(page, `employee-import-1280-${language}`);
      await page.keyboard.press('Escape');
      await page
        .getByTestId('employee-row')
        .filter({ hasText: `Pavel Orlov ${language}` })
        .waitFor();

      // The employee's page: facts, manager, sign-ins seen on endpoints.
      await goInApp(page, `${EMPLOYEES}/${annaId}`, '[data-testid="employee-name"]');
      expect(await page.getByTestId('employee-name').textContent()).toBe('Anna Smirnova');
      expect(await page.getByTestId('employee-facts').textContent()).toContain('Boris Volkov');
      // The assets she owns link to their pages.
      const laptop = page.getByTestId('employee-assets').getByTestId('employee-asset');
      expect(await laptop.textContent()).toContain('LT-ASMIRNOVA');
      expect(await laptop.getAttribute('href')).toMatch(/^\/my-company\/assets\/\d+$/);
      await page.getByTestId('employee-sign-in').first().waitFor();
      expect(await page.getByTestId('employee-sign-in').first().textContent()).toContain('WS-ACC-01');
      const alert = page.getByTestId('employee-alert').first();
      expect(await alert.textContent()).toContain('evil.example');
      expect(await alert.getByRole('link').getAttribute('href')).toMatch(/^\/alerts\/\d+$/);
      const message = page.getByTestId('employee-mail-item').first();
      expect(await message.textContent()).toContain('Invoice 4471 overdue');
      expect(await message.getByRole('link').first().getAttribute('href')).toMatch(/^\/investigation\/emails\/\d+$/);
      await hideNotifications();
      await screenshot(page, `employee-page-1280-${language}`, { fullPage: true });
      // Edit from the page, then archive and restore.
      await page.getByTestId('employee-edit').click();
      await page.getByTestId('employee-title').fill(`Chief accountant ${language}`);
      await page.getByTestId('employee-form-submit').click();
      await page.getByText(`Chief accountant ${language}`).first().waitFor();
      await page.getByTestId('employee-archive').click();
      await page.getByTestId('confirm').click();
      await page.getByText(w.archived, { exact: true }).first().waitFor();
      await page.getByTestId('employee-restore').click();
      await page.getByTestId('employee-archive').waitFor();
      // The manager's page lists the people they manage.
      await page.getByTestId('employee-facts').getByRole('link', { name: 'Boris Volkov' }).click();
      await page.getByTestId('employee-reports').getByRole('link', { name: 'Anna Smirnova' }).waitFor();
      await screenshot(page, `employee-manager-1280-${language}`);

      // Software: the products endpoints reported, a product's versions and hosts.
      await goInApp(page, SOFTWARE, '[data-testid="software-table"][data-loading="false"] [role="cell"]');
      expect(await page.getByTestId('sidebar').getByRole('link', { name: w.software }).isVisible()).toBe(true);
      const products = (await page.getByTestId('software-row').allTextContents()).join('\n');
      expect(products).toContain('Google Chrome');
      expect(products).toContain('openssl');
      await screenshot(page, `software-list-1280-${language}`);
      await page.getByTestId('software-row').filter({ hasText: 'Google Chrome' }).getByRole('link').first().click();
      await page.getByTestId('software-product-name').waitFor();
      await page.getByTestId('software-install-row').first().waitFor();
      await page.getByTestId('software-version-row').first().waitFor();
      expect(await page.getByTestId('software-version-row').count()).toBe(2);
      expect(await page.getByTestId('software-install-row').count()).toBe(3);
      await page.getByTestId('software-version-row').filter({ hasText: '120.0.6099.130' }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="software-install-row"]').length === 2);
      await screenshot(page, `software-product-1280-${language}`);
      await goInApp(
        page,
        `${SOFTWARE}/versions`,
        '[data-testid="software-versions-table"][data-loading="false"] [role="cell"]',
      );
      expect(await page.getByTestId('software-version-row').count()).toBe(5);
      await screenshot(page, `software-versions-1280-${language}`);

      // The wide screen: the employee's activity beside their facts.
      await page.setViewportSize({ width: 1920, height: 1080 });
      await goInApp(page, `${EMPLOYEES}/${annaId}`, '[data-testid="employee-sign-in"]');
      await screenshot(page, `employee-page-1920-${language}`);

      // From the employees list, the count of Anna's assets opens the assets list filtered by her as owner.
      await goInApp(page, EMPLOYEES, '[data-testid="employee-asset-count"]');
      await page
        .getByTestId('employee-row')
        .filter({ hasText: 'Anna Smirnova' })
        .getByTestId('employee-asset-count')
        .click();
      await page
        .locator('[data-testid="assets-table"][data-loading="false"] [data-testid="asset-row"]')
        .first()
        .waitFor();
      expect(await page.getByTestId('asset-row').count()).toBe(1);
      expect(await page.getByTestId('asset-row').textContent()).toContain('LT-ASMIRNOVA');
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid="filter-owner"]') as HTMLInputElement | null)?.value ===
          'Anna Smirnova',
      );
      await screenshot(page, `assets-by-owner-1920-${language}`);
    });
  }
});
