import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_DATE, firstDayOfWeek, formatDate, localeWeekStart, setDateLanguage, setTimeZone } from './index';

describe('dates (spec §5, §9)', () => {
  afterEach(() => {
    setTimeZone(null);
    setDateLanguage('en');
  });

  it('shows n/a for an empty or broken date', () => {
    expect(formatDate(null)).toBe(EMPTY_DATE);
    expect(formatDate('')).toBe('n/a');
    expect(formatDate('not a date')).toBe('n/a');
  });

  it('formats in the user’s time zone with the formats of spec §9', () => {
    setTimeZone('Europe/Moscow');
    const instant = '2026-03-05T21:04:09Z';
    expect(formatDate(instant)).toBe('2026-03-06 00:04');
    expect(formatDate(instant, 'isoDateTimeSeconds')).toBe('2026-03-06 00:04:09');
    expect(formatDate(instant, 'date')).toBe('06.03.2026');
    expect(formatDate(instant, 'dateTime')).toBe('06.03.2026, 00:04');
    setTimeZone('UTC');
    expect(formatDate(instant, 'longDate')).toBe('5 March 2026');
    setDateLanguage('ru');
    expect(formatDate(instant, 'longDate')).toBe('5 марта 2026');
  });

  it('refuses an unknown time zone', () => {
    expect(() => setTimeZone('Mars/Olympus_Mons')).toThrow('Attempt to set invalid timeZone Mars/Olympus_Mons');
  });

  it('starts the Russian week on Monday', () => {
    expect(firstDayOfWeek('ru')).toBe(1);
    expect(firstDayOfWeek('en')).toBe(0);
    expect(localeWeekStart('ru')).toBe(1);
  });
});
