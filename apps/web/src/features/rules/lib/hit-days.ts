/** One day of a rule's hit counts. */
export interface HitDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  hits: number;
}

/** How many days the rule page charts, ending today. */
export const HIT_DAYS = 30;

/**
 * The last 30 days (UTC) ending with the day of `now`, each with its hits: the server leaves days without
 * hits out, the chart shows them as empty slots.
 */
export function hitDays(days: readonly HitDay[], now: Date): HitDay[] {
  const byDay = new Map(days.map((day) => [day.day.slice(0, 10), day.hits]));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: HIT_DAYS }, (_, index) => {
    const day = new Date(today - (HIT_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10);
    return { day, hits: byDay.get(day) ?? 0 };
  });
}
