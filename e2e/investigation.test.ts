/**
 * The investigation pages against a real server: network events filtered by `?ip=` with a detail drawer, a
 * host's process tree, a mail whose hostile HTML neither runs nor loads anything, and a file by `?sha256=`.
 * Data arrives through the ingest API with a company's key; screenshots of each page in both themes.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, screenshot, signInInPage } from './helpers';

const SHOTS = '/tmp/shots';
const CLIENT = '10.44.0.15';
const OTHER = '10.44.0.99';
const HOST = 'WS-FIN-E2E';
/** A host that sent one Sysmon event as flat Windows JSON (NXLog): rundll32 opening LSASS. */
const DUMP_HOST = 'WS-DUMP-E2E';
const SUBJECT = 'Quarterly statement ready';
const ATTACHMENT = Buffer.from('Statement for Q3: please review the figures.\n');
const ATTACHMENT_SHA256 = createHash('sha256').update(ATTACHMENT).digest('hex');

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const MINUTE = 60_000;

function networkRecords() {
  const base = { proto: 'TCP', host: 'sensor-e2e' };
  return [
    {
      ...base,
      timestamp: iso(30 * MINUTE),
      event_type: 'alert',
      src_ip: CLIENT,
      src_port: 49733,
      dest_ip: '203.0.113.80',
      dest_port: 80,
      app_proto: 'http',
      alert: {
        action: 'allowed',
        gid: 1,
        signature_id: 2027865,
        rev: 3,
        signature: 'ET MALWARE Suspicious beacon over HTTP',
        category: 'A Network Trojan was detected',
        severity: 1,
        metadata: {
          signature_severity: ['Major'],
          deployment: ['Perimeter'],
          mitre_tactic_id: ['TA0011'],
          mitre_technique_id: ['T1071.001'],
          created_at: ['2019_07_26'],
        },
      },
      http: { hostname: 'cdn.example-update.net', url: '/b.php?id=7', http_method: 'POST', status: 200 },
    },
    {
      ...base,
      timestamp: iso(29 * MINUTE),
      event_type: 'dns',
      proto: 'UDP',
      src_ip: CLIENT,
      src_port: 53001,
      dest_ip: '10.44.0.53',
      dest_port: 53,
      dns: {
        type: 'answer',
        rrname: 'cdn.example-update.net',
        rrtype: 'A',
        rcode: 'NOERROR',
        answers: [{ rrname: 'cdn.example-update.net', rrtype: 'A', ttl: 300, rdata: '203.0.113.80' }],
      },
    },
    {
      ...base,
      timestamp: iso(28 * MINUTE),
      event_type: 'tls',
      src_ip: CLIENT,
      src_port: 51514,
      dest_ip: '198.51.100.7',
      dest_port: 443,
      app_proto: 'tls',
      tls: { sni: 'login.example-portal.com', version: 'TLS 1.3' },
    },
    {
      ...base,
      timestamp: iso(27 * MINUTE),
      event_type: 'http',
      src_ip: OTHER,
      src_port: 50123,
      dest_ip: '192.0.2.10',
      dest_port: 80,
      app_proto: 'http',
      http: { hostname: 'intranet.example', url: '/index.html', http_method: 'GET', status: 200 },
    },
    {
      ...base,
      timestamp: iso(26 * MINUTE),
      event_type: 'flow',
      src_ip: OTHER,
      src_port: 50124,
      dest_ip: '192.0.2.11',
      dest_port: 443,
      flow: { pkts_toserver: 12, pkts_toclient: 10, bytes_toserver: 2048, bytes_toclient: 90_000, state: 'closed' },
    },
    {
      ...base,
      timestamp: iso(25 * MINUTE),
      event_type: 'dhcp',
      proto: 'UDP',
      src_ip: '10.44.0.1',
      src_port: 67,
      dest_ip: '10.44.0.57',
      dest_port: 68,
      dhcp: {
        type: 'reply',
        id: 2845437263,
        client_mac: '00:1a:2b:3c:4d:5e',
        assigned_ip: '10.44.0.57',
        client_ip: '0.0.0.0',
        dhcp_type: 'ack',
        lease_time: 86400,
        routers: ['10.44.0.1'],
        hostname: 'WS-FIN-07',
      },
    },
    {
      ...base,
      timestamp: iso(24 * MINUTE),
      event_type: 'ssh',
      src_ip: OTHER,
      src_port: 53022,
      dest_ip: '198.51.100.60',
      dest_port: 22,
      app_proto: 'ssh',
      ssh: {
        client: { proto_version: '2.0', software_version: 'libssh2_1.10.0' },
        server: { proto_version: '2.0', software_version: 'OpenSSH_8.9p1' },
      },
    },
  ];
}

/** explorer → winword → powershell, and explorer → notepad; a later activity of powershell. */
function endpointRecords() {
  const proc = (
    msAgo: number,
    pid: number,
    name: string,
    parent: { pid: number; name: string } | null,
    commandLine: string,
  ) => ({
    '@timestamp': iso(msAgo),
    host: { name: HOST },
    event: { action: 'start', category: ['process'], outcome: 'success' },
    process: {
      pid,
      name,
      executable: `C:\\Windows\\${name}`,
      command_line: commandLine,
      ...(parent ? { parent } : {}),
      hash: { sha256: createHash('sha256').update(name).digest('hex') },
    },
    user: { name: 'j.doe', domain: 'CORP' },
  });
  return [
    proc(50 * MINUTE, 4100, 'explorer.exe', null, 'C:\\Windows\\explorer.exe'),
    proc(45 * MINUTE, 4200, 'WINWORD.EXE', { pid: 4100, name: 'explorer.exe' }, 'WINWORD.EXE /n invoice.docm'),
    proc(
      44 * MINUTE,
      4300,
      'powershell.exe',
      { pid: 4200, name: 'WINWORD.EXE' },
      'powershell.exe -nop -w hidden -enc SQBFAFgA',
    ),
    proc(40 * MINUTE, 4400, 'notepad.exe', { pid: 4100, name: 'explorer.exe' }, 'notepad.exe notes.txt'),
    {
      '@timestamp': iso(43 * MINUTE),
      host: { name: HOST },
      event: { action: 'connection-attempted', category: ['network'] },
      process: { pid: 4300, name: 'powershell.exe' },
      source: { ip: CLIENT, port: 49733 },
      destination: { ip: '203.0.113.80', port: 80 },
    },
  ];
}

/** Sysmon 10 as NXLog writes it: every field at the top level. */
function lsassAccessRecord() {
  return {
    EventID: 10,
    TimeCreated: iso(20 * MINUTE),
    SourceName: 'Microsoft-Windows-Sysmon',
    Channel: 'Microsoft-Windows-Sysmon/Operational',
    Hostname: DUMP_HOST,
    SourceProcessGUID: '{39e4a257-9c59-5f8c-6f0a-000000000700}',
    SourceProcessId: '5872',
    SourceImage: 'C:\\Windows\\System32\\rundll32.exe',
    TargetProcessGUID: '{39e4a257-f12b-5f8b-0c00-000000000700}',
    TargetProcessId: '684',
    TargetImage: 'C:\\Windows\\system32\\lsass.exe',
    GrantedAccess: '0x1FFFFF',
  };
}

/** A message whose HTML tries to run scripts and to load a remote image from `pixelUrl`. */
function hostileMail(pixelUrl: string): string {
  const html = [
    '<html><head><title>inner</title>',
    `<meta http-equiv="Content-Security-Policy" content="default-src *">`,
    `<link rel="stylesheet" href="${pixelUrl.replace('pixel.png', 'style.css')}">`,
    '</head><body>',
    `<p id="greeting">Dear customer, your ${SUBJECT.toLowerCase()}.</p>`,
    "<script>document.title = 'owned'; parent.postMessage('script ran', '*'); top.document.title = 'owned';</script>",
    `<img src="x-missing.png" onerror="parent.postMessage('onerror ran', '*')">`,
    `<img src="${pixelUrl}" width="1" height="1">`,
    `<div style="background-image: url('${pixelUrl}?bg')">&nbsp;</div>`,
    '<a href="https://login.example-portal.com/verify">Verify your account</a>',
    '</body></html>',
  ].join('\r\n');
  return [
    'Return-Path: <bounce@mailer.example-portal.com>',
    'Authentication-Results: mx.corp.example; spf=pass smtp.mailfrom=mailer.example-portal.com;',
    '\tdkim=fail (signature did not verify) header.d=example-bank.com; dmarc=fail header.from=example-bank.com',
    'Received: from mailer.example-portal.com (mailer.example-portal.com [198.51.100.23]) by mx.corp.example',
    'From: "Example Bank" <statements@example-bank.com>',
    'To: j.doe@corp.example',
    `Subject: ${SUBJECT}`,
    'Date: Fri, 20 Nov 2026 09:00:00 +0000',
    'Message-ID: <e2e-statement@mailer.example-portal.com>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    '--outer',
    'Content-Type: multipart/alternative; boundary="alt"',
    '',
    '--alt',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Dear customer, your ${SUBJECT.toLowerCase()}. Verify at https://login.example-portal.com/verify`,
    '--alt',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '--alt--',
    '--outer',
    'Content-Type: text/plain; name="statement.txt"',
    'Content-Disposition: attachment; filename="statement.txt"',
    'Content-Transfer-Encoding: base64',
    '',
    ATTACHMENT.toString('base64'),
    '--outer--',
    '',
  ].join('\r\n');
}

/**
 * A phishing message as real ones come: a display name without an address, a body longer than what
 * is kept, and a credential-harvesting page attached under a double extension.
 */
const HARVEST_SUBJECT = 'Remittance for your review';
function harvestMail(): string {
  const page =
    '<html><body><form method="POST" action="https://collect.example-harvest.net/post.php"></form></body></html>';
  return [
    'From: DeBank <>',
    'To: j.doe@corp.example',
    `Subject: ${HARVEST_SUBJECT}`,
    'Date: Fri, 20 Nov 2026 09:30:00 +0000-62495-238',
    'Message-ID: <e2e-harvest@example-harvest.net>',
    'X-Campaign: e2e-harvest',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="m"',
    '',
    '--m',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `${'Please review the remittance below. '.repeat(1000)}Last link: https://late.example-harvest.net/x`,
    '--m',
    'Content-Type: application/octet-stream; name="Remittance.Xls.htm"',
    'Content-Disposition: attachment; filename="Remittance.Xls.htm"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(page).toString('base64'),
    '--m--',
    '',
  ].join('\r\n');
}

describe('investigation pages', () => {
  let server: RunningServer;
  let browser: Browser;
  let browserContext: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let pixel: Server;
  let pixelRequests: string[];
  let mailId: number;
  let harvestId: number;

  beforeAll(async () => {
    pixelRequests = [];
    pixel = createServer((request, response) => {
      pixelRequests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png' }).end();
    });
    await new Promise<void>((resolve) => pixel.listen(0, '127.0.0.1', resolve));
    const pixelUrl = `http://127.0.0.1:${(pixel.address() as AddressInfo).port}/pixel.png`;

    server = await startServer(process.env.WEB_DIST_DIR ? { env: { WEB_DIST_DIR: process.env.WEB_DIST_DIR } } : {});
    browser = await launchBrowser();
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    const company = await admin.request<{ id: number }>('POST', '/api/companies/', { name: 'Fabrikam Finance' });
    const token = await admin.request<{ key: string }>('POST', '/api/ingest/tokens/', {
      name: 'e2e sensors',
      company_id: company.id,
    });
    const ingest = async (kind: string, body: string, type: string) => {
      const response = await fetch(`${server.url}/api/ingest/${kind}/`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${token.key}` },
        body,
      });
      const answer = (await response.json()) as { rejected: unknown[] };
      expect(response.status).toBe(200);
      expect(answer.rejected).toEqual([]);
    };
    const ndjson = (records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');
    await ingest('network', ndjson(networkRecords()), 'application/x-ndjson');
    await ingest('endpoint', ndjson([...endpointRecords(), lsassAccessRecord()]), 'application/x-ndjson');
    await ingest('mail', hostileMail(pixelUrl), 'message/rfc822');
    const mails = await admin.request<{ results: { id: number }[] }>('POST', '/api/mailing/check/', {
      search: SUBJECT,
    });
    expect(mails.results).toHaveLength(1);
    mailId = mails.results[0]!.id;
    await ingest('mail', harvestMail(), 'message/rfc822');
    const harvest = await admin.request<{ results: { id: number }[] }>('POST', '/api/mailing/check/', {
      search: HARVEST_SUBJECT,
    });
    harvestId = harvest.results[0]!.id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise<void>((resolve) => (pixel ? pixel.close(() => resolve()) : resolve()));
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

  const rows = (table: string) => page.getByTestId(table).locator('[role="row"][data-index]');

  it('shows only the network events of an address given in the URL and opens one in a drawer', async () => {
    await page.goto(`${server.url}/investigation/network?ip=${CLIENT}`);
    await rows('network-table').first().waitFor();
    expect(await rows('network-table').count()).toBe(3);
    for (const text of await rows('network-table').allTextContents()) expect(text).toContain(CLIENT);
    expect(await page.getByTestId('filter-ip').locator('..').textContent()).toContain(CLIENT);

    // Type-aware summaries.
    const table = page.getByTestId('network-table');
    expect(await table.textContent()).toContain('ET MALWARE Suspicious beacon over HTTP');
    expect(await table.textContent()).toContain('A cdn.example-update.net');
    expect(await table.textContent()).toContain('login.example-portal.com');

    // Resting on an address in a row says what a click does.
    await table.locator('.vigil-inv-pivot').first().hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: /^Filter by / })
      .waitFor();
    await page.mouse.move(0, 0);

    await rows('network-table').filter({ hasText: 'ET MALWARE' }).click();
    const drawer = page.getByTestId('network-drawer');
    await drawer.getByTestId('raw-json').waitFor();
    expect(await drawer.getByTestId('section-alert').textContent()).toContain('2027865');
    expect(await drawer.getByTestId('section-http').textContent()).toContain('/b.php?id=7');
    // The raw record keeps its keys as the sensor wrote them.
    const raw = await drawer.getByTestId('raw-json').textContent();
    expect(raw).toContain('"event_type": "alert"');
    expect(raw).toContain('"signature_id": 2027865');

    // Clicking an address in the drawer filters by it too.
    await drawer.getByRole('button', { name: '203.0.113.80' }).first().click();
    await page.waitForURL((url) => url.searchParams.getAll('ip').includes('203.0.113.80'));
  });

  it("draws a host's process tree, parent to child, and moves through it with the keyboard", async () => {
    await page.goto(`${server.url}/investigation/endpoint-events?host_name=${HOST}`);
    await rows('endpoint-table').first().waitFor();
    expect(await rows('endpoint-table').count()).toBe(5);
    await page.getByTestId('host-process-tree').click();
    const tree = page.getByRole('tree');
    await tree.getByRole('treeitem').first().waitFor();
    const items = await tree
      .getByRole('treeitem')
      .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-name'), n.getAttribute('aria-level')]));
    expect(items).toEqual([
      ['explorer.exe', '1'],
      ['WINWORD.EXE', '2'],
      ['powershell.exe', '3'],
      ['notepad.exe', '2'],
    ]);
    expect(await tree.getByRole('treeitem', { name: /powershell\.exe/ }).textContent()).toContain(
      'powershell.exe -nop -w hidden -enc SQBFAFgA',
    );

    // Keyboard: down to Word, collapse it (powershell hides), then select its child again after expanding.
    await tree.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    expect(await tree.locator('[aria-selected="true"]').getAttribute('data-name')).toBe('WINWORD.EXE');
    await page.keyboard.press('ArrowLeft');
    expect(await tree.getByRole('treeitem', { name: /powershell\.exe/ }).count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await tree.locator('[aria-selected="true"]').getAttribute('data-name')).toBe('powershell.exe');
    expect(await page.getByTestId('process-details').textContent()).toContain('WINWORD.EXE (PID 4200)');
    await page.keyboard.press('ArrowLeft');
    expect(await tree.locator('[aria-selected="true"]').getAttribute('data-name')).toBe('WINWORD.EXE');
  });

  it('shows a hostile mail without running its scripts or loading anything remote', async () => {
    await page.addInitScript(() => {
      const received: unknown[] = [];
      (window as unknown as { received: unknown[] }).received = received;
      window.addEventListener('message', (event) => received.push(event.data));
    });
    await page.goto(`${server.url}/investigation/emails?search=${encodeURIComponent('Quarterly')}`);
    await rows('mail-table').first().waitFor();
    expect(await rows('mail-table').count()).toBe(1);
    await rows('mail-table').first().click();
    await page.waitForURL((url) => url.pathname === `/investigation/emails/${mailId}`);
    const titleBefore = await page.title();

    const frame = page.getByTestId('mail-html');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
    expect(
      srcdoc.startsWith(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: cid:">`,
      ),
    ).toBe(true);
    // The message itself is shown inside the frame.
    await page.frameLocator('[data-testid="mail-html"]').locator('#greeting').waitFor();
    expect(await page.getByTestId('remote-blocked').isVisible()).toBe(true);
    // Give anything that could run or load the time to do it.
    await page.waitForTimeout(1500);
    expect(await page.title()).toBe(titleBefore);
    expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
    expect(pixelRequests).toEqual([]);

    // Authentication results, the plain-text part, links and the attachment with its hash.
    const auth = page.getByTestId('mail-auth');
    expect(await auth.locator('[data-auth="spf"]').first().getAttribute('data-result')).toBe('pass');
    expect(await auth.locator('[data-auth="dkim"]').first().getAttribute('data-result')).toBe('fail');
    expect(await auth.locator('[data-auth="dmarc"]').first().getAttribute('data-result')).toBe('fail');
    expect(await page.getByTestId('mail-urls').textContent()).toContain('https://login.example-portal.com/verify');
    const attachment = page.getByTestId('attachment-row');
    expect(await attachment.textContent()).toContain('statement.txt');
    expect(await attachment.textContent()).toContain(ATTACHMENT_SHA256);
    await page.getByRole('tab', { name: 'Plain text' }).click();
    expect(await page.getByTestId('mail-text').textContent()).toContain('Verify at https://login.example-portal.com');
    expect(pixelRequests).toEqual([]);

    // The attachment's hash leads to the files page.
    await attachment.getByRole('link', { name: ATTACHMENT_SHA256 }).click();
    await page.waitForURL((url) => url.pathname === '/investigation/files');
    expect(new URL(page.url()).searchParams.get('sha256')).toBe(ATTACHMENT_SHA256);
  });

  it('says what real phishing hides: a cut body, a double extension, every header and the original', async () => {
    await page.goto(`${server.url}/investigation/emails/${harvestId}`);
    await page.getByTestId('mail-message').waitFor();
    expect(await page.getByTestId('address-without-mailbox').textContent()).toBe('DeBank (no address)');
    expect(await page.getByTestId('body-truncated').textContent()).toContain('longer than 32,768 characters');
    expect(await page.getByTestId('double-extension').textContent()).toBe('double extension');
    const urls = (await page.getByTestId('mail-urls').textContent()) ?? '';
    expect(urls).toContain('https://late.example-harvest.net/x');
    expect(urls).toContain('https://collect.example-harvest.net/post.php');
    expect(urls).toContain('in attachment Remittance.Xls.htm');
    await screenshot(page, 'investigation-mail-phishing-en', { fullPage: true });

    await page.getByRole('tab', { name: 'Headers' }).click();
    const headers = page.getByTestId('mail-headers');
    await headers.waitFor();
    expect(await headers.locator('tr').count()).toBe(8);
    expect(await headers.textContent()).toContain('e2e-harvest');
    const link = page.getByTestId('mail-original').getByRole('link');
    expect(await link.textContent()).toContain('Download the original');
    const original = await page.request.get(new URL((await link.getAttribute('href'))!, server.url).href);
    expect(original.headers()['content-type']).toBe('message/rfc822');
    expect((await original.body()).equals(Buffer.from(harvestMail()))).toBe(true);
    await screenshot(page, 'investigation-mail-headers-en');
  });

  it('finds a file by ?sha256= and tells where it was seen', async () => {
    await page.goto(`${server.url}/investigation/files?sha256=${ATTACHMENT_SHA256}`);
    await rows('files-table').first().waitFor();
    expect(await rows('files-table').count()).toBe(1);
    expect(await rows('files-table').first().textContent()).toContain('statement.txt');
    // Arriving by hash opens the file's details at once.
    const drawer = page.getByTestId('file-drawer');
    await drawer.getByTestId('file-mails').waitFor();
    expect(await drawer.getByTestId('file-mails').textContent()).toContain(SUBJECT);
    // The file was stored, so its YARA section says whether the enabled rules scanned it yet.
    expect(await drawer.getByTestId('file-yara-status').textContent()).toMatch(
      /^(Scanned with the enabled rules on .+|Waiting to be scanned with the enabled rules)\.$/,
    );
    await screenshot(page, 'investigation-file-drawer-yara-en');
    await drawer.getByRole('link', { name: SUBJECT }).click();
    await page.waitForURL((url) => url.pathname === `/investigation/emails/${mailId}`);
  });

  it("names endpoint actions in the console's language and shows the process an event opened", async () => {
    const open = async () => {
      await page.goto(`${server.url}/investigation/endpoint-events?host_name=${DUMP_HOST}`);
      await rows('endpoint-table').first().waitFor();
      const row = await rows('endpoint-table').first().textContent();
      await rows('endpoint-table').first().click();
      const drawer = page.getByTestId('endpoint-drawer');
      await drawer.getByTestId('section-target-process').waitFor();
      return { row, drawer };
    };
    const english = await open();
    expect(english.row).toContain('Process opened by another process');
    expect(english.row).toContain('lsass.exe (0x1fffff)');
    const target = await english.drawer.getByTestId('section-target-process').textContent();
    expect(target).toContain('Target process');
    expect(target).toContain('lsass.exe');
    expect(target).toContain('0x1fffff');
    expect(await english.drawer.textContent()).toContain('NXLOG');
    await screenshot(page, 'investigation-endpoint-target-process-en');

    await apiInPage(page, 'PUT', '/api/users/me/', { locale: 'ru' });
    await page.evaluate(() => localStorage.setItem('user-language', JSON.stringify('ru')));
    try {
      const russian = await open();
      expect(russian.row).toContain('Доступ к процессу');
      expect(await russian.drawer.getByTestId('section-target-process').textContent()).toContain('Целевой процесс');
      await screenshot(page, 'investigation-endpoint-target-process-ru');
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/investigation/endpoint-events?host_name=${HOST}`);
      await rows('endpoint-table').first().waitFor();
      expect(await page.getByTestId('endpoint-table').textContent()).toContain('Создание процесса');
    } finally {
      await apiInPage(page, 'PUT', '/api/users/me/', { locale: 'en' });
      await page.evaluate(() => localStorage.setItem('user-language', JSON.stringify('en')));
    }
  });

  it("shows what DHCP and SSH records and a rule's metadata carry, in English and Russian", async () => {
    const drawer = page.getByTestId('network-drawer');
    const open = async (query: string, section: string) => {
      await page.goto(`${server.url}/investigation/network?${query}`);
      await rows('network-table').first().waitFor();
      expect(await rows('network-table').count()).toBe(1);
      await rows('network-table').first().click();
      await drawer.getByTestId(section).waitFor();
      return (await drawer.getByTestId(section).textContent()) ?? '';
    };

    // The list filters by a device's MAC address however it is written, and says what it was given.
    const dhcp = await open('dhcp_mac=00-1A-2B-3C-4D-5E', 'section-dhcp');
    expect(await page.getByTestId('network-table').textContent()).toContain(
      'Acknowledged 00:1a:2b:3c:4d:5e → 10.44.0.57',
    );
    for (const text of ['Client MAC address', '00:1a:2b:3c:4d:5e', 'Assigned address', '10.44.0.57', 'WS-FIN-07'])
      expect(dhcp).toContain(text);
    const ssh = await open('ssh_software=libssh', 'section-ssh');
    for (const text of ['Client software', 'libssh2_1.10.0', 'Server software', 'OpenSSH_8.9p1'])
      expect(ssh).toContain(text);
    const alert = await open(`ip=${CLIENT}&event_type=alert`, 'section-alert');
    for (const text of [
      'ATT&CK tactics',
      'TA0011',
      'T1071.001',
      'Signature severity',
      'Major',
      'Rule created',
      '2019-07-26',
    ])
      expect(alert).toContain(text);

    // The alert it raised shows the rule's metadata, and links the tactic to its ATT&CK page.
    const raised = await apiInPage<{ results: { id: number; title: string }[] }>(page, 'POST', '/api/alerts/check/', {
      search: 'Suspicious beacon over HTTP',
    });
    await page.goto(`${server.url}/alerts/${raised.results[0]!.id}`);
    const detection = page.getByTestId('alert-detection');
    await detection.getByRole('link', { name: /TA0011/ }).waitFor();
    expect(await detection.getByRole('link', { name: /TA0011/ }).getAttribute('href')).toBe(
      'https://attack.mitre.org/tactics/TA0011/',
    );
    for (const text of ['Signature severity', 'Major', 'Deployment', 'Perimeter', 'T1071.001'])
      expect(await detection.textContent()).toContain(text);
    await detection.scrollIntoViewIfNeeded();
    await screenshot(page, 'alert-rule-metadata-en');

    await apiInPage(page, 'PUT', '/api/users/me/', { locale: 'ru' });
    await page.evaluate(() => localStorage.setItem('user-language', JSON.stringify('ru')));
    try {
      const dhcpRu = await open('dhcp_mac=001a2b3c4d5e', 'section-dhcp');
      for (const text of ['MAC-адрес клиента', 'Выданный адрес', 'Имя хоста в DHCP']) expect(dhcpRu).toContain(text);
      await screenshot(page, 'investigation-network-drawer-dhcp-ru');
      const alertRu = await open(`ip=${CLIENT}&event_type=alert`, 'section-alert');
      for (const text of ['Тактики ATT&CK', 'Критичность сигнатуры', 'Место применения'])
        expect(alertRu).toContain(text);
      await screenshot(page, 'investigation-network-drawer-alert-ru');
    } finally {
      await apiInPage(page, 'PUT', '/api/users/me/', { locale: 'en' });
      await page.evaluate(() => localStorage.setItem('user-language', JSON.stringify('en')));
    }
  });

  it('looks finished in both themes', async () => {
    await mkdir(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await apiInPage(page, 'PUT', '/api/users/me/', { theme });

      await page.goto(`${server.url}/investigation/emails/${mailId}`);
      await page.frameLocator('[data-testid="mail-html"]').locator('#greeting').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await screenshot(page, `investigation-mail-${theme}-en`);
      await page.screenshot({ path: `${SHOTS}/mail-${theme}.png` });

      await page.goto(`${server.url}/investigation/network`);
      await rows('network-table').nth(4).waitFor();
      await screenshot(page, `investigation-network-${theme}-en`);
      await page.screenshot({ path: `${SHOTS}/network-${theme}.png` });
      await rows('network-table').filter({ hasText: 'ET MALWARE' }).click();
      await page.getByTestId('network-drawer').getByTestId('raw-json').waitFor();
      await screenshot(page, `investigation-network-drawer-${theme}-en`);

      await page.goto(`${server.url}/investigation/emails`);
      await rows('mail-table').first().waitFor();
      await screenshot(page, `investigation-mail-list-${theme}-en`);

      await page.goto(`${server.url}/investigation/files`);
      await rows('files-table').filter({ hasText: 'statement.txt' }).click();
      await page.getByTestId('file-drawer').getByTestId('file-mails').waitFor();
      await screenshot(page, `investigation-files-${theme}-en`);

      await page.goto(`${server.url}/investigation/endpoint-events?host_name=${HOST}`);
      await rows('endpoint-table').first().waitFor();
      await screenshot(page, `investigation-endpoint-${theme}-en`);
      await rows('endpoint-table').filter({ hasText: '-nop -w hidden' }).click();
      await page.getByTestId('endpoint-drawer').getByTestId('raw-json').waitFor();
      await screenshot(page, `investigation-endpoint-drawer-${theme}-en`);
      await page.keyboard.press('Escape');
      await page.getByTestId('host-process-tree').click();
      await page.getByRole('treeitem').nth(3).waitFor();
      await page.getByRole('treeitem', { name: /powershell\.exe/ }).click();
      await screenshot(page, `investigation-process-tree-${theme}-en`);
      await page.screenshot({ path: `${SHOTS}/process-tree-${theme}.png` });
    }
    expect(pixelRequests).toEqual([]);

    // Russian texts fit the same layouts.
    await apiInPage(page, 'PUT', '/api/users/me/', { theme: 'dark', locale: 'ru' });
    await page.evaluate(() => localStorage.setItem('user-language', JSON.stringify('ru')));
    await page.goto(`${server.url}/investigation/network?ip=${CLIENT}`);
    await rows('network-table').first().waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Сетевые события');
    await screenshot(page, 'investigation-network-dark-ru');
    await page.goto(`${server.url}/investigation/emails/${mailId}`);
    await page.frameLocator('[data-testid="mail-html"]').locator('#greeting').waitFor();
    await screenshot(page, 'investigation-mail-dark-ru');
    await page.goto(`${server.url}/investigation/emails/${harvestId}`);
    expect(await page.getByTestId('double-extension').textContent()).toBe('двойное расширение');
    await page.getByRole('tab', { name: 'Заголовки' }).click();
    await page.getByTestId('mail-headers').waitFor();
    expect(await page.getByTestId('mail-original').textContent()).toContain('Скачать исходное письмо');
    await screenshot(page, 'investigation-mail-headers-dark-ru');
  });
});
