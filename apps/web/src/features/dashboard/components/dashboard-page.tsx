import './dashboard.css';
import {
  ActionIcon,
  Button,
  Group,
  Menu,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconLayoutDashboard, IconPlus, IconRefresh } from '@tabler/icons-react';
import type { WidgetKind, WidgetSize } from '@vigil/contract';
import { widgetKinds } from '@vigil/contract/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useSearchParams } from '../../../lib/router';
import { LoadError } from '../../../components/list/list-error';
import { PageHeader } from '../../../components/ui/page-header';
import { getTimeZone, isoToZonedInput, zonedInputToIso } from '../../../lib/dates';
import { ApiError } from '../../../lib/http';
import { useLiveEvents } from '../../../lib/live';
import { notify } from '../../../lib/notifications';
import { usePermission } from '../../../lib/permissions';
import { useSignedInUser } from '../../../lib/session';
import { createWidget, deleteWidget, fetchWidgets, saveLayout, widgetKeys, type Widget } from '../api/widgets';
import { customRange, isPeriodPreset, presetRange, type Period, type PeriodPreset } from '../lib/period';
import { defaultSize, moveItem } from '../lib/shape';
import { WidgetCard } from './widget-card';
import { DateTimeInput } from '../../../lib/dates/date-time-field';

/** The period and company of the dashboard, kept in the URL (`?period=7d&company=3`, `?period=custom&from=…&to=…`). */
function useDashboardScope() {
  const [params, setParams] = useSearchParams();
  const rawPreset = params.get('period');
  const preset: PeriodPreset = isPeriodPreset(rawPreset) ? rawPreset : '24h';
  const rawCompany = Number(params.get('company'));
  const companyId = Number.isInteger(rawCompany) && rawCompany > 0 ? rawCompany : undefined;
  const zone = getTimeZone();
  // Presets are read against the clock once per choice (and on refresh), so queries keep one key meanwhile.
  const [tick, setTick] = useState(0);
  const fromParam = params.get('from');
  const toParam = params.get('to');
  const period = useMemo<Period | null>(
    () => (preset === 'custom' ? customRange(fromParam, toParam) : presetRange(preset, new Date(), zone)),
    // `tick` changes to ask for a fresh "now".
    [preset, fromParam, toParam, zone, tick],
  );
  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  return { preset, period, companyId, zone, update, refresh, fromParam, toParam };
}

interface NewWidget {
  kind: WidgetKind;
  size: WidgetSize;
  /** Stands for the widget until the server answers with its id. */
  tempId: number;
}

/** What went wrong, in the server's words: the first field error, else its sentence. */
function reasonOf(error: unknown): string {
  if (!(error instanceof ApiError)) return '';
  const field = Object.values(error.fieldErrors).flat()[0];
  return field ?? error.detail ?? error.message;
}

/** The least time between two refreshes caused by live updates. */
const LIVE_REFRESH_MS = 10_000;

/**
 * Refreshes the charts when alerts or incidents change (of the chosen company, or any), at most
 * once per LIVE_REFRESH_MS; presets are read against the clock again so new alerts fall inside.
 */
function useLiveRefresh(companyId: number | undefined, refresh: () => void) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents(['alert.created', 'alert.updated', 'incident.created', 'incident.updated'], (event) => {
    if (companyId !== undefined && event.companyId !== companyId) return;
    if (timer.current !== undefined) return;
    const wait = Math.max(0, last.current + LIVE_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      refresh();
    }, wait);
  });
}

/** Dashboard: the user's widgets over a period, arranged by the user and saved per user. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const scope = useDashboardScope();
  const mayAdd = usePermission({ action: 'add', subject: 'widgets' });
  const mayChange = usePermission({ action: 'change', subject: 'widgets' });
  const mayRemove = usePermission({ action: 'delete', subject: 'widgets' });
  const widgets = useQuery({ queryKey: widgetKeys.list, queryFn: ({ signal }) => fetchWidgets(signal) });
  const list = useMemo(() => widgets.data ?? [], [widgets.data]);
  const manyCompanies = me.allCompanies || me.companies.length > 1;
  const { refresh } = scope;
  const refreshData = useCallback(() => {
    refresh();
    void queryClient.invalidateQueries({ queryKey: ['widgets', 'data'] });
  }, [queryClient, refresh]);
  useLiveRefresh(scope.companyId, refreshData);
  const temporaryId = useRef(-1);

  const setList = useCallback(
    (next: Widget[]) => queryClient.setQueryData<Widget[]>(widgetKeys.list, next),
    [queryClient],
  );
  const restore = (title: string) => (error: unknown, _variables: unknown, previous: Widget[] | undefined) => {
    if (previous) setList(previous);
    notify({
      type: 'error',
      title,
      message: t('dashboard.notifications.restored', { reason: reasonOf(error) }).trim(),
    });
  };
  const snapshot = async () => {
    await queryClient.cancelQueries({ queryKey: widgetKeys.list });
    return queryClient.getQueryData<Widget[]>(widgetKeys.list);
  };

  const add = useMutation<Widget, unknown, NewWidget, Widget[] | undefined>({
    mutationFn: (variables) => createWidget({ kind: variables.kind, size: variables.size }),
    onMutate: async (variables) => {
      const previous = await snapshot();
      const now = new Date().toISOString();
      setList([
        ...(previous ?? []),
        {
          id: variables.tempId,
          kind: variables.kind,
          size: variables.size,
          position: previous?.length ?? 0,
          settings: {},
          createdAt: now,
          updatedAt: now,
        },
      ]);
      return previous;
    },
    onSuccess: (created, variables) => {
      const current = queryClient.getQueryData<Widget[]>(widgetKeys.list) ?? [];
      setList(current.map((w) => (w.id === variables.tempId ? created : w)));
    },
    onError: restore(t('dashboard.notifications.addFailed')),
  });

  const remove = useMutation<void, unknown, number, Widget[] | undefined>({
    mutationFn: (id) => deleteWidget(id),
    onMutate: async (id) => {
      const previous = await snapshot();
      setList((previous ?? []).filter((w) => w.id !== id));
      return previous;
    },
    onError: restore(t('dashboard.notifications.removeFailed')),
  });

  const layout = useMutation<Widget[], unknown, Widget[], Widget[] | undefined>({
    // Calls run one after another (one scope), so quick successive moves end in the last one.
    mutationFn: (next) => saveLayout(next),
    scope: { id: 'dashboard-layout' },
    onMutate: async (next) => {
      const previous = await snapshot();
      setList(next);
      return previous;
    },
    onError: restore(t('dashboard.notifications.layoutFailed')),
  });

  const hasPending = list.some((w) => w.id < 0);
  const move = useCallback(
    (from: number, to: number) => {
      if (hasPending || from === to) return;
      layout.mutate(moveItem(list, from, to).map((w, position) => ({ ...w, position })));
    },
    [hasPending, layout, list],
  );
  const resize = useCallback(
    (id: number, size: WidgetSize) => {
      if (hasPending) return;
      layout.mutate(list.map((w) => (w.id === id ? { ...w, size } : w)));
    },
    [hasPending, layout, list],
  );
  const removeOne = useCallback((id: number) => remove.mutate(id), [remove]);

  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  const endDrag = useCallback(() => {
    setDragFrom(null);
    setDragOver(null);
  }, []);
  const drop = useCallback(
    (index: number, draggedId: number | null) => {
      // The drag data names the widget; the state set at dragstart is the fallback (a drop that
      // comes before the render after dragstart still lands).
      const fromData = draggedId === null ? -1 : list.findIndex((w) => w.id === draggedId);
      const from = fromData >= 0 ? fromData : dragFrom;
      if (from !== null) move(from, index);
      endDrag();
    },
    [dragFrom, endDrag, list, move],
  );

  const context = useMemo(
    () =>
      scope.period
        ? { from: scope.period.from, to: scope.period.to, companyId: scope.companyId, timeZone: scope.zone }
        : null,
    [scope.period, scope.companyId, scope.zone],
  );

  const companyOptions = useMemo(
    () => [
      { value: '', label: t('dashboard.company.all') },
      ...me.companies.map((company) => ({ value: String(company.id), label: company.name })),
    ],
    [me.companies, t],
  );

  const customInvalid = scope.preset === 'custom' && !scope.period && Boolean(scope.fromParam && scope.toParam);

  return (
    <Stack gap="lg" className="vigil-dash">
      <PageHeader
        title={t('dashboard.title')}
        subtitle={t('dashboard.subtitle')}
        actions={
          mayAdd && (
            <Menu position="bottom-end" shadow="md" width={280} withinPortal>
              <Menu.Target>
                <Button leftSection={<IconPlus size={16} />} data-testid="widget-add" disabled={hasPending}>
                  {t('dashboard.add')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{t('dashboard.addTitle')}</Menu.Label>
                {widgetKinds.map((kind) => (
                  <Menu.Item
                    key={kind}
                    data-testid={`widget-add-${kind}`}
                    onClick={() => add.mutate({ kind, size: defaultSize(kind), tempId: temporaryId.current-- })}
                  >
                    <Text size="sm">{t(`dashboard.kinds.${kind}.title`)}</Text>
                    <Text size="xs" c="dimmed">
                      {t(`dashboard.kinds.${kind}.description`)}
                    </Text>
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end" className="vigil-dash-toolbar">
        <SegmentedControl
          aria-label={t('dashboard.period.label')}
          value={scope.preset}
          onChange={(value) => {
            if (!isPeriodPreset(value)) return;
            if (value === 'custom') {
              const start = scope.period ?? presetRange('24h', new Date(), scope.zone);
              scope.update({ period: 'custom', from: start.from, to: start.to });
            } else {
              scope.update({ period: value === '24h' ? null : value, from: null, to: null });
              scope.refresh();
            }
          }}
          data={(['24h', '7d', '30d', 'custom'] as const).map((value) => ({
            value,
            label: t(`dashboard.period.${value}`),
          }))}
          data-testid="dashboard-period"
        />
        {scope.preset === 'custom' && (
          <>
            <DateTimeInput
              size="sm"
              label={t('dashboard.period.from')}
              value={isoToZonedInput(scope.fromParam)}
              onChange={(value) => scope.update({ from: zonedInputToIso(value) })}
              error={customInvalid ? t('dashboard.period.invalid') : undefined}
              data-testid="dashboard-from"
            />
            <DateTimeInput
              size="sm"
              label={t('dashboard.period.to')}
              value={isoToZonedInput(scope.toParam)}
              onChange={(value) => scope.update({ to: zonedInputToIso(value) })}
              data-testid="dashboard-to"
            />
          </>
        )}
        {manyCompanies && (
          <Select
            size="sm"
            aria-label={t('dashboard.company.label')}
            placeholder={t('dashboard.company.all')}
            data={companyOptions}
            value={scope.companyId === undefined ? '' : String(scope.companyId)}
            onChange={(value) => scope.update({ company: value || null })}
            allowDeselect={false}
            searchable
            w={220}
            data-testid="dashboard-company"
          />
        )}
        <Tooltip label={t('dashboard.refresh')}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t('dashboard.refresh')}
            onClick={refreshData}
            data-testid="dashboard-refresh"
          >
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>

      {widgets.isError ? (
        <LoadError
          message={reasonOf(widgets.error) || t('dashboard.loadFailed')}
          onRetry={() => void widgets.refetch()}
        />
      ) : widgets.isPending ? (
        <div className="vigil-dash-grid" aria-busy="true">
          {(['full', 'third', 'third', 'third'] as const).map((size, index) => (
            <div key={index} className={`vigil-dash-card vigil-dash-card--${size}`}>
              <Skeleton height={18} width="45%" radius="sm" />
              <Skeleton height={170} mt="md" radius="sm" />
            </div>
          ))}
        </div>
      ) : list.length === 0 ? (
        <Stack align="center" gap="xs" className="vigil-dash-empty" data-testid="dashboard-empty">
          <IconLayoutDashboard size={40} stroke={1.3} className="vigil-dash-state__icon" />
          <Text fw={600}>{t('dashboard.empty.title')}</Text>
          <Text size="sm" c="dimmed" ta="center" maw={420}>
            {t('dashboard.empty.text')}
          </Text>
        </Stack>
      ) : context ? (
        <div className="vigil-dash-grid" data-testid="dashboard-grid">
          {list.map((widget, index) => (
            <WidgetCard
              key={widget.id}
              widget={widget}
              index={index}
              count={list.length}
              context={context}
              mayChange={mayChange}
              mayRemove={mayRemove}
              dragging={dragFrom === index}
              dropTarget={dragOver === index && dragFrom !== null && dragFrom !== index}
              onMove={move}
              onResize={resize}
              onRemove={removeOne}
              onDragStart={setDragFrom}
              onDragOver={setDragOver}
              onDrop={drop}
              onDragEnd={endDrag}
            />
          ))}
        </div>
      ) : null}
    </Stack>
  );
}
