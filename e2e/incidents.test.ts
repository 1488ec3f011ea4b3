/**
 * Incidents: one made from three alerts seeded through the ingest API, then worked on its page — a
 * Markdown comment (formatted, its script never runs), a task checked off, status changes with a
 * resolution summary, the SLA timers; the list with its filters in the URL; a read-only viewer; and
 * screenshots of both pages in both themes.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, startServer, type RunningServer } from './harness';
import { ApiClient, apiInPage, screenshot, screenshotDir, signInInPage } from './helpers';

const SHOTS = '/tmp/shots';
const MINUTE = 60_000;

/** A Suricata EVE alert record `minutesAgo` before now. */
function eveAlert(minutesAgo: number, src: string, dest: string, signature: string, sid: number, severity: number) {
  return {
    timestamp: new Date(Date.now() - minutesAgo * MINUTE).toISOString().replace('Z', '+0000'),
    flow_id: 3_000_000 + sid,
    event_type: 'alert',
    src_ip: src,
    src_port: 50_000 + (sid % 1000),
    dest_ip: dest,
    dest_port: 443,
    proto: 'TCP',
    alert: {
      action: 'allowed',
      gid: 1,
      signature_id: sid,
      rev: 1,
      signature,
      category: 'A Network Trojan was detected',
      severity,
    },
    host: 'sensor-core-01',
  };
}

const signatures: [string, number, number][] = [
  ['ET MALWARE Cobalt Strike Beacon Observed', 2_040_001, 1],
  ['ET POLICY PowerShell Download Cradle Outbound', 2_040_002, 1],
  ['ET TROJAN Possible Lateral Movement via SMB', 2_040_003, 2],
  ['ET SCAN Internal Port Sweep', 2_040_004, 2],
  ['ET INFO Suspicious TLS SNI to newly registered domain', 2_040_005, 3],
  ['ET POLICY Tor Exit Node Connection', 2_040_006, 2],
  ['ET MALWARE Emotet CnC Checkin', 2_040_007, 1],
  ['ET INFO Executable Downloaded over HTTP', 2_040_008, 3],
];

interface SeededAlert {
  id: number;
  title: string;
}

/** Alerts through the ingest API (as a sensor sends them) and a few incidents in several states for the list. */
async function seed(server: RunningServer, admin: ApiClient): Promise<SeededAlert[]> {
  const token = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', { name: 'core sensor' });
  const records = signatures.map(([signature, sid, severity], i) =>
    eveAlert(5 + i * 7, `10.30.0.${11 + i}`, `203.0.113.${20 + i}`, signature, sid, severity),
  );
  const response = await fetch(`${server.url}/api/ingest/network/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token.key}` },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
  const queue = await admin.request<{ results: SeededAlert[] }>('POST', '/api/alerts/check/?ordering=id', {});
  if (queue.results.length !== signatures.length) throw new Error(`expected ${signatures.length} alerts`);
  const rest = queue.results.slice(3);
  const made: [string, string, number[], string | null][] = [
    ['Tor traffic from a finance workstation', 'medium', [rest[0]!.id], 'investigating'],
    ['Emotet check-in from the HR subnet', 'critical', [rest[1]!.id], 'contained'],
    ['Executable fetched over plain HTTP', 'low', [rest[2]!.id], 'closed'],
    ['Port sweep from the build server', 'high', [rest[3]!.id], null],
  ];
  for (const [title, severity, alertIds, status] of made) {
    const incident = await admin.request<{ id: number }>('POST', '/api/incidents/', {
      title,
      severity,
      alert_ids: alertIds,
    });
    if (status)
      await admin.request('PATCH', `/api/incidents/${incident.id}/`, {
        status,
        ...(status === 'closed' ? { summary: 'A signed installer from the vendor site.' } : {}),
      });
  }
  return queue.results.slice(0, 3);
}

describe('incidents', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let admin: ApiClient;
  let alerts: SeededAlert[];
  let incidentId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    alerts = await seed(server, admin);
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
    page.on('dialog', (dialog) => {
      pageErrors.push(`a dialog opened: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });

  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  async function signIn(username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
    await page.goto(`${server.url}/login`);
    await signInInPage(page, username, password);
  }

  const status = () => page.getByTestId('incident-page').locator('[data-status]').first().getAttribute('data-status');

  it('makes an incident from three alerts and works it: comment, task, status, SLA', async () => {
    await signIn();
    // In the alert queue: three alerts selected, then "new incident" from the bulk menu.
    await page.goto(`${server.url}/alerts`);
    for (const alert of alerts) await page.getByRole('checkbox', { name: `Select alert ${alert.id}` }).check();
    await page.getByTestId('bulk-incident').click();
    await page.getByTestId('bulk-new-incident').click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Cobalt Strike beacon and lateral movement');
    await page.getByTestId('incident-submit').click();
    await page.waitForURL(/\/incidents\/\d+$/);
    incidentId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByTestId('incident-heading').waitFor();
    expect(await page.getByTestId('incident-heading').textContent()).toBe(
      `#${incidentId} Cobalt Strike beacon and lateral movement`,
    );
    expect(await status()).toBe('open');

    // The three alerts, each leading to its page.
    const linked = page.getByTestId('linked-alert');
    await linked.nth(2).waitFor();
    expect(await linked.count()).toBe(3);
    for (const alert of alerts)
      expect(await page.locator(`[data-testid="linked-alert"] a[href="/alerts/${alert.id}"]`).count()).toBe(2);

    // Both SLA timers are shown; the acknowledgement one counts down while the incident is open.
    const ackText = page.getByTestId('sla-acknowledge-text');
    expect(await page.getByTestId('sla-acknowledge').getAttribute('data-state')).toBe('running');
    expect(await page.getByTestId('sla-resolve').isVisible()).toBe(true);
    const firstReading = await ackText.textContent();
    expect(firstReading).toMatch(/^\d+m \d{2}s left$/);
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="sla-acknowledge-text"]')?.textContent !== before,
      firstReading,
    );

    // Observables lead to the investigation pages.
    const observables = page.getByTestId('incident-observables');
    expect(await observables.locator('a[href="/investigation/network?ip=10.30.0.11"]').count()).toBe(1);

    // A Markdown comment: previewed, posted, formatted; the script in it never runs.
    const comment =
      '**Contained** the beacon on `WS-FIN-07`.\n\n- isolated the host\n- reset the account\n\n' +
      '<script>window.__incidentOwned = true</script><img src="x" onerror="window.__incidentOwned = true">\n\n' +
      '[runbook](https://wiki.example/ir/beacon) and [bad](javascript:window.__incidentOwned=true)';
    await page.getByTestId('comment-input').fill(comment);
    await page.getByTestId('comment-editor').getByText('Preview').click();
    expect(await page.getByTestId('comment-preview').locator('strong').textContent()).toBe('Contained');
    await page.getByTestId('comment-editor').getByText('Write').click();
    await page.getByTestId('comment-submit').click();
    const body = page.getByTestId('comment-body');
    await body.waitFor();
    expect(await body.locator('strong').textContent()).toBe('Contained');
    expect(await body.locator('code').textContent()).toBe('WS-FIN-07');
    expect(await body.locator('li').count()).toBe(2);
    expect(await body.locator('script, img, [onerror]').count()).toBe(0);
    const runbook = body.getByRole('link', { name: 'runbook' });
    expect(await runbook.getAttribute('target')).toBe('_blank');
    expect(await runbook.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await body.getByText('bad').evaluate((node) => node.closest('a')?.getAttribute('href') ?? null)).toBeNull();
    expect(await page.evaluate(() => (window as { __incidentOwned?: boolean }).__incidentOwned)).toBeUndefined();
    expect(await page.getByTestId('comment-input').inputValue()).toBe('');

    // A task, added and checked off.
    await page.getByTestId('task-title').fill('Collect a memory image of WS-FIN-07');
    await page.getByTestId('task-add').click();
    const task = page.getByTestId('incident-task');
    await task.waitFor();
    expect(await task.getAttribute('data-status')).toBe('todo');
    await task.getByTestId('task-done').click();
    await page.locator('[data-testid="incident-task"][data-status="done"]').waitFor();

    // Status: investigating stops the acknowledgement timer in time; resolving asks for a summary.
    await page.getByTestId('incident-status-button').click();
    await page.getByTestId('incident-status-investigating').click();
    await page.locator('[data-testid="sla-acknowledge"][data-state="met"]').waitFor();
    expect(await status()).toBe('investigating');
    await page.getByTestId('incident-status-button').click();
    expect(await page.getByTestId('incident-status-open').count()).toBe(0);
    await page.getByTestId('incident-status-resolved').click();
    const submit = page.getByRole('button', { name: 'Move to “Resolved”' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('status-summary').fill('Beacon removed; **no data left** the network.');
    await submit.click();
    await page.locator('[data-testid="sla-resolve"][data-state="met"]').waitFor();
    expect(await status()).toBe('resolved');
    const summary = page.getByTestId('summary-body').last();
    expect(await summary.locator('strong').textContent()).toBe('no data left');

    // The timeline tells the story in order.
    const kinds = await page
      .getByTestId('timeline-entry')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    expect(kinds).toEqual([
      'created',
      'alert_linked',
      'alert_linked',
      'alert_linked',
      'comment',
      'task',
      'status',
      'status',
    ]);

    // What the page showed is what the server keeps.
    const stored = await apiInPage<{ status: string; tasks: { status: string }[]; alert_ids: number[] }>(
      page,
      'GET',
      `/api/incidents/${incidentId}/`,
    );
    expect(stored.status).toBe('resolved');
    expect(stored.tasks.map((t) => t.status)).toEqual(['done']);
    expect(stored.alert_ids.sort()).toEqual(alerts.map((a) => a.id).sort());
  });

  it('removes an alert from the incident and adds it back by id', async () => {
    await signIn();
    await page.goto(`${server.url}/incidents/${incidentId}`);
    const linked = page.getByTestId('linked-alert');
    await linked.nth(2).waitFor();
    const [, second] = alerts;
    await page.getByRole('button', { name: `Remove alert ${second!.id} from the incident` }).click();
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="linked-alert"]').length === 2);
    await page.getByTestId('add-alert-ids').fill(`#${second!.id}`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="linked-alert"]').length === 3);
    // Something that is not an id is refused beside the field.
    await page.getByTestId('add-alert-ids').fill('12, twelve');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await page.getByText('Write alert IDs (numbers) separated by commas or spaces.').isVisible()).toBe(true);

    // Title and description are edited in place; the description is Markdown.
    await page.getByTestId('incident-edit').click();
    await page.getByTestId('edit-title').fill('Cobalt Strike beacon, lateral movement to SRV-DB-01');
    await page.getByTestId('edit-description').fill('## Scope\n\n*Two* hosts; see `SRV-DB-01`.');
    await page.getByTestId('edit-submit').click();
    await page.getByTestId('edit-incident-form').waitFor({ state: 'detached' });
    expect(await page.getByTestId('incident-heading').textContent()).toBe(
      `#${incidentId} Cobalt Strike beacon, lateral movement to SRV-DB-01`,
    );
    const description = page.getByTestId('incident-description');
    expect(await description.locator('h2').textContent()).toBe('Scope');
    expect(await description.locator('em').textContent()).toBe('Two');
  });

  it('lists incidents with filters kept in the URL, and opens one', async () => {
    await signIn();
    await page.goto(`${server.url}/incidents`);
    const rows = page.locator('[data-testid="incidents-table"] [role="row"][data-index]');
    await rows.nth(4).waitFor();
    expect(await page.getByTestId('incident-count').textContent()).toBe('Found: 5');
    // Every row shows its SLA state.
    expect(await rows.first().locator('.vigil-incident-sla-cell').count()).toBe(1);

    await page.goto(`${server.url}/incidents?status=resolved&status=closed`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="incident-count"]')?.textContent === 'Found: 2',
    );
    expect(await rows.count()).toBe(2);
    await page.getByTestId('filter-severity').click();
    await page.getByRole('option', { name: 'High' }).click();
    await page.waitForURL(/severity=high/);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="incident-count"]')?.textContent === 'Found: 1',
    );
    expect(new URL(page.url()).searchParams.getAll('status')).toEqual(['resolved', 'closed']);
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="incident-count"]')?.textContent === 'Found: 1',
    );
    await rows.first().click();
    await page.waitForURL(new RegExp(`/incidents/${incidentId}$`));
    await page.getByTestId('incident-heading').waitFor();
  });

  it('shows a viewer without the change permission a read-only incident', async () => {
    const me = await admin.request<{ company_id: number }>('GET', '/api/users/me/');
    const role = await admin.request<{ id: number }>('POST', '/api/roles/', {
      name: 'Incident readers',
      company_id: me.company_id,
      permissions: [
        { basename: 'incidents', actions: ['view'] },
        { basename: 'alerts', actions: ['view'] },
      ],
    });
    const created = await admin.request<{ id: number; activation_link: string }>('POST', '/api/users/', {
      username: 'incident-reader',
      first_name: 'Rita',
      last_name: 'Reader',
      company_id: me.company_id,
      role_ids: [role.id],
    });
    const activation = new ApiClient(server.url);
    await activation.request('POST', new URL(created.activation_link).pathname, {
      new_password: 'Reads-Incidents-77',
      new_password_retry: 'Reads-Incidents-77',
    });
    await signIn('incident-reader', 'Reads-Incidents-77');
    await page.goto(`${server.url}/incidents/${incidentId}`);
    await page.getByTestId('incident-heading').waitFor();
    await page.getByTestId('linked-alert').first().waitFor();
    expect(await page.getByTestId('read-only').isVisible()).toBe(true);
    for (const control of ['incident-status-button', 'comment-editor', 'task-title', 'task-done', 'add-alert-ids'])
      expect(await page.getByTestId(control).count(), control).toBe(0);
    expect(await page.getByTestId('comment-body').locator('strong').textContent()).toBe('Contained');
    expect(await page.getByTestId('open-graph').getAttribute('href')).toBe(`/graph?incident=${incidentId}`);
    await page.goto(`${server.url}/incidents`);
    await page.locator('[data-testid="incidents-table"] [role="row"][data-index]').first().waitFor();
    expect(await page.getByTestId('incident-create').count()).toBe(0);
  });

  it('says a refused alert id beside its field, and raises no notification for it', async () => {
    await signIn();
    await page.goto(`${server.url}/incidents`);
    await page.getByTestId('incident-create').click();
    const form = page.getByTestId('create-incident-form');
    await page.getByTestId('create-title').fill('Beacon from a host nobody knows');
    await page.getByTestId('create-alert-ids').fill('999999');
    await page.getByTestId('create-submit').click();
    // The server's 400 names the field; the form shows it there, and the client raised nothing else
    // (it notifies, if at all, before the form gets the answer).
    await form.getByText('Some of these alerts do not exist.').waitFor();
    expect(await page.getByTestId('notification').count()).toBe(0);
    expect(await form.getByTestId('form-error').count()).toBe(0);
  });

  it('makes an incident by alert ids from the list, and looks finished in both themes', async () => {
    await signIn();
    await mkdir(SHOTS, { recursive: true });
    // A second incident, made with the list's "new incident" form and left open (running timers).
    await page.goto(`${server.url}/incidents`);
    await page.getByTestId('incident-create').click();
    const form = page.getByTestId('create-incident-form');
    // Nothing named: the form says what is missing beside each field and sends nothing.
    await page.getByTestId('create-submit').click();
    expect(await form.getByText('Give the incident a title.').isVisible()).toBe(true);
    expect(await form.getByText('Name at least one alert by its ID (numbers only).').isVisible()).toBe(true);
    await page.getByTestId('create-title').fill('PowerShell download cradle on WS-FIN-07');
    await page.getByTestId('create-alert-ids').fill(`#${alerts[1]!.id}`);
    await page.getByTestId('create-severity').click();
    await page.getByRole('option', { name: 'Critical' }).click();
    await form
      .getByRole('textbox', { name: 'Description' })
      .fill(
        'Beacon traffic followed by a **PowerShell download cradle** from `WS-FIN-07`.\n\n' +
          '1. Confirm the parent process\n2. Pull the proxy logs for the last 24 hours',
      );
    await page.getByTestId('create-submit').click();
    await page.waitForURL(/\/incidents\/\d+$/);
    const open = { id: Number(new URL(page.url()).pathname.split('/').pop()) };
    await page.getByTestId('incident-description').locator('strong').waitFor();
    await page.getByTestId('linked-alert').first().waitFor();
    expect(await page.getByTestId('linked-alert').count()).toBe(1);
    expect(await page.locator('.vigil-pill[data-severity]').first().getAttribute('data-severity')).toBe('critical');
    await apiInPage(page, 'POST', `/api/incidents/${open.id}/comments/`, {
      body: 'Proxy logs requested from the network team. The host is **not isolated yet**.',
    });
    await apiInPage(page, 'POST', `/api/incidents/${open.id}/tasks/`, { title: 'Isolate WS-FIN-07' });
    await apiInPage(page, 'POST', `/api/incidents/${open.id}/tasks/`, {
      title: 'Reset the user’s password',
      status: 'in_progress',
    });
    for (const theme of ['dark', 'light'] as const) {
      await apiInPage(page, 'PUT', '/api/users/me/', { theme });
      await page.goto(`${server.url}/incidents/${open.id}`);
      await page.getByTestId('linked-alert').first().waitFor();
      await page.getByTestId('incident-task').nth(1).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await page.mouse.move(0, 0);
      await screenshot(page, `incident-${theme}`, { fullPage: true });
      await copyFile(path.join(screenshotDir, `incident-${theme}.png`), path.join(SHOTS, `incident-${theme}.png`));

      await page.goto(`${server.url}/incidents`);
      await page.locator('[data-testid="incidents-table"] [role="row"][data-index]').nth(4).waitFor();
      await page.mouse.move(0, 0);
      await screenshot(page, `incidents-${theme}`);
      await copyFile(path.join(screenshotDir, `incidents-${theme}.png`), path.join(SHOTS, `incidents-${theme}.png`));
    }
    await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'dark' });
  });
});
