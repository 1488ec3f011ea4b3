import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { afterEach, describe, expect, it } from 'vitest';
import { isoToZonedInput, setTimeZone, zonedInputToIso } from './index';
import { addZonedDays, startOfZoned, wallClock, zonedToInstant } from './zoned';

dayjs.extend(utc);
dayjs.extend(timezone);

const zones = ['UTC', 'Europe/Moscow', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'];
// Hours around the 2026 summer-time changes of Europe and North America, midnights and a year's end.
const instants = [
  '2026-03-08T06:30:00Z',
  '2026-03-08T07:30:00Z',
  '2026-03-29T00:59:59Z',
  '2026-03-29T01:00:00Z',
  '2026-10-25T00:30:00.123Z',
  '2026-10-25T01:30:00Z',
  '2026-11-01T05:30:00Z',
  '2026-11-01T06:30:00Z',
  '2026-12-31T21:00:00Z',
  '2026-06-15T06:30:00Z',
];

describe('zoned clock', () => {
  afterEach(() => setTimeZone(null));

  it('starts hours and days by the zone’s clock, and steps days as dayjs does, across summer-time changes', () => {
    for (const zone of zones) {
      for (const instant of instants) {
        const time = Date.parse(instant);
        const label = `${instant} ${zone}`;
        // dayjs's own startOf('hour') is an hour off next to a change (Berlin, 29 March 01:59 → 00:00):
        // the start is checked by what the zone's clock shows instead.
        const clock = wallClock(time, zone);
        const hour = startOfZoned(time, 'hour', zone);
        expect(wallClock(hour, zone), label).toEqual({ ...clock, minute: 0, second: 0, millisecond: 0 });
        expect(hour.getTime() <= time && time - hour.getTime() < 3_600_000, label).toBe(true);
        const day = startOfZoned(time, 'day', zone);
        expect(wallClock(day, zone), label).toEqual({ ...clock, hour: 0, minute: 0, second: 0, millisecond: 0 });
        expect(day.getTime() <= time && time - day.getTime() < 25 * 3_600_000, label).toBe(true);
        for (const days of [-29, -6, 1]) {
          const local = dayjs(time).tz(zone);
          const expected = dayjs.tz(local.add(days, 'day').format('YYYY-MM-DD'), zone).toISOString();
          expect(addZonedDays(time, days, zone).toISOString(), `${label} ${days}`).toBe(expected);
        }
      }
    }
  });

  it('reads a wall clock back to its instant, the first of a repeated hour and just after a skipped one', () => {
    const berlin = 'Europe/Berlin';
    const clock = { year: 2026, month: 10, day: 25, hour: 2, minute: 30, second: 0, millisecond: 0 };
    expect(zonedToInstant(clock, berlin).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    const skipped = { ...clock, month: 3, day: 29 };
    expect(zonedToInstant(skipped, berlin).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(wallClock(zonedToInstant(skipped, berlin), berlin)).toMatchObject({ hour: 3, minute: 30 });
    for (const zone of zones) {
      for (const instant of instants) {
        const time = Math.floor(Date.parse(instant) / 1000) * 1000;
        const back = zonedToInstant(wallClock(time, zone), zone).getTime();
        // Only the second pass of a repeated hour reads back to the first.
        expect([time, time - 3_600_000, time - 1_800_000], `${instant} ${zone}`).toContain(back);
      }
    }
  });

  it('turns datetime-local values into instants and back as dayjs does', () => {
    for (const zone of zones) {
      setTimeZone(zone);
      for (const value of ['2026-03-05T21:04', '2026-06-15T00:00', '2026-12-31T23:59']) {
        const iso = zonedInputToIso(value);
        expect(iso, `${value} ${zone}`).toBe(dayjs.tz(value, zone).toISOString());
        expect(isoToZonedInput(iso)).toBe(value);
      }
    }
    expect(zonedInputToIso('')).toBeNull();
    expect(zonedInputToIso('2026-02-30T10:00')).toBeNull();
    expect(zonedInputToIso('yesterday')).toBeNull();
    expect(isoToZonedInput('not a date')).toBe('');
  });
});
