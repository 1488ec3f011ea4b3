// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearNotifications,
  getNotifications,
  NOTIFICATION_THROTTLE_MS,
  notify,
  notifyServerMessage,
} from '../notifications/store';
import { configureHttp, http, type ClientNotification } from './client';
import { ApiError, isCancelled } from './errors';
import { onHttpEvent } from './events';

function answer(status: number, body?: unknown): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('the HTTP client: calls and error handling', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let notified: ClientNotification[];
  let unauthorized: number;
  let started: string[];
  let ended: string[];

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockReset();
    document.cookie = 'csrf_token=the-token';
    notified = [];
    unauthorized = 0;
    started = [];
    ended = [];
    configureHttp({
      locale: () => 'ru',
      notify: (notification) => notified.push(notification),
      onUnauthorized: () => (unauthorized += 1),
      onRequestStart: (url) => started.push(url),
      onRequestEnd: (url) => ended.push(url),
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const sent = (call = 0) => {
    const [url, init] = fetchMock.mock.calls[call]!;
    return { url: String(url), init: init!, headers: init!.headers as Record<string, string> };
  };

  it('marks every call, and adds the anti-forgery token and language to changing calls', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, {})).mockResolvedValueOnce(answer(200, {}));
    await http.get('/api/users/me/');
    expect(sent(0).headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(sent(0).headers.Accept).toBe('application/json');
    expect(sent(0).headers['X-CSRFToken']).toBeUndefined();
    expect(sent(0).headers['Accept-Language']).toBeUndefined();

    await http.post('/api/users/password/change/', { data: { oldPassword: 'a', newPasswordRetry: 'b' } });
    expect(sent(1).headers['X-CSRFToken']).toBe('the-token');
    expect(sent(1).headers['Accept-Language']).toBe('ru');
    expect(sent(1).headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(sent(1).init.body as string)).toEqual({ old_password: 'a', new_password_retry: 'b' });
  });

  it('sends array parameters as repeated keys in snake_case and answers in camelCase', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { results: [{ date_time: 'x', object_repr: 'y' }], count: 1 }));
    const result = await http.post<{ results: { date_time: string; object_repr: string }[]; count: number }>(
      '/api/system_logs/check/',
      { params: { page: 2, pageSize: 50, ordering: ['-date_time', 'id'], skip: undefined } },
    );
    expect(sent().url).toBe('/api/system_logs/check/?page=2&page_size=50&ordering=-date_time&ordering=id');
    expect(result.results[0]).toEqual({ dateTime: 'x', objectRepr: 'y' });
    expect(started).toEqual([sent().url]);
    expect(ended).toEqual([sent().url]);
  });

  it('shows the messages of a successful answer, offset as server messages', async () => {
    fetchMock.mockResolvedValueOnce(
      answer(200, { messages: [{ title: 'Done', message: 'Mail queued', type: 'success', use_html: true }] }),
    );
    await http.post('/api/users/mass_changelog/', { data: {} });
    expect(notified).toEqual([
      { type: 'success', title: 'Done', message: 'Mail queued', useHtml: true, fromServer: true },
    ]);
  });

  it('401: leaves for the sign-in page, without a notification', async () => {
    fetchMock.mockResolvedValue(answer(401, { detail: 'Not signed in.' }));
    const error = await http.get('/api/system_logs/').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(unauthorized).toBe(1);
    expect(notified).toEqual([]);
    // The start-up's who-am-I call handles 401 itself.
    await http.get('/api/users/me/', { redirectOnUnauthorized: false }).catch(() => null);
    expect(unauthorized).toBe(1);
  });

  it('423: emits the system-update event, without a notification', async () => {
    const updates = vi.fn();
    const off = onHttpEvent('system-update', updates);
    fetchMock.mockResolvedValueOnce(answer(423, { detail: 'Updating.' }));
    await http.get('/api/alerts/').catch(() => null);
    expect(updates).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([]);
    const available = vi.fn();
    const offAvailable = onHttpEvent('system-available', available);
    fetchMock.mockResolvedValueOnce(answer(200, {}));
    await http.get('/api/alerts/');
    expect(available).toHaveBeenCalledTimes(1);
    off();
    offAvailable();
  });

  it('5xx: no notification', async () => {
    fetchMock.mockResolvedValueOnce(answer(500, { detail: 'Internal error.' }));
    const error = (await http.get('/api/alerts/').catch((failure: unknown) => failure)) as ApiError;
    expect(error.code).toBe('ERR_BAD_RESPONSE');
    expect(error.status).toBe(500);
    expect(notified).toEqual([]);
  });

  it('other errors: the answer’s messages, else "Something wrong happened" / "Backend answered with <status>"', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    fetchMock.mockResolvedValueOnce(answer(404, { detail: 'Not found.' }));
    const error = (await http.get('/api/alerts/1/').catch((failure: unknown) => failure)) as ApiError;
    expect(error.code).toBe('ERR_BAD_REQUEST');
    expect(notified).toEqual([
      { type: 'error', title: 'Something wrong happened', message: 'Backend answered with 404', fromServer: false },
    ]);

    vi.setSystemTime(Date.now() + NOTIFICATION_THROTTLE_MS + 1);
    fetchMock.mockResolvedValueOnce(
      answer(400, {
        errors: { first_name: ['Too long.'], non_field_errors: ['Check the form.'] },
        messages: [{ title: 'Not saved', message: 'Check the form.', type: 'warning' }],
      }),
    );
    const invalid = (await http.put('/api/users/me/', { data: {} }).catch((failure: unknown) => failure)) as ApiError;
    expect(notified[1]).toEqual({ type: 'warning', title: 'Not saved', message: 'Check the form.', fromServer: true });
    // Field errors reach the form, keyed like its (camelCase) fields.
    expect(invalid.fieldErrors).toEqual({ firstName: ['Too long.'], nonFieldErrors: ['Check the form.'] });
    expect(invalid.fieldError('firstName')).toBe('Too long.');
  });

  describe('a 400: one notification rule for forms and everything else', () => {
    const refused = (body: unknown) => fetchMock.mockResolvedValueOnce(answer(400, body));
    const failed = (promise: Promise<unknown>) => promise.catch((failure: unknown) => failure) as Promise<ApiError>;

    it('raises none when the form shows every field it names beside the field', async () => {
      refused({
        errors: { title: ['Ensure this field has no more than 300 characters.'], 'ip_whitelist.2': ['Bad.'] },
      });
      const error = await failed(
        http.post('/api/incidents/', { data: { title: 'x' }, shownFields: ['title', 'ipWhitelist'] }),
      );
      expect(notified).toEqual([]);
      expect(error.notified).toBe(false);
      expect(error.fieldError('title')).toBe('Ensure this field has no more than 300 characters.');
    });

    it('names, in words, the problems of fields the form does not show; never "Backend answered with 400"', async () => {
      refused({ errors: { title: ['Too long.'], alert_ids: ['Alert 7 does not exist.'], non_field_errors: ['No.'] } });
      const error = await failed(http.post('/api/incidents/', { data: {}, shownFields: ['title'] }));
      expect(notified).toEqual([
        { type: 'error', title: 'Not accepted', message: 'alert ids: Alert 7 does not exist. No.', fromServer: false },
      ]);
      expect(error.notified).toBe(true);
    });

    it('a call from no form shows every problem', async () => {
      refused({ errors: { body: ['This field is required.'] } });
      await failed(http.post('/api/alerts/3/comments/', { data: {} }));
      expect(notified.map((n) => n.message)).toEqual(['body: This field is required.']);
    });

    it('without field errors: the server’s own sentence, else a plain one', async () => {
      refused({ detail: 'The selection is empty.' });
      await failed(http.post('/api/alerts/bulk/', { data: {}, shownFields: ['title'] }));
      refused({});
      await failed(http.post('/api/alerts/bulk/', { data: {} }));
      expect(notified.map((n) => [n.title, n.message])).toEqual([
        ['Not accepted', 'The selection is empty.'],
        ['Not accepted', 'The server did not accept what was sent. Check the values and try again.'],
      ]);
      expect(notified.some((n) => n.message.includes('Backend answered'))).toBe(false);
    });
  });

  it('throttles error notifications to one per 2 s, the first one winning (through the notification system)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    clearNotifications();
    configureHttp({
      notify: ({ fromServer, ...notification }) =>
        void (fromServer ? notifyServerMessage(notification) : notify(notification)),
    });
    fetchMock.mockImplementation(async () => answer(409, { detail: 'Conflict.' }));
    await http.get('/api/a/').catch(() => null);
    vi.setSystemTime(Date.now() + NOTIFICATION_THROTTLE_MS - 1);
    await http.get('/api/b/').catch(() => null);
    expect(getNotifications()).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2);
    await http.get('/api/c/').catch(() => null);
    expect(getNotifications()).toHaveLength(2);
    clearNotifications();
  });

  it('a cancelled call is rejected silently and still ends its progress', async () => {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const controller = new AbortController();
    const pending = http.get('/api/alerts/', { signal: controller.signal }).catch((failure: unknown) => failure);
    controller.abort();
    const error = await pending;
    expect(isCancelled(error)).toBe(true);
    expect(notified).toEqual([]);
    expect(ended).toEqual(['/api/alerts/']);
  });

  it('tells a network failure and a timeout apart', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const network = (await http.get('/api/a/').catch((failure: unknown) => failure)) as ApiError;
    expect(network.code).toBe('ERR_NETWORK');
    expect(notified).toHaveLength(1);

    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const timeout = (await http.get('/api/b/', { timeout: 5 }).catch((failure: unknown) => failure)) as ApiError;
    expect(timeout.code).toBe('ECONNABORTED');
  });

  it('refuses to call anything but a path of this site', async () => {
    const error = (await http.get('https://elsewhere.example/').catch((failure: unknown) => failure)) as ApiError;
    expect(error.code).toBe('ERR_UNSUPPORTED_PROTOCOL');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
