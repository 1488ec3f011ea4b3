import { addZonedDays, startOfZoned } from '../../../lib/dates/zoned';

export const periodPresets = ['24h', '7d', '30d', 'custom'] as const;
export type PeriodPreset = (typeof periodPresets)[number];

export interface Period {
  preset: PeriodPreset;
  /** ISO instants; `to` is exclusive. */
  from: string;
  to: string;
}

export const isPeriodPreset = (value: string | null): value is PeriodPreset =>
  value !== null && (periodPresets as readonly string[]).includes(value);

/**
 * The period a preset covers at `now`, in whole buckets of the zone: the last 24 hours from the
 * start of 23 hours ago, or the last 7/30 days from the zone's midnight, up to now.
 */
export function presetRange(preset: Exclude<PeriodPreset, 'custom'>, now: Date, zone: string): Period {
  const from =
    preset === '24h'
      ? new Date(startOfZoned(now, 'hour', zone).getTime() - 23 * 3_600_000)
      : addZonedDays(now, preset === '7d' ? -6 : -29, zone);
  // The end is the next whole minute, so a chart drawn twice in a minute asks the same question.
  const to = new Date(Math.ceil((now.getTime() + 1) / 60_000) * 60_000);
  return { preset, from: from.toISOString(), to: to.toISOString() };
}

/** A custom period from two ISO instants; null unless both are valid and in order. */
export function customRange(from: string | null, to: string | null): Period | null {
  if (!from || !to) return null;
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (Number.isNaN(start) || Number.isNaN(end) || start >= end) return null;
  return { preset: 'custom', from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}
