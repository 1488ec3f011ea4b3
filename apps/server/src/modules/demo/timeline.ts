import type { Random } from './random';

/** One line of sensor output and when it happened (lines are sent in time order). */
export interface TimedLine {
  at: number;
  line: string;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** How far back the demo traffic reaches. */
export const DEMO_DAYS = 14;

/**
 * A moment in the last 14 days, more likely the more recent it is, and more likely in working
 * hours (07:00–19:00 UTC) than at night.
 */
export function pastMoment(random: Random, now: number): number {
  const age = DEMO_DAYS * DAY * Math.pow(random.next(), 1.6);
  let at = now - Math.max(age, 2 * MINUTE);
  const hour = new Date(at).getUTCHours();
  if ((hour < 7 || hour >= 19) && random.chance(0.7)) {
    const day = new Date(at);
    day.setUTCHours(random.int(7, 18), random.int(0, 59), random.int(0, 59));
    at = day.getTime();
    if (at > now - 2 * MINUTE) at = now - random.int(5, 90) * MINUTE;
  }
  return Math.max(at, now - DEMO_DAYS * DAY);
}

/** A moment `daysAgo` days before `now`, at the given UTC hour and minute of that day. */
export function dayAt(now: number, daysAgo: number, hour: number, minute: number): number {
  const day = new Date(now - daysAgo * DAY);
  day.setUTCHours(hour, minute, 0, 0);
  const at = day.getTime();
  return at > now - 10 * MINUTE ? now - 10 * MINUTE : at;
}

/** Suricata's timestamp format: `2026-11-20T09:14:03.118422+0000`. */
export function eveTime(at: number, random: Random): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}${String(random.int(0, 999)).padStart(3, '0')}+0000`;
}

/** ISO 8601 with microseconds, as Sysmon and the Elastic agent write it. */
export function isoMicros(at: number, random: Random): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 23)}${String(random.int(0, 999)).padStart(3, '0')}Z`;
}
