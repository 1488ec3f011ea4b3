/**
 * Instants and the wall clock of a time zone, with the browser's own Intl data (no date library on
 * the first screen): what a zone's clock shows at an instant, the instant a zone's clock shows a
 * given time, and the starts of its hours and days.
 */

/** A zone's clock: month 1–12, 24-hour hours. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** One formatter per zone, kept: making an Intl formatter costs far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's clock at an instant, as the two-digit strings Intl writes (`year` has four). */
export function zonedParts(instant: Date, zone: string): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(instant)) parts[part.type] = part.value;
  return parts;
}

export function wallClock(instant: Date | number, zone: string): WallClock {
  const date = typeof instant === 'number' ? new Date(instant) : instant;
  const parts = zonedParts(date, zone);
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((date.getTime() % 1000) + 1000) % 1000,
  };
}

const asUtc = (clock: WallClock) =>
  Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second, clock.millisecond);

/** How far the zone's clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(time: number, zone: string): number {
  return asUtc(wallClock(time, zone)) - time;
}

/**
 * The instant at which the zone's clock shows `clock`. A time the clock skips (the hour lost when
 * summer time starts) is read with the offset from before the change, so it lands just after it; a
 * time shown twice (the hour repeated in autumn) is the first of the two.
 */
export function zonedToInstant(clock: WallClock, zone: string): Date {
  const local = asUtc(clock);
  const day = 86_400_000;
  // The zone's offsets a day either side and at the time itself cover both sides of any change.
  const exact = [
    local - offsetAt(local - day, zone),
    local - offsetAt(local, zone),
    local - offsetAt(local + day, zone),
  ]
    .filter((time) => asUtc(wallClock(time, zone)) === local)
    .sort((a, b) => a - b);
  return new Date(exact[0] ?? local - offsetAt(local - day, zone));
}

/** The first instant of the hour or day an instant falls in, by the zone's clock. */
export function startOfZoned(instant: Date | number, unit: 'hour' | 'day', zone: string): Date {
  const time = typeof instant === 'number' ? instant : instant.getTime();
  const clock = wallClock(time, zone);
  // Within an hour the clock moves with time, also during a repeated hour.
  if (unit === 'hour') return new Date(time - clock.minute * 60_000 - clock.second * 1000 - clock.millisecond);
  return zonedToInstant({ ...clock, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

/** The zone's midnight `days` days after (or before) the day an instant falls in. */
export function addZonedDays(instant: Date | number, days: number, zone: string): Date {
  const clock = wallClock(instant, zone);
  const day = new Date(Date.UTC(clock.year, clock.month - 1, clock.day + days));
  return zonedToInstant(
    {
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour: 0,
      minute: 0,
      second: 0,
      millisecond: 0,
    },
    zone,
  );
}
