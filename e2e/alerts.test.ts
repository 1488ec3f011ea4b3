import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, screenshot, signInInPage } from './helpers';

/** Where the screenshots of the queue and the alert page go (both themes). */
const SHOTS = '/tmp/shots';

interface AlertRow {
  id: number;
  title: string;
  status: string;
  resolution: string | null;
  assignee_id: number | null;
  tags: string[];
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace('Z', '+0000');

/** A Suricata EVE alert record as a sensor sends it. */
function eveAlert(o: {
  minutes: number;
  src: string;
  dest: string;
  signature: string;
  sid: number;
  severity: number;
  mitre?: string[];
  host?: string;
}) {
  return {
    timestamp: minutesAgo(o.minutes),
    flow_id: 1_000_000 + o.sid * 10 + Math.round(o.minutes),
    event_type: 'alert',
    host: o.host ?? 'sensor-dmz-1',
    src_ip: o.src,
    src_port: 49_152 + (o.sid % 10_000),
    dest_ip: o.dest,
    dest_port: 443,
    proto: 'TCP',
    app_proto: 'tls',
    alert: {
      action: 'allowed',
      gid: 1,
      signature_id: o.sid,
      rev: 4,
      signature: o.signature,
      category: 'A Network Trojan was detected',
      severity: o.severity,
      metadata: o.mitre ? { mitre_technique_id: o.mitre } : {},
    },
    tls: { sni: 'cdn-sync.example.net', version: 'TLS 1.2' },
  };
}

async function ingest(server: RunningServer, key: string, records: object[]) {
  const response = await fetch(`${server.url}/api/ingest/network/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
}

const signatures: [string, number, string[]?][] = [
  ['ET MALWARE Cobalt Strike Beacon Observed', 1, ['T1071', 'T1071.001']],
  ['ET POLICY Outbound TLS to a rarely seen host', 2],
  ['ET SCAN Nmap Scripting Engine User-Agent Detected', 2, ['T1046']],
  ['ET INFO Suspicious DNS query to a .top domain', 3],
  ['ET TROJAN Possible Qakbot C2 check-in', 1, ['T1105']],
  ['ET EXPLOIT Apache Log4j RCE attempt (CVE-2021-44228)', 1, ['T1190']],
  ['ET HUNTING Python requests User-Agent to a file share', 3],
  ['ET USER_AGENTS Known malicious user agent (curl to paste site)', 2],
];

describe('the alert queue and the alert page', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let admin: ApiClient;
  let adminId: number;
  let sensorKey: string;

  const list = (filters: object) =>
    admin.request<{ results: AlertRow[]; count: number }>('POST', '/api/alerts/check/?page_size=500', filters);
  const count = async (filters: object) =>
    (await admin.request<{ count: number }>('POST', '/api/alerts/count/', filters)).count;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    adminId = (await admin.request<{ id: number }>('GET', '/api/users/me/')).id;
    sensorKey = (await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'dmz sensor' })).key;

    // A working day of the DMZ sensor: every signature between several hosts (one alert per pair).
    const records: object[] = [];
    let n = 0;
    for (let host = 0; host < 6; host++) {
      for (const [index, [signature, severity, mitre]] of signatures.entries()) {
        n += 1;
        records.push(
          eveAlert({
            minutes: 5 + n * 7,
            src: `10.20.${host + 1}.${15 + index}`,
            dest: `203.0.113.${40 + index}`,
            signature,
            sid: 2_030_000 + index,
            severity,
            mitre,
          }),
        );
      }
    }
    // A family of 130 alerts (distinct rules), more than one page of the queue, for the bulk test.
    for (let i = 0; i < 130; i++) {
      records.push(
        eveAlert({
          minutes: 30 + i,
          src: '10.30.0.9',
          dest: '198.51.100.77',
          signature: `ET TROJAN Emotet loader variant ${i + 1}`,
          sid: 2_040_000 + i,
          severity: 1,
        }),
      );
    }
    await ingest(server, sensorKey, records);
    // An indicator raises critical alerts on traffic to a known C2 address.
    await admin.request('POST', '/api/indicators/', {
      type: 'ip',
      value: '192.0.2.66',
      policy: 'alert',
      severity: 'critical',
      description: 'Known Cobalt Strike team server',
    });
    await ingest(server, sensorKey, [
      eveAlert({
        minutes: 3,
        src: '10.20.2.31',
        dest: '192.0.2.66',
        signature: 'ET POLICY TLS to C2',
        sid: 2_050_001,
        severity: 2,
      }),
    ]);

    // Some triage already done, so the queue shows every state.
    const { results } = await list({ search: 'Cobalt Strike Beacon' });
    const [first, second] = results;
    if (first)
      await admin.request('PATCH', `/api/alerts/${first.id}/`, {
        status: 'in_progress',
        assignee_id: adminId,
        tags: ['c2', 'finance'],
      });
    if (second)
      await admin.request('PATCH', `/api/alerts/${second.id}/`, { status: 'resolved', resolution: 'true_positive' });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function newPage(locale = 'en-US') {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && process.env.E2E_DEBUG) console.log(message.text());
    });
  }

  beforeEach(async () => {
    pageErrors = [];
    await newPage();
  });

  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  async function signIn(username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
    await page.goto(`${server.url}/login`);
    await signInInPage(page, username, password);
  }

  const rows = () => page.getByTestId('alerts-table').locator('[role="row"][data-index]');
  const rowOf = (title: string) => rows().filter({ hasText: title });
  /** Waits until the queue shows this count of matching alerts. */
  const waitForCount = (expected: number) =>
    page.waitForFunction(
      (n) => document.querySelector('[data-testid="alerts-count"]')?.getAttribute('data-count') === String(n),
      expected,
    );

  it('triages an alert from the queue to closed with the keyboard, and another with clicks on its page', async () => {
    const [target, other] = (await list({ search: 'Qakbot', status: 'new' })).results;
    expect(target && other).toBeTruthy();
    await signIn();
    await page.goto(`${server.url}/alerts?search=Qakbot&status=new`);
    await waitForCount(6);
    await rows().first().waitFor();
    // The first row is highlighted: take it, close it as a false positive.
    const firstId = target!.id;
    await rowOf(target!.title).first().waitFor();
    await page.keyboard.press('j');
    expect(await rows().first().getAttribute('data-active')).toBe('true');
    await page.keyboard.press('a');
    await rows().first().getByText('Me', { exact: true }).waitFor();
    await page.keyboard.press('c');
    await page.getByTestId('resolution-true_positive').waitFor();
    await page.keyboard.press('2');
    await rows().first().getByText('Closed', { exact: true }).waitFor();
    const closed = await admin.request<AlertRow>('GET', `/api/alerts/${firstId}/`);
    expect(closed).toMatchObject({ status: 'closed', resolution: 'false_positive', assignee_id: adminId });
    // The row stays where it was (nothing jumps); j moves on and Enter opens the next one.
    await page.getByTestId('resolution-true_positive').waitFor({ state: 'detached' });
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/alerts\/\d+$/);
    const openedId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(openedId).not.toBe(firstId);

    // On the alert page: status by a click, the resolution by a click.
    await page.getByTestId('alert-title').waitFor();
    await page.getByTestId('alert-status').getByText('Closed').click();
    await page.getByTestId('resolution-benign').click();
    await page.getByTestId('alert-resolution').getByText('Benign').waitFor();
    const second = await admin.request<AlertRow & { history: { action: string }[] }>('GET', `/api/alerts/${openedId}/`);
    expect(second).toMatchObject({ status: 'closed', resolution: 'benign' });
    expect(second.history.map((h) => h.action)).toContain('update');
    // A comment is kept and shown.
    await page.getByTestId('comment-input').fill('Scanner of the vulnerability management team; agreed with IT.');
    await page.getByTestId('comment-submit').click();
    await page.getByTestId('alert-comments').getByText('Scanner of the vulnerability management team').waitFor();
  });

  it('bulk-closes every alert matching a filter, loaded or not, and leaves the others alone', async () => {
    const outsideBefore = await list({ status: 'new', search: 'ET MALWARE' });
    expect(await count({ search: 'Emotet loader', status: 'new' })).toBe(130);
    await signIn();
    await page.goto(`${server.url}/alerts?search=Emotet+loader&status=new`);
    await waitForCount(130);
    await rows().first().waitFor();
    // Select the loaded page, then every alert matching the filter.
    await page.getByRole('checkbox', { name: 'Select all loaded rows' }).check();
    await page.getByRole('button', { name: 'Select all 130 matching' }).click();
    await page.getByTestId('selection-count').getByText('All 130 matching rows are selected').waitFor();
    await page.getByTestId('bulk-status').click();
    await page.getByTestId('bulk-status-closed').click();
    await page.getByTestId('resolution-true_positive').waitFor();
    await page.keyboard.press('1');
    await waitForCount(0);
    await page.getByText('No alerts match these filters.').waitFor();

    expect(await count({ search: 'Emotet loader', status: 'new' })).toBe(0);
    const closed = await list({ search: 'Emotet loader' });
    expect(closed.count).toBe(130);
    expect(closed.results.every((a) => a.status === 'closed' && a.resolution === 'true_positive')).toBe(true);
    const outsideAfter = await list({ status: 'new', search: 'ET MALWARE' });
    expect(outsideAfter.results.map((a) => a.id).sort()).toEqual(outsideBefore.results.map((a) => a.id).sort());
  });

  it("pivots from an alert's IP observable into the network events filtered by it", async () => {
    const [alert] = (await list({ search: 'Log4j' })).results;
    await signIn();
    await page.goto(`${server.url}/alerts/${alert!.id}`);
    await page.getByTestId('alert-observables').waitFor();
    // The raw Suricata record is shown with its own keys.
    await page.getByTestId('alert-raw-json').getByText('"signature_id"').waitFor();
    const srcIp = (
      alert as unknown as { observables: { kind: string; value: string; role: string }[] }
    ).observables.find((o) => o.role === 'src_ip')!.value;
    await page.getByTestId('alert-observables').getByRole('row').filter({ hasText: srcIp }).getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/investigation/network');
    expect(new URL(page.url()).searchParams.get('ip')).toBe(srcIp);
    // The network page shows the address as its filter.
    await page.locator('.mantine-TagsInput-pill', { hasText: srcIp }).first().waitFor();
  });

  it('shows a live alert as a "new alerts" pill, and the row after a click', async () => {
    await signIn();
    await page.goto(`${server.url}/alerts`);
    await rows().first().waitFor();
    await page.waitForFunction(() => document.querySelector('.vigil-live-dot')?.getAttribute('data-status') === 'open');
    expect(await page.getByTestId('new-alerts-pill').count()).toBe(0);
    const before = await rows().first().textContent();
    await ingest(server, sensorKey, [
      eveAlert({
        minutes: 0,
        src: '10.20.7.7',
        dest: '198.51.100.200',
        signature: 'ET MALWARE Live beacon from the lab',
        sid: 2_060_001,
        severity: 1,
      }),
    ]);
    const pill = page.getByTestId('new-alerts-pill');
    await pill.getByText('Show new alerts (1)').waitFor();
    // Nothing was inserted while the pill waits.
    expect(await rows().first().textContent()).toBe(before);
    await pill.click();
    await rowOf('ET MALWARE Live beacon from the lab').waitFor();
    expect(await pill.count()).toBe(0);
    // Someone else takes it on: the row shows it in place, without a reload.
    const [live] = (await list({ search: 'Live beacon from the lab' })).results;
    await rowOf('ET MALWARE Live beacon from the lab').filter({ hasText: 'New' }).waitFor();
    await admin.request('PATCH', `/api/alerts/${live!.id}/`, { status: 'in_progress' });
    await rowOf('ET MALWARE Live beacon from the lab').filter({ hasText: 'In progress' }).waitFor();
  });

  it('offers no bulk close or status keys to a user who may not change alerts', async () => {
    const role = await admin.request<{ id: number }>('POST', '/api/roles/', {
      name: 'Alert viewers',
      permissions: [{ basename: 'alerts', actions: ['view'] }],
    });
    const created = await admin.request<{ activation_link: string }>('POST', '/api/users/', {
      username: 'alert-viewer',
      first_name: 'Vera',
      last_name: 'Viewer',
      role_ids: [role.id],
    });
    const activation = new ApiClient(server.url);
    await activation.request('POST', new URL(created.activation_link).pathname, {
      new_password: 'Only-Looks-At-Alerts-9',
      new_password_retry: 'Only-Looks-At-Alerts-9',
    });
    await signIn('alert-viewer', 'Only-Looks-At-Alerts-9');
    await page.goto(`${server.url}/alerts?search=Nmap`);
    await rows().first().waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByTestId('bulk-status').count()).toBe(0);
    await page.keyboard.press('c');
    await page.keyboard.press('a');
    expect(await page.getByTestId('resolution-true_positive').count()).toBe(0);
    expect(await count({ search: 'Nmap', status: 'closed' })).toBe(0);
    expect((await list({ search: 'Nmap' })).results.every((a) => a.assignee_id === null)).toBe(true);
    // The alert page shows the alert without triage controls that would be refused.
    await rows().first().click();
    await page.getByTestId('alert-title').waitFor();
    expect(await page.getByTestId('alert-status').locator('input:not([disabled])').count()).toBe(0);
    expect(await page.getByTestId('comment-input').count()).toBe(0);
  });

  it('looks finished in both themes (screenshots)', async () => {
    await mkdir(SHOTS, { recursive: true });
    await signIn();
    const [alert] = (await list({ search: 'Cobalt Strike Beacon', status: 'in_progress' })).results;
    for (const theme of ['light', 'dark'] as const) {
      await page.goto(`${server.url}/alerts?theme=${theme}`);
      await rows().nth(5).waitFor();
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('x');
      await page.keyboard.press('j');
      await page.keyboard.press('x');
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SHOTS}/queue-${theme}.png` });
      await screenshot(page, `alerts-queue-${theme}-en`);
      await page.goto(`${server.url}/alerts/${alert!.id}?theme=${theme}`);
      await page.getByTestId('alert-raw-json').waitFor();
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SHOTS}/alert-${theme}.png`, fullPage: true });
      await screenshot(page, `alert-page-${theme}-en`, { fullPage: true });
    }
    await page.goto(`${server.url}/alerts`);
    await rows().first().waitFor();
    await page.keyboard.press('?');
    await page.getByTestId('shortcut-help').getByText('Next alert').waitFor();
    await screenshot(page, 'alerts-shortcuts-en');
  });
});
