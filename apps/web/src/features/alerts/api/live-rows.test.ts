// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { endpoints } from '@vigil/contract/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../../../lib/http';
import type * as HttpModule from '../../../lib/http';
import type { Alert } from './alerts';
import { shownIdsOf, useLiveRowRefresh } from './live-rows';

vi.mock('../../../lib/http', async (original) => ({
  ...(await original<typeof HttpModule>()),
  call: vi.fn(),
}));

/** An EventSource the test speaks through (the live client opens one with its first listener). */
class FakeSource {
  static last: FakeSource | null = null;
  readyState = 1;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly handlers = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor() {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), listener]);
  }
  close() {}
  emit(type: string, data: object) {
    for (const listener of this.handlers.get(type) ?? [])
      listener({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
}

beforeAll(() => {
  vi.stubGlobal('EventSource', FakeSource);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.mocked(call).mockReset();
});

describe('rows changed elsewhere', () => {
  it('picks the ids the page shows', () => {
    expect(shownIdsOf({ type: 'alert.updated', companyId: 1, ids: [1, 2, 3], count: 3 }, new Set([2, 3, 9]))).toEqual([
      2, 3,
    ]);
  });

  it('re-reads the shown alerts a burst of updates names, once, and hands them over', async () => {
    vi.useFakeTimers();
    const post = vi
      .mocked(call)
      .mockResolvedValue({ count: 2, next: null, previous: null, results: [{ id: 2 }, { id: 3 }] });
    const apply = vi.fn<(rows: Alert[]) => void>();
    renderHook(() => useLiveRowRefresh({ shownIds: () => new Set([2, 3, 4]), apply, delayMs: 300 }));
    act(() => {
      FakeSource.last!.emit('alert.updated', { company_id: 1, ids: [2, 7], count: 2 });
      FakeSource.last!.emit('alert.updated', { company_id: 1, ids: [3], count: 1 });
      // Not shown here: no request for it.
      FakeSource.last!.emit('alert.updated', { company_id: 1, ids: [8], count: 1 });
      // Another kind of event changes nothing.
      FakeSource.last!.emit('alert.created', { company_id: 1, ids: [4], count: 1 });
    });
    expect(post).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]![0]).toBe(endpoints.alerts.list);
    expect(endpoints.alerts.list.path).toBe('/api/alerts/check/');
    expect(post.mock.calls[0]![1]).toMatchObject({ body: { id: [2, 3] } });
    expect(apply).toHaveBeenCalledWith([{ id: 2 }, { id: 3 }]);
  });

  it('asks nothing when no shown row changed', async () => {
    vi.useFakeTimers();
    const post = vi.mocked(call);
    renderHook(() => useLiveRowRefresh({ shownIds: () => new Set([1]), apply: () => undefined, delayMs: 100 }));
    act(() => FakeSource.last!.emit('alert.updated', { company_id: 1, ids: [5, 6], count: 2 }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(post).not.toHaveBeenCalled();
  });
});
