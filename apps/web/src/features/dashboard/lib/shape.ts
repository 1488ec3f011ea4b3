import type {
  AlertSeverity,
  AlertStatus,
  WidgetBucketUnit,
  WidgetCategoryData,
  WidgetKind,
  WidgetSeriesData,
  WidgetSize,
} from '@vigil/contract';
import { addZonedDays, startOfZoned, zonedParts } from '../../../lib/dates/zoned';
import type { Camelize } from '../../../lib/http';
import { alertStatusColor, severityCssColor } from '../../triage';

/** How many series colours the theme has (`--vigil-chart-1` … `--vigil-chart-17`). */
export const CHART_COLOURS = 17;

/** The n-th series colour of the theme (0-based), cycling after the 17th. */
export const chartColour = (index: number) =>
  `var(--vigil-chart-${(((index % CHART_COLOURS) + CHART_COLOURS) % CHART_COLOURS) + 1})`;

const severities: readonly string[] = ['info', 'low', 'medium', 'high', 'critical'];
const alertStatuses: readonly string[] = ['new', 'in_progress', 'resolved', 'closed'];

/**
 * The colour of one key of a widget: severities and alert statuses keep the colours they have on
 * every page of the console; other keys take the theme's series colours in order.
 */
export function keyColour(kind: WidgetKind, key: string, index: number): string {
  if ((kind === 'alerts_by_severity' || kind === 'open_incidents_by_severity') && severities.includes(key))
    return severityCssColor(key as AlertSeverity);
  if (kind === 'open_alerts_by_status' && alertStatuses.includes(key))
    return `var(--vigil-status-${alertStatusColor[key as AlertStatus]})`;
  return chartColour(index);
}

/** One bar (bucket) of a series chart: its first instant, the axis label, and a count per key. */
export interface SeriesRow {
  bucket: string;
  label: string;
  [key: string]: number | string;
}

/** First instants of every bucket from `from` to `to`, in the zone (days follow the zone's midnights). */
export function bucketStarts(from: string, to: string, unit: WidgetBucketUnit, zone: string): string[] {
  const end = Date.parse(to);
  const starts: string[] = [];
  let current = startOfZoned(Date.parse(from), unit, zone);
  // A bounded walk: periods are at most 366 days, so at most ~8,800 hours.
  for (let guard = 0; current.getTime() < end && guard < 10_000; guard++) {
    starts.push(current.toISOString());
    current = unit === 'hour' ? new Date(current.getTime() + 3_600_000) : addZonedDays(current, 1, zone);
  }
  return starts;
}

/** The axis label of a bucket in the zone: the hour for hourly buckets, day and month for daily ones. */
export function bucketLabel(bucket: string, unit: WidgetBucketUnit, zone: string): string {
  const clock = zonedParts(new Date(bucket), zone);
  return unit === 'hour' ? `${clock.hour}:${clock.minute}` : `${clock.day}.${clock.month}`;
}

/** The first instant after a bucket, in the zone. */
export function bucketEnd(bucket: string, unit: WidgetBucketUnit, zone: string): string {
  return unit === 'hour'
    ? new Date(Date.parse(bucket) + 3_600_000).toISOString()
    : addZonedDays(Date.parse(bucket), 1, zone).toISOString();
}

/**
 * Every bucket of the period with a count for every key: the server sends only buckets that hold
 * something, a chart needs the empty ones too so the time axis is even.
 */
export function fillSeries(data: Camelize<WidgetSeriesData>): SeriesRow[] {
  const zone = data.timeZone;
  const byBucket = new Map<number, SeriesRow>();
  const empty = (bucket: string): SeriesRow => {
    const row: SeriesRow = { bucket, label: bucketLabel(bucket, data.unit, zone) };
    for (const key of data.keys) row[key] = 0;
    return row;
  };
  for (const start of bucketStarts(data.from, data.to, data.unit, zone)) byBucket.set(Date.parse(start), empty(start));
  for (const point of data.points) {
    const at = Date.parse(point.bucket);
    let row = byBucket.get(at);
    if (!row) {
      row = empty(new Date(at).toISOString());
      byBucket.set(at, row);
    }
    row[point.key] = Number(row[point.key] ?? 0) + point.value;
  }
  return [...byBucket.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

/** Total of every key of a series. */
export const seriesTotal = (data: Camelize<WidgetSeriesData>) => data.points.reduce((sum, p) => sum + p.value, 0);

/** Items with their share of the largest one (0–1), for the bars of a top list. */
export function withShares(
  data: Camelize<WidgetCategoryData>,
): { key: string; value: number; secondary?: number; share: number }[] {
  const largest = Math.max(0, ...data.items.map((item) => item.value));
  return data.items.map((item) => ({ ...item, share: largest > 0 ? item.value / largest : 0 }));
}

/** Units of a duration, as the interface language writes them. */
export interface DurationUnits {
  day: string;
  hour: string;
  minute: string;
  second: string;
}

/** A duration in its two largest units: `45 s`, `2 min 30 s`, `3 h 5 min`, `2 d 4 h`. */
export function formatDuration(seconds: number, units: DurationUnits): string {
  const total = Math.max(0, Math.round(seconds));
  const parts: [number, string][] = [
    [Math.floor(total / 86_400), units.day],
    [Math.floor((total % 86_400) / 3_600), units.hour],
    [Math.floor((total % 3_600) / 60), units.minute],
    [total % 60, units.second],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  if (first === -1) return `0 ${units.second}`;
  return parts
    .slice(first, first + 2)
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value} ${unit}`)
    .join(' ');
}

/** The size a new widget of a kind gets: time series take the whole row, rankings half, the rest a third. */
export function defaultSize(kind: WidgetKind): WidgetSize {
  if (kind === 'alerts_by_severity' || kind === 'ingest_rate') return 'full';
  if (kind.startsWith('top_')) return 'half';
  return 'third';
}

/** Moves the item at `from` to `to` (both clamped), keeping the others in order. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}
