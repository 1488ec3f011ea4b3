/** A small cookie-keeping HTTP client that behaves like the console: CSRF header, JSON bodies. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export class TestClient {
  private readonly cookies = new Map<string, string>();
  /** Sends X-CSRFToken with unsafe requests unless turned off (to test the refusal). */
  csrf = true;

  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    const unsafe = !['GET', 'HEAD'].includes(method);
    if (unsafe && this.csrf && !this.cookies.has('csrf_token')) await this.request('GET', '/api/auth/');
    // A header given as '' is left out (to send a request the way a plain browser would).
    const headers: Record<string, string> = Object.fromEntries(
      Object.entries({ 'x-requested-with': 'XMLHttpRequest', ...options.headers }).filter(([, v]) => v !== ''),
    );
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (unsafe && this.csrf && this.cookies.has('csrf_token')) headers['x-csrftoken'] = this.cookies.get('csrf_token')!;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    this.remember(response.headers);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '')
      parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, headers ? { headers } : {});
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body === undefined ? {} : { body });
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, { body });
  }
  patch<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, { body });
  }
  delete<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, body === undefined ? {} : { body });
  }

  /** Signs in through the API like the console does; throws when it fails. */
  async signIn(username: string, password: string): Promise<void> {
    const answer = await this.post('/api/auth/', { username, password });
    if (answer.status !== 200)
      throw new Error(`sign-in as ${username} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}
