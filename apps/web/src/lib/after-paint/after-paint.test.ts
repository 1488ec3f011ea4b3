// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAfterFirstPaint } from './after-paint';

afterEach(() => {
  vi.useRealTimers();
});

describe('useAfterFirstPaint', () => {
  it('is false in the first render and true after the next frame has been painted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { result } = renderHook(() => useAfterFirstPaint());
    expect(result.current).toBe(false);
    await act(async () => {
      await vi.advanceTimersToNextFrame();
    });
    expect(result.current).toBe(false);
    await act(async () => {
      await vi.runOnlyPendingTimersAsync();
    });
    expect(result.current).toBe(true);
  });

  it('does nothing once unmounted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { result, unmount } = renderHook(() => useAfterFirstPaint());
    unmount();
    await vi.runAllTimersAsync();
    expect(result.current).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
