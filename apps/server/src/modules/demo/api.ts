import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/database';
import { hashToken, newToken } from '../auth/tokens';
import { putTemporaryApiToken, restoreApiToken, storedApiToken } from '../users/users.service';

/** An API answer the demo did not expect; names the request so a broken step is easy to find. */
export class DemoApiError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${url} answered ${status}: ${body.slice(0, 500)}`);
    this.name = 'DemoApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls the application's own HTTP API in-process (Fastify inject): every request passes the same
 * hooks, permission guard, validation and handlers as one from the network.
 */
export class DemoApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly authorization: string,
  ) {}

  /** A caller with a user's API key. */
  static asUser(app: FastifyInstance, key: string): DemoApi {
    return new DemoApi(app, `Token ${key}`);
  }

  /** A sensor with an ingest key. */
  static asSensor(app: FastifyInstance, key: string): DemoApi {
    return new DemoApi(app, `Bearer ${key}`);
  }

  async request<T>(method: Method, url: string, body?: unknown): Promise<T> {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        authorization: this.authorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (response.statusCode >= 400) throw new DemoApiError(method, url, response.statusCode, response.body);
    return (response.body === '' ? undefined : response.json()) as T;
  }

  get<T>(url: string): Promise<T> {
    return this.request<T>('GET', url);
  }
  post<T>(url: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', url, body ?? {});
  }
  put<T>(url: string, body: unknown): Promise<T> {
    return this.request<T>('PUT', url, body);
  }
  patch<T>(url: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', url, body);
  }

  /** Posts a raw ingest body the way a sensor does, with its Idempotency-Key. */
  async ingest<T>(url: string, body: string | Buffer, contentType: string, idempotencyKey: string): Promise<T> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { authorization: this.authorization, 'content-type': contentType, 'idempotency-key': idempotencyKey },
      payload: body,
    });
    if (response.statusCode >= 400) throw new DemoApiError('POST', url, response.statusCode, response.body);
    return response.json() as T;
  }

  /** Every item of a list resource, page by page (`POST <base>check/`). */
  async all<T>(base: string, filters: Record<string, unknown>, ordering = 'id'): Promise<T[]> {
    const out: T[] = [];
    let url: string | null = `${base}check/?page_size=500&ordering=${ordering}`;
    while (url) {
      const page: { results: T[]; next: string | null } = await this.post(url, filters);
      out.push(...page.results);
      url = page.next ? new URL(page.next, 'http://local').pathname + new URL(page.next, 'http://local').search : null;
    }
    return out;
  }
}

/**
 * Runs `work` with an API key of the user that exists only for its duration: the loader acts
 * through the API as that person. The user's own key (if any) is put back afterwards. The key
 * never leaves this process.
 */
export async function withTemporaryApiKey<T>(
  db: Queryable,
  userId: number,
  work: (key: string) => Promise<T>,
): Promise<T> {
  const previous = await storedApiToken(db, userId);
  if (!previous) throw new Error(`no user with id ${userId}`);
  const key = `vigil_${newToken()}`;
  await putTemporaryApiToken(db, userId, hashToken(key));
  try {
    return await work(key);
  } finally {
    await restoreApiToken(db, userId, previous);
  }
}
