// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { Pivot } from './shared';

beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Pivot', () => {
  it('is a plain button until the pointer rests on it, then says what a click does', async () => {
    vi.useFakeTimers();
    const onPivot = vi.fn();
    render(
      <MantineProvider>
        <Pivot value="10.0.0.5" onPivot={onPivot} />
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: '10.0.0.5' });
    expect(screen.queryByText('Filter by 10.0.0.5')).toBeNull();
    fireEvent.mouseEnter(button);
    // Passing over quickly shows nothing.
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Filter by 10.0.0.5')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    expect(screen.getByText('Filter by 10.0.0.5')).toBeTruthy();
    fireEvent.mouseLeave(button);
    expect(screen.queryByText('Filter by 10.0.0.5')).toBeNull();
    fireEvent.click(button);
    expect(onPivot).toHaveBeenCalledWith('10.0.0.5');
  });

  it('shows its hint to keyboard users on focus, and hides it on blur', async () => {
    vi.useFakeTimers();
    render(
      <MantineProvider>
        <Pivot value="WS-01" label="WS-01 (host)" onPivot={() => undefined} />
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'WS-01 (host)' });
    fireEvent.focus(button);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(screen.getByText('Filter by WS-01')).toBeTruthy();
    fireEvent.blur(button);
    expect(screen.queryByText('Filter by WS-01')).toBeNull();
  });
});
