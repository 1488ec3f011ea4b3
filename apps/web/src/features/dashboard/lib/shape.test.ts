import { describe, expect, it } from 'vitest';
import { customRange, presetRange } from './period';
import { categoryUrl, seriesUrl } from './pivots';
import {
  bucketEnd,
  bucketStarts,
  chartColour,
  defaultSize,
  fillSeries,
  formatDuration,
  keyColour,
  moveItem,
  withShares,
} from './shape';

const units = { day: 'd', hour: 'h', minute: 'min', second: 's' };

describe('bucket filling', () => {
  it('fills every hour of the period with zero for every key, adding the points where they fall', () => {
    const rows = fillSeries({
      shape: 'series',
      kind: 'alerts_by_severity',
      unit: 'hour',
      timeZone: 'UTC',
      from: '2025-01-10T08:00:00.000Z',
      to: '2025-01-10T12:00:00.000Z',
      keys: ['critical', 'high'],
      points: [
        { bucket: '2025-01-10T09:00:00.000Z', key: 'high', value: 2 },
        { bucket: '2025-01-10T11:00:00.000Z', key: 'critical', value: 1 },
        { bucket: '2025-01-10T11:00:00.000Z', key: 'high', value: 4 },
      ],
    });
    expect(rows).toEqual([
      { bucket: '2025-01-10T08:00:00.000Z', label: '08:00', critical: 0, high: 0 },
      { bucket: '2025-01-10T09:00:00.000Z', label: '09:00', critical: 0, high: 2 },
      { bucket: '2025-01-10T10:00:00.000Z', label: '10:00', critical: 0, high: 0 },
      { bucket: '2025-01-10T11:00:00.000Z', label: '11:00', critical: 1, high: 4 },
    ]);
  });

  it("makes day buckets at the zone's midnights and labels them in the zone", () => {
    // 21:00 UTC is midnight in Moscow (UTC+3).
    expect(bucketStarts('2025-01-19T21:00:00Z', '2025-01-22T21:00:00Z', 'day', 'Europe/Moscow')).toEqual([
      '2025-01-19T21:00:00.000Z',
      '2025-01-20T21:00:00.000Z',
      '2025-01-21T21:00:00.000Z',
    ]);
    const rows = fillSeries({
      shape: 'series',
      kind: 'alerts_by_severity',
      unit: 'day',
      timeZone: 'Europe/Moscow',
      from: '2025-01-19T21:00:00Z',
      to: '2025-01-22T21:00:00Z',
      keys: ['low'],
      points: [{ bucket: '2025-01-20T21:00:00.000Z', key: 'low', value: 1 }],
    });
    expect(rows.map((r) => [r.label, r.low])).toEqual([
      ['20.01', 0],
      ['21.01', 1],
      ['22.01', 0],
    ]);
  });

  it('keeps days whole across a daylight saving change', () => {
    // Europe/Berlin moves to summer time on 30 March 2025: that day has 23 hours.
    const starts = bucketStarts('2025-03-28T23:00:00Z', '2025-04-01T00:00:00Z', 'day', 'Europe/Berlin');
    expect(starts).toEqual([
      '2025-03-28T23:00:00.000Z',
      '2025-03-29T23:00:00.000Z',
      '2025-03-30T22:00:00.000Z',
      '2025-03-31T22:00:00.000Z',
    ]);
    expect(bucketEnd('2025-03-29T23:00:00.000Z', 'day', 'Europe/Berlin')).toBe('2025-03-30T22:00:00.000Z');
    expect(bucketEnd('2025-03-29T23:00:00.000Z', 'hour', 'Europe/Berlin')).toBe('2025-03-30T00:00:00.000Z');
  });
});

describe('colours', () => {
  it('gives severities and statuses the colours they have across the console', () => {
    expect(keyColour('alerts_by_severity', 'critical', 0)).toBe('var(--vigil-status-red)');
    expect(keyColour('open_incidents_by_severity', 'medium', 2)).toBe('var(--vigil-status-yellow)');
    expect(keyColour('open_alerts_by_status', 'in_progress', 1)).toBe('var(--vigil-status-yellow)');
    expect(keyColour('open_alerts_by_status', 'new', 0)).toBe('var(--vigil-status-blue)');
  });

  it("uses the theme's 17 series colours in order for other keys, then starts over", () => {
    expect(keyColour('ingest_rate', 'network', 0)).toBe('var(--vigil-chart-1)');
    expect(keyColour('ingest_rate', 'mail', 2)).toBe('var(--vigil-chart-3)');
    expect(chartColour(16)).toBe('var(--vigil-chart-17)');
    expect(chartColour(17)).toBe('var(--vigil-chart-1)');
  });
});

describe('shaping helpers', () => {
  it('gives each ranked item its share of the largest', () => {
    expect(
      withShares({
        shape: 'categories',
        kind: 'top_hosts',
        total: 6,
        items: [
          { key: 'a', value: 4 },
          { key: 'b', value: 2, secondary: 9 },
        ],
      }),
    ).toEqual([
      { key: 'a', value: 4, share: 1 },
      { key: 'b', value: 2, secondary: 9, share: 0.5 },
    ]);
  });

  it('writes durations in their two largest units', () => {
    expect(formatDuration(0, units)).toBe('0 s');
    expect(formatDuration(45, units)).toBe('45 s');
    expect(formatDuration(150, units)).toBe('2 min 30 s');
    expect(formatDuration(3_900, units)).toBe('1 h 5 min');
    expect(formatDuration(3_600, units)).toBe('1 h');
    expect(formatDuration(187_200, units)).toBe('2 d 4 h');
  });

  it('moves an item and keeps the rest in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
  });

  it('sizes new widgets by what they show', () => {
    expect(defaultSize('alerts_by_severity')).toBe('full');
    expect(defaultSize('top_source_ips')).toBe('half');
    expect(defaultSize('time_to_resolve')).toBe('third');
  });
});

describe('periods', () => {
  const now = new Date('2025-01-10T10:17:30Z');
  it('covers whole hours or whole days of the zone up to now', () => {
    expect(presetRange('24h', now, 'UTC')).toEqual({
      preset: '24h',
      from: '2025-01-09T11:00:00.000Z',
      to: '2025-01-10T10:18:00.000Z',
    });
    expect(presetRange('7d', now, 'Europe/Moscow').from).toBe('2025-01-03T21:00:00.000Z');
    expect(presetRange('30d', now, 'UTC').from).toBe('2024-12-12T00:00:00.000Z');
  });

  it('accepts a custom period only when it is in order', () => {
    expect(customRange('2025-01-02T00:00:00Z', '2025-01-01T00:00:00Z')).toBeNull();
    expect(customRange('soon', '2025-01-01T00:00:00Z')).toBeNull();
    expect(customRange('2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z')?.to).toBe('2025-01-02T00:00:00.000Z');
  });
});

describe('where a chart leads', () => {
  const context = { from: '2025-01-10T00:00:00.000Z', to: '2025-01-11T00:00:00.000Z', companyId: undefined };
  it('opens the alerts of a severity and bucket', () => {
    const url = seriesUrl(
      { ...context, kind: 'alerts_by_severity', unit: 'hour', timeZone: 'UTC' },
      'high',
      '2025-01-10T10:00:00.000Z',
    );
    expect(url).toBe(
      '/alerts?severity=high&first_seen_from=2025-01-10T10%3A00%3A00.000Z&first_seen_to=2025-01-10T10%3A59%3A59.999Z',
    );
  });

  it('opens lists filtered by status, severity, address, host and signature', () => {
    expect(categoryUrl({ ...context, kind: 'open_alerts_by_status', companyId: 4 }, 'new')).toBe(
      '/alerts?status=new&company_id=4',
    );
    expect(categoryUrl({ ...context, kind: 'open_incidents_by_severity' }, 'critical')).toBe(
      '/incidents?severity=critical&status=open&status=investigating&status=contained',
    );
    expect(categoryUrl({ ...context, kind: 'top_source_ips' }, '10.0.0.1')).toMatch(
      /^\/investigation\/network\?src_ip=10\.0\.0\.1&ts_from=/,
    );
    expect(categoryUrl({ ...context, kind: 'top_hosts' }, 'ws-01')).toMatch(
      /^\/investigation\/endpoint-events\?host_name=ws-01&/,
    );
    expect(categoryUrl({ ...context, kind: 'top_signatures' }, 'ET SCAN Nmap')).toBe('/alerts?search=ET+SCAN+Nmap');
  });
});
