import type { EveStats } from '@vigil/contract';
import { FieldError, describe, get, isObject, type JsonObject } from './values';

/*
 * A Suricata `stats` record: the engine's counters since it started, summed over its threads.
 * What an operator checks first is read out of it; the whole object is kept beside them.
 */

/**
 * A counter: a number of 0 or more (digits as text are accepted). Suricata's counters are 64-bit;
 * one above 2^53 comes out of JSON.parse rounded, which is close enough for a health figure.
 */
function readCounter(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  let n: number | null = null;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim())) n = Number(value.trim());
  // Stored as PostgreSQL bigint.
  if (n === null || !Number.isFinite(n) || n < 0 || n >= 2 ** 63) {
    throw new FieldError(`${field} must be a count from 0 to 2^63-1, found ${describe(value)}`);
  }
  return Math.trunc(n);
}

const counterAt = (stats: JsonObject, path: string) => readCounter(get(stats, path), `stats.${path}`);

/** The sum of the counters present among `paths`; null when none is. */
function sumOf(stats: JsonObject, paths: readonly string[]): number | null {
  let total: number | null = null;
  for (const path of paths) {
    const n = counterAt(stats, path);
    if (n !== null) total = (total ?? 0) + n;
  }
  return total;
}

const FLOW_PROTOCOLS = ['flow.tcp', 'flow.udp', 'flow.icmpv4', 'flow.icmpv6'] as const;
const APP_LAYER_ERRORS = ['gap', 'alloc', 'parser', 'internal'] as const;

/** Every application-layer error counter (`app_layer.error.<protocol>.<kind>`), added up. */
function appLayerErrors(stats: JsonObject): number | null {
  const errors = get(stats, 'app_layer.error');
  if (errors === undefined || errors === null) return null;
  if (!isObject(errors)) throw new FieldError(`stats.app_layer.error must be an object, found ${describe(errors)}`);
  let total = 0;
  for (const [protocol, kinds] of Object.entries(errors)) {
    if (!isObject(kinds)) continue;
    for (const kind of APP_LAYER_ERRORS) {
      total += readCounter(kinds[kind], `stats.app_layer.error.${protocol}.${kind}`) ?? 0;
    }
  }
  return total;
}

/** Rules loaded and failed, added up over the detection engines (one per tenant). */
function rules(stats: JsonObject): { loaded: number | null; failed: number | null } {
  const engines = get(stats, 'detect.engines');
  if (!Array.isArray(engines)) return { loaded: null, failed: null };
  let loaded: number | null = null;
  let failed: number | null = null;
  for (const [i, engine] of engines.entries()) {
    if (!isObject(engine)) continue;
    const l = readCounter(engine.rules_loaded, `stats.detect.engines[${i}].rules_loaded`);
    const f = readCounter(engine.rules_failed, `stats.detect.engines[${i}].rules_failed`);
    if (l !== null) loaded = (loaded ?? 0) + l;
    if (f !== null) failed = (failed ?? 0) + f;
  }
  return { loaded, failed };
}

export function readStats(stats: JsonObject): EveStats {
  const { loaded, failed } = rules(stats);
  // `flow.total` where the engine counts it; the flows of each protocol otherwise.
  const flows = counterAt(stats, 'flow.total') ?? sumOf(stats, FLOW_PROTOCOLS);
  return {
    uptime: counterAt(stats, 'uptime'),
    capture_kernel_packets: counterAt(stats, 'capture.kernel_packets'),
    capture_kernel_drops: counterAt(stats, 'capture.kernel_drops'),
    capture_errors: counterAt(stats, 'capture.errors'),
    decoder_pkts: counterAt(stats, 'decoder.pkts'),
    decoder_bytes: counterAt(stats, 'decoder.bytes'),
    decoder_invalid: counterAt(stats, 'decoder.invalid'),
    flows,
    tcp_sessions: counterAt(stats, 'tcp.sessions'),
    tcp_reassembly_gaps: counterAt(stats, 'tcp.reassembly_gap'),
    detect_alerts: counterAt(stats, 'detect.alert'),
    detect_alert_queue_overflows: counterAt(stats, 'detect.alert_queue_overflow'),
    rules_loaded: loaded,
    rules_failed: failed,
    app_layer_errors: appLayerErrors(stats),
  };
}
