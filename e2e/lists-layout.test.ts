/**
 * Every list of the console laid out at 1280×800 and 1920×1080, in English and in Russian, on the demo
 * data: no column falls off the right edge of the table or the window, the table never scrolls sideways,
 * and a value that does not fit its cell ends in an ellipsis with its whole text in a `title`, never cut
 * off mid-glyph. Screenshots of each list go to /tmp/shots/lists.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, type RunningServer, startServer } from './harness';
import { ApiClient, apiInPage, signInInPage } from './helpers';

const SHOTS = '/tmp/shots/lists';

interface ListUnderTest {
  name: string;
  path: string;
  /** `data-testid` of the table or of the list block holding it. */
  table: string;
}

const lists: ListUnderTest[] = [
  { name: 'alerts', path: '/alerts', table: 'alerts-table' },
  { name: 'incidents', path: '/incidents', table: 'incidents-table' },
  { name: 'network', path: '/investigation/network', table: 'network-table' },
  { name: 'endpoint', path: '/investigation/endpoint-events', table: 'endpoint-table' },
  { name: 'mail', path: '/investigation/emails', table: 'mail-table' },
  { name: 'files', path: '/investigation/files', table: 'files-table' },
  { name: 'warehouse', path: '/warehouse', table: 'warehouse-table' },
  { name: 'assets', path: '/my-company/assets', table: 'assets-table' },
  { name: 'asset-ip-hosts', path: '/my-company/asset-ip-hosts', table: 'ip-hosts-table' },
  { name: 'users', path: '/settings/users', table: 'users-table' },
  { name: 'roles', path: '/settings/users/roles', table: 'roles-table' },
  { name: 'units', path: '/settings/units', table: 'units-table' },
  { name: 'companies', path: '/settings/companies', table: 'companies-table' },
  { name: 'system-logs', path: '/settings/system-logs', table: 'system-log-table' },
  { name: 'indicators', path: '/settings/policy-indicators', table: 'indicators-table' },
  { name: 'matchers', path: '/settings/committed-actions', table: 'matchers-table' },
  { name: 'suricata-signatures', path: '/settings/suricata-signatures', table: 'rules-table' },
  { name: 'suricata-thresholds', path: '/settings/suricata-signatures/thresholds', table: 'thresholds-table' },
  { name: 'sigma-rules', path: '/settings/sigma-rules', table: 'rules-table' },
  { name: 'yara-signatures', path: '/settings/yara-signatures', table: 'rules-table' },
  { name: 'sessions', path: '/profile/sessions', table: 'sessions-table' },
];

const viewports = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

interface Layout {
  /** What is wrong, one line each; empty when the list is laid out well. */
  problems: string[];
  headers: number;
  rows: number;
  /** The flow cells of the network list: their text, and the `title` that holds it when it is cut. */
  flows: { text: string; clipped: boolean; title: string | null }[];
  /** Middles of the cells with a cut text and no title yet (the table gives one when the pointer comes). */
  untitled: { x: number; y: number }[];
}

/**
 * Measures a table in the page. A text is cut when it reaches past the padding edge of an element that
 * hides its overflow; that is allowed only where the element draws an ellipsis over its own inline text
 * and it (or a parent inside the cell) has a `title` holding the element's whole text.
 */
function measure(testId: string): Layout {
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const host = document.querySelector(`[data-testid="${testId}"]`);
  const frame = host?.classList.contains('vigil-vtable') ? host : host?.querySelector('.vigil-vtable');
  const scroll = frame?.querySelector<HTMLElement>('.vigil-vtable__scroll');
  if (!frame || !scroll) return { problems: [`no table ${testId}`], headers: 0, rows: 0, flows: [], untitled: [] };
  const problems: string[] = [];
  const box = frame.getBoundingClientRect();
  const viewport = document.documentElement.clientWidth;
  if (box.right > viewport + 0.5) problems.push(`the table ends at ${box.right}px, past the window (${viewport}px)`);
  if (scroll.scrollWidth > scroll.clientWidth + 1)
    problems.push(`the table scrolls sideways: ${scroll.scrollWidth}px of content in ${scroll.clientWidth}px`);
  const right = Math.min(box.right, viewport);

  const inlineOnly = (from: Element, to: Element) => {
    for (let element: Element | null = from; element && element !== to; element = element.parentElement) {
      if (getComputedStyle(element).display !== 'inline') return false;
    }
    return true;
  };
  const titleFor = (text: Text, cell: Element) => {
    for (let element: Element | null = text.parentElement; element; element = element.parentElement) {
      const title = element.getAttribute('title');
      if (title) return title;
      if (element === cell) break;
    }
    return null;
  };

  /** The first element (from the text up to the cell) that hides the text's overflow and is passed by it. */
  const clipperOf = (text: Text, cell: Element) => {
    const range = document.createRange();
    range.selectNodeContents(text);
    const textRight = Math.max(...Array.from(range.getClientRects(), (rect) => rect.right));
    for (let element = text.parentElement; element; element = element.parentElement) {
      const style = getComputedStyle(element);
      if (style.overflowX !== 'visible') {
        // A box of a pixel is text kept for screen readers only (a hidden header).
        if (element.clientWidth <= 1) return null;
        const edge = element.getBoundingClientRect().right - parseFloat(style.borderRightWidth);
        if (textRight > edge + 0.5) return element;
      }
      if (element === cell) break;
    }
    return null;
  };

  const flows: Layout['flows'] = [];
  const untitled: Layout['untitled'] = [];
  const headers = Array.from(frame.querySelectorAll('[role="columnheader"]'));
  const rows = Array.from(frame.querySelectorAll('[role="row"][data-index]')).filter((row) => {
    const rect = row.getBoundingClientRect();
    return rect.top >= box.top && rect.bottom <= Math.min(box.bottom, window.innerHeight);
  });
  const cells = [...headers, ...rows.flatMap((row) => Array.from(row.querySelectorAll(':scope > [role="cell"]')))];
  for (const cell of cells) {
    const rect = cell.getBoundingClientRect();
    const what = `${cell.getAttribute('role')} «${(cell.textContent ?? '').trim().slice(0, 40)}»`;
    if (rect.right > right + 0.5 || rect.left < box.left - 0.5)
      problems.push(`${what} lies at ${rect.left}–${rect.right}px, outside the table (${box.left}–${right}px)`);
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let clippedHere = false;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      if ((text.textContent ?? '').trim() === '') continue;
      const clipper = clipperOf(text, cell);
      if (!clipper) continue;
      clippedHere = true;
      const style = getComputedStyle(clipper);
      const ellipsis =
        style.textOverflow === 'ellipsis' &&
        ['block', 'inline-block', 'list-item', 'table-cell'].includes(style.display) &&
        inlineOnly(text.parentElement!, clipper);
      const title = titleFor(text, cell);
      const whole = squeeze(clipper.textContent ?? '');
      if (!ellipsis) problems.push(`${what}: «${text.textContent!.trim()}» is cut off without an ellipsis`);
      else if (!title || !squeeze(title).includes(whole)) {
        problems.push(`${what}: «${text.textContent!.trim()}» ends in an ellipsis, but no title holds «${whole}»`);
        untitled.push({ x: (rect.left + rect.right) / 2, y: (rect.top + rect.bottom) / 2 });
      }
    }
    // The flow column's cells (its arrow); a summary may hold an arrow too (a DHCP lease: MAC → address).
    if (cell.getAttribute('role') === 'cell' && cell.querySelector('.vigil-inv-arrow') !== null) {
      const flow = cell.querySelector('[title]');
      flows.push({
        text: (cell.textContent ?? '').trim(),
        clipped: clippedHere,
        title: flow?.getAttribute('title') ?? null,
      });
    }
  }
  return { problems, headers: headers.length, rows: rows.length, flows, untitled };
}

describe('list layout at 1280 and 1920 px, in English and Russian', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    server = await startServer({ demo: 'small' });
    browser = await launchBrowser();
    // The demo makes no matcher: one, so that the committed actions list has a row to lay out.
    const admin = new ApiClient(server.url);
    await admin.signIn(ADMIN_USERNAME, ADMIN_PASSWORD);
    await admin.request('POST', '/api/matchers/', {
      name: 'Escalate command-and-control beacons to the on-call analyst',
      conditions: { severity_at_least: 'high', title_contains: 'beacon', observable_kind: ['domain', 'ip'] },
      actions: [
        { type: 'add_tag', tag: 'c2' },
        { type: 'set_severity', severity: 'critical' },
        { type: 'notify_email', to: 'soc@example.org' },
      ],
    });
    // The demo imports no detection rules: one of each kind, with long names, tags and authors to lay out.
    await admin.request('POST', '/api/rules/suricata/import/', {
      files: [
        {
          name: 'local-policy-with-a-long-file-name.rules',
          content:
            'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET POLICY Outbound request to an update host ' +
            'with a long name"; flow:established,to_server; http.host; content:"update-check"; ' +
            'classtype:policy-violation; metadata:signature_severity Major; sid:9000001; rev:1;)\n',
        },
      ],
    });
    await admin.request('POST', '/api/rules/suricata/thresholds/', {
      entry: 'suppress gen_id 1, sig_id 9000001, track by_src, ip 10.20.30.40',
      comment: 'The update server of the build farm checks in every minute',
    });
    await admin.request('POST', '/api/rules/sigma/import/', {
      licence: 'DRL-1.1',
      files: [
        {
          name: 'proc_creation_win_long_rule_name_for_layout.yml',
          content: [
            'title: Suspicious Encoded PowerShell Command Line Started From An Office Application',
            'id: 0b5e4f52-8d7b-4c55-9a57-0d1f3b6a7c21',
            'status: test',
            'description: An Office application starts PowerShell with an encoded command.',
            'author: Jane Analyst (Vigil Detection Engineering)',
            'tags:',
            '    - attack.execution',
            '    - attack.t1059.001',
            '    - attack.defense-evasion',
            'logsource:',
            '    category: process_creation',
            '    product: windows',
            'detection:',
            '    selection:',
            "        ParentImage|endswith: '\\winword.exe'",
            "        CommandLine|contains: ' -enc '",
            '    condition: selection',
            'level: high',
            '',
          ].join('\n'),
        },
      ],
    });
    await admin.request('POST', '/api/rules/yara/import/', {
      files: [
        {
          name: 'layout_test_rules_with_a_long_file_name.yar',
          content: [
            'rule Layout_Test_Long_Rule_Name_For_The_Key_Column : loader {',
            '  meta:',
            '    author = "Jane Analyst (Vigil Detection Engineering)"',
            '    description = "A loader stub with a telltale string"',
            '  strings:',
            '    $a = "telltale-loader-stub" ascii wide',
            '  condition:',
            '    $a',
            '}',
            '',
          ].join('\n'),
        },
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * Opens a list the way a person moves through the console: the first one by its address, the others
   * through the router (no reload of the console's code), then waits for its rows, the end of its calls
   * and a layout that no longer changes.
   */
  async function openList(page: Page, list: ListUnderTest, first: boolean): Promise<void> {
    if (first) await page.goto(`${server.url}${list.path}`);
    else {
      await page.evaluate((path) => {
        // The rows on screen belong to the page being left; the new page's rows come without this mark.
        document.querySelectorAll('[role="row"][data-index]').forEach((row) => row.setAttribute('data-left', ''));
        window.history.pushState(null, '', path);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, list.path);
    }
    const table = page.getByTestId(list.table);
    await table.locator('[role="row"][data-index]:not([data-left])').first().waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="progress-bar"][data-active="false"]').waitFor({ state: 'attached' });
    await settle(page, list.table);
  }

  /** Waits until the table's box and its column widths stay the same over several frames. */
  async function settle(page: Page, testId: string): Promise<void> {
    await page.evaluate(async (id) => {
      await document.fonts.ready;
      const shape = () => {
        const host = document.querySelector(`[data-testid="${id}"]`);
        const cells = host ? Array.from(host.querySelectorAll('[role="columnheader"], [role="row"][data-index]')) : [];
        return cells.map((cell) => `${cell.getBoundingClientRect().width}`).join(',');
      };
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
      let last = shape();
      for (let still = 0, frames = 0; still < 5 && frames < 120; frames += 1) {
        await frame();
        const now = shape();
        still = now === last ? still + 1 : 0;
        last = now;
      }
    }, testId);
  }

  for (const language of ['en', 'ru'] as const) {
    it(`lays out every list at ${viewports.map((v) => `${v.width}×${v.height}`).join(' and ')} in ${language}`, async () => {
      const context = await browser.newContext({ viewport: viewports[0] });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      try {
        await page.goto(`${server.url}/login`);
        await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
        await apiInPage(page, 'PUT', '/api/users/me/', { locale: language });
        await page.evaluate((value) => localStorage.setItem('user-language', JSON.stringify(value)), language);

        const found: string[] = [];
        type Viewport = (typeof viewports)[number];
        let current: Viewport = viewports[0];
        for (const [index, list] of lists.entries()) {
          await openList(page, list, index === 0);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
          // Both window sizes on each visit, the one the window has first.
          const order: readonly Viewport[] = current === viewports[0] ? viewports : [...viewports].reverse();
          for (const viewport of order) {
            if (viewport !== current) {
              await page.setViewportSize(viewport);
              current = viewport;
              await settle(page, list.table);
            }
            const where = `${list.name} at ${viewport.width}`;
            await page.screenshot({ path: `${SHOTS}/${list.name}-${viewport.width}-${language}.png` });
            let layout = await page.evaluate(measure, list.table);
            if (layout.untitled.length > 0) {
              // A person points at a cut text to read it: the title must be there by then.
              for (const { x, y } of layout.untitled) await page.mouse.move(x, y);
              await page.mouse.move(0, 0);
              layout = await page.evaluate(measure, list.table);
            }
            expect(layout.headers, where).toBeGreaterThan(1);
            expect(layout.rows, where).toBeGreaterThan(0);
            found.push(...layout.problems.map((problem) => `${where}: ${problem}`));
            if (list.name === 'network') {
              expect(layout.flows.length).toBeGreaterThan(0);
              for (const flow of layout.flows) {
                // The destination with its port is on screen, or the cut flow says it whole in its title.
                const whole = flow.text.replace(/\s+/g, '');
                if (flow.clipped) expect(flow.title?.replace(/\s+/g, '')).toBe(whole);
              }
            }
          }
        }
        expect(found).toEqual([]);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
