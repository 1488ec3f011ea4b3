import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, openConsole, screenshot, type ConsolePage } from './helpers';

const INDICATORS = '/settings/policy-indicators';
const MATCHERS = '/settings/committed-actions';

/** Texts the tests look for, in each language. */
const words = {
  en: {
    indicators: 'Policy indicators',
    committedActions: 'Committed actions',
    created: 'is created',
    saved: 'The indicator is saved.',
    matcherSaved: 'The matcher is saved.',
    applied: 'Applied',
    chooseUser: 'Choose a user.',
    log: 'Actions taken',
    badValue: 'not-an-address is not an IPv4 or IPv6 address.',
    badImportValue: '999.1.1.1 is not an IPv4 or IPv6 address.',
  },
  ru: {
    indicators: 'Индикаторы политик',
    committedActions: 'Выполняемые действия',
    created: 'создан',
    saved: 'Индикатор сохранён.',
    matcherSaved: 'Обработчик сохранён.',
    applied: 'Выполнено',
    chooseUser: 'Выберите пользователя.',
    log: 'Журнал действий',
    // The server writes English; the Russian console says it in its own words.
    badValue: 'Значение не подходит к типу',
    badImportValue: 'Значение не подходит к типу',
  },
} as const;

/** A Suricata EVE alert record as a sensor sends it. */
function eveAlert(sid: number, signature: string, src: string) {
  return {
    timestamp: new Date(Date.now() - sid * 1000).toISOString(),
    flow_id: 7_000_000 + sid,
    event_type: 'alert',
    host: 'sensor-dmz-1',
    src_ip: src,
    src_port: 50_000,
    dest_ip: '203.0.113.50',
    dest_port: 443,
    proto: 'TCP',
    alert: { action: 'allowed', gid: 1, signature_id: sid, rev: 1, signature, category: 'Trojan', severity: 1 },
  };
}

/**
 * Settings → Policy indicators and Settings → Committed actions against the real server, in English and
 * Russian: the lists show what was made through the API, the forms create and edit and show the server's
 * field errors beside their fields, the CSV import lists the rows it refused, and the matcher editor saves
 * a matcher whose actions the pipeline then takes. Screenshots at 1280 and 1920 px go to e2e/screenshots.
 */
describe('policy indicators and committed actions', () => {
  let server: RunningServer;
  let browser: Browser;
  let opened: ConsolePage | undefined;
  let page: Page;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    for (const [type, value, policy, tags] of [
      ['ip', '198.51.100.23', 'alert', ['c2', 'cobalt-strike']],
      ['domain', 'update-check.example.net', 'alert', ['phishing']],
      ['sha256', 'a'.repeat(64), 'ignore', []],
    ] as const) {
      await admin.request('POST', '/api/indicators/', {
        type,
        value,
        policy,
        severity: 'high',
        tags,
        source: 'CERT feed',
        description: 'Seeded for the browser test',
      });
    }
    // A matcher that tags beacon alerts, and an alert it acts on.
    await admin.request('POST', '/api/matchers/', {
      name: 'Tag beacons',
      conditions: { title_contains: 'beacon' },
      actions: [
        { type: 'add_tag', tag: 'beacon' },
        { type: 'set_severity', severity: 'critical' },
      ],
    });
    const { key } = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'dmz sensor' });
    const response = await fetch(`${server.url}/api/ingest/network/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: JSON.stringify(eveAlert(2_031_001, 'ET MALWARE Cobalt Strike Beacon Observed', '10.1.2.3')),
    });
    expect(response.status).toBe(200);
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

  async function open(language: 'en' | 'ru', width = 1280) {
    opened = await openConsole(
      browser,
      server.url,
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      language,
      width,
    );
    page = opened.page;
  }

  const rows = (table: string, row: string) => page.getByTestId(table).getByTestId(row);
  const settled = (table: string) => page.locator(`[data-testid="${table}"][data-loading="false"]`);

  for (const language of ['en', 'ru'] as const) {
    const w = words[language];

    it(`policy indicators in ${language}: list, create, edit with a field error, CSV import with a bad row`, async () => {
      await open(language);
      await page.goto(`${server.url}${INDICATORS}`);
      await settled('indicators-table').locator('[role="cell"]').first().waitFor();
      expect(await page.getByTestId('sidebar').getByRole('link', { name: w.indicators }).isVisible()).toBe(true);
      const seeded = await rows('indicators-table', 'indicator-row').allTextContents();
      expect(seeded.join('\n')).toContain('198.51.100.23');
      expect(seeded.join('\n')).toContain('update-check.example.net');
      await screenshot(page, `indicators-list-1280-${language}`);

      // Create one.
      const value = language === 'en' ? '192.0.2.10' : '192.0.2.11';
      await page.getByTestId('indicator-create').click();
      const form = page.getByTestId('indicator-form');
      await page.getByTestId('indicator-value').fill(value);
      await page.getByTestId('indicator-tags').fill('test');
      await page.getByTestId('indicator-tags').press('Enter');
      await screenshot(page, `indicator-form-1280-${language}`);
      await page.getByTestId('indicator-form-submit').click();
      await page.getByText(value, { exact: false }).first().waitFor();
      await form.waitFor({ state: 'detached' });
      await page.waitForFunction(
        (wanted) =>
          Array.from(document.querySelectorAll('[data-testid="indicator-row"]')).some((row) =>
            row.textContent?.includes(wanted),
          ),
        value,
      );

      // Edit it with a value that is not an IP address: the server's reason (English) or the console's
      // own words (Russian) stand beside the field.
      await rows('indicators-table', 'indicator-row').filter({ hasText: value }).first().click();
      await page.getByTestId('indicator-value').fill('not-an-address');
      await page.getByTestId('indicator-form-submit').click();
      const valueField = page.getByTestId('indicator-value');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="indicator-value"]')?.getAttribute('aria-invalid') === 'true',
      );
      const describedBy = (await valueField.getAttribute('aria-describedby')) ?? '';
      const errorText = await page.evaluate(
        (ids) =>
          ids
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        describedBy,
      );
      expect(errorText).toContain(w.badValue);
      await screenshot(page, `indicator-field-error-1280-${language}`);
      // A good value saves.
      await valueField.fill(value.replace(/\d+$/, language === 'en' ? '98' : '99'));
      await page.getByTestId('indicator-form-submit').click();
      await page.getByText(w.saved).waitFor();

      // CSV import: the good rows are made, the bad one is listed with its row and reason.
      await page.getByTestId('indicator-import-open').click();
      const csv = [
        'type,value,policy,severity,expires_at,tags,source,description',
        `domain,imported-${language}.example.org,alert,medium,,imported,csv,`,
        'ip,999.1.1.1,alert,high,,,csv,',
        `md5,${(language === 'en' ? 'b' : 'c').repeat(32)},alert,low,,,csv,`,
      ].join('\n');
      await page
        .getByTestId('indicator-import-file')
        .setInputFiles({ name: 'indicators.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByText('indicators.csv').waitFor();
      await page.getByTestId('indicator-import-submit').click();
      const rejection = page.getByTestId('indicator-import-rejection');
      await rejection.first().waitFor();
      expect(await rejection.count()).toBe(1);
      const rejected = await rejection.first().textContent();
      expect(rejected).toContain('3');
      expect(rejected).toContain(w.badImportValue);
      // The server's own sentence stays at hand as the reason's tooltip in Russian.
      if (language === 'ru') {
        expect(await rejection.first().locator('td').last().getAttribute('title')).toContain(
          '999.1.1.1 is not an IPv4 or IPv6 address.',
        );
      }
      expect(await page.getByTestId('indicator-import-report').textContent()).toMatch(/2.*0.*1/);
      await screenshot(page, `indicator-import-1280-${language}`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(
        (wanted) =>
          Array.from(document.querySelectorAll('[data-testid="indicator-row"]')).some((row) =>
            row.textContent?.includes(wanted),
          ),
        `imported-${language}.example.org`,
      );

      // Filters live in the URL: the type filter leaves only domains.
      await page.goto(`${server.url}${INDICATORS}?type=domain`);
      await settled('indicators-table').locator('[role="cell"]').first().waitFor();
      const domains = await rows('indicators-table', 'indicator-row').allTextContents();
      expect(domains.length).toBeGreaterThan(0);
      expect(domains.join('\n')).not.toContain('198.51.100.23');

      // Bulk delete the imported domain.
      await page.goto(`${server.url}${INDICATORS}?search=imported-${language}`);
      await settled('indicators-table').locator('[role="cell"]').first().waitFor();
      await rows('indicators-table', 'indicator-row').first().locator('input[type="checkbox"]').check();
      await page.getByTestId('indicator-bulk-delete').click();
      await page.getByTestId('confirm').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="indicator-row"]').length === 0);

      // Export: a CSV with the import's columns.
      const href = await page.getByTestId('indicator-export').getAttribute('href');
      const exported = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
      expect(exported.split(/\r?\n/)[0]).toBe('type,value,policy,severity,expires_at,tags,source,description');
      expect(exported).toContain('198.51.100.23');

      // The wide screen.
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.goto(`${server.url}${INDICATORS}`);
      await settled('indicators-table').locator('[role="cell"]').first().waitFor();
      await screenshot(page, `indicators-list-1920-${language}`);
    });

    it(`committed actions in ${language}: list, the editor saves and shows field errors, actions taken`, async () => {
      await open(language);
      await page.goto(`${server.url}${MATCHERS}`);
      await settled('matchers-table').locator('[role="cell"]').first().waitFor();
      expect(await page.getByTestId('sidebar').getByRole('link', { name: w.committedActions }).isVisible()).toBe(true);
      expect((await rows('matchers-table', 'matcher-row').allTextContents()).join('\n')).toContain('Tag beacons');
      await screenshot(page, `matchers-list-1280-${language}`);

      // A new matcher: a condition, an action that assigns to a user picked from the list.
      const name = `Assign criticals ${language}`;
      await page.getByTestId('matcher-create').click();
      await page.getByTestId('matcher-name').fill(name);
      await page.getByTestId('condition-title').fill('qakbot');
      // Saving without the user asks for one, beside the picker.
      await page.getByTestId('matcher-save').click();
      await page.getByText(w.chooseUser).waitFor();
      await page.getByTestId('action-user-0').click();
      await page.getByRole('option', { name: /admin/ }).first().click();
      // A second action, an e-mail to a bad address: the server's reason stands beside that field.
      await page.getByTestId('action-add').click();
      await page.getByTestId('action-type-1').click();
      await page.getByRole('option', { name: language === 'en' ? 'Send an e-mail' : 'Отправить письмо' }).click();
      await page.getByTestId('action-to-1').fill('not an address');
      await page.getByTestId('matcher-save').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="action-to-1"]')?.getAttribute('aria-invalid') === 'true',
      );
      const describedBy = (await page.getByTestId('action-to-1').getAttribute('aria-describedby')) ?? '';
      const errorText = await page.evaluate(
        (ids) =>
          ids
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        describedBy,
      );
      expect(errorText).toContain('Enter an e-mail address.');
      await page.getByTestId('action-add').scrollIntoViewIfNeeded();
      await screenshot(page, `matcher-editor-error-1280-${language}`);

      // Mended, it saves; the page becomes the matcher's own.
      await page.getByTestId('action-to-1').fill('soc@example.org');
      await page.getByTestId('matcher-save').click();
      await page.waitForURL((url) => /\/settings\/committed-actions\/\d+$/.test(url.pathname));
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      const saved = await admin.request<{ name: string; conditions: object; actions: object[] }>(
        'GET',
        `/api/matchers/${id}/`,
      );
      expect(saved.name).toBe(name);
      expect(saved.conditions).toEqual({ title_contains: 'qakbot' });
      expect(saved.actions).toEqual([
        { type: 'assign', assignee_id: expect.any(Number) },
        { type: 'notify_email', to: 'soc@example.org' },
      ]);
      // Edit: off, and saved.
      await page.getByTestId('matcher-enabled').click();
      await page.getByTestId('matcher-save').click();
      await page.getByText(w.matcherSaved).waitFor();
      expect((await admin.request<{ enabled: boolean }>('GET', `/api/matchers/${id}/`)).enabled).toBe(false);

      // The list turns a matcher on and off.
      await page.goto(`${server.url}${MATCHERS}`);
      await settled('matchers-table').locator('[role="cell"]').first().waitFor();
      const row = rows('matchers-table', 'matcher-row').filter({ hasText: name });
      await row.locator('.mantine-Switch-track').click();
      await page.waitForFunction(
        async (matcher) => {
          const answer = await fetch(`/api/matchers/${matcher}/`);
          return ((await answer.json()) as { enabled: boolean }).enabled;
        },
        id,
        { polling: 250 },
      );

      // What the seeded matcher did to the beacon alert.
      await page.getByTestId('matcher-log-tab').click();
      await page.waitForURL((url) => url.pathname === `${MATCHERS}/log`);
      await settled('matcher-log-table').locator('[role="cell"]').first().waitFor();
      const taken = await rows('matcher-log-table', 'matcher-log-row').allTextContents();
      expect(taken.length).toBe(2);
      for (const text of taken) {
        expect(text).toContain('Tag beacons');
        expect(text).toContain(w.applied);
        expect(text).toContain('Cobalt Strike Beacon');
      }
      await screenshot(page, `matcher-log-1280-${language}`);

      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.goto(`${server.url}${MATCHERS}`);
      await settled('matchers-table').locator('[role="cell"]').first().waitFor();
      await screenshot(page, `matchers-list-1920-${language}`);
      await rows('matchers-table', 'matcher-row').filter({ hasText: 'Tag beacons' }).click();
      await page.getByTestId('matcher-actions-table').getByTestId('matcher-action-row').first().waitFor();
      await screenshot(page, `matcher-page-1920-${language}`);
      await page.getByTestId('matcher-actions-taken').scrollIntoViewIfNeeded();
      await screenshot(page, `matcher-page-actions-1920-${language}`);
      // From the matcher's page to the log narrowed to it: the filter names it.
      await page.getByTestId('matcher-actions-taken').getByRole('link', { name: w.log }).click();
      await page.waitForURL((url) => url.pathname === `${MATCHERS}/log` && url.searchParams.has('matcher_id'));
      await settled('matcher-log-table').locator('[role="cell"]').first().waitFor();
      expect(await rows('matcher-log-table', 'matcher-log-row').count()).toBe(2);
      await page.getByTestId('filter-matcher').locator('..').getByText('Tag beacons').first().waitFor();
      await screenshot(page, `matcher-log-1920-${language}`);
    });
  }
});
