import type { ErrorBody, ValidationErrorBody } from '@vigil/contract';

const CSRF_COOKIE = 'csrf_token';

/** A refused or failed call: the HTTP status (0 when the server could not be reached) and what it said. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Field name → problems, from a 400 answer; `non_field_errors` holds the rest. */
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** Reduces an absolute `next`/`previous` link to its path, so calls stay on the page's own origin (and proxy). */
export function sameOriginPath(link: string): string {
  const url = new URL(link, window.location.href);
  return `${url.pathname}${url.search}`;
}

function isValidationBody(body: unknown): body is ValidationErrorBody {
  return typeof body === 'object' && body !== null && 'errors' in body && typeof body.errors === 'object';
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string';
}

function errorFrom(status: number, body: unknown): ApiError {
  if (isValidationBody(body)) {
    const fieldErrors = body.errors;
    const first = fieldErrors.non_field_errors?.[0] ?? Object.values(fieldErrors).flat()[0];
    return new ApiError(status, first ?? 'The request was not accepted.', fieldErrors);
  }
  if (isErrorBody(body)) return new ApiError(status, body.detail);
  return new ApiError(status, `The server answered with status ${status}.`);
}

/**
 * Calls the Vigil API with the session cookie, the anti-forgery header on changing methods, and JSON
 * both ways. Resolves with the parsed answer; rejects with an {@link ApiError}.
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  if (method !== 'GET') {
    // The server hands out the anti-forgery cookie on GET /api/auth/; fetch it first if it is missing.
    if (readCookie(CSRF_COOKIE) === null) await fetch('/api/auth/', { credentials: 'same-origin' }).catch(() => null);
    headers['X-CSRFToken'] = readCookie(CSRF_COOKIE) ?? '';
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'Vigil could not be reached. Check the connection and try again.');
  }

  const text = await response.text();
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) throw errorFrom(response.status, parsed);
  return parsed as T;
}
