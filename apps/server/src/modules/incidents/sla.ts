import type { Incident } from '@vigil/contract';
import type { AlertSeverity } from '../pipeline/detections';

/**
 * SLA targets per severity, in minutes, as TheHive 5 keeps them: time to acknowledge (the first
 * move out of `open`) and time to resolve (reaching resolved or closed).
 */
export const slaTargets: Record<AlertSeverity, { acknowledge: number; resolve: number }> = {
  critical: { acknowledge: 15, resolve: 4 * 60 },
  high: { acknowledge: 60, resolve: 24 * 60 },
  medium: { acknowledge: 4 * 60, resolve: 3 * 24 * 60 },
  low: { acknowledge: 24 * 60, resolve: 7 * 24 * 60 },
  info: { acknowledge: 3 * 24 * 60, resolve: 30 * 24 * 60 },
};

function timer(created: Date, targetMinutes: number, done: Date | null, now: Date) {
  const due = new Date(created.getTime() + targetMinutes * 60_000);
  const end = done ?? now;
  return {
    target_minutes: targetMinutes,
    due_at: due.toISOString(),
    done_at: done ? done.toISOString() : null,
    elapsed_minutes: Math.max(0, Math.floor((end.getTime() - created.getTime()) / 60_000)),
    breached: end.getTime() > due.getTime(),
  };
}

/** Both SLA timers of an incident at `now`. */
export function slaOf(
  row: { severity: AlertSeverity; created_at: Date; acknowledged_at: Date | null; resolved_at: Date | null },
  now: Date,
): Incident['sla'] {
  const target = slaTargets[row.severity];
  return {
    acknowledge: timer(row.created_at, target.acknowledge, row.acknowledged_at, now),
    resolve: timer(row.created_at, target.resolve, row.resolved_at, now),
  };
}
