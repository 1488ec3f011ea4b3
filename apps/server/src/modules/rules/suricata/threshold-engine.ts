import { isIP } from 'node:net';
import { addressMatches, type AddressVars } from './addresses';
import type { DetectionFilterSpec, ThresholdSpec, Track } from './rule-types';
import type { SuppressEntry, ThresholdConfigEntry, ThresholdEntry } from './threshold-config';

/** What the gate needs of an EVE alert record. */
export interface GateAlert {
  gid: number;
  sid: number;
  srcIp: string;
  destIp: string;
  /** Milliseconds since the epoch, a Date, or an EVE timestamp (`2024-05-02T10:00:00.123456+0000`). */
  timestamp: number | string | Date;
  /** EVE flow_id, for rules that track by_flow. */
  flowId?: string | number | null;
}

export type GateDecision =
  | { raised: true }
  | { raised: false; reason: 'suppressed'; entry: SuppressEntry }
  | { raised: false; reason: 'threshold'; origin: 'config' | 'rule' };

/** A rule's own threshold or detection_filter, looked up by gid and sid. */
export type RuleThresholdLookup = (gid: number, sid: number) => ThresholdSpec | DetectionFilterSpec | null;

export interface AlertGateOptions {
  /** The entries of threshold.config, in file order. rate_filter entries change actions, not alerts, and are ignored. */
  entries: readonly ThresholdConfigEntry[];
  /** Address variables for `ip $HOME_NET`; a variable with no value suppresses nothing. */
  vars?: AddressVars;
  ruleThreshold?: RuleThresholdLookup;
}

/** The counting a threshold does, whatever wrote it. */
type Counter =
  | { type: 'limit' | 'threshold' | 'both' | 'detection_filter'; track: Track; count: number; seconds: number }
  | { type: 'backoff'; track: Track; count: number; multiplier: number };

/** One counter's window: kept in memory, or read from and written back to the database per batch. */
export interface CounterState {
  windowStart: number;
  /** When the window ends; backoff counts for as long as its flow lives. */
  windowEnd: number;
  count: number;
  /** backoff: the match count that alerts next. */
  next: number;
}

export function eveTimeMs(timestamp: number | string | Date): number {
  if (typeof timestamp === 'number') return timestamp;
  if (timestamp instanceof Date) return timestamp.getTime();
  // EVE writes the zone as +0000; Date.parse wants +00:00.
  const ms = Date.parse(timestamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(ms)) throw new Error(`"${timestamp}" is not a timestamp`);
  return ms;
}

function counterOf(spec: ThresholdSpec | DetectionFilterSpec | ThresholdEntry): Counter {
  if (!('type' in spec))
    return { type: 'detection_filter', track: spec.track, count: spec.count, seconds: spec.seconds };
  if (spec.type === 'backoff') {
    return { type: 'backoff', track: spec.track, count: spec.count, multiplier: spec.multiplier ?? 1 };
  }
  return { type: spec.type, track: spec.track, count: spec.count, seconds: spec.seconds ?? 0 };
}

function trackKey(track: Track, alert: GateAlert): string {
  const pair = () => [alert.srcIp, alert.destIp].sort().join('|');
  switch (track) {
    case 'by_src':
      return alert.srcIp;
    case 'by_dst':
      return alert.destIp;
    case 'by_rule':
      return '';
    case 'by_both':
      // Both directions between the same two addresses count as one pair.
      return pair();
    case 'by_flow':
      return alert.flowId === null || alert.flowId === undefined ? `pair:${pair()}` : `flow:${alert.flowId}`;
  }
}

/**
 * Decides, as Suricata's thresholding would on the sensor, whether an alert is raised:
 *
 * - suppress: an entry for the alert's gid and sid (0 in either stands for any) with no track hides
 *   every alert of the rule; with a track it hides alerts whose source (by_src), destination
 *   (by_dst) or either address (by_either) is inside its `ip`.
 * - threshold / event_filter for the exact gid and sid replace the rule's own threshold or
 *   detection_filter; one over sig_id 0 (every rule, or every rule of a gid) applies only to rules
 *   with none of their own. The last matching entry of the file wins.
 * - Counting is per track key (source, destination, address pair, rule or flow) in windows that
 *   start at the first match and last `seconds`: limit raises the first `count` alerts of a window;
 *   threshold raises every `count`-th alert within a window; both raises once per window, at the
 *   `count`-th; detection_filter raises every alert after the `count`-th; backoff (by_flow) raises
 *   at match count, count×multiplier, count×multiplier², …
 *
 * The gate keeps its counters in a map, its own or one the caller fills (`useCounters`) with the
 * counters of the alerts it is about to decide, so that several processes share them through the
 * database; feed it alerts in time order.
 */
export class AlertGate {
  private readonly suppressions: SuppressEntry[];
  private readonly thresholds: ThresholdEntry[];
  private readonly vars: AddressVars;
  private readonly ruleThreshold: RuleThresholdLookup;
  private state = new Map<string, CounterState>();

  constructor(options: AlertGateOptions) {
    this.suppressions = options.entries.filter((e): e is SuppressEntry => e.kind === 'suppress');
    this.thresholds = options.entries.filter((e): e is ThresholdEntry => e.kind === 'threshold');
    this.vars = options.vars ?? new Map();
    this.ruleThreshold = options.ruleThreshold ?? (() => null);
  }

  decide(alert: GateAlert): GateDecision {
    const suppressed = this.suppressions.find((s) => this.suppresses(s, alert));
    if (suppressed) return { raised: false, reason: 'suppressed', entry: suppressed };
    const chosen = this.counterFor(alert.gid, alert.sid);
    if (!chosen) return { raised: true };
    return this.count(this.keyOf(chosen, alert), chosen.counter, eveTimeMs(alert.timestamp))
      ? { raised: true }
      : { raised: false, reason: 'threshold', origin: chosen.origin };
  }

  /** The counter an alert would count on; null when it is suppressed or nothing counts it. */
  counterKey(alert: GateAlert): string | null {
    if (this.suppressions.some((s) => this.suppresses(s, alert))) return null;
    const chosen = this.counterFor(alert.gid, alert.sid);
    return chosen ? this.keyOf(chosen, alert) : null;
  }

  /** Counts from now on in these counters (those of the alerts about to be decided). */
  useCounters(state: Map<string, CounterState>): void {
    this.state = state;
  }

  /** The counters the gate holds now, by key. */
  counters(): ReadonlyMap<string, CounterState> {
    return this.state;
  }

  private keyOf(chosen: { counter: Counter; origin: 'config' | 'rule' }, alert: GateAlert): string {
    return `${chosen.origin}|${alert.gid}|${alert.sid}|${trackKey(chosen.counter.track, alert)}`;
  }

  /** Forgets the counters of windows that ended before `now` (milliseconds), so a long-running gate stays small. */
  prune(now: number): void {
    for (const [key, s] of this.state) if (s.windowEnd <= now) this.state.delete(key);
  }

  /** How many counters the gate holds. */
  get size(): number {
    return this.state.size;
  }

  private suppresses(entry: SuppressEntry, alert: GateAlert): boolean {
    if (entry.gid !== 0 && entry.gid !== alert.gid) return false;
    if (entry.sid !== 0 && entry.sid !== alert.sid) return false;
    if (entry.track === null || entry.ip === null) return true;
    const inside = (ip: string) => isIP(ip) !== 0 && addressMatches(entry.ip!, ip, this.vars);
    if (entry.track === 'by_src') return inside(alert.srcIp);
    if (entry.track === 'by_dst') return inside(alert.destIp);
    return inside(alert.srcIp) || inside(alert.destIp);
  }

  private counterFor(gid: number, sid: number): { counter: Counter; origin: 'config' | 'rule' } | null {
    const exact = this.thresholds.filter((t) => t.gid === gid && t.sid === sid).at(-1);
    if (exact) return { counter: counterOf(exact), origin: 'config' };
    const own = this.ruleThreshold(gid, sid);
    if (own) return { counter: counterOf(own), origin: 'rule' };
    const wildcard = this.thresholds
      .filter((t) => t.sid === 0 && (t.gid === 0 || t.gid === gid))
      .sort((a, b) => Number(a.gid !== 0) - Number(b.gid !== 0))
      .at(-1);
    return wildcard ? { counter: counterOf(wildcard), origin: 'config' } : null;
  }

  private count(key: string, counter: Counter, now: number): boolean {
    const s = this.state.get(key);
    if (counter.type === 'backoff') {
      const state = s ?? { windowStart: now, windowEnd: Infinity, count: 0, next: counter.count };
      state.count++;
      this.state.set(key, state);
      if (state.count !== state.next) return false;
      // A multiplier of 1 never moves the next count on: the flow alerts once.
      state.next *= counter.multiplier;
      return true;
    }
    const windowMs = counter.seconds * 1000;
    if (!s || now - s.windowStart >= windowMs) {
      // A new window opens with this match as its first.
      const first: CounterState = { windowStart: now, windowEnd: now + windowMs, count: 1, next: 0 };
      this.state.set(key, first);
      switch (counter.type) {
        case 'limit':
          return true;
        case 'threshold':
          if (counter.count === 1) first.count = 0;
          return counter.count === 1;
        case 'both':
          return counter.count === 1;
        case 'detection_filter':
          return false;
      }
    }
    s.count++;
    switch (counter.type) {
      case 'limit':
        return s.count <= counter.count;
      case 'threshold':
        if (s.count < counter.count) return false;
        s.count = 0;
        return true;
      case 'both':
        return s.count === counter.count;
      case 'detection_filter':
        return s.count > counter.count;
    }
  }
}
