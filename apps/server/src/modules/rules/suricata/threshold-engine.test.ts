import { describe, expect, it } from 'vitest';
import { parseAddress, type AddressExpr } from './addresses';
import type { DetectionFilterSpec, ThresholdSpec } from './rule-types';
import { parseThresholdConfig } from './threshold-config';
import { AlertGate, eveTimeMs, type GateAlert } from './threshold-engine';

function gate(
  config: string,
  options: { vars?: Map<string, AddressExpr>; rule?: ThresholdSpec | DetectionFilterSpec } = {},
) {
  const parsed = parseThresholdConfig(config);
  expect(parsed.refused).toEqual([]);
  return new AlertGate({
    entries: parsed.entries.map((e) => e.entry),
    vars: options.vars,
    ruleThreshold: (gid, sid) => (gid === 1 && sid === 100 ? (options.rule ?? null) : null),
  });
}

const base: GateAlert = { gid: 1, sid: 100, srcIp: '10.0.0.1', destIp: '203.0.113.5', timestamp: 0 };
const at = (seconds: number, over: Partial<GateAlert> = {}): GateAlert => ({
  ...base,
  timestamp: seconds * 1000,
  ...over,
});

/** Which of the alerts at these seconds the gate raises. */
function raised(g: AlertGate, seconds: number[], over: Partial<GateAlert> = {}): boolean[] {
  return seconds.map((s) => g.decide(at(s, over)).raised);
}

describe('suppress', () => {
  it('a suppression without a track hides every alert of the rule, and no other rule', () => {
    const g = gate('suppress gen_id 1, sig_id 100');
    expect(g.decide(at(0))).toMatchObject({ raised: false, reason: 'suppressed', entry: { sid: 100 } });
    expect(g.decide(at(0, { sid: 101 }))).toEqual({ raised: true });
    expect(g.decide(at(0, { gid: 2 }))).toEqual({ raised: true });
  });

  it('by_src, by_dst and by_either look at the right address', () => {
    const src = gate('suppress gen_id 1, sig_id 100, track by_src, ip 10.0.0.0/24');
    expect(src.decide(at(0)).raised).toBe(false);
    expect(src.decide(at(0, { srcIp: '10.0.1.1' })).raised).toBe(true);
    expect(src.decide(at(0, { srcIp: '203.0.113.5', destIp: '10.0.0.1' })).raised).toBe(true);

    const dst = gate('suppress gen_id 1, sig_id 100, track by_dst, ip 203.0.113.5');
    expect(dst.decide(at(0)).raised).toBe(false);
    expect(dst.decide(at(0, { destIp: '203.0.113.6' })).raised).toBe(true);

    const either = gate('suppress gen_id 1, sig_id 100, track by_either, ip [192.168.0.0/16, 203.0.113.0/24]');
    expect(either.decide(at(0)).raised).toBe(false);
    expect(either.decide(at(0, { srcIp: '192.168.1.1', destIp: '8.8.8.8' })).raised).toBe(false);
    expect(either.decide(at(0, { srcIp: '10.0.0.1', destIp: '8.8.8.8' })).raised).toBe(true);
  });

  it('gen_id 0 and sig_id 0 stand for any, and an ip variable is resolved', () => {
    const home = parseAddress('[10.0.0.0/8]');
    const vars = new Map<string, AddressExpr>(home.ok ? [['HOME_NET', home.value]] : []);
    const g = gate('suppress gen_id 0, sig_id 0, track by_src, ip $HOME_NET', { vars });
    expect(g.decide(at(0, { gid: 3, sid: 9 })).raised).toBe(false);
    expect(g.decide(at(0, { srcIp: '8.8.8.8' })).raised).toBe(true);
    // Without a value the variable suppresses nothing.
    expect(gate('suppress gen_id 0, sig_id 0, track by_src, ip $HOME_NET').decide(at(0)).raised).toBe(true);
    expect(gate('suppress gen_id 1, sig_id 0').decide(at(0, { sid: 7 })).raised).toBe(false);
    expect(gate('suppress gen_id 1, sig_id 0').decide(at(0, { gid: 2, sid: 7 })).raised).toBe(true);
  });

  it('suppression wins over a threshold that would raise', () => {
    const g = gate(
      'suppress gen_id 1, sig_id 100, track by_src, ip 10.0.0.1\nthreshold gen_id 1, sig_id 100, type limit, track by_src, count 5, seconds 60',
    );
    expect(g.decide(at(0)).raised).toBe(false);
  });
});

describe('threshold types', () => {
  it('limit raises at most count alerts a window, then again in the next window', () => {
    const g = gate('threshold gen_id 1, sig_id 100, type limit, track by_src, count 2, seconds 60');
    expect(raised(g, [0, 1, 2, 59, 60, 61, 62])).toEqual([true, true, false, false, true, true, false]);
  });

  it('threshold raises every count-th alert within a window', () => {
    const g = gate('threshold gen_id 1, sig_id 100, type threshold, track by_src, count 3, seconds 60');
    expect(raised(g, [0, 1, 2, 3, 4, 5, 6])).toEqual([false, false, true, false, false, true, false]);
    // The window closes before the count is reached: counting starts over.
    const slow = gate('threshold gen_id 1, sig_id 100, type threshold, track by_src, count 3, seconds 10');
    expect(raised(slow, [0, 5, 11, 12, 13])).toEqual([false, false, false, false, true]);
  });

  it('threshold with count 1 raises every alert', () => {
    const g = gate('threshold gen_id 1, sig_id 100, type threshold, track by_src, count 1, seconds 60');
    expect(raised(g, [0, 1, 2])).toEqual([true, true, true]);
  });

  it('both raises once per window, at the count-th alert', () => {
    const g = gate('threshold gen_id 1, sig_id 100, type both, track by_src, count 3, seconds 60');
    expect(raised(g, [0, 1, 2, 3, 4, 30, 60, 61, 62])).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('tracks by source, destination, address pair and rule separately', () => {
    const bySrc = gate('threshold gen_id 1, sig_id 100, type limit, track by_src, count 1, seconds 60');
    expect(bySrc.decide(at(0)).raised).toBe(true);
    expect(bySrc.decide(at(1, { destIp: '1.1.1.1' })).raised).toBe(false);
    expect(bySrc.decide(at(1, { srcIp: '10.0.0.2' })).raised).toBe(true);

    const byDst = gate('threshold gen_id 1, sig_id 100, type limit, track by_dst, count 1, seconds 60');
    expect(byDst.decide(at(0)).raised).toBe(true);
    expect(byDst.decide(at(1, { srcIp: '10.0.0.2' })).raised).toBe(false);
    expect(byDst.decide(at(1, { destIp: '1.1.1.1' })).raised).toBe(true);

    const byBoth = gate('threshold gen_id 1, sig_id 100, type limit, track by_both, count 1, seconds 60');
    expect(byBoth.decide(at(0)).raised).toBe(true);
    // The reverse direction between the same two addresses is the same pair.
    expect(byBoth.decide(at(1, { srcIp: base.destIp, destIp: base.srcIp })).raised).toBe(false);
    expect(byBoth.decide(at(1, { destIp: '1.1.1.1' })).raised).toBe(true);

    const byRule = gate('threshold gen_id 1, sig_id 100, type limit, track by_rule, count 1, seconds 60');
    expect(byRule.decide(at(0)).raised).toBe(true);
    expect(byRule.decide(at(1, { srcIp: '1.1.1.1', destIp: '2.2.2.2' })).raised).toBe(false);
    expect(byRule.decide(at(1, { sid: 101 })).raised).toBe(true);
  });
});

describe("a rule's own threshold and the configuration", () => {
  it("applies the rule's own threshold when the configuration has none for it", () => {
    const g = gate('', { rule: { type: 'limit', track: 'by_src', count: 1, seconds: 60, multiplier: null } });
    expect(raised(g, [0, 1])).toEqual([true, false]);
    expect(g.decide(at(1))).toEqual({ raised: false, reason: 'threshold', origin: 'rule' });
  });

  it('an entry for the exact rule replaces its own threshold; the last such entry wins', () => {
    const rule: ThresholdSpec = { type: 'limit', track: 'by_src', count: 1, seconds: 60, multiplier: null };
    const g = gate(
      'threshold gen_id 1, sig_id 100, type limit, track by_src, count 2, seconds 60\nthreshold gen_id 1, sig_id 100, type limit, track by_src, count 3, seconds 60',
      { rule },
    );
    expect(raised(g, [0, 1, 2, 3])).toEqual([true, true, true, false]);
  });

  it('a sig_id 0 entry applies to rules without a threshold of their own, not to the others', () => {
    const rule: ThresholdSpec = { type: 'limit', track: 'by_src', count: 3, seconds: 60, multiplier: null };
    const g = gate('threshold gen_id 0, sig_id 0, type limit, track by_src, count 1, seconds 60', { rule });
    expect(raised(g, [0, 1, 2, 3])).toEqual([true, true, true, false]);
    expect(raised(g, [0, 1], { sid: 200 })).toEqual([true, false]);
  });

  it('detection_filter raises every alert after the count-th within its window', () => {
    const g = gate('', { rule: { track: 'by_src', count: 2, seconds: 10, uniqueOn: null } });
    expect(raised(g, [0, 1, 2, 3, 4, 11, 12, 13])).toEqual([false, false, true, true, true, false, false, true]);
  });

  it('backoff raises at count, count×multiplier, count×multiplier² … per flow', () => {
    const g = gate('', { rule: { type: 'backoff', track: 'by_flow', count: 1, multiplier: 10, seconds: null } });
    const results = Array.from({ length: 120 }, (_, i) => g.decide(at(i, { flowId: 7 })).raised);
    expect(results.flatMap((r, i) => (r ? [i + 1] : []))).toEqual([1, 10, 100]);
    expect(g.decide(at(0, { flowId: 8 })).raised).toBe(true);
  });
});

describe('timestamps and housekeeping', () => {
  it('reads EVE timestamps with their +0000 zone', () => {
    expect(eveTimeMs('2024-05-02T10:00:00.123456+0000')).toBe(Date.UTC(2024, 4, 2, 10, 0, 0, 123));
    expect(eveTimeMs('2024-05-02T12:00:00.000000+0200')).toBe(Date.UTC(2024, 4, 2, 10, 0, 0));
    expect(eveTimeMs(new Date(5))).toBe(5);
    expect(() => eveTimeMs('yesterday')).toThrow(/not a timestamp/);
  });

  it('counts EVE alerts by their timestamps', () => {
    const g = gate('threshold gen_id 1, sig_id 100, type limit, track by_src, count 1, seconds 60');
    expect(g.decide({ ...base, timestamp: '2024-05-02T10:00:00.000000+0000' }).raised).toBe(true);
    expect(g.decide({ ...base, timestamp: '2024-05-02T10:00:59.000000+0000' }).raised).toBe(false);
    expect(g.decide({ ...base, timestamp: '2024-05-02T10:01:00.000000+0000' }).raised).toBe(true);
  });

  it('prune forgets ended windows, and a forgotten window starts afresh', () => {
    const g = gate('threshold gen_id 1, sig_id 100, type limit, track by_src, count 1, seconds 60');
    g.decide(at(0));
    g.decide(at(30, { srcIp: '10.0.0.2' }));
    expect(g.size).toBe(2);
    g.prune(60_000);
    expect(g.size).toBe(1);
    expect(g.decide(at(61)).raised).toBe(true);
  });

  it('rate_filter entries do not change whether an alert is raised', () => {
    const g = gate('rate_filter gen_id 1, sig_id 100, track by_src, count 1, seconds 60, new_action drop, timeout 30');
    expect(raised(g, [0, 1, 2])).toEqual([true, true, true]);
  });
});
