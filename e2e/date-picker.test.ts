/**
 * Date pickers in the browser: the calendar follows the console's language, not the browser's —
 * in Russian the week starts on Monday (Пн) even in an English browser — and so does the format a
 * date is shown and typed in (DD.MM.YYYY, HH:mm in Russian, YYYY-MM-DD HH:mm in English; never the
 * US month first).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, startServer, type RunningServer } from './harness';
import { screenshot, signInInPage } from './helpers';

describe('date pickers', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/login`);
    await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  /** Opens the system log in `language` and the calendar of its first date field; answers the weekday headings. */
  async function openCalendar(language: 'en' | 'ru'): Promise<string[]> {
    await page.evaluate((value) => localStorage.setItem('user-language', JSON.stringify(value)), language);
    await page.goto(`${server.url}/settings/system-logs`);
    await page.locator('[data-testid="system-log-table"][data-loading="false"]').waitFor();
    await page.locator('.vigil-filters__date input').first().click();
    const weekdays = page.locator('[data-dates-dropdown] thead th');
    await weekdays.first().waitFor();
    return weekdays.evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).innerText.trim()));
  }

  it('in Russian the calendar starts the week on Monday', async () => {
    const weekdays = await openCalendar('ru');
    expect(weekdays).toEqual(['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс']);
    await screenshot(page, 'date-picker-ru');
  });

  it('in Russian a date is typed and shown as DD.MM.YYYY, HH:mm, the format in the placeholder', async () => {
    await openCalendar('ru');
    await page.keyboard.press('Escape');
    const from = page.locator('.vigil-filters__date input').first();
    expect(await from.getAttribute('placeholder')).toBe('ДД.ММ.ГГГГ, чч:мм');
    await from.fill('03.12.2026 09:05');
    await page.waitForURL((url) => url.searchParams.has('date_time_from'));
    await from.blur();
    // The field shows the value the filter state hands back, which may arrive a render after the URL.
    await expect.poll(() => from.inputValue()).toBe('03.12.2026, 09:05');
    await screenshot(page, 'date-field-ru');
  });

  it('in English it starts on Sunday', async () => {
    const weekdays = await openCalendar('en');
    expect(weekdays).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
    await screenshot(page, 'date-picker-en');
    await page.keyboard.press('Escape');
    expect(await page.locator('.vigil-filters__date input').first().getAttribute('placeholder')).toBe(
      'YYYY-MM-DD hh:mm',
    );
    expect(pageErrors).toEqual([]);
  });
});
