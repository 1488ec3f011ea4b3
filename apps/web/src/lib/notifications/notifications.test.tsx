// @vitest-environment jsdom
// jsdom, not happy-dom: DOMPurify walks the tree with a NodeIterator, and happy-dom's stops at the
// first removed node, which would leave the rest unsanitised and make these tests meaningless.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationViewport } from './notification-viewport';
import {
  clearNotifications,
  getNotifications,
  NOTIFICATION_DURATION_MS,
  notify,
  notifyServerMessage,
  SERVER_MESSAGE_OFFSET_PX,
} from './store';

describe('notifications', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(<NotificationViewport closeLabel="Close" />);
  });

  afterEach(() => {
    act(() => clearNotifications());
    cleanup();
    vi.useRealTimers();
  });

  const shown = () => screen.queryAllByTestId('notification');
  /** The one notification shown stays until `ms` have passed, and not a millisecond longer. */
  const expectClosedAfter = (ms: number) => {
    act(() => vi.advanceTimersByTime(ms - 1));
    expect(shown()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(shown()).toHaveLength(0);
  };

  it('closes after 4500 ms', () => {
    act(() => void notify({ type: 'success', title: 'Saved', message: 'The profile is saved.' }));
    expect(shown()).toHaveLength(1);
    expectClosedAfter(NOTIFICATION_DURATION_MS);
  });

  it('hover pauses the timer and leaving resumes it', () => {
    act(() => void notify({ type: 'info', message: 'Hello' }));
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.mouseEnter(shown()[0]!);
    act(() => vi.advanceTimersByTime(10_000));
    expect(shown()).toHaveLength(1);
    fireEvent.mouseLeave(shown()[0]!);
    expectClosedAfter(NOTIFICATION_DURATION_MS - 1000);
  });

  it('Escape closes; Delete or Backspace stop the timer; other keys restart it', () => {
    act(() => void notify({ type: 'error', message: 'One' }));
    fireEvent.mouseEnter(shown()[0]!);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(shown()).toHaveLength(0);

    act(() => void notify({ type: 'warning', message: 'Two' }));
    fireEvent.focus(shown()[0]!);
    fireEvent.keyDown(document, { key: 'Backspace' });
    expect(shown()[0]!.dataset.timer).toBe('stopped');
    act(() => vi.advanceTimersByTime(60_000));
    expect(shown()).toHaveLength(1);
    fireEvent.keyDown(document, { key: 'a' });
    expect(shown()[0]!.dataset.timer).toBe('running');
    act(() => vi.advanceTimersByTime(NOTIFICATION_DURATION_MS));
    expect(shown()).toHaveLength(0);
  });

  it('keys do nothing to a notification that is neither hovered nor focused', () => {
    act(() => void notify({ type: 'info', message: 'Untouched' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(shown()).toHaveLength(1);
  });

  it('server messages sit 100 px from the edge with a close button', () => {
    act(() => void notifyServerMessage({ type: 'success', title: 'Done', message: 'Mail queued' }));
    const stack = shown()[0]!.parentElement!;
    expect(stack.style.top).toBe(`${SERVER_MESSAGE_OFFSET_PX}px`);
    expect(stack.style.zIndex).toBe('2000');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(shown()).toHaveLength(0);
  });

  it('stacks by position, 312 px wide, and refuses unknown types and positions with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    act(() => {
      notify({ type: 'info', message: 'a', position: 'bottom-left' });
      notify({ type: 'nope' as 'info', message: 'b', position: 'middle' as 'top-left' });
    });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(getNotifications().map((item) => [item.type, item.position])).toEqual([
      ['info', 'bottom-left'],
      ['info', 'top-right'],
    ]);
    expect(shown()[0]!.style.width).toBe('312px');
    warn.mockRestore();
  });

  it('keeps only safe HTML of a message (the cleaner arrives with the first HTML message)', async () => {
    vi.useRealTimers();
    act(
      () =>
        void notify({
          type: 'info',
          message: '<b>bold</b><img src=x onerror=alert(1)><script>x()</script>',
          useHtml: true,
        }),
    );
    await waitFor(() => {
      const message = shown()[0]!.querySelector('.vigil-notification__message')!;
      expect(message.innerHTML).toBe('<b>bold</b>');
    });
  });
});
