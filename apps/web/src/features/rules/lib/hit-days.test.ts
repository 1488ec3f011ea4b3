import { describe, expect, it } from 'vitest';
import { HIT_DAYS, hitDays } from './hit-days';

describe('hitDays', () => {
  it('gives the 30 days ending today, days without hits at zero', () => {
    const days = hitDays(
      [
        { day: '2026-11-29', hits: 4 },
        { day: '2026-11-01', hits: 2 },
        { day: '2026-10-30', hits: 9 },
      ],
      new Date('2026-11-29T08:00:00Z'),
    );
    expect(days).toHaveLength(HIT_DAYS);
    expect(days[0]).toEqual({ day: '2026-10-31', hits: 0 });
    expect(days[1]).toEqual({ day: '2026-11-01', hits: 2 });
    expect(days[HIT_DAYS - 1]).toEqual({ day: '2026-11-29', hits: 4 });
    expect(days.reduce((sum, day) => sum + day.hits, 0)).toBe(6);
  });
});
