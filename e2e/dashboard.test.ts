/**
 * The dashboard: widgets with data seeded through the ingest API, adding, removing and reordering
 * widgets (kept across a reload), a chart segment that opens the filtered alert queue, and
 * screenshots in both themes.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, startServer, type RunningServer } from './harness';
import { ApiClient, apiInPage, screenshot, screenshotDir, signInInPage } from './helpers';

const SHOTS = '/tmp/shots';
const HOUR = 3_600_000;

/** An EVE timestamp `hoursAgo` before now, as Suricata writes it. */
const eveTime = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString().replace('Z', '+0000');

function eveAlert(hoursAgo: number, src: string, dest: string, signature: string, sid: number, severity: number) {
  return {
    timestamp: eveTime(hoursAgo),
    flow_id: 1_000_000 + sid * 100 + Math.round(hoursAgo * 10),
    event_type: 'alert',
    src_ip: src,
    src_port: 49_000 + (sid % 1000),
    dest_ip: dest,
    dest_port: 443,
    proto: 'TCP',
    alert: { action: 'allowed', gid: 1, signature_id: sid, rev: 1, signature, category: 'Misc activity', severity },
    host: 'sensor-dmz-01',
  };
}

function eveFlow(hoursAgo: number, src: string, dest: string, port: number) {
  return {
    timestamp: eveTime(hoursAgo),
    flow_id: 2_000_000 + Math.round(hoursAgo * 1000) + port,
    event_type: 'flow',
    src_ip: src,
    src_port: 51_000,
    dest_ip: dest,
    dest_port: port,
    proto: 'TCP',
    app_proto: 'tls',
    flow: { pkts_toserver: 12, pkts_toclient: 10, bytes_toserver: 2_048, bytes_toclient: 9_000, state: 'closed' },
    host: 'sensor-dmz-01',
  };
}

function endpointEvent(hoursAgo: number, host: string, processName: string) {
  return {
    '@timestamp': new Date(Date.now() - hoursAgo * HOUR).toISOString(),
    host: { name: host },
    event: { action: 'start', category: ['process'], type: ['start'], outcome: 'success' },
    process: { pid: 4_000 + Math.round(hoursAgo * 10), name: processName, command_line: processName },
    user: { name: 'jdoe' },
  };
}

async function ingest(server: RunningServer, key: string, kind: 'network' | 'endpoint', records: object[]) {
  const response = await fetch(`${server.url}/api/ingest/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  if (response.status !== 200) throw new Error(`ingest ${kind} answered ${response.status}: ${await response.text()}`);
}

/** A day of a small company's traffic: flows, Suricata alerts of several severities, endpoint activity. */
async function seed(server: RunningServer): Promise<void> {
  const admin = new ApiClient(server.url);
  await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
  const token = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'dmz sensor' });
  const sources = ['10.20.1.15', '10.20.1.16', '10.20.4.7', '10.20.9.31', '10.20.1.88'];
  const destinations = ['198.51.100.7', '203.0.113.45', '192.0.2.80', '198.51.100.23'];
  const flows: object[] = [];
  for (let i = 0; i < 60; i++) {
    flows.push(
      eveFlow(0.3 + (i % 22) + (i % 7) / 10, sources[i % sources.length]!, destinations[(i * 3) % 4]!, 443 + (i % 3)),
    );
  }
  const signatures: [string, number, number][] = [
    ['ET MALWARE Cobalt Strike Beacon Observed', 2_030_001, 1],
    ['ET POLICY Outbound TLS to rare host', 2_030_002, 2],
    ['ET SCAN Nmap Scripting Engine User-Agent', 2_030_003, 2],
    ['ET INFO Suspicious DNS query to .top domain', 2_030_004, 3],
  ];
  const alerts: object[] = [];
  for (let i = 0; i < 18; i++) {
    const [signature, sid, severity] = signatures[i % signatures.length]!;
    alerts.push(eveAlert(0.5 + i * 1.2, sources[i % sources.length]!, destinations[i % 4]!, signature, sid, severity));
  }
  await ingest(server, token.key, 'network', [...flows, ...alerts]);
  const hosts = ['WS-FIN-07', 'WS-HR-02', 'SRV-DB-01', 'WS-FIN-11'];
  await ingest(
    server,
    token.key,
    'endpoint',
    Array.from({ length: 30 }, (_, i) =>
      endpointEvent(0.2 + i * 0.7, hosts[i % 3 === 0 ? 0 : i % hosts.length]!, 'powershell.exe'),
    ),
  );
  // Triage a few alerts so time to acknowledge has something to measure, and open an incident.
  const queue = await admin.request<{ results: { id: number; severity: string }[] }>('POST', '/api/alerts/check/', {});
  const [first, second, third] = queue.results;
  if (first) await admin.request('PATCH', `/api/alerts/${first.id}/`, { status: 'in_progress' });
  if (second) await admin.request('PATCH', `/api/alerts/${second.id}/`, { status: 'resolved', resolution: 'benign' });
  if (third) {
    await admin.request('POST', '/api/incidents/', {
      title: 'Beaconing from the finance subnet',
      severity: 'high',
      alert_ids: [third.id],
    });
  }
}

describe('the dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await seed(server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/login`);
    await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  const kinds = () =>
    page.locator('[data-testid="widget"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-kind')));
  const widget = (kind: string) => page.locator(`[data-testid="widget"][data-kind="${kind}"]`).first();

  async function openDashboard(search = '') {
    await page.goto(`${server.url}/dashboard${search}`);
    await page.getByTestId('dashboard-grid').waitFor();
    await page.locator('[data-testid="widget-loading"]').first().waitFor({ state: 'detached' });
  }

  it('shows the default widgets with the seeded data, in both themes', async () => {
    await openDashboard();
    expect(await kinds()).toEqual([
      'alerts_by_severity',
      'open_alerts_by_status',
      'open_incidents_by_severity',
      'time_to_acknowledge',
      'top_signatures',
      'top_hosts',
      'top_source_ips',
      'ingest_rate',
    ]);
    await widget('alerts_by_severity').locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await widget('top_source_ips').locator('[data-key="10.20.1.15"]').count()).toBe(1);
    expect(await widget('top_hosts').locator('[data-key="WS-FIN-07"]').count()).toBe(1);
    expect(
      await widget('top_signatures').locator('[data-key="ET MALWARE Cobalt Strike Beacon Observed"]').count(),
    ).toBe(1);
    expect(await widget('open_incidents_by_severity').locator('[data-key="high"]').getAttribute('aria-label')).toBe(
      'High: 1',
    );
    expect(await widget('time_to_acknowledge').getByTestId('duration-median').textContent()).not.toBe('None yet');
    // A custom title and the rest are readable; no widget failed.
    expect(await page.locator('[data-testid="widget"] [role="alert"]').count()).toBe(0);

    await mkdir(SHOTS, { recursive: true });
    for (const theme of ['dark', 'light'] as const) {
      await apiInPage(page, 'PUT', '/api/users/me/', { theme });
      await openDashboard();
      await widget('alerts_by_severity').locator('.recharts-bar-rectangle path').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await page.mouse.move(0, 0);
      await screenshot(page, `dashboard-${theme}`, { fullPage: true });
      await copyFile(path.join(screenshotDir, `dashboard-${theme}.png`), path.join(SHOTS, `dashboard-${theme}.png`));
    }
    await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'dark' });
  });

  it('adds, removes and reorders widgets, and keeps the layout after a reload', async () => {
    await openDashboard();
    const saved = (method: string) =>
      page.waitForResponse((r) => r.request().method() === method && r.url().includes('/api/widgets/') && r.ok());

    await page.getByTestId('widget-add').click();
    const added = saved('POST');
    await page.getByTestId('widget-add-top_destination_ips').click();
    await added;
    expect((await kinds()).at(-1)).toBe('top_destination_ips');
    await widget('top_destination_ips').locator('[data-key="198.51.100.7"]').waitFor();

    await widget('open_alerts_by_status').getByTestId('widget-menu').click();
    const removed = saved('DELETE');
    await page.getByTestId('widget-remove').click();
    await removed;
    await page.getByTestId('widget-remove').waitFor({ state: 'detached' });
    expect(await kinds()).not.toContain('open_alerts_by_status');

    // The keyboard-friendly way: the first widget moves one place right through its menu.
    await widget('alerts_by_severity').getByTestId('widget-menu').click();
    const moved = saved('PUT');
    await page.getByTestId('widget-move-right').click();
    await moved;
    // Its menu has closed (it fades out) before the next one opens: one menu item of each kind.
    await page.getByTestId('widget-move-right').waitFor({ state: 'detached' });
    // Then the ingest rate becomes a third of the row.
    await widget('ingest_rate').getByTestId('widget-menu').click();
    const resized = saved('PUT');
    await page.getByTestId('widget-size-third').click();
    await resized;
    const expected = [
      'open_incidents_by_severity',
      'alerts_by_severity',
      'time_to_acknowledge',
      'top_signatures',
      'top_hosts',
      'top_source_ips',
      'ingest_rate',
      'top_destination_ips',
    ];
    expect(await kinds()).toEqual(expected);

    await page.reload();
    await page.getByTestId('dashboard-grid').waitFor();
    expect(await kinds()).toEqual(expected);
    expect(await widget('ingest_rate').getAttribute('data-size')).toBe('third');

    // Dragging a widget by its handle onto another puts it there (a tall window keeps both on screen).
    // Positions are taken once every widget has its data: a loading widget is shorter, and a
    // layout that moves between the measure and the press misses the grip on a busy machine.
    await page.setViewportSize({ width: 1440, height: 2000 });
    await page.getByTestId('widget-loading').first().waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('widget-loading').count()).toBe(0);
    const dropped = saved('PUT');
    await widget('top_destination_ips')
      .getByTestId('widget-grip')
      .dragTo(widget('open_incidents_by_severity'), { steps: 12 });
    await dropped;
    await page.reload();
    await page.getByTestId('dashboard-grid').waitFor();
    expect((await kinds())[0]).toBe('top_destination_ips');
  });

  it('opens the alert queue filtered to the severity and hour of a clicked bar', async () => {
    await openDashboard('?period=7d');
    const chart = widget('alerts_by_severity');
    await chart.locator('.recharts-bar-rectangle path').first().waitFor();
    const layer = chart.locator('g.vigil-dash-bar', { has: page.locator('path.recharts-rectangle') }).first();
    const severity = /vigil-dash-bar--(\w+)/.exec((await layer.getAttribute('class')) ?? '')?.[1];
    expect(['critical', 'high', 'medium', 'low', 'info']).toContain(severity);
    await layer.locator('path.recharts-rectangle').first().click();
    await page.waitForURL((url) => url.pathname === '/alerts');
    const params = new URL(page.url()).searchParams;
    expect(params.get('severity')).toBe(severity);
    expect(params.get('first_seen_from')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/);
    expect(params.get('first_seen_to')).toMatch(/T\d{2}:59:59\.999Z$/);
  });
});
