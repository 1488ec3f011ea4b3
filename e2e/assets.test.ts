import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, goInApp, openConsole, screenshot, type ConsolePage } from './helpers';

const ASSETS = '/my-company/assets';
const IP_HOSTS = '/my-company/asset-ip-hosts';

/** Each language makes its own asset, at its own address, where a sensor has already seen an attack. */
const cases = {
  en: {
    name: 'FIN-WS-014',
    ip: '10.20.30.40',
    archived: 'is archived',
    importedName: 'LAB-SRV-EN',
    badMac: 'A MAC address is six hex pairs',
    badKind: 'The kind is one of',
  },
  // The server writes English; the Russian console says a field's problem in its own words.
  ru: {
    name: 'БУХ-АРМ-07',
    ip: '10.20.30.41',
    archived: 'перемещён в архив',
    importedName: 'LAB-SRV-RU',
    badMac: 'MAC-адрес — шесть пар шестнадцатеричных цифр',
    badKind: 'Выберите один из типов.',
  },
} as const;

/** A Suricata EVE alert record from an internal address. */
function eveAlert(sid: number, signature: string, src: string) {
  return {
    timestamp: new Date(Date.now() - 60_000).toISOString(),
    flow_id: 8_000_000 + sid,
    event_type: 'alert',
    host: 'sensor-core-1',
    src_ip: src,
    src_port: 49_152,
    dest_ip: '203.0.113.77',
    dest_port: 443,
    proto: 'TCP',
    alert: { action: 'allowed', gid: 1, signature_id: sid, rev: 1, signature, category: 'Trojan', severity: 1 },
  };
}

/**
 * My company → Assets against the real server, in English and Russian: an asset made by hand (the
 * server's reason for a bad MAC address beside the field first), its page with the alert a sensor raised
 * on its address and the risk that alert makes, explained on hover, archiving; a CSV import with a bad
 * row; the Asset IP hosts list. Screenshots go to e2e/screenshots.
 */
describe('assets', () => {
  let server: RunningServer;
  let browser: Browser;
  let opened: ConsolePage | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const { key } = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'core sensor' });
    const response = await fetch(`${server.url}/api/ingest/network/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: [
        eveAlert(2_040_001, 'ET MALWARE Cobalt Strike Beacon Observed', cases.en.ip),
        eveAlert(2_040_002, 'ET TROJAN QakBot CnC Checkin', cases.ru.ip),
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
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

  const settled = (table: string) => page.locator(`[data-testid="${table}"][data-loading="false"]`);

  for (const language of ['en', 'ru'] as const) {
    const c = cases[language];

    it(`in ${language}: creates an asset, shows its alert and risk, archives it, imports a CSV`, async () => {
      opened = await openConsole(browser, server.url, { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, language);
      page = opened.page;
      await page.goto(`${server.url}${ASSETS}`);
      await settled('assets-table').waitFor();

      // By hand: a bad MAC address first, whose reason the server gives beside the field.
      await page.getByTestId('asset-create').click();
      await page.getByTestId('asset-name').fill(c.name);
      await page.getByTestId('asset-ips').fill(c.ip);
      await page.getByTestId('asset-ips').press('Enter');
      await page.getByTestId('asset-macs').fill('00:1a:2b');
      await page.getByTestId('asset-macs').press('Enter');
      await page.getByTestId('asset-form-submit').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="asset-macs"]')?.getAttribute('aria-invalid') === 'true',
      );
      expect(await page.getByTestId('asset-form').textContent()).toContain(c.badMac);
      await screenshot(page, `asset-field-error-${language}`);
      await page.getByTestId('asset-macs').press('Backspace');
      await page.getByTestId('asset-macs').fill('00:1a:2b:3c:4d:5e');
      await page.getByTestId('asset-macs').press('Enter');
      await page.getByTestId('asset-form-submit').click();

      // Its page: the sensor's alert on its address, and the risk it makes.
      await page.getByTestId('asset-title').filter({ hasText: c.name }).waitFor();
      const alert = page.getByTestId('asset-alert').first();
      await alert.waitFor();
      expect(await alert.textContent()).toContain(c.ip);
      expect(Number(await page.getByTestId('asset-risk-score').textContent())).toBeGreaterThan(0);
      await page.getByTestId('asset-risk').hover();
      await page.getByTestId('asset-risk-explained').waitFor();
      await screenshot(page, `asset-page-${language}`);
      expect(await alert.locator('a').getAttribute('href')).toMatch(/^\/alerts\/\d+$/);

      // Archive it.
      await page.mouse.move(0, 0);
      await page.getByTestId('asset-archive').click();
      await page.getByTestId('confirm').click();
      await page.getByText(c.archived).first().waitFor();
      await page.getByTestId('asset-unarchive').waitFor();

      // The list, through the router: a CSV import whose bad row is named.
      await goInApp(page, ASSETS, '[data-testid="asset-row"]');
      await page.getByTestId('asset-import-open').click();
      const csv = [
        'name,kind,ips,criticality,tags',
        `${c.importedName},server,10.20.31.${language === 'en' ? 10 : 11},critical,pci;dmz`,
        'BROKEN,spaceship,,,',
        `${c.importedName}-2,workstation,,low,vip`,
      ].join('\n');
      await page
        .getByTestId('asset-import-file')
        .setInputFiles({ name: 'assets.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByText('assets.csv').waitFor();
      await page.getByTestId('asset-import-submit').click();
      const rejection = page.getByTestId('asset-import-rejection');
      await rejection.first().waitFor();
      expect(await rejection.count()).toBe(1);
      expect(await rejection.first().textContent()).toContain('3');
      expect(await rejection.first().textContent()).toContain(c.badKind);
      expect(await page.getByTestId('asset-import-report').textContent()).toMatch(/2.*0.*1/);
      await screenshot(page, `asset-import-${language}`);
      await page.keyboard.press('Escape');
      await page
        .getByTestId('asset-row')
        .filter({ hasText: `${c.importedName}-2` })
        .waitFor();
      await screenshot(page, `assets-list-${language}`);

      // The company's networks: a line that is no network is named, a good list saves.
      await page.getByTestId('asset-networks-open').click();
      const networks = page.getByTestId('asset-networks-text');
      await networks.fill('10.20.0.0/16\nnot-a-network');
      await page.waitForFunction(
        () => document.querySelector('[data-testid="asset-networks-text"]')?.getAttribute('aria-invalid') === 'true',
      );
      expect(await page.getByTestId('asset-networks-submit').isDisabled()).toBe(true);
      await screenshot(page, `asset-networks-${language}`);
      await networks.fill('10.20.0.0/16\n192.168.0.0/24');
      await page.getByTestId('asset-networks-submit').click();
      await page.getByTestId('asset-networks').waitFor({ state: 'detached' });

      // One change to both imported assets: criticality and a tag.
      const imported = page.getByTestId('asset-row').filter({ hasText: c.importedName });
      for (const row of await imported.all()) await row.locator('input[type="checkbox"]').check();
      await page.getByTestId('asset-bulk-change').click();
      await page.getByTestId('asset-bulk-criticality').click();
      await page.getByRole('option', { name: language === 'en' ? 'High' : 'Высокая', exact: true }).click();
      await page.getByTestId('asset-bulk-add-tags').fill('reviewed');
      await page.getByTestId('asset-bulk-add-tags').press('Enter');
      await screenshot(page, `asset-bulk-${language}`);
      await page.getByTestId('asset-bulk-submit').click();
      await page.getByTestId('asset-bulk-form').waitFor({ state: 'detached' });
      const changed = await apiInPage<{ results: { criticality: string; tags: string[] }[] }>(
        page,
        'POST',
        '/api/assets/check/',
        { search: c.importedName },
      );
      expect(changed.results.map((a) => a.criticality)).toEqual(['high', 'high']);
      expect(changed.results.every((a) => a.tags.includes('reviewed'))).toBe(true);

      // Merge the two imported assets into the first.
      for (const row of await imported.all()) await row.locator('input[type="checkbox"]').check();
      await page.getByTestId('asset-bulk-merge').click();
      await page.getByTestId('asset-merge').getByText(c.importedName, { exact: true }).click();
      await page.getByTestId('asset-merge-submit').click();
      await page.getByTestId('asset-merge').waitFor({ state: 'detached' });
      await page
        .getByTestId('asset-row')
        .filter({ hasText: `${c.importedName}-2` })
        .waitFor({ state: 'detached' });

      // The merged asset's page: edit its name's fully qualified form, then split its address off into a new asset.
      await page.getByTestId('asset-row').filter({ hasText: c.importedName }).first().click();
      await page.getByTestId('asset-facts').waitFor();
      await page.getByTestId('asset-edit').click();
      await page.getByTestId('asset-fqdn').fill(`${c.importedName.toLowerCase()}.corp.example`);
      await page.getByTestId('asset-os-name').fill('Ubuntu');
      await page.getByTestId('asset-form-submit').click();
      await page.getByTestId('asset-form').waitFor({ state: 'detached' });
      await page.getByTestId('asset-facts').getByText(`${c.importedName.toLowerCase()}.corp.example`).waitFor();
      const importedIp = `10.20.31.${language === 'en' ? 10 : 11}`;
      await page.getByTestId('asset-split').click();
      await page.getByTestId('asset-split-name').fill(`${c.importedName}-NIC2`);
      await page.getByTestId('asset-split').getByRole('checkbox', { name: importedIp }).check();
      await screenshot(page, `asset-split-${language}`);
      await page.getByTestId('asset-split-submit').click();
      await page.waitForFunction(
        (name) => document.querySelector('[data-testid="asset-title"]')?.textContent?.includes(name),
        `${c.importedName}-NIC2`,
      );
      expect(await page.getByTestId('asset-facts').textContent()).toContain(importedIp);
      await goInApp(page, ASSETS, '[data-testid="asset-row"]');

      // Asset IP hosts: the address typed by hand, held by the asset.
      await goInApp(page, IP_HOSTS, '[data-testid="ip-host-row"]');
      expect((await page.getByTestId('ip-host-row').allTextContents()).join('\n')).toContain(c.ip);
      await screenshot(page, `asset-ip-hosts-${language}`);

      // The dark theme, for the list and the page.
      if (language === 'en') {
        await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'dark' });
        await page.goto(`${server.url}${ASSETS}`);
        await settled('assets-table').locator('[data-testid="asset-row"]').first().waitFor();
        await screenshot(page, 'assets-list-dark-en');
        await page.getByTestId('asset-row').filter({ hasText: c.importedName }).first().click();
        await page.getByTestId('asset-facts').waitFor();
        await screenshot(page, 'asset-page-dark-en');
        await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'light' });
      }
    });
  }
});
