/** One SLA timer as the incident answer carries it (camelCase). */
export interface SlaTimer {
  targetMinutes: number;
  dueAt: string;
  doneAt: string | null;
  elapsedMinutes: number;
  breached: boolean;
}

/**
 * Where a timer stands at `now`: still running (time left), running past its due time (overdue),
 * or stopped in time (met) or too late (missed).
 */
export type SlaState =
  | { kind: 'running'; remainingMs: number }
  | { kind: 'overdue'; overdueMs: number }
  | { kind: 'met'; marginMs: number }
  | { kind: 'missed'; lateMs: number };

export function slaState(timer: Pick<SlaTimer, 'dueAt' | 'doneAt'>, now: number): SlaState {
  const due = Date.parse(timer.dueAt);
  if (timer.doneAt !== null) {
    const done = Date.parse(timer.doneAt);
    return done <= due ? { kind: 'met', marginMs: due - done } : { kind: 'missed', lateMs: done - due };
  }
  return now <= due ? { kind: 'running', remainingMs: due - now } : { kind: 'overdue', overdueMs: now - due };
}

/** Whether the timer is, or ended, past its due time. */
export function isBreached(state: SlaState): boolean {
  return state.kind === 'overdue' || state.kind === 'missed';
}

/** Unit letters of a duration, in the interface language. */
export interface DurationUnits {
  day: string;
  hour: string;
  minute: string;
  second: string;
}

export const englishUnits: DurationUnits = { day: 'd', hour: 'h', minute: 'm', second: 's' };

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A duration as a countdown reads: `2d 04h 05m` from a day up, `3h 05m 09s` from an hour up,
 * `12m 04s` below that, `45s` under a minute. Whole seconds, rounded down; negative counts as 0.
 */
export function formatDuration(ms: number, units: DurationUnits = englishUnits): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days}${units.day} ${pad(hours)}${units.hour} ${pad(minutes)}${units.minute}`;
  if (hours > 0) return `${hours}${units.hour} ${pad(minutes)}${units.minute} ${pad(seconds)}${units.second}`;
  if (minutes > 0) return `${minutes}${units.minute} ${pad(seconds)}${units.second}`;
  return `${seconds}${units.second}`;
}

/** A target in minutes as people say it: `15m`, `4h`, `3d`, `1d 12h`. */
export function formatTarget(minutes: number, units: DurationUnits = englishUnits): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days}${units.day}`);
  if (hours) parts.push(`${hours}${units.hour}`);
  if (rest || parts.length === 0) parts.push(`${rest}${units.minute}`);
  return parts.join(' ');
}

/** The more urgent of two timers' states, for a list's single SLA column: the first still running or breached. */
export function listSlaTimer<T extends Pick<SlaTimer, 'dueAt' | 'doneAt'>>(
  acknowledge: T,
  resolve: T,
): {
  which: 'acknowledge' | 'resolve';
  timer: T;
} {
  return acknowledge.doneAt === null
    ? { which: 'acknowledge', timer: acknowledge }
    : { which: 'resolve', timer: resolve };
}
