/** Most buckets a histogram has. */
export const MAX_BUCKETS = 120;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Bucket widths a reader takes in at a glance, in seconds, narrowest first. */
export const NICE_WIDTHS: readonly number[] = [
  1,
  5,
  15,
  30,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  7 * DAY,
  30 * DAY,
  90 * DAY,
  365 * DAY,
];

/** The number of the bucket of `width` seconds holding `at`: its start in seconds since the epoch, over the width. */
export function bucketOf(at: Date, width: number): number {
  return Math.floor(Math.floor(at.getTime() / 1000) / width);
}

/**
 * The narrowest nice width whose buckets, aligned on the epoch, cover `[from, to]` in at most
 * MAX_BUCKETS; past a year, whole years.
 */
export function bucketWidth(from: Date, to: Date): number {
  const fits = (width: number) => bucketOf(to, width) - bucketOf(from, width) + 1 <= MAX_BUCKETS;
  const nice = NICE_WIDTHS.find(fits);
  if (nice !== undefined) return nice;
  let years = 2;
  while (!fits(years * 365 * DAY)) years += 1;
  return years * 365 * DAY;
}

/** Every bucket of `[from, to]`, by number, in order. */
export function bucketRange(from: Date, to: Date, width: number): number[] {
  const first = bucketOf(from, width);
  const last = bucketOf(to, width);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
