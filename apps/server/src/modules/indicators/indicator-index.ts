import { isIPv4 } from 'node:net';
import type { IndicatorPolicy, IndicatorType } from '@vigil/contract';
import type { AlertSeverity } from '../pipeline/detections';
import { hexPrefix, ipv4ToNumber, ipv6ToHex } from './indicator-values';

/** One live indicator as the index holds it. */
export interface IndexedIndicator {
  id: number;
  /** Owner company; with `all` the indicator applies to every company. */
  companyId: number;
  all: boolean;
  type: IndicatorType;
  /** Normalised value (see indicator-values.ts). */
  value: string;
  policy: IndicatorPolicy;
  severity: AlertSeverity;
  /** Milliseconds since the epoch; null for never. */
  expiresAt: number | null;
}

/** What an observed value is looked up as. */
export type LookupKind = 'ip' | 'domain' | 'url' | 'email' | 'md5' | 'sha1' | 'sha256' | 'filename';

/** The result for one observed value: alert indicators that match it, unless an ignore indicator does. */
export interface IndicatorMatch {
  /** An ignore indicator matched: nothing is raised for this value (ignore wins over alert). */
  ignored: boolean;
  /** Live alert indicators that match, most severe first; empty when ignored. */
  alerts: IndexedIndicator[];
}

const NO_MATCH: IndicatorMatch = Object.freeze({ ignored: false, alerts: [] }) as IndicatorMatch;
const severityRank: Record<AlertSeverity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

function push<K>(map: Map<K, IndexedIndicator[]>, key: K, entry: IndexedIndicator): void {
  const bucket = map.get(key);
  if (bucket) bucket.push(entry);
  else map.set(key, [entry]);
}

/** Adds the live entries of a bucket that apply to the company; allocates only on a hit. */
function take(
  found: IndexedIndicator[] | null,
  bucket: IndexedIndicator[] | undefined,
  companyId: number,
  now: number,
): IndexedIndicator[] | null {
  if (bucket === undefined) return found;
  for (const entry of bucket) {
    if ((entry.all || entry.companyId === companyId) && (entry.expiresAt === null || entry.expiresAt > now))
      (found ??= []).push(entry);
  }
  return found;
}

const v4Masks = Array.from({ length: 33 }, (_, bits) => (bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0));

/**
 * In-memory matching index over the live indicators of every company, rebuilt whole when
 * indicators change (immutable once built, so a lookup never sees a half-built index):
 *  - exact values (IPs, hashes, e-mail addresses, file names, URLs): one hash map per type, O(1);
 *  - domains: a hash map of indicator domains, looked up for the queried name and each parent
 *    (`a.b.example.com` → `b.example.com` → `example.com` → `com`), O(labels);
 *  - CIDRs: per prefix length present, a hash map from masked network to indicators, so a lookup
 *    masks the address once per distinct prefix length (at most 33 for IPv4, 129 for IPv6;
 *    in practice a handful), independent of how many networks are loaded.
 * Expiry is checked at lookup, so an indicator that expires stops matching without a rebuild.
 */
export class IndicatorIndex {
  private readonly exact = new Map<LookupKind, Map<string, IndexedIndicator[]>>();
  private readonly cidr4 = new Map<number, Map<number, IndexedIndicator[]>>();
  private readonly cidr6 = new Map<number, Map<string, IndexedIndicator[]>>();
  private cidr4Lengths: number[] = [];
  private cidr6Lengths: number[] = [];
  /** Number of indicators loaded. */
  readonly size: number;
  /** What the index was built from, for building the next one without the database. */
  private readonly entries: IndexedIndicator[];

  constructor(indicators: Iterable<IndexedIndicator> = []) {
    this.entries = [...indicators];
    let size = 0;
    for (const entry of this.entries) {
      size += 1;
      if (entry.type === 'cidr') {
        const [network = '', bitsText = '0'] = entry.value.split('/');
        const bits = Number(bitsText);
        if (isIPv4(network)) {
          let byNetwork = this.cidr4.get(bits);
          if (!byNetwork) this.cidr4.set(bits, (byNetwork = new Map()));
          push(byNetwork, (ipv4ToNumber(network) & (v4Masks[bits] ?? 0)) >>> 0, entry);
        } else {
          let byNetwork = this.cidr6.get(bits);
          if (!byNetwork) this.cidr6.set(bits, (byNetwork = new Map()));
          push(byNetwork, hexPrefix(ipv6ToHex(network), bits), entry);
        }
        continue;
      }
      let map = this.exact.get(entry.type);
      if (!map) this.exact.set(entry.type, (map = new Map()));
      push(map, entry.value, entry);
    }
    this.size = size;
    this.cidr4Lengths = [...this.cidr4.keys()].sort((a, b) => b - a);
    this.cidr6Lengths = [...this.cidr6.keys()].sort((a, b) => b - a);
  }

  /**
   * A new index with `changed` indicators added or replaced (by id) and `removed` ids dropped: how a
   * process applies its own committed writes without reading every indicator again.
   */
  withChanges(changed: readonly IndexedIndicator[], removed: readonly number[] = []): IndicatorIndex {
    const drop = new Set<number>(removed);
    for (const entry of changed) drop.add(entry.id);
    const now = Date.now();
    const kept = this.entries.filter((entry) => !drop.has(entry.id));
    for (const entry of changed) if (entry.expiresAt === null || entry.expiresAt > now) kept.push(entry);
    return new IndicatorIndex(kept);
  }

  /** Every live indicator of `companyId` (its own and all-companies ones) that matches the value; null for none. */
  candidates(companyId: number, kind: LookupKind, value: string, now: number): IndexedIndicator[] | null {
    let found: IndexedIndicator[] | null = null;
    if (kind === 'domain') {
      const domains = this.exact.get('domain');
      if (!domains) return null;
      let name = value;
      for (;;) {
        found = take(found, domains.get(name), companyId, now);
        const dot = name.indexOf('.');
        if (dot < 0) break;
        name = name.slice(dot + 1);
      }
      return found;
    }
    const map = this.exact.get(kind);
    if (map) found = take(found, map.get(value), companyId, now);
    if (kind === 'ip') {
      if (value.includes(':')) {
        if (this.cidr6Lengths.length > 0) {
          const hex = ipv6ToHex(value);
          for (const bits of this.cidr6Lengths)
            found = take(found, this.cidr6.get(bits)!.get(hexPrefix(hex, bits)), companyId, now);
        }
      } else if (this.cidr4Lengths.length > 0) {
        const n = ipv4ToNumber(value);
        for (const bits of this.cidr4Lengths)
          found = take(found, this.cidr4.get(bits)!.get((n & v4Masks[bits]!) >>> 0), companyId, now);
      }
    }
    return found;
  }

  /**
   * Looks up one observed value (already normalised) for a company. Precedence: if any live
   * indicator that matches the value has the `ignore` policy — exact, a parent domain, or a network
   * holding the address; the company's own or an all-companies one — the value raises nothing, even
   * when alert indicators match it too.
   */
  match(companyId: number, kind: LookupKind, value: string, now = Date.now()): IndicatorMatch {
    const found = this.candidates(companyId, kind, value, now);
    if (found === null) return NO_MATCH;
    if (found.some((entry) => entry.policy === 'ignore')) return { ignored: true, alerts: [] };
    if (found.length > 1) found.sort((a, b) => severityRank[b.severity] - severityRank[a.severity] || a.id - b.id);
    return { ignored: false, alerts: found };
  }
}

/** Where the current index is read from (IndicatorIndexService keeps it up to date). */
export interface IndicatorIndexSource {
  /** The index to match against now; replaced whole on every rebuild, never changed in place. */
  current(): IndicatorIndex;
}
