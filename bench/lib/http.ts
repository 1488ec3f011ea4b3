import { performance } from 'node:perf_hooks';

/** Longest a single request may take before the run is aborted. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface TimedAnswer<T> {
  body: T;
  ms: number;
}

/**
 * A signed-in browser-like client: keeps the cookies the server sets and echoes the CSRF cookie
 * in X-CSRFToken, as the web console does. Refuses to talk to any origin but the app's own
 * loopback address, so links handed out by the server cannot lead it elsewhere.
 */
export class Client {
  private readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {
    const host = new URL(origin).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
      throw new Error(`refusing a non-loopback origin: ${origin}`);
    }
  }

  private absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = /;\s*max-age=0/i.test(line) || /;\s*expires=thu, 01 jan 1970/i.test(line);
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private url(target: string): URL {
    const url = new URL(target, this.origin);
    if (url.origin !== this.origin) throw new Error(`refusing to follow a link off the app: ${url.origin}`);
    return url;
  }

  /** Sends one request and reads the whole JSON answer; `ms` covers both. Non-2xx throws. */
  async send<T>(method: 'GET' | 'POST', target: string, body?: unknown): Promise<TimedAnswer<T>> {
    const url = this.url(target);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const csrf = this.cookies.get('csrf_token');
    if (method !== 'GET' && csrf) headers['x-csrftoken'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    this.absorb(response);
    if (!response.ok) {
      throw new Error(
        `${method} ${url.pathname}${url.search.slice(0, 80)} answered ${response.status}: ${text.slice(0, 300)}`,
      );
    }
    return { body: JSON.parse(text) as T, ms };
  }

  post<T>(target: string, body: unknown): Promise<TimedAnswer<T>> {
    return this.send<T>('POST', target, body);
  }

  /** Signs in the way the console does: GET /api/auth/ for the CSRF cookie, then POST the credentials. */
  static async signIn(origin: string, username: string, password: string): Promise<Client> {
    const client = new Client(origin);
    await client.send('GET', '/api/auth/');
    if (!client.cookies.has('csrf_token')) throw new Error('GET /api/auth/ did not set a csrf_token cookie');
    await client.post('/api/auth/', { username, password });
    if (!client.cookies.has('vigil_session')) throw new Error(`signing in as ${username} set no vigil_session cookie`);
    return client;
  }
}
