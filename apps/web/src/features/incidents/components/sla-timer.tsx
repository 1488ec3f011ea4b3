import { Group, Progress, Text, Tooltip } from '@mantine/core';
import { IconAlarm, IconCircleCheck, IconClockExclamation } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { formatDate } from '../../../lib/dates';
import {
  formatDuration,
  formatTarget,
  isBreached,
  listSlaTimer,
  slaState,
  type DurationUnits,
  type SlaState,
  type SlaTimer,
} from '../lib/sla';

/** Unit letters of durations in the interface language. */
export function useDurationUnits(): DurationUnits {
  const { t } = useTranslation();
  return {
    day: t('incidents.units.day'),
    hour: t('incidents.units.hour'),
    minute: t('incidents.units.minute'),
    second: t('incidents.units.second'),
  };
}

const stateColor = (state: SlaState) =>
  isBreached(state) ? 'var(--vigil-status-red)' : state.kind === 'met' ? 'var(--vigil-status-green)' : undefined;

/** The sentence of a timer's state: "12m 04s left", "Breached 3m ago", "Met", "Missed by 1h". */
function useStateText() {
  const { t } = useTranslation();
  const units = useDurationUnits();
  return (state: SlaState) => {
    switch (state.kind) {
      case 'running':
        return t('incidents.sla.left', { time: formatDuration(state.remainingMs, units) });
      case 'overdue':
        return t('incidents.sla.overdue', { time: formatDuration(state.overdueMs, units) });
      case 'met':
        return t('incidents.sla.met');
      case 'missed':
        return t('incidents.sla.missed', { time: formatDuration(state.lateMs, units) });
    }
  };
}

/** One SLA timer on the incident page: what it measures, the countdown each second, and how far along it is. */
export function SlaTimerCard({
  which,
  timer,
  now,
}: {
  which: 'acknowledge' | 'resolve';
  timer: SlaTimer;
  now: number;
}) {
  const { t } = useTranslation();
  const units = useDurationUnits();
  const text = useStateText();
  const state = slaState(timer, now);
  const breached = isBreached(state);
  const created = Date.parse(timer.dueAt) - timer.targetMinutes * 60_000;
  const end = timer.doneAt ? Date.parse(timer.doneAt) : now;
  const share = Math.min(100, Math.max(0, ((end - created) / (timer.targetMinutes * 60_000)) * 100));
  const Icon = breached ? IconClockExclamation : state.kind === 'met' ? IconCircleCheck : IconAlarm;
  return (
    <div
      className="vigil-incident-sla"
      data-testid={`sla-${which}`}
      data-state={state.kind}
      data-breached={breached || undefined}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>
          {t(`incidents.sla.${which}`)}
        </Text>
        <Text size="xs" c="dimmed">
          {t('incidents.sla.target', { time: formatTarget(timer.targetMinutes, units) })}
        </Text>
      </Group>
      <Group gap={6} wrap="nowrap" mt={4} style={{ color: stateColor(state) }}>
        <Icon size={18} stroke={1.8} aria-hidden />
        <Text
          className="vigil-incident-sla__clock"
          fw={600}
          size="lg"
          c={stateColor(state)}
          data-testid={`sla-${which}-text`}
          aria-live="off"
        >
          {text(state)}
        </Text>
      </Group>
      <Progress
        mt={8}
        size="sm"
        value={share}
        color={breached ? 'red' : state.kind === 'met' ? 'green' : share > 75 ? 'orange' : 'blue'}
        aria-label={t(`incidents.sla.${which}`)}
      />
      <Text size="xs" c="dimmed" mt={6}>
        {timer.doneAt
          ? t('incidents.sla.doneAt', { date: formatDate(timer.doneAt, 'isoDateTimeSeconds') })
          : t('incidents.sla.dueAt', { date: formatDate(timer.dueAt, 'isoDateTimeSeconds') })}
      </Text>
    </div>
  );
}

/** The list's SLA column: the running (or last) timer, time left or breached, ticking with `now`. */
export function SlaCell({ sla, now }: { sla: { acknowledge: SlaTimer; resolve: SlaTimer }; now: number }) {
  const { t } = useTranslation();
  const text = useStateText();
  const { which, timer } = listSlaTimer(sla.acknowledge, sla.resolve);
  const state = slaState(timer, now);
  const breached = isBreached(state);
  const Icon = breached ? IconClockExclamation : state.kind === 'met' ? IconCircleCheck : IconAlarm;
  return (
    <Tooltip label={`${t(`incidents.sla.${which}`)} · ${formatDate(timer.dueAt, 'isoDateTime')}`} withArrow>
      <Group
        gap={6}
        wrap="nowrap"
        className="vigil-incident-sla-cell"
        data-breached={breached || undefined}
        style={{ color: stateColor(state) }}
      >
        <Icon size={16} stroke={1.8} aria-hidden />
        {/* A narrow column cuts the text: its title says it whole. */}
        <Text size="sm" c={stateColor(state)} truncate title={text(state)}>
          {text(state)}
        </Text>
      </Group>
    </Tooltip>
  );
}
