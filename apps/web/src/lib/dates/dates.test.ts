import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { EMPTY_DATE, dateFormats, firstDayOfWeek, formatDate, setDateLanguage, setTimeZone } from './index';
import { localeWeekStart } from './date-time-input';

dayjs.extend(utc);
dayjs.extend(timezone);

describe('dates', () => {
  afterEach(() => {
    setTimeZone(null);
    setDateLanguage('en');
  });

  it('shows n/a for an empty or broken date', () => {
    expect(formatDate(null)).toBe(EMPTY_DATE);
    expect(formatDate('')).toBe('n/a');
    expect(formatDate('not a date')).toBe('n/a');
  });

  it('formats in the user’s time zone with the console’s date formats', () => {
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

  it('writes the numeric formats exactly as dayjs does, in every zone, around midnight and DST changes', () => {
    const formats = [
      'date',
      'time',
      'timeSeconds',
      'year',
      'dateTime',
      'isoDateTime',
      'isoDateTimeSeconds',
      'isoDate',
    ] as const;
    const instants = [
      '2026-03-29T00:59:59Z',
      '2026-03-29T01:00:00Z',
      '2026-10-25T00:30:00.123Z',
      '2026-12-31T23:59:59+03:00',
      '2027-01-01T00:00:00-05:00',
      '2026-06-15T12:00:00+0530',
    ];
    for (const zone of [
      'UTC',
      'Europe/Moscow',
      'Europe/Berlin',
      'America/New_York',
      'Asia/Kolkata',
      'Pacific/Chatham',
    ]) {
      setTimeZone(zone);
      for (const instant of [...instants, Date.parse(instants[0]!), new Date(instants[2]!)]) {
        for (const format of formats) {
          const expected = dayjs(instant).tz(zone).format(dateFormats[format]);
          expect(formatDate(instant, format), `${String(instant)} ${zone} ${format}`).toBe(expected);
        }
      }
    }
    expect(formatDate('2026-13-45T99:00:00Z')).toBe(EMPTY_DATE);
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
