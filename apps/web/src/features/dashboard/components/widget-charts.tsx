/** The widgets drawn with the chart library; loaded with the first chart, not before the dashboard. */
import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { AlertSeverity, AlertStatus, WidgetCategoryData, WidgetKind, WidgetSeriesData } from '@vigil/contract';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate } from '../../../lib/router';
import type { Camelize } from '../../../lib/http';
import { categoryUrl, seriesUrl } from '../lib/pivots';
import { fillSeries, keyColour, type SeriesRow } from '../lib/shape';
import { formatCount, type ChartContext } from './widget-lists';

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
