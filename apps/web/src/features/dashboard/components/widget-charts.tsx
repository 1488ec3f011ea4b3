import { BarChart, DonutChart } from '@mantine/charts';
import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  type AlertSeverity,
  type AlertStatus,
  type WidgetCategoryData,
  type WidgetDurationData,
  type WidgetKind,
  type WidgetSeriesData,
} from '@vigil/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Camelize } from '../../../lib/http';
import { categoryUrl, seriesUrl } from '../lib/pivots';
import { chartColour, fillSeries, formatDuration, keyColour, withShares, type SeriesRow } from '../lib/shape';

export interface ChartContext {
  kind: WidgetKind;
  from: string;
  to: string;
  companyId: number | undefined;
  timeZone: string;
}

/** The words a chart shows for one key: severities, statuses and sources are translated, the rest shown as they are. */
function useKeyLabel(kind: WidgetKind) {
  const { t } = useTranslation();
  return (key: string): string => {
    if (kind === 'alerts_by_severity' || kind === 'open_incidents_by_severity')
      return t(`triage.severity.${key as AlertSeverity}`);
    if (kind === 'open_alerts_by_status') return t(`triage.alertStatus.${key as AlertStatus}`);
    if (kind === 'ingest_rate') return t(`dashboard.sources.${key as 'network' | 'endpoint' | 'mail'}`);
    return key;
  };
}

const numberFormat = new Intl.NumberFormat('en-US');
const formatCount = (value: number) => numberFormat.format(value).replace(/,/g, '\u2009');

/** A stacked bar per bucket of the period; a click on a segment opens the list behind it. */
export function SeriesWidget({ data, context }: { data: Camelize<WidgetSeriesData>; context: ChartContext }) {
  const navigate = useNavigate();
  const label = useKeyLabel(context.kind);
  const rows = useMemo(() => fillSeries(data), [data]);
  const present = useMemo(() => new Set(data.points.map((p) => p.key)), [data]);
  // Keys with data keep their colour; keys without any are left out of the legend.
  const series = data.keys
    .map((key, index) => ({ name: key, label: label(key), color: keyColour(context.kind, key, index) }))
    .filter((s) => present.has(s.name));
  return (
    <BarChart
      h={236}
      data={rows}
      dataKey="label"
      type="stacked"
      series={series}
      withLegend
      // Severities and sources keep their own order in the legend, not the alphabet's.
      legendProps={{ verticalAlign: 'bottom', height: 36, itemSorter: null }}
      tickLine="none"
      gridAxis="x"
      strokeDasharray="3 3"
      maxBarWidth={28}
      valueFormatter={formatCount}
      xAxisProps={{ minTickGap: 12 }}
      yAxisProps={{ allowDecimals: false, width: 40 }}
      tooltipAnimationDuration={120}
      data-testid={`widget-chart-${context.kind}`}
      barProps={(s) => ({
        cursor: 'pointer',
        className: `vigil-dash-bar vigil-dash-bar--${s.name}`,
        onClick: (item: { payload?: unknown }) => {
          const row = item.payload as SeriesRow | undefined;
          if (!row || Number(row[s.name] ?? 0) === 0) return;
          const url = seriesUrl({ ...context, unit: data.unit }, s.name, row.bucket);
          if (url) void navigate(url);
        },
      })}
    />
  );
}

/** A donut of fixed keys (statuses, severities) and a legend whose rows are links to the filtered list. */
export function DonutWidget({ data, context }: { data: Camelize<WidgetCategoryData>; context: ChartContext }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const label = useKeyLabel(context.kind);
  const cells = data.items.map((item, index) => ({
    key: item.key,
    name: label(item.key),
    value: item.value,
    color: keyColour(context.kind, item.key, index),
    url: categoryUrl(context, item.key),
  }));
  const byName = new Map(cells.map((c) => [c.name, c]));
  return (
    <Group wrap="nowrap" gap="lg" align="center" className="vigil-dash-donut">
      <DonutChart
        data={cells.filter((c) => c.value > 0).map(({ name, value, color }) => ({ name, value, color }))}
        size={148}
        thickness={20}
        paddingAngle={2}
        strokeWidth={0}
        chartLabel={formatCount(data.total)}
        tooltipDataSource="segment"
        valueFormatter={formatCount}
        cellProps={(cell) => ({
          cursor: 'pointer',
          onClick: () => {
            const url = byName.get(cell.name)?.url;
            if (url) void navigate(url);
          },
        })}
      />
      <Stack gap={2} className="vigil-dash-legend" component="ul">
        {cells.map((cell) => (
          <li key={cell.key}>
            <UnstyledButton
              component={Link}
              to={cell.url ?? '#'}
              className="vigil-dash-legend__row"
              data-key={cell.key}
              aria-label={`${cell.name}: ${cell.value}`}
            >
              <span className="vigil-dash-swatch" style={{ background: cell.color }} aria-hidden="true" />
              <Text span size="sm" className="vigil-dash-legend__label">
                {cell.name}
              </Text>
              <Text span size="sm" fw={600} className="vigil-dash-number">
                {formatCount(cell.value)}
              </Text>
            </UnstyledButton>
          </li>
        ))}
        <li className="vigil-dash-legend__total">
          <Text span size="xs" c="dimmed">
            {t('dashboard.widget.total')}
          </Text>
          <Text span size="xs" c="dimmed" className="vigil-dash-number">
            {formatCount(data.total)}
          </Text>
        </li>
      </Stack>
    </Group>
  );
}

/** Which of the theme's series colours each ranked list draws its bars with (0-based). */
const topListColour: Partial<Record<WidgetKind, number>> = {
  top_signatures: 4,
  top_hosts: 1,
  top_source_ips: 0,
  top_destination_ips: 5,
};

/** A ranked list: each row a link to the filtered list, with a bar as long as its share of the first. */
export function TopListWidget({ data, context }: { data: Camelize<WidgetCategoryData>; context: ChartContext }) {
  const { t } = useTranslation();
  const colour = chartColour(topListColour[context.kind] ?? 0);
  const mono = context.kind === 'top_source_ips' || context.kind === 'top_destination_ips';
  return (
    <ol className="vigil-dash-top">
      {withShares(data).map((item) => (
        <li key={item.key}>
          <Link
            to={categoryUrl(context, item.key) ?? '#'}
            className="vigil-dash-top__row"
            data-key={item.key}
            title={item.key}
          >
            <span className={`vigil-dash-top__label${mono ? ' vigil-dash-top__label--mono' : ''}`}>{item.key}</span>
            <span className="vigil-dash-number vigil-dash-top__value">{formatCount(item.value)}</span>
            <span className="vigil-dash-top__track" aria-hidden="true">
              <span
                className="vigil-dash-top__bar"
                style={{ width: `${Math.max(item.share * 100, 1.5)}%`, background: colour }}
              />
            </span>
            {item.secondary !== undefined && (
              <span className="vigil-dash-top__secondary">
                {context.kind === 'top_hosts'
                  ? `${t('dashboard.widget.alertsCount', { count: item.value })} · ${t('dashboard.widget.eventsCount', { count: item.secondary })}`
                  : `${t('dashboard.widget.eventsCount', { count: item.value })} · ${t('dashboard.widget.alertsCount', { count: item.secondary })}`}
              </span>
            )}
          </Link>
        </li>
      ))}
    </ol>
  );
}

/** Median and 90th percentile of a duration, and how many alerts they are over. */
export function DurationWidget({ data }: { data: Camelize<WidgetDurationData> }) {
  const { t } = useTranslation();
  const units = {
    day: t('dashboard.units.day'),
    hour: t('dashboard.units.hour'),
    minute: t('dashboard.units.minute'),
    second: t('dashboard.units.second'),
  };
  const show = (seconds: number | null) =>
    seconds === null ? t('dashboard.widget.notYet') : formatDuration(seconds, units);
  return (
    <Stack gap="md" className="vigil-dash-duration">
      <Group gap="xl" wrap="wrap" align="flex-end">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('dashboard.widget.median')}
          </Text>
          <Text className="vigil-dash-duration__value" data-testid="duration-median">
            {show(data.medianSeconds)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('dashboard.widget.p90')}
          </Text>
          <Text className="vigil-dash-duration__value vigil-dash-duration__value--secondary">
            {show(data.p90Seconds)}
          </Text>
        </div>
      </Group>
      <div>
        <div className="vigil-dash-progress" aria-hidden="true">
          <span
            style={{
              width: `${(data.measured / Math.max(1, data.measured + data.pending)) * 100}%`,
              background: chartColour(1),
            }}
          />
        </div>
        <Group justify="space-between" mt={6} gap="xs">
          <Text size="xs" c="dimmed">
            {t('dashboard.widget.measured', { measured: data.measured, total: data.measured + data.pending })}
          </Text>
          {data.pending > 0 && (
            <Text size="xs" c="dimmed">
              {t('dashboard.widget.pending', { count: data.pending })}
            </Text>
          )}
        </Group>
      </div>
    </Stack>
  );
}
