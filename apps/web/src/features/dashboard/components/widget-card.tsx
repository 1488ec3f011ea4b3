import { ActionIcon, Button, Menu, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconAlertCircle,
  IconArrowLeft,
  IconArrowRight,
  IconCheck,
  IconChartBar,
  IconDots,
  IconGripVertical,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import type { WidgetKind, WidgetSize } from '@vigil/contract';
import { snapshotWidgetKinds, widgetSizes } from '@vigil/contract/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, memo, Suspense, type DragEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { fetchWidgetData, widgetKeys, type Widget } from '../api/widgets';
import { DurationWidget, TopListWidget, type ChartContext } from './widget-lists';

/** The chart library comes with the first chart that needs it, so the dashboard is usable before it arrives. */
const SeriesWidget = lazy(() => import('./widget-charts').then((module) => ({ default: module.SeriesWidget })));
const DonutWidget = lazy(() => import('./widget-charts').then((module) => ({ default: module.DonutWidget })));

const DATA_STALE_MS = 30_000;

const isSnapshot = (kind: WidgetKind) => (snapshotWidgetKinds as readonly WidgetKind[]).includes(kind);

/** The chart of one widget: its own query, so one failing widget leaves the others alone. */
function WidgetBody({ widget, context }: { widget: Widget; context: ChartContext }) {
  const { t } = useTranslation();
  const request = {
    kind: widget.kind,
    from: context.from,
    to: context.to,
    timeZone: context.timeZone,
    ...(context.companyId !== undefined ? { companyId: context.companyId } : {}),
    ...(widget.settings.limit !== undefined ? { limit: widget.settings.limit } : {}),
  };
  const query = useQuery({
    queryKey: widgetKeys.data(request),
    queryFn: ({ signal }) => fetchWidgetData(request, signal),
    staleTime: DATA_STALE_MS,
    retry: 1,
    // A refresh (live update, new "now") keeps the chart on screen until the new answer arrives.
    placeholderData: keepPreviousData,
  });
  if (query.isPending) {
    return (
      <Stack gap={10} className="vigil-dash-skeleton" aria-busy="true" data-testid="widget-loading">
        <Skeleton height={14} width="40%" radius="sm" />
        <Skeleton height={widget.kind.startsWith('top_') ? 18 : 150} radius="sm" />
        <Skeleton height={14} width="70%" radius="sm" />
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack align="center" justify="center" gap="xs" className="vigil-dash-state" role="alert">
        <IconAlertCircle size={28} stroke={1.5} className="vigil-dash-state__icon vigil-dash-state__icon--error" />
        <Text size="sm">{t('dashboard.widget.error')}</Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          onClick={() => void query.refetch()}
          loading={query.isFetching}
        >
          {t('dashboard.widget.retry')}
        </Button>
      </Stack>
    );
  }
  const data = query.data;
  const empty =
    (data.shape === 'series' && data.points.length === 0) ||
    (data.shape === 'categories' && data.items.every((item) => item.value === 0)) ||
    (data.shape === 'duration' && data.measured + data.pending === 0);
  if (empty) {
    return (
      <Stack align="center" justify="center" gap={6} className="vigil-dash-state" data-testid="widget-empty">
        <IconChartBar size={28} stroke={1.5} className="vigil-dash-state__icon" />
        <Text size="sm" c="dimmed" ta="center">
          {t(`dashboard.widget.noData.${widget.kind}`)}
        </Text>
      </Stack>
    );
  }
  switch (data.shape) {
    case 'series':
      return (
        <Suspense fallback={<Skeleton height="100%" mih={160} />}>
          <SeriesWidget data={data} context={context} />
        </Suspense>
      );
    case 'categories':
      return widget.kind.startsWith('top_') ? (
        <TopListWidget data={data} context={context} />
      ) : (
        <Suspense fallback={<Skeleton height="100%" mih={160} />}>
          <DonutWidget data={data} context={context} />
        </Suspense>
      );
    case 'duration':
      return <DurationWidget data={data} />;
  }
}

export interface WidgetCardProps {
  widget: Widget;
  index: number;
  count: number;
  context: Omit<ChartContext, 'kind'>;
  mayChange: boolean;
  mayRemove: boolean;
  dragging: boolean;
  dropTarget: boolean;
  onMove: (from: number, to: number) => void;
  onResize: (id: number, size: WidgetSize) => void;
  onRemove: (id: number) => void;
  onDragStart: (index: number) => void;
  onDragOver: (index: number) => void;
  /** `draggedId` is the widget named by the drag data, when the drag came from a widget's grip. */
  onDrop: (index: number, draggedId: number | null) => void;
  onDragEnd: () => void;
}

/** A widget on the dashboard: title, actions (width, move, remove) and its chart. */
export const WidgetCard = memo(function WidgetCard(props: WidgetCardProps) {
  const { widget, index, count, mayChange, mayRemove } = props;
  const { t } = useTranslation();
  const title = widget.settings.title || t(`dashboard.kinds.${widget.kind}.title`);
  const pending = widget.id < 0;
  const context: ChartContext = { ...props.context, kind: widget.kind };
  const dragProps = mayChange && !pending && count > 1;
  const onDragOver = (event: DragEvent) => {
    if (!dragProps) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    props.onDragOver(index);
  };
  return (
    <section
      className={`vigil-dash-card vigil-dash-card--${widget.size}${props.dragging ? ' vigil-dash-card--dragging' : ''}${props.dropTarget ? ' vigil-dash-card--target' : ''}`}
      aria-label={title}
      data-testid="widget"
      data-kind={widget.kind}
      data-size={widget.size}
      onDragOver={onDragOver}
      onDrop={(event) => {
        if (!dragProps) return;
        event.preventDefault();
        const dragged = Number.parseInt(event.dataTransfer.getData('application/x-vigil-widget'), 10);
        props.onDrop(index, Number.isSafeInteger(dragged) ? dragged : null);
      }}
    >
      <header className="vigil-dash-card__header">
        {dragProps && (
          <Tooltip label={t('dashboard.actions.drag', { title })} openDelay={600} withinPortal>
            <span
              className="vigil-dash-card__grip"
              draggable
              aria-hidden="true"
              data-testid="widget-grip"
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', String(widget.id));
                event.dataTransfer.setData('application/x-vigil-widget', String(widget.id));
                const card = event.currentTarget.closest('section');
                if (card) event.dataTransfer.setDragImage(card, 24, 24);
                props.onDragStart(index);
              }}
              onDragEnd={props.onDragEnd}
            >
              <IconGripVertical size={16} />
            </span>
          </Tooltip>
        )}
        <div className="vigil-dash-card__titles">
          <h2 className="vigil-dash-card__title">{title}</h2>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {isSnapshot(widget.kind) ? t('dashboard.now') : t(`dashboard.kinds.${widget.kind}.description`)}
          </Text>
        </div>
        {(mayChange || mayRemove) && !pending && (
          <Menu position="bottom-end" withinPortal shadow="md" width={200}>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`${t('dashboard.actions.menu')}: ${title}`}
                data-testid="widget-menu"
              >
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {mayChange && (
                <>
                  <Menu.Label>{t('dashboard.sizes.label')}</Menu.Label>
                  {widgetSizes.map((size) => (
                    <Menu.Item
                      key={size}
                      leftSection={
                        size === widget.size ? <IconCheck size={14} /> : <span className="vigil-dash-menu-gap" />
                      }
                      onClick={() => size !== widget.size && props.onResize(widget.id, size)}
                      data-testid={`widget-size-${size}`}
                    >
                      {t(`dashboard.sizes.${size}`)}
                    </Menu.Item>
                  ))}
                  <Menu.Divider />
                  <Menu.Item
                    leftSection={<IconArrowLeft size={14} />}
                    disabled={index === 0}
                    onClick={() => props.onMove(index, index - 1)}
                    data-testid="widget-move-left"
                  >
                    {t('dashboard.actions.moveLeft')}
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconArrowRight size={14} />}
                    disabled={index === count - 1}
                    onClick={() => props.onMove(index, index + 1)}
                    data-testid="widget-move-right"
                  >
                    {t('dashboard.actions.moveRight')}
                  </Menu.Item>
                </>
              )}
              {mayRemove && (
                <>
                  {mayChange && <Menu.Divider />}
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    onClick={() => props.onRemove(widget.id)}
                    data-testid="widget-remove"
                  >
                    {t('dashboard.actions.remove')}
                  </Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </header>
      <div className="vigil-dash-card__body">
        <WidgetBody widget={widget} context={context} />
      </div>
    </section>
  );
});
