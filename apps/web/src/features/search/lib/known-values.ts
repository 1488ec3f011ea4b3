import type { SearchValuesAnswer } from '@vigil/contract';

/** Values a field commonly takes whatever the data holds, offered after `field:` besides those seen. */
export const fixedValues: Record<string, readonly string[]> = {
  severity: ['critical', 'high', 'medium', 'low', 'info'],
  status: ['new', 'in_progress', 'resolved', 'closed'],
  resolution: ['true_positive', 'false_positive', 'benign', 'duplicate'],
  proto: ['TCP', 'UDP', 'ICMP', 'IPv6-ICMP'],
  event_type: ['alert', 'dns', 'http', 'tls', 'flow', 'fileinfo', 'dhcp', 'smtp', 'ssh', 'anomaly'],
  spf: ['pass', 'fail', 'softfail', 'neutral', 'none'],
  dkim: ['pass', 'fail', 'none'],
  dmarc: ['pass', 'fail', 'none'],
  outcome: ['success', 'failure', 'unknown'],
  file_stored: ['true', 'false'],
};

/** A value to offer: how often the data holds it, or null for a fixed value not seen. */
export interface KnownValue {
  value: string;
  count: number | null;
}

/**
 * The values to offer for what is typed: those seen in the data (each kind's counts summed, most
 * frequent first), then the fixed values not seen; only those starting with `typed` whatever the
 * case, never `typed` itself, at most `limit`.
 */
export function knownValues(
  seen: readonly SearchValuesAnswer['values'][],
  fixed: readonly string[],
  typed: string,
  limit = 20,
): KnownValue[] {
  const start = typed.toLowerCase();
  const wanted = (value: string) => value.toLowerCase().startsWith(start) && value !== typed;
  const counts = new Map<string, number>();
  for (const list of seen) {
    for (const { value, count } of list) if (wanted(value)) counts.set(value, (counts.get(value) ?? 0) + count);
  }
  const found: KnownValue[] = [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  const fixedOnes = fixed
    .filter((value) => wanted(value) && !counts.has(value))
    .map((value) => ({ value, count: null }));
  return [...found, ...fixedOnes].slice(0, limit);
}
