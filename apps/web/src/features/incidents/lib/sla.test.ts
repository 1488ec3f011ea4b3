import { describe, expect, it } from 'vitest';
import { formatDuration, formatTarget, isBreached, listSlaTimer, slaState } from './sla';

const at = (iso: string) => Date.parse(iso);
const minute = 60_000;

describe('slaState', () => {
  const timer = { dueAt: '2026-11-22T12:00:00Z', doneAt: null };

  it('counts the time left while the timer runs', () => {
    expect(slaState(timer, at('2026-11-22T11:45:30Z'))).toEqual({ kind: 'running', remainingMs: 14.5 * minute });
    expect(isBreached(slaState(timer, at('2026-11-22T11:59:59Z')))).toBe(false);
  });

  it('is still running at the due time itself, overdue a moment after', () => {
    expect(slaState(timer, at('2026-11-22T12:00:00Z'))).toEqual({ kind: 'running', remainingMs: 0 });
    const late = slaState(timer, at('2026-11-22T12:00:01Z'));
    expect(late).toEqual({ kind: 'overdue', overdueMs: 1000 });
    expect(isBreached(late)).toBe(true);
  });

  it('stops when the timer is done, met or missed whatever the clock says now', () => {
    const met = slaState({ ...timer, doneAt: '2026-11-22T11:50:00Z' }, at('2026-11-30T00:00:00Z'));
    expect(met).toEqual({ kind: 'met', marginMs: 10 * minute });
    expect(isBreached(met)).toBe(false);
    const missed = slaState({ ...timer, doneAt: '2026-11-22T13:00:00Z' }, at('2026-11-22T11:00:00Z'));
    expect(missed).toEqual({ kind: 'missed', lateMs: 60 * minute });
    expect(isBreached(missed)).toBe(true);
  });
});

describe('formatDuration', () => {
  it('shows seconds below a day, so a countdown visibly ticks', () => {
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(12 * minute + 4_000)).toBe('12m 04s');
    expect(formatDuration(3 * 60 * minute + 5 * minute + 9_000)).toBe('3h 05m 09s');
  });

  it('shows days, hours and minutes from a day up', () => {
    expect(formatDuration(2 * 1440 * minute + 4 * 60 * minute + 5 * minute + 59_000)).toBe('2d 04h 05m');
  });

  it('rounds down to whole seconds and never goes negative', () => {
    expect(formatDuration(59_999)).toBe('59s');
    expect(formatDuration(-5_000)).toBe('0s');
  });

  it('uses the units it is given', () => {
    expect(formatDuration(61 * minute + 1_000, { day: 'д', hour: 'ч', minute: 'м', second: 'с' })).toBe('1ч 01м 01с');
  });
});

describe('formatTarget', () => {
  it('says targets as people do', () => {
    expect(formatTarget(15)).toBe('15m');
    expect(formatTarget(240)).toBe('4h');
    expect(formatTarget(3 * 1440)).toBe('3d');
    expect(formatTarget(1440 + 12 * 60)).toBe('1d 12h');
    expect(formatTarget(0)).toBe('0m');
  });
});

describe('listSlaTimer', () => {
  it('shows the acknowledge timer until it stops, then the resolve timer', () => {
    const running: { dueAt: string; doneAt: string | null } = { dueAt: '2026-11-22T12:00:00Z', doneAt: null };
    const stopped: { dueAt: string; doneAt: string | null } = {
      dueAt: '2026-11-22T12:00:00Z',
      doneAt: '2026-11-22T11:00:00Z',
    };
    expect(listSlaTimer(running, running).which).toBe('acknowledge');
    expect(listSlaTimer(stopped, running).which).toBe('resolve');
  });
});
