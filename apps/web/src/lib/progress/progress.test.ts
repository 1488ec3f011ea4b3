import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isProgressActive, PROGRESS_END_DELAY_MS, progressRequestEnded, progressRequestStarted } from './store';

describe('the progress bar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('starts with the first call and ends 200 ms after the last', () => {
    progressRequestStarted('/api/a/');
    progressRequestStarted('/api/b/');
    expect(isProgressActive()).toBe(true);
    progressRequestEnded('/api/a/');
    vi.advanceTimersByTime(PROGRESS_END_DELAY_MS * 5);
    expect(isProgressActive()).toBe(true);
    progressRequestEnded('/api/b/');
    vi.advanceTimersByTime(PROGRESS_END_DELAY_MS - 1);
    expect(isProgressActive()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isProgressActive()).toBe(false);
  });

  it('a call starting within the 200 ms keeps it going', () => {
    progressRequestStarted('/api/a/');
    progressRequestEnded('/api/a/');
    vi.advanceTimersByTime(100);
    progressRequestStarted('/api/b/');
    vi.advanceTimersByTime(PROGRESS_END_DELAY_MS);
    expect(isProgressActive()).toBe(true);
    progressRequestEnded('/api/b/');
    vi.advanceTimersByTime(PROGRESS_END_DELAY_MS);
    expect(isProgressActive()).toBe(false);
  });

  it('never shows for the activation path', () => {
    progressRequestStarted('/api/activate/abc/');
    expect(isProgressActive()).toBe(false);
    progressRequestEnded('/api/activate/abc/');
  });
});
