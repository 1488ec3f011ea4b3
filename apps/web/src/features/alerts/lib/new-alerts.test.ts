import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../lib/live';
import { addLiveEvent, mayMatchNewAlert, newAlertsCount, noNewAlerts } from './new-alerts';

const created = (companyId: number, ids: number[], count = ids.length): LiveEvent => ({
  type: 'alert.created',
  companyId,
  ids,
  count,
});

describe('new alerts counter', () => {
  it('counts created alerts once each, and ignores updates', () => {
    let state = addLiveEvent(noNewAlerts, created(1, [10, 11]), {});
    state = addLiveEvent(state, created(1, [11, 12]), {});
    state = addLiveEvent(state, { type: 'alert.updated', companyId: 1, ids: [13], count: 1 }, {});
    expect(newAlertsCount(state)).toBe(3);
  });

  it('counts alerts beyond the ids an event carries', () => {
    const state = addLiveEvent(noNewAlerts, created(1, [1, 2], 700), {});
    expect(newAlertsCount(state)).toBe(700);
  });

  it('keeps the same state object when nothing counts (no re-render)', () => {
    const state = addLiveEvent(noNewAlerts, created(2, [1]), { companyId: [1] });
    expect(state).toBe(noNewAlerts);
  });
});

describe('mayMatchNewAlert', () => {
  it('follows the filters a live event can answer', () => {
    expect(mayMatchNewAlert({}, 5)).toBe(true);
    expect(mayMatchNewAlert({ companyId: [5, 6] }, 5)).toBe(true);
    expect(mayMatchNewAlert({ companyId: [6] }, 5)).toBe(false);
    expect(mayMatchNewAlert({ status: ['new', 'in_progress'] }, 5)).toBe(true);
    expect(mayMatchNewAlert({ status: ['closed'] }, 5)).toBe(false);
    expect(mayMatchNewAlert({ assigneeId: [3] }, 5)).toBe(false);
    expect(mayMatchNewAlert({ unassigned: true }, 5)).toBe(true);
    expect(mayMatchNewAlert({ unassigned: false }, 5)).toBe(false);
    expect(mayMatchNewAlert({ lastSeenTo: '2026-01-01T00:00:00Z' }, 5)).toBe(false);
    expect(mayMatchNewAlert({ severity: ['critical'], search: 'x' }, 5)).toBe(true);
  });
});
