import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearNotifications,
  getNotifications,
  NOTIFICATION_THROTTLE_MS,
  notificationTypes,
  notify,
  notifyServerMessage,
} from './store';

describe('notification throttle: identical notifications within 2,000 ms show once, whatever their kind', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    clearNotifications();
  });
  afterEach(() => {
    clearNotifications();
    vi.useRealTimers();
  });

  it('is 2,000 ms', () => {
    expect(NOTIFICATION_THROTTLE_MS).toBe(2000);
  });

  it.each(notificationTypes)('a repeated %s notification shows once until 2 s have passed', (type) => {
    const first = notify({ type, title: 'Saved', message: 'The profile is saved.' });
    vi.setSystemTime(Date.now() + NOTIFICATION_THROTTLE_MS - 1);
    // The repeat is dropped and answers the id of the one it repeats.
    expect(notify({ type, title: 'Saved', message: 'The profile is saved.' })).toBe(first);
    expect(getNotifications()).toHaveLength(1);
    vi.setSystemTime(Date.now() + 1);
    expect(notify({ type, title: 'Saved', message: 'The profile is saved.' })).not.toBe(first);
    expect(getNotifications()).toHaveLength(2);
  });

  it('server messages are throttled the same way', () => {
    notifyServerMessage({ type: 'info', title: 'Queued', message: 'The export is queued.' });
    notifyServerMessage({ type: 'info', title: 'Queued', message: 'The export is queued.' });
    expect(getNotifications()).toHaveLength(1);
  });

  it('notifications that differ in kind, title or text all show', () => {
    notify({ type: 'success', title: 'Saved', message: 'One' });
    notify({ type: 'info', title: 'Saved', message: 'One' });
    notify({ type: 'success', title: 'Stored', message: 'One' });
    notify({ type: 'success', title: 'Saved', message: 'Two' });
    expect(getNotifications()).toHaveLength(4);
  });

  it('the window runs from the first one shown: repeats inside it do not extend it', () => {
    notify({ type: 'warning', message: 'Slow down' });
    vi.setSystemTime(Date.now() + 1500);
    notify({ type: 'warning', message: 'Slow down' });
    vi.setSystemTime(Date.now() + 600);
    notify({ type: 'warning', message: 'Slow down' });
    expect(getNotifications()).toHaveLength(2);
  });
});
