/**
 * The investigation graph: an alert raised by ingested Suricata records, opened at /graph?alert=ID;
 * its nodes (read from the accessible node table under the canvas), expanding an address from the
 * details panel, the pivot to network events, and screenshots in both themes.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, screenshot, signInInPage } from './helpers';

const CLIENT = '10.20.1.15';
const SERVER = '203.0.113.45';
const FANOUT = 12;
const SHOTS = '/tmp/shots';

const alertRecord = {
  timestamp: '2026-11-20T10:00:00.000000+0000',
  event_type: 'alert',
  src_ip: CLIENT,
  src_port: 49732,
  dest_ip: SERVER,
  dest_port: 80,
  proto: 'TCP',
  app_proto: 'http',
  host: 'sensor-dmz-01',
  alert: {
    action: 'allowed',
    gid: 1,
    signature_id: 2024897,
    rev: 2,
    signature: 'ET USER_AGENTS Go HTTP Client User-Agent',
    category: 'Potentially Bad Traffic',
    severity: 1,
  },
  http: { hostname: 'update.example-cdn.net', url: '/api/v2/check?id=77', http_method: 'GET', status: 200 },
};

/** What the client did around the alert: a DNS query, a TLS session and connections to a dozen servers. */
const context = [
  {
    timestamp: '2026-11-20T10:00:01.000000+0000',
    event_type: 'dns',
    src_ip: CLIENT,
    src_port: 53533,
    dest_ip: '10.20.0.53',
    dest_port: 53,
    proto: 'UDP',
    dns: { type: 'query', rrname: 'c2.example.org', rrtype: 'A' },
  },
  {
    timestamp: '2026-11-20T10:00:02.000000+0000',
    event_type: 'tls',
    src_ip: CLIENT,
    src_port: 51514,
    dest_ip: '198.51.100.7',
    dest_port: 443,
    proto: 'TCP',
    tls: { sni: 'c2.example.org', version: 'TLS 1.3' },
  },
  ...Array.from({ length: FANOUT }, (_, i) => ({
    timestamp: `2026-11-20T11:${String(i).padStart(2, '0')}:00.000000+0000`,
    event_type: 'flow',
    src_ip: CLIENT,
    src_port: 40000 + i,
    dest_ip: `192.0.2.${i + 1}`,
    dest_port: 443,
    proto: 'TCP',
  })),
];

describe('the investigation graph', () => {
  let server: RunningServer;
  let browser: Browser;
  let browserContext: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let alertId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const customer = await admin.request<{ id: number }>('POST', '/api/companies/', { name: 'Northwind Trading' });
    const token = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', {
      name: 'dmz sensor',
      company_id: customer.id,
    });
    const response = await fetch(`${server.url}/api/ingest/network/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token.key}` },
      body: [alertRecord, ...context].map((record) => JSON.stringify(record)).join('\n'),
    });
    expect(response.status).toBe(200);
    const alerts = await admin.request<{ results: { id: number }[] }>('POST', '/api/alerts/check/', {
      company_id: customer.id,
    });
    expect(alerts.results).toHaveLength(1);
    alertId = alerts.results[0]!.id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    browserContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    page = await browserContext.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/login`);
    await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  afterEach(async () => {
    await browserContext.close();
    expect(pageErrors).toEqual([]);
  });

  const list = () => page.getByTestId('graph-node-list');
  const nodeIds = () =>
    list()
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-node-id')));

  async function openGraph() {
    await page.goto(`${server.url}/graph?alert=${alertId}`);
    await list().locator(`tr[data-node-id="alert:${alertId}"]`).waitFor();
  }

  it("draws the alert's observables and flows, expands an address, and pivots to its network events", async () => {
    await openGraph();
    expect((await nodeIds()).sort()).toEqual(
      [
        `alert:${alertId}`,
        `ip:${CLIENT}`,
        `ip:${SERVER}`,
        'host:sensor-dmz-01',
        'domain:update.example-cdn.net',
        'url:http://update.example-cdn.net/api/v2/check?id=77',
      ].sort(),
    );
    // The canvas is drawn, and the root is selected in the details panel.
    expect(await page.locator('.vigil-graph__canvas canvas').count()).toBeGreaterThan(0);
    const panel = page.getByTestId('graph-node-panel');
    expect(await panel.textContent()).toContain('ET USER_AGENTS Go HTTP Client User-Agent');

    // Select the client address in the table and expand it.
    await list()
      .getByRole('button', { name: `Select ${CLIENT}`, exact: true })
      .click();
    expect(await panel.textContent()).toContain('IP address');
    await panel.getByRole('button', { name: 'Expand' }).click();
    await list().locator('tr[data-node-id="ip:192.0.2.1"]').waitFor();
    const expanded = await nodeIds();
    for (let i = 1; i <= FANOUT; i += 1) expect(expanded).toContain(`ip:192.0.2.${i}`);
    expect(expanded).toContain('ip:10.20.0.53');
    expect(expanded).toContain('ip:198.51.100.7');
    expect(expanded).toContain('domain:c2.example.org');
    // 12 fan-out flows, the server, the resolver, the TLS server, DNS and TLS names, HTTP name, URL, the alert.
    expect(await page.getByTestId('graph-expansion-note').textContent()).toBe('Expanded: 20 of 20 relations');
    expect(await page.getByTestId('graph-stats').textContent()).toContain(`${6 + FANOUT + 3} nodes`);

    // Hide one neighbour, then bring it back.
    await list().getByRole('button', { name: 'Select 192.0.2.5', exact: true }).click();
    await panel.getByRole('button', { name: 'Hide' }).click();
    expect(await nodeIds()).not.toContain('ip:192.0.2.5');
    await page.getByRole('button', { name: 'Show hidden (1)' }).click();
    expect(await nodeIds()).toContain('ip:192.0.2.5');

    // The pivot opens the network events of the address.
    await list()
      .getByRole('button', { name: `Select ${CLIENT}`, exact: true })
      .click();
    await panel.getByRole('link', { name: 'Network events of this address' }).click();
    await page.waitForURL((url) => url.pathname === '/investigation/network');
    expect(new URL(page.url()).searchParams.get('ip')).toBe(CLIENT);
  });

  it('finds the alert by its id in the picker and says so when a graph does not exist', async () => {
    await page.goto(`${server.url}/graph`);
    await page.getByText('Choose an alert or an incident').waitFor();
    await page.locator('input[aria-label="Find an alert by id or title"]').fill(String(alertId));
    await page.getByRole('option', { name: new RegExp(`^#${alertId} ET USER_AGENTS`) }).click();
    await page.waitForURL((url) => url.searchParams.get('alert') === String(alertId));
    await list().locator(`tr[data-node-id="alert:${alertId}"]`).waitFor();

    await page.goto(`${server.url}/graph?alert=999999`);
    await page.getByText('This alert or incident does not exist, or you cannot see it.').waitFor();
  });

  it('looks finished in both themes', async () => {
    await mkdir(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await apiInPage(page, 'PUT', '/api/users/me/', { theme });
      await openGraph();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await list()
        .getByRole('button', { name: `Select ${CLIENT}`, exact: true })
        .click();
      await page.getByTestId('graph-node-panel').getByRole('button', { name: 'Expand' }).click();
      await list().locator('tr[data-node-id="ip:192.0.2.1"]').waitFor();
      await page.getByRole('button', { name: 'Fit to screen' }).click();
      await page.mouse.move(1, 890);
      await screenshot(page, `graph-${theme}-en`);
      await page.screenshot({ path: `${SHOTS}/graph-${theme}.png` });
    }
  });
});
