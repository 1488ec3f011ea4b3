import type { ErrorBody, Message, ValidationErrorBody } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { camelizeKeys, snakeizeKeys, toSnakeCase, type Camelize } from './case';
import { ApiError, type ApiErrorCode, type ServerMessage } from './errors';
import { emitHttpEvent } from './events';
import { toQueryString, type QueryParams } from './query-string';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Query parameters, camelCase; arrays become repeated keys. */
  params?: QueryParams;
  /** JSON body, camelCase; sent as snake_case. */
  data?: unknown;
  /** Cancels the call; a cancelled call rejects with `ERR_CANCELED` and is never shown. */
  signal?: AbortSignal;
  /** No default timeout; a call given one is aborted after it with `ECONNABORTED`. */
  timeout?: number;
  /**
   * Whether failures raise notifications. Off for calls whose screen shows the problem
   * itself, such as sign-in. Messages of a successful answer are shown either way.
   */
  notifyErrors?: boolean;
  /** Whether a 401 sends the browser to the sign-in page (off for the start-up's who-am-I call). */
  redirectOnUnauthorized?: boolean;
  /**
   * The fields (camelCase) the calling form shows problems beside. A 400 whose every field error is
   * about one of them raises no notification: the form shows them. Any other refusal is notified.
   */
  shownFields?: readonly string[];
}

/** A notification the client asks for; the notification system decides how it looks. */
export interface ClientNotification {
  type: Message['type'];
  title: string;
  message: string;
  useHtml?: boolean;
  /** Set for messages the server sent, shown offset and with a close button. */
  fromServer: boolean;
}

/** What the client needs from the rest of the console; set once at start-up, when request handling is set up. */
export interface HttpHandlers {
  /** The interface language, sent as Accept-Language on changing calls. */
  locale: () => string;
  notify: (notification: ClientNotification) => void;
  /** Texts of the error notifications. */
  texts: () => ErrorTexts;
  /** 401: leave for the sign-in page, unless already on an auth page. */
  onUnauthorized: () => void;
  /** Called as each call starts and ends, for the progress bar. */
  onRequestStart: (url: string) => void;
  onRequestEnd: (url: string) => void;
}

/** What the client's own error notifications say, in the interface language. */
export interface ErrorTexts {
  errorTitle: string;
  /** The generic text of a refusal without a message of its own. */
  errorMessage: (status: number) => string;
  networkError: string;
  /** Title of a refused request (400). */
  invalidTitle: string;
  /** A 400 that names no problem (no field errors, no sentence of the server's). */
  invalidMessage: string;
}

const CSRF_COOKIE = 'csrf_token';
const XSRF_COOKIE = 'XSRF-TOKEN';

const unsafeMethods = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE']);

let handlers: HttpHandlers = {
  locale: () => 'en',
  notify: () => undefined,
  texts: () => ({
    errorTitle: 'Something wrong happened',
    errorMessage: (status) => `Backend answered with ${status}`,
    networkError: 'The server could not be reached.',
    invalidTitle: 'Not accepted',
    invalidMessage: 'The server did not accept what was sent. Check the values and try again.',
  }),
  onUnauthorized: () => undefined,
  onRequestStart: () => undefined,
  onRequestEnd: () => undefined,
};

/** Installs the console's handlers; partial, so tests can set what they need. */
export function configureHttp(next: Partial<HttpHandlers>): void {
  handlers = { ...handlers, ...next };
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The server hands out the anti-forgery cookie on `GET /api/auth/`; fetch it once if it is missing. */
let csrfPromise: Promise<unknown> | null = null;
async function ensureCsrfCookie(): Promise<void> {
  if (readCookie(CSRF_COOKIE) !== null) return;
  csrfPromise ??= fetch(endpoints.auth.state.path, {
    credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
  })
    .catch(() => null)
    .finally(() => {
      csrfPromise = null;
    });
  await csrfPromise;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messagesOf(body: unknown): ServerMessage[] {
  if (!isObject(body) || !Array.isArray(body.messages)) return [];
  return (body.messages as unknown[]).filter(isObject).map((raw) => {
    const message = camelizeKeys(raw) as Partial<ServerMessage>;
    const type = message.type;
    return {
      title: typeof message.title === 'string' ? message.title : '',
      message: typeof message.message === 'string' ? message.message : '',
      type: type === 'success' || type === 'info' || type === 'warning' || type === 'error' ? type : 'info',
      ...(message.useHtml === true ? { useHtml: true } : {}),
    };
  });
}

function showServerMessages(messages: readonly ServerMessage[]): void {
  for (const message of messages) {
    handlers.notify({
      type: message.type,
      title: message.title,
      message: message.message,
      ...(message.useHtml ? { useHtml: true } : {}),
      fromServer: true,
    });
  }
}

/**
 * The error catalogue, for an answer outside 200–299: 401 goes to sign-in, 423 announces a system
 * update, 5xx is never notified; otherwise the server's messages or a generic error notification.
 */
function failure(status: number, body: unknown, options: RequestOptions): ApiError {
  const messages = messagesOf(body);
  const validation = isObject(body) && isObject(body.errors) ? (body as ValidationErrorBody) : null;
  const detail = isObject(body) && typeof body.detail === 'string' ? (body as ErrorBody).detail : null;
  const fieldErrors = validation ? camelizeKeys(validation.errors) : {};
  const code: ApiErrorCode = status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST';
  const firstFieldError = Object.values(fieldErrors).flat()[0];
  const error = new ApiError(code, detail ?? firstFieldError ?? `Request failed with status code ${status}`, {
    status,
    fieldErrors,
    messages,
    detail,
  });

  // Any answer but 423 means the system is not being updated (any more).
  if (status !== 423) emitHttpEvent('system-available');
  if (status === 401) {
    if (options.redirectOnUnauthorized !== false) handlers.onUnauthorized();
    return error;
  }
  if (status === 423) {
    emitHttpEvent('system-update');
    return error;
  }
  if (status >= 500 || options.notifyErrors === false) return error;
  // Repeats of the same notification within 2 s are dropped by the notification system, for every kind.
  if (messages.length > 0) {
    showServerMessages(messages);
    error.notified = true;
    return error;
  }
  const texts = handlers.texts();
  if (status === 400) {
    const unshown = unshownProblems(fieldErrors, options.shownFields ?? []);
    // Every problem sits beside a field of the form that sent it: the form says it all.
    if (unshown.length === 0 && Object.keys(fieldErrors).length > 0) return error;
    const message = unshown.length > 0 ? unshown.join(' ') : (detail ?? texts.invalidMessage);
    handlers.notify({ type: 'error', title: texts.invalidTitle, message, fromServer: false });
    error.notified = true;
    return error;
  }
  handlers.notify({ type: 'error', title: texts.errorTitle, message: texts.errorMessage(status), fromServer: false });
  error.notified = true;
  return error;
}

/** Whether an error key is about a field: the field itself or an item of it (`ipWhitelist.2`). */
export function isAboutField(key: string, field: string): boolean {
  return key === field || key.startsWith(`${field}.`);
}

/**
 * The problems of a 400 that no shown field carries, each as the server wrote it; a field's problem
 * is prefixed with the field's name in words (`alert ids: …`), the form's own (`nonFieldErrors`) is not.
 */
function unshownProblems(fieldErrors: Record<string, string[]>, shownFields: readonly string[]): string[] {
  const out: string[] = [];
  for (const [key, problems] of Object.entries(fieldErrors)) {
    if (shownFields.some((field) => isAboutField(key, field))) continue;
    const name = key === 'nonFieldErrors' ? '' : `${toSnakeCase(key).replace(/[_.]+/g, ' ').trim()}: `;
    for (const problem of problems) out.push(`${name}${problem}`);
  }
  return out;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * One call to the Vigil API: the XMLHttpRequest marker on every call; X-CSRFToken (from
 * the `csrf_token` cookie), X-XSRF-TOKEN (when that cookie exists) and Accept-Language on changing
 * calls; JSON both ways, converted camelCase⇄snake_case; statuses 200–299 succeed and the
 * `messages` of an answer become notifications. Failures follow the error catalogue in `failure`.
 *
 * `Wire` is the answer's type as the contract defines it (snake_case); the promise resolves with
 * its camelCase form.
 */
export async function request<Wire = unknown>(
  method: HttpMethod,
  url: string,
  options: RequestOptions = {},
): Promise<Camelize<Wire>> {
  if (!url.startsWith('/')) {
    throw new ApiError('ERR_UNSUPPORTED_PROTOCOL', `Only paths of this site can be called, not ${url}`);
  }
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  if (unsafeMethods.has(method)) {
    await ensureCsrfCookie();
    headers['X-CSRFToken'] = readCookie(CSRF_COOKIE) ?? '';
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf !== null) headers['X-XSRF-TOKEN'] = xsrf;
    headers['Accept-Language'] = handlers.locale();
  }
  let body: string | undefined;
  if (options.data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(snakeizeKeys(options.data));
  }

  const controller = new AbortController();
  let timedOut = false;
  const abort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  const timer =
    options.timeout === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeout);

  const fullUrl = `${url}${toQueryString(options.params)}`;
  handlers.onRequestStart(fullUrl);
  try {
    let response: Response;
    try {
      response = await fetch(fullUrl, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: controller.signal,
      });
    } catch (cause) {
      if (timedOut) throw new ApiError('ECONNABORTED', `The call timed out after ${options.timeout} ms`, { cause });
      if (controller.signal.aborted) throw new ApiError('ERR_CANCELED', 'The call was cancelled', { cause });
      if (options.notifyErrors !== false) {
        handlers.notify({
          type: 'error',
          title: handlers.texts().errorTitle,
          message: handlers.texts().networkError,
          fromServer: false,
        });
      }
      throw new ApiError('ERR_NETWORK', 'Network Error', { cause });
    }

    let parsed: unknown;
    try {
      parsed = await readBody(response);
    } catch (cause) {
      if (controller.signal.aborted) throw new ApiError('ERR_CANCELED', 'The call was cancelled', { cause });
      throw new ApiError('ERR_NETWORK', 'The answer could not be read', { cause, status: response.status });
    }

    if (response.status < 200 || response.status > 299) throw failure(response.status, parsed, options);
    emitHttpEvent('system-available');
    showServerMessages(messagesOf(parsed));
    return camelizeKeys(parsed as Wire);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
    handlers.onRequestEnd(fullUrl);
  }
}

/**
 * A POST whose answer is a file (an export): the same headers as `request` and the same failures,
 * but the answer is handed back as bytes with the name the server gave it.
 */
export async function requestFile(
  url: string,
  data: unknown,
  params?: RequestOptions['params'],
): Promise<{ blob: Blob; filename: string | null }> {
  if (!url.startsWith('/')) {
    throw new ApiError('ERR_UNSUPPORTED_PROTOCOL', `Only paths of this site can be called, not ${url}`);
  }
  await ensureCsrfCookie();
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    'X-CSRFToken': readCookie(CSRF_COOKIE) ?? '',
    'Accept-Language': handlers.locale(),
    'Content-Type': 'application/json',
  };
  const xsrf = readCookie(XSRF_COOKIE);
  if (xsrf !== null) headers['X-XSRF-TOKEN'] = xsrf;
  const fullUrl = `${url}${toQueryString(params)}`;
  handlers.onRequestStart(fullUrl);
  try {
    let response: Response;
    try {
      response = await fetch(fullUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify(snakeizeKeys(data)),
        credentials: 'same-origin',
      });
    } catch (cause) {
      handlers.notify({
        type: 'error',
        title: handlers.texts().errorTitle,
        message: handlers.texts().networkError,
        fromServer: false,
      });
      throw new ApiError('ERR_NETWORK', 'Network Error', { cause });
    }
    if (response.status < 200 || response.status > 299) throw failure(response.status, await readBody(response), {});
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
    return { blob: await response.blob(), filename };
  } finally {
    handlers.onRequestEnd(fullUrl);
  }
}

/** Shorthands; `Wire` is the contract's (snake_case) type of the answer. */
export const http = {
  get: <Wire = unknown>(url: string, options?: RequestOptions) => request<Wire>('GET', url, options),
  post: <Wire = unknown>(url: string, options?: RequestOptions) => request<Wire>('POST', url, options),
  put: <Wire = unknown>(url: string, options?: RequestOptions) => request<Wire>('PUT', url, options),
  patch: <Wire = unknown>(url: string, options?: RequestOptions) => request<Wire>('PATCH', url, options),
  delete: <Wire = unknown>(url: string, options?: RequestOptions) => request<Wire>('DELETE', url, options),
};
