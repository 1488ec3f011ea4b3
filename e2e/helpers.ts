/**
 * Helpers of the browser tests: calls to the API from Node (as an administrator setting data up) and
 * from inside the page (so the browser holds the session), one-time codes, and screenshots.
 */
import { createHmac } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const screenshotDir = path.join(import.meta.dirname, 'screenshots');

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  // Let fonts and transitions settle so the picture shows what a person sees.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: options.fullPage ?? false });
}

/**
 * Moves the open console to another address through its router, as a click on a link does (no reload
 * of the console's code), and waits for an element of the new page: `ready` is a selector whose last
 * part is that element. Elements matching it on the page being left do not count.
 */
export async function goInApp(page: Page, to: string, ready: string): Promise<void> {
  await page.evaluate(
    ({ path, selector }) => {
      document.querySelectorAll(selector).forEach((element) => element.setAttribute('data-left-behind', ''));
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    },
    { path: to, selector: ready },
  );
  await page.locator(`${ready}:not([data-left-behind])`).first().waitFor();
}

/** A small cookie-keeping client of the API, for setting data up from the test (never the browser's session). */
export class ApiClient {
  private cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), value.join('='));
    }
  }

  async request<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
    if (!this.cookies.has('csrf_token')) this.remember(await fetch(`${this.base}/api/auth/`));
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'X-CSRFToken': this.cookies.get('csrf_token') ?? '',
      Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.base}${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.remember(response);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  signIn(username: string, password: string) {
    return this.request('POST', '/api/auth/', { username, password });
  }
}

/** Signs in inside the page (the browser keeps the session cookie), through the API as the console does. */
export async function signInInPage(page: Page, username: string, password: string): Promise<void> {
  const status = await page.evaluate(
    async ({ username, password }) => {
      await fetch('/api/auth/');
      const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const response = await fetch('/api/auth/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf, 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ username, password }),
      });
      return response.status;
    },
    { username, password },
  );
  if (status !== 200) throw new Error(`signing in as ${username} answered ${status}`);
}

/** Calls the API from inside the page, with its session and anti-forgery cookie. */
export async function apiInPage<T = unknown>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, url, body }) => {
      const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const response = await fetch(url, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          'X-CSRFToken': csrf,
          'X-Requested-With': 'XMLHttpRequest',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    },
    { method, url, body },
  );
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${url} answered ${answer.status}: ${answer.text}`);
  return (answer.text === '' ? null : JSON.parse(answer.text)) as T;
}

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP code (RFC 6238: SHA-1, 6 digits, 30 s) of a base32 secret at a moment. */
export function totp(secret: string, atMs: number = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Pastes text into an element as a person would (a paste event carrying the clipboard data). */
export async function paste(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).first().focus();
  await page.evaluate(
    ({ selector, text }) => {
      const target = document.querySelector(selector);
      if (!target) throw new Error(`nothing matches ${selector}`);
      const data = new DataTransfer();
      data.setData('text/plain', text);
      target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { selector, text },
  );
}

/** A page of the console and what went wrong in it: script errors and texts shown without a translation. */
export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
  missingTranslations: string[];
}

/**
 * A new browser context at 1280×800 (or 1920×1080) whose page is signed in as `username`, in `language`
 * both for the account and for the sign-in screens; the page's errors and missing translations are collected.
 */
export async function openConsole(
  browser: Browser,
  baseUrl: string,
  account: { username: string; password: string },
  language: 'en' | 'ru',
  width = 1280,
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width, height: width === 1280 ? 800 : 1080 } });
  const page = await context.newPage();
  const opened: ConsolePage = { context, page, pageErrors: [], missingTranslations: [] };
  page.on('pageerror', (error) => opened.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.text().includes('Missing translation')) opened.missingTranslations.push(message.text());
  });
  await page.goto(`${baseUrl}/login`);
  await signInInPage(page, account.username, account.password);
  await apiInPage(page, 'PUT', '/api/users/me/', { locale: language });
  await page.evaluate((value) => localStorage.setItem('user-language', JSON.stringify(value)), language);
  return opened;
}
