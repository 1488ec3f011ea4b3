import { Group, Stack, Text } from '@mantine/core';
import type { WidgetCategoryData, WidgetDurationData, WidgetKind } from '@vigil/contract';
import { useTranslation } from '../../../lib/i18n';
import { Link } from '../../../lib/router';
import type { Camelize } from '../../../lib/http';
import { categoryUrl } from '../lib/pivots';
import { chartColour, formatDuration, withShares } from '../lib/shape';

export interface ChartContext {
  kind: WidgetKind;
  from: string;
  to: string;
  companyId: number | undefined;
  timeZone: string;
}

const numberFormat = new Intl.NumberFormat('en-US');
export const formatCount = (value: number) => numberFormat.format(value).replace(/,/g, '\u2009');

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
