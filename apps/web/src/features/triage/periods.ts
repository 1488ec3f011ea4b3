/** Relative windows the triage lists offer: the alert queue over "last seen", incidents over "created". */
export const periods = ['1h', '24h', '7d', '30d'] as const;
export type Period = (typeof periods)[number];

const HOUR = 3_600_000;
const spans: Record<Period, number> = { '1h': HOUR, '24h': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR };

export const isPeriod = (value: string | undefined): value is Period =>
  value !== undefined && (periods as readonly string[]).includes(value);

/** The ISO start of a relative window ending at `now`, or null for an unknown one. */
export function periodStart(period: string, now: number): string | null {
  return isPeriod(period) ? new Date(now - spans[period]).toISOString() : null;
}
