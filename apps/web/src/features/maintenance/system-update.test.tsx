// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, isSystemUpdating } from '../../lib/http';
import { changeLanguage, initI18n } from '../../lib/i18n';
import { SystemUpdatePage } from './components/system-update-page';
import { retryUntilAvailable, SYSTEM_UPDATE_RETRY_MS, useSystemUpdating } from './lib/system-update';

function answer(status: number, body: unknown = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const maintenance = {
  detail: 'Vigil is in maintenance. Try again in a few moments.',
  code: 'maintenance',
  maintenance: { reason: 'administrator', since: null, retry_after: 5 },
};

const fetchMock = vi.fn<typeof fetch>();

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  // Start every test with the system available.
  fetchMock.mockResolvedValueOnce(answer(200));
  await http.get('/api/users/me/');
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await changeLanguage('en');
});

/** Lets the fetch promises of a probe settle. */
async function settle() {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

describe('the console during a system update (HTTP 423)', () => {
  it('a 423 marks the system as updating; the next answer that is not 423 — even an error — ends it', async () => {
    fetchMock.mockResolvedValueOnce(answer(423, maintenance));
    await http.get('/api/alerts/').catch(() => null);
    expect(isSystemUpdating()).toBe(true);
    fetchMock.mockResolvedValueOnce(answer(401, { detail: 'Not signed in.' }));
    await http.get('/api/users/me/', { redirectOnUnauthorized: false }).catch(() => null);
    expect(isSystemUpdating()).toBe(false);
  });

  it('asks again every few seconds until the server answers, then calls back once', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValueOnce(answer(423, maintenance));
    await http.get('/api/alerts/').catch(() => null);
    const onAvailable = vi.fn();
    const probe = vi.fn(() => http.get('/api/users/me/', { notifyErrors: false }));
    retryUntilAvailable(probe, onAvailable);

    fetchMock.mockResolvedValueOnce(answer(423, maintenance)).mockResolvedValueOnce(answer(200, { id: 1 }));
    await vi.advanceTimersByTimeAsync(SYSTEM_UPDATE_RETRY_MS - 1);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(probe).toHaveBeenCalledTimes(1);
    expect(onAvailable).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(SYSTEM_UPDATE_RETRY_MS);
    await settle();
    expect(probe).toHaveBeenCalledTimes(2);
    expect(onAvailable).toHaveBeenCalledTimes(1);
    // No more questions once it is back.
    await vi.advanceTimersByTimeAsync(SYSTEM_UPDATE_RETRY_MS * 3);
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('a probe that cannot reach the server (it is restarting) waits for the next turn', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValueOnce(answer(423, maintenance));
    await http.get('/api/alerts/').catch(() => null);
    const onAvailable = vi.fn();
    retryUntilAvailable(() => http.get('/api/users/me/', { notifyErrors: false }), onAvailable);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(answer(200));
    await vi.advanceTimersByTimeAsync(SYSTEM_UPDATE_RETRY_MS);
    await settle();
    expect(onAvailable).not.toHaveBeenCalled();
    expect(isSystemUpdating()).toBe(true);
    await vi.advanceTimersByTimeAsync(SYSTEM_UPDATE_RETRY_MS);
    await settle();
    expect(onAvailable).toHaveBeenCalledTimes(1);
  });

  it('the page says so in English and Russian, and gives the console back when the server answers', async () => {
    vi.useFakeTimers();
    function Shell() {
      return useSystemUpdating() ? <SystemUpdatePage /> : <p>the console</p>;
    }
    render(<Shell />);
    expect(screen.getByText('the console')).toBeTruthy();

    fetchMock.mockResolvedValueOnce(answer(423, maintenance));
    await act(() => http.get('/api/alerts/').catch(() => null));
    expect(screen.getByTestId('system-update-page').textContent).toContain('System update in progress');
    expect(screen.queryByText('the console')).toBeNull();

    await act(() => changeLanguage('ru'));
    expect(screen.getByTestId('system-update-page').textContent).toContain('Идёт обновление системы');

    fetchMock.mockResolvedValueOnce(answer(200, { id: 1 }));
    await act(() => vi.advanceTimersByTimeAsync(SYSTEM_UPDATE_RETRY_MS));
    await act(settle);
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe('/api/users/me/');
    expect(screen.getByText('the console')).toBeTruthy();
  });
});
