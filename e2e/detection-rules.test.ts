import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, openConsole, screenshot, type ConsolePage } from './helpers';

/*
 * Settings → Suricata signatures, Sigma rules and YARA signatures against the real server, in English and
 * Russian, with real rules read from the shared data (each case skipped when its folder is absent; nothing is
 * copied into the project): import through the dialog (rule files and a .tar.gz built here), the lists and
 * their counts, turning rules off by a filter, a rule's page with its coloured source and the diff after a
 * changed rule is imported again, testing a Sigma rule on an event that matches and one that does not, a
 * threshold.config entry, and the rule on the page of an alert it raised. Screenshots go to e2e/screenshots.
 */

const DATA = path.resolve(import.meta.dirname, '../../shared/data');
const SURICATA = path.join(DATA, 'suricata/rules');
const SIGMA_RULE = path.join(
  DATA,
  'sigma/rules/windows/process_creation/proc_creation_win_amsi_registry_tampering.yml',
);
const SIGMA_MORE = [
  'sigma/rules/windows/process_creation/proc_creation_win_powershell_amsi_init_failed_bypass.yml',
  'sigma/rules/windows/process_creation/proc_creation_win_powershell_amsi_null_bits_bypass.yml',
].map((file) => path.join(DATA, file));
const SIGMA_SAMPLE = path.join(
  DATA,
  'sigma/regression/windows/process_creation/proc_creation_win_amsi_registry_tampering/7dbbcac2-57a0-45ac-b306-ff30a8bd2981.json',
);
const SIGMA_ID = '7dbbcac2-57a0-45ac-b306-ff30a8bd2981';
const YARA_FILE = path.join(DATA, 'yara/apt_apt10.yar');

const haveSuricata = existsSync(path.join(SURICATA, 'http-events.rules'));
const haveSigma = existsSync(SIGMA_RULE) && existsSync(SIGMA_SAMPLE) && SIGMA_MORE.every((file) => existsSync(file));
const haveYara = existsSync(YARA_FILE);

/** Texts the tests look for, in each language. */
const words = {
  en: {
    suricata: 'Suricata signatures',
    sigma: 'Sigma rules',
    yara: 'YARA signatures',
    matched: 'Matched',
    notMatched: 'Did not match',
    changed: 'rules changed',
    skipped: 'files are left out',
    gone: 'no longer in the store',
    added: 'The entry is added.',
  },
  ru: {
    suricata: 'Сигнатуры Suricata',
    sigma: 'Правила Sigma',
    yara: 'Сигнатуры YARA',
    matched: 'Совпало',
    notMatched: 'Не совпало',
    changed: 'Изменено правил',
    skipped: 'Пропущено файлов',
    gone: 'больше нет в хранилище',
    added: 'Запись добавлена.',
  },
} as const;

/** A tar archive of the given files (ustar headers; a name ending in / is a folder). */
function tar(files: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, content] of files) {
    const body = Buffer.from(content, 'utf8');
    const header = Buffer.alloc(512);
    header.write(name, 0, 100, 'utf8');
    const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, '0')}\0`;
    header.write(octal(0o644, 8), 100);
    header.write(octal(body.length, 12), 124);
    header.write(octal(Math.floor(Date.now() / 1000), 12), 136);
    header.write(name.endsWith('/') ? '5' : '0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    // The checksum: the header's bytes summed with the checksum field read as spaces.
    header.fill(' ', 148, 156);
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    parts.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** One endpoint event as one JSON line (the regression file holds one pretty-printed object). */
function sampleEvent(): Record<string, unknown> {
  return JSON.parse(readFileSync(SIGMA_SAMPLE, 'utf8')) as Record<string, unknown>;
}

interface ListAnswer {
  results: { id: number; rule_key: string; title: string; enabled: boolean; effective_enabled: boolean }[];
  count: number;
}

describe('detection rules', () => {
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

  const settled = () => page.locator('[data-testid="rules-table"][data-loading="false"]');
  const rows = () => page.getByTestId('rules-table').getByTestId('rule-row');

  /** Picks files in the import dialog, imports them and waits for the answer. */
  async function importFiles(files: { name: string; buffer: Buffer }[], licence?: string) {
    await page.getByTestId('rule-import-open').click();
    if (licence) await page.getByTestId('rule-import-licence').fill(licence);
    await page
      .getByTestId('rule-import-file')
      .setInputFiles(files.map((file) => ({ ...file, mimeType: 'application/octet-stream' })));
    await page.getByTestId('rule-import-ready').waitFor();
    await page.getByTestId('rule-import-submit').click();
    await page.getByTestId('rule-import-report').waitFor();
  }

  async function findRule(kind: string, search: string) {
    const answer = await admin.request<ListAnswer>('POST', `/api/rules/${kind}/check/`, { search });
    return answer.results[0]!;
  }

  for (const language of ['en', 'ru'] as const) {
    const w = words[language];

    it.skipIf(!haveSuricata)(
      `Suricata signatures in ${language}: import a .tar.gz, counts, turn off by filter, threshold.config`,
      async () => {
        await open(language);
        await page.goto(`${server.url}/settings/suricata-signatures`);
        await settled().waitFor();
        expect(await page.getByTestId('sidebar').getByRole('link', { name: w.suricata }).isVisible()).toBe(true);

        // An archive of two rule files and a file that is not one: unpacked here, the other file left out.
        const archive = gzipSync(
          tar([
            ['rules/', ''],
            ['rules/http-events.rules', readFileSync(path.join(SURICATA, 'http-events.rules'), 'utf8')],
            ['rules/dns-events.rules', readFileSync(path.join(SURICATA, 'dns-events.rules'), 'utf8')],
            ['rules/README.txt.orig', 'not rules'],
          ]),
        );
        await importFiles([{ name: 'suricata-events.tar.gz', buffer: archive }]);
        expect(await page.getByTestId('rule-import-skipped').textContent()).toContain(w.skipped);
        const report = (await page.getByTestId('rule-import-report').textContent()) ?? '';
        // The first run creates the rules; the second finds them unchanged.
        expect(report).toMatch(language === 'en' ? /(Created|Создано): [1-9]/ : /(Unchanged|Без изменений): [1-9]/);
        await screenshot(page, `rules-import-1280-${language}`);
        await page.keyboard.press('Escape');

        const all = await admin.request<ListAnswer>('POST', '/api/rules/suricata/check/', {});
        expect(all.count).toBeGreaterThanOrEqual(60);
        await page.reload();
        await settled().locator('[role="cell"]').first().waitFor();
        expect(await rows().count()).toBeGreaterThan(5);
        await screenshot(page, `rules-suricata-list-1280-${language}`);

        // Every rule of one file turned off through "all matching": more rows match than a page shows.
        await page.goto(`${server.url}/settings/suricata-signatures?file_name=rules%2Fhttp-events.rules&page_size=25`);
        await settled().locator('[role="cell"]').first().waitFor();
        const matching = await admin.request<ListAnswer>('POST', '/api/rules/suricata/check/?page_size=1', {
          file_name: 'rules/http-events.rules',
        });
        expect(matching.count).toBeGreaterThan(25);
        const on = await admin.request<ListAnswer>('POST', '/api/rules/suricata/check/?page_size=1', {
          file_name: 'rules/http-events.rules',
          enabled: true,
        });
        expect(on.count).toBeGreaterThan(0);
        await page.getByTestId('rules-table').locator('.vigil-vtable__head input[type="checkbox"]').check();
        await page.locator('.vigil-selection-bar').getByRole('button').first().click();
        await page.getByTestId('rule-bulk-disable').click();
        await page.getByTestId('rule-bulk-answer').waitFor();
        const said = (await page.getByTestId('rule-bulk-answer').textContent()) ?? '';
        expect(said).toContain(w.changed);
        // The rules the engine cannot run were off already: only those that were on change.
        expect(said).toContain(String(on.count));
        const off = await admin.request<ListAnswer>('POST', '/api/rules/suricata/check/?page_size=1', {
          file_name: 'rules/http-events.rules',
          enabled: false,
        });
        expect(off.count).toBe(matching.count);
        await screenshot(page, `rules-suricata-bulk-1280-${language}`);
        // On again for the other language's run.
        await admin.request('POST', '/api/rules/suricata/bulk/', {
          enabled: true,
          filters: { file_name: 'rules/http-events.rules' },
        });

        // threshold.config: a line the server cannot read is answered beside the field, a good one is added.
        await page.getByTestId('thresholds-tab').click();
        await page.getByTestId('threshold-add').click();
        await page.getByTestId('threshold-entry-input').fill('suppress nonsense');
        await page.getByTestId('threshold-submit').click();
        await page.waitForFunction(
          () =>
            document.querySelector('[data-testid="threshold-entry-input"]')?.getAttribute('aria-invalid') === 'true',
        );
        await screenshot(page, `rules-threshold-error-1280-${language}`);
        const entry = `suppress gen_id 1, sig_id 2240002, track by_src, ip 10.0.0.${language === 'en' ? 5 : 6}`;
        await page.getByTestId('threshold-entry-input').fill(entry);
        await page.getByTestId('threshold-comment').fill(`scanner (${language})`);
        await page.getByTestId('threshold-submit').click();
        await page.getByText(w.added).waitFor();
        await page.getByTestId('thresholds-table').getByText(entry).waitFor();
        await screenshot(page, `rules-thresholds-1280-${language}`);
      },
    );

    it.skipIf(!haveSigma)(`Sigma rules in ${language}: import, rule page, diff, test on an event`, async () => {
      await open(language);
      await page.goto(`${server.url}/settings/sigma-rules`);
      await settled().waitFor();
      expect(await page.getByTestId('sidebar').getByRole('link', { name: w.sigma }).isVisible()).toBe(true);
      const original = readFileSync(SIGMA_RULE, 'utf8');
      // The rule as published is there first (for all companies, under the SigmaHQ licence).
      if (language === 'en') {
        await admin.request('POST', '/api/rules/sigma/import/', {
          files: [{ name: path.basename(SIGMA_RULE), content: original }],
          licence: 'DRL-1.1',
        });
      }
      // Each run imports the rule changed a little, so the rule has a new revision to compare.
      const changed = original.replace(/^level: high$/m, language === 'en' ? 'level: critical' : 'level: medium');
      await importFiles(
        [
          { name: 'proc_creation_win_amsi_registry_tampering.yml', buffer: Buffer.from(changed) },
          ...SIGMA_MORE.map((file) => ({ name: path.basename(file), buffer: readFileSync(file) })),
        ],
        'DRL-1.1',
      );
      await page.keyboard.press('Escape');
      await page.reload();
      await settled().locator('[role="cell"]').first().waitFor();
      expect(await rows().count()).toBeGreaterThanOrEqual(3);
      await screenshot(page, `rules-sigma-list-1280-${language}`);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await screenshot(page, `rules-sigma-list-1920-${language}`);
      await page.setViewportSize({ width: 1280, height: 800 });

      const rule = await findRule('sigma', SIGMA_ID);
      await page.goto(`${server.url}/settings/sigma-rules/${rule.id}`);
      await page.getByTestId('rule-title').waitFor();
      expect(await page.getByTestId('rule-title').textContent()).toContain('AMSI');
      expect(await page.getByTestId('rule-attribution').textContent()).toContain('Swachchhanda');
      expect(await page.getByTestId('rule-attribution').textContent()).toContain('DRL-1.1');
      // The source is coloured: keys, modifiers and condition words each in their syntax colour.
      const source = page.getByTestId('rule-source');
      expect(await source.locator('[data-kind="property"]').count()).toBeGreaterThan(10);
      expect(await source.locator('[data-kind="function"]').first().textContent()).toMatch(/^\|/);
      expect(await source.locator('[data-kind="keyword"]').count()).toBeGreaterThan(0);
      await screenshot(page, `rules-sigma-page-1280-${language}`);

      // A revision changed by the other language's run (or the original): the diff shows the changed level.
      await page.getByTestId('rule-diff').waitFor();
      const diff = page.getByTestId('rule-diff');
      expect(await diff.locator('[data-kind="added"] code').allTextContents()).toContain(
        `+${language === 'en' ? 'level: critical' : 'level: medium'}`,
      );
      expect(await diff.locator('[data-kind="removed"]').count()).toBeGreaterThan(0);

      // The test form: the stored text on the sample event matches; the event with another command does not.
      const event = sampleEvent();
      await page.getByTestId('rule-test-event').fill(JSON.stringify(event));
      await page.getByTestId('rule-test-run').click();
      await page.getByTestId('rule-test-answer').waitFor();
      expect(await page.getByTestId('rule-test-verdict').textContent()).toBe(w.matched);
      expect(await page.getByTestId('rule-test-match').count()).toBeGreaterThan(0);
      await page.getByTestId('rule-test-answer').scrollIntoViewIfNeeded();
      await screenshot(page, `rules-sigma-test-1280-${language}`);
      const benign = JSON.parse(JSON.stringify(event).replace(/AmsiEnable/g, 'ScriptTimeout')) as Record<
        string,
        unknown
      >;
      await page.getByTestId('rule-test-event').fill(JSON.stringify(benign));
      await page.getByTestId('rule-test-run').click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="rule-test-answer"]')?.getAttribute('data-matched') === 'false',
      );
      expect(await page.getByTestId('rule-test-verdict').textContent()).toBe(w.notMatched);

      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `rules-sigma-page-1920-${language}`);
    });

    it.skipIf(!haveSigma)(`the alert page in ${language} shows the Sigma rule that raised the alert`, async () => {
      const rule = await findRule('sigma', SIGMA_ID);
      const { key } = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', {
        name: `winlog ${language}`,
      });
      const event = sampleEvent();
      const response = await fetch(`${server.url}/api/ingest/endpoint/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
        body: JSON.stringify(event),
      });
      expect(response.status).toBe(200);
      let alerts: { results: { id: number }[] } = { results: [] };
      for (let attempt = 0; attempt < 50 && alerts.results.length === 0; attempt++) {
        alerts = await admin.request('POST', '/api/alerts/check/', { rule_id: [rule.id] });
        if (alerts.results.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(alerts.results.length).toBeGreaterThan(0);

      await open(language);
      await page.goto(`${server.url}/alerts/${alerts.results[0]!.id}`);
      await page.getByTestId('alert-rule-link').waitFor();
      expect(await page.getByTestId('alert-rule-link').getAttribute('href')).toBe(`/settings/sigma-rules/${rule.id}`);
      expect(await page.getByTestId('alert-rule-attribution').textContent()).toContain('Swachchhanda');
      expect(await page.getByTestId('alert-rule-source').locator('[data-kind="property"]').count()).toBeGreaterThan(5);
      await page.getByTestId('alert-rule').scrollIntoViewIfNeeded();
      await screenshot(page, `rules-alert-1280-${language}`);

      // The rule's page counts the hit and lists the alert.
      await page.getByTestId('alert-rule-link').click();
      await page.getByTestId('rule-alert').first().waitFor();
      expect(await page.getByTestId('rule-hits-total').textContent()).toMatch(/[1-9]/);
      await page.getByTestId('rule-hits-panel').scrollIntoViewIfNeeded();
      await screenshot(page, `rules-sigma-hits-1280-${language}`);
    });

    it.skipIf(!haveYara)(`YARA signatures in ${language}: import a rule file, its page`, async () => {
      await open(language);
      await page.goto(`${server.url}/settings/yara-signatures`);
      await settled().waitFor();
      expect(await page.getByTestId('sidebar').getByRole('link', { name: w.yara }).isVisible()).toBe(true);
      await importFiles([{ name: path.basename(YARA_FILE), buffer: readFileSync(YARA_FILE) }]);
      await page.keyboard.press('Escape');
      await page.reload();
      await settled().locator('[role="cell"]').first().waitFor();
      await screenshot(page, `rules-yara-list-1280-${language}`);
      await rows().first().click();
      await page.getByTestId('rule-source').waitFor();
      expect(await page.getByTestId('rule-source').locator('[data-kind="keyword"]').count()).toBeGreaterThan(2);
      await screenshot(page, `rules-yara-page-1280-${language}`);
      // A rule changed in the form, tried on a file read in the browser.
      await page
        .getByTestId('rule-test-source')
        .fill('rule Loader_Stub { strings: $a = "telltale-loader-stub" condition: $a }');
      await page.getByTestId('rule-test-file').setInputFiles({
        name: 'sample.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('MZ....telltale-loader-stub....'),
      });
      await page.getByTestId('rule-test-run').click();
      await page.getByTestId('rule-test-answer').waitFor();
      expect(await page.getByTestId('rule-test-verdict').textContent()).toBe(w.matched);
      expect(await page.getByTestId('rule-test-match').textContent()).toContain('Loader_Stub');
      // The syntax colours of the light theme.
      await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'light' });
      await page.reload();
      await page.getByTestId('rule-source').waitFor();
      await screenshot(page, `rules-yara-page-light-1280-${language}`);
      await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'dark' });
    });
  }

  it.skipIf(!haveSigma)('a deleted rule leaves its alerts, whose page says the rule is gone', async () => {
    const rule = await findRule('sigma', SIGMA_ID);
    const alerts = await admin.request<{ results: { id: number }[] }>('POST', '/api/alerts/check/', {
      rule_id: [rule.id],
    });
    expect(alerts.results.length).toBeGreaterThan(0);
    await open('en');
    await page.goto(`${server.url}/settings/sigma-rules/${rule.id}`);
    await page.getByTestId('rule-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/settings\/sigma-rules$/);
    await page.goto(`${server.url}/alerts/${alerts.results[0]!.id}`);
    await page.getByTestId('alert-rule-gone').waitFor();
    expect(await page.getByTestId('alert-rule-gone').textContent()).toContain(words.en.gone);
  });
});
