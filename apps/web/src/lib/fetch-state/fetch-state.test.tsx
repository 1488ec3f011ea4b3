// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../http';
import { createQueryClient, useFetchState } from './fetch-state';

function wrapper() {
  const client = createQueryClient();
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

/** A fetcher whose calls the test settles by hand; each call records whether it was cancelled. */
function controlledFetcher() {
  const calls: { resolve: (value: string) => void; reject: (error: unknown) => void; cancelled: boolean }[] = [];
  const fetcher = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      const call = { resolve, reject, cancelled: false };
      calls.push(call);
      signal.addEventListener('abort', () => {
        call.cancelled = true;
        reject(new ApiError('ERR_CANCELED', 'The call was cancelled'));
      });
    });
  return { calls, fetcher };
}

describe('fetch state', () => {
  it('stores data on success and the error on failure; a new fetch clears the error and the data', async () => {
    const { calls, fetcher } = controlledFetcher();
    const { result } = renderHook(() => useFetchState({ queryKey: ['a'], fetcher }), { wrapper: wrapper() });
    expect(result.current.fetching).toBe(true);
    act(() => calls[0]!.resolve('first'));
    await waitFor(() => expect(result.current.data).toBe('first'));
    expect(result.current.fetching).toBe(false);

    act(() => void result.current.fetch());
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(result.current.data).toBeUndefined();
    act(() => calls[1]!.reject(new Error('boom')));
    await waitFor(() => expect(result.current.error?.message).toBe('boom'));
    expect(result.current.fetching).toBe(false);

    act(() => void result.current.fetch());
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(result.current.error).toBeNull();
    expect(result.current.fetching).toBe(true);
  });

  it('keeps the data while fetching when clearing is turned off, and a new fetch cancels the running one', async () => {
    const { calls, fetcher } = controlledFetcher();
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { result } = renderHook(() => useFetchState({ queryKey: ['b'], fetcher, clearDataOnFetch: false }), {
      wrapper: wrapper(),
    });
    act(() => calls[0]!.resolve('kept'));
    await waitFor(() => expect(result.current.data).toBe('kept'));

    act(() => void result.current.fetch());
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(result.current.data).toBe('kept');
    act(() => void result.current.fetch());
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[1]!.cancelled).toBe(true);
    // The cancellation is only logged: no error is stored.
    expect(result.current.error).toBeNull();
    expect(info).toHaveBeenCalled();
    act(() => calls[2]!.resolve('fresh'));
    await waitFor(() => expect(result.current.data).toBe('fresh'));
    info.mockRestore();
  });
});
