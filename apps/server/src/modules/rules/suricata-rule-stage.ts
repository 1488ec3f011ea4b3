import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/database';
import type { DetectionContext, DetectionStage } from '../pipeline/detection-stage';
import type { Detection } from '../pipeline/detections';
import type { StoredEvent } from '../pipeline/stored-events';
import { suricataDetection } from '../pipeline/suricata-stage';
import {
  loadDisabledRuleKeys,
  loadEnabledRules,
  lockThresholdCounters,
  loadSuricataThresholds,
  loadTurnedOff,
  recordRuleHits,
  ruleSetVersion,
  saveThresholdCounters,
  type EngineRule,
} from './rule-engines.repository';
import { hitsOfBatch } from './rule-hits';
import { parseRule } from './suricata/rule-parser';
import { parseThresholdConfig } from './suricata/threshold-config';
import { AlertGate, eveTimeMs, type GateAlert } from './suricata/threshold-engine';

/*
 * Suricata alerts checked against the rule store. An EVE alert names its rule by gid, sid and rev;
 * the stored rule with the key `gid:sid` in effect for the batch's company (its own, else the
 * all-companies one it has not turned off) gives the alert the rule's text, classtype and ATT&CK
 * ids. A stored rule that is disabled for the company raises nothing; an alert of a rule the store
 * does not hold is raised as the sensor sent it. The company's threshold.config entries then
 * decide, as Suricata would, whether the alert is raised; the event is stored either way.
 *
 * The counters of thresholds are kept in the database and read and written back by each batch
 * under the company's lock, so every server process counts on the same windows.
 */

/** A stored rule as an alert shows it. */
interface StoredSuricataRule {
  readonly rule: EngineRule;
  readonly classtype: string | null;
  /** The rule's `rev`. */
  readonly rev: number | null;
  /** ATT&CK tactic and technique ids of the rule. */
  readonly mitre: readonly string[];
}

interface RuleSet {
  readonly version: string;
  /** All-companies rules by key. */
  readonly shared: ReadonlyMap<string, StoredSuricataRule>;
  /** Companies' own rules by company, then key. */
  readonly own: ReadonlyMap<number, ReadonlyMap<string, StoredSuricataRule>>;
  readonly turnedOff: ReadonlyMap<number, ReadonlySet<number>>;
  /** Keys of disabled all-companies rules, and of each company's disabled own rules. */
  readonly sharedDisabled: ReadonlySet<string>;
  readonly ownDisabled: ReadonlyMap<number, ReadonlySet<string>>;
}

/** A company's threshold.config and its counters. */
interface CompanyGate {
  readonly entries: string;
  /** Names the entries in the counters' keys: counters of other entries are not read. */
  readonly digest: string;
  readonly gate: AlertGate;
}

function storedRule(rule: EngineRule): StoredSuricataRule {
  const parsed = parseRule(rule.source);
  const details = rule.details;
  const classtype = parsed.ok
    ? parsed.value.classtype
    : typeof details['classtype'] === 'string'
      ? details['classtype']
      : null;
  const rev = parsed.ok ? parsed.value.rev : typeof details['rev'] === 'number' ? details['rev'] : null;
  const mitre = new Set(rule.techniques);
  if (parsed.ok) for (const id of [...parsed.value.mitreTacticIds, ...parsed.value.mitreTechniqueIds]) mitre.add(id);
  return { rule, classtype, rev, mitre: [...mitre] };
}

/** The alert of a stored rule: the rule's text, classtype and ATT&CK ids added. */
function withRule(detection: Detection, stored: StoredSuricataRule, alertRev: number | null): Detection {
  if (detection.source.type !== 'rule') return detection;
  const { rule } = stored;
  const mitre = [...new Set([...detection.mitre, ...stored.mitre])];
  // Tactics (TA…) first, then techniques, as the other detections list them.
  mitre.sort((a, b) => Number(b.startsWith('TA')) - Number(a.startsWith('TA')));
  return {
    ...detection,
    source: { ...detection.source, storedRuleId: rule.id },
    mitre,
    description: [
      detection.description,
      stored.classtype ? `Classtype: ${stored.classtype}` : null,
      alertRev !== null && stored.rev !== null && alertRev !== stored.rev
        ? `The sensor ran rev ${alertRev} of the rule; the stored rule is rev ${stored.rev}.`
        : null,
      `Rule: ${rule.source}`,
    ]
      .filter((line): line is string => line !== null)
      .join('\n'),
  };
}

export class SuricataRuleStage implements DetectionStage {
  readonly name = 'suricata';
  private set: RuleSet | null = null;
  private readonly gates = new Map<number, CompanyGate>();

  async detect(ctx: DetectionContext, events: readonly StoredEvent[]): Promise<Detection[]> {
    const alerts: { stored: StoredEvent & { kind: 'network' }; detection: Detection }[] = [];
    for (const stored of events) {
      if (stored.kind !== 'network') continue;
      const detection = suricataDetection(stored);
      if (detection) alerts.push({ stored, detection });
    }
    if (alerts.length === 0) return [];
    const set = await this.ruleSet(ctx.tx);
    const gate = await this.gateFor(ctx.tx, ctx.companyId);
    const own = set.own.get(ctx.companyId);
    const ownDisabled = set.ownDisabled.get(ctx.companyId);
    const off = set.turnedOff.get(ctx.companyId);
    const detections: Detection[] = [];
    const inputs = new Map<StoredEvent, GateAlert & { timestamp: number }>();
    if (gate) {
      // The counters of this batch's alerts come from the database (every process counts on them),
      // under the company's lock until the batch commits.
      const keys = new Set<string>();
      for (const { stored } of alerts) {
        const alert = stored.event.alert!;
        const input = {
          gid: alert.gid ?? 1,
          sid: alert.signature_id,
          srcIp: stored.event.src_ip ?? '',
          destIp: stored.event.dest_ip ?? '',
          timestamp: eveTimeMs(stored.event.timestamp),
          flowId: stored.event.flow_id,
        };
        inputs.set(stored, input);
        const key = gate.gate.counterKey(input);
        if (key !== null) keys.add(key);
      }
      gate.gate.useCounters(
        keys.size > 0 ? await lockThresholdCounters(ctx.tx, ctx.companyId, gate.digest, [...keys]) : new Map(),
      );
    }
    let latest = 0;
    for (const { stored, detection } of alerts) {
      const alert = stored.event.alert!;
      const key = `${alert.gid ?? 1}:${alert.signature_id}`;
      let rule: StoredSuricataRule | undefined;
      if (own?.has(key)) rule = own.get(key);
      else if (ownDisabled?.has(key)) continue;
      else if (set.shared.has(key)) {
        rule = set.shared.get(key)!;
        if (off?.has(rule.rule.id)) continue;
      } else if (set.sharedDisabled.has(key)) continue;
      const input = inputs.get(stored);
      if (gate && input) {
        latest = Math.max(latest, input.timestamp);
        if (!gate.gate.decide(input).raised) continue;
      }
      detections.push(rule ? withRule(detection, rule, alert.rev) : detection);
    }
    if (gate && gate.gate.counters().size > 0) {
      await saveThresholdCounters(ctx.tx, ctx.companyId, gate.digest, gate.gate.counters(), latest);
      gate.gate.useCounters(new Map());
    }
    await recordRuleHits(ctx.tx, hitsOfBatch(detections));
    return detections;
  }

  /** The company's gate, made again when its threshold.config entries changed; null when it has none. */
  private async gateFor(tx: Queryable, companyId: number): Promise<CompanyGate | null> {
    const lines = await loadSuricataThresholds(tx, companyId);
    if (lines.length === 0) {
      this.gates.delete(companyId);
      return null;
    }
    const entries = lines.join('\n');
    const known = this.gates.get(companyId);
    if (known?.entries === entries) return known;
    // Entries that do not parse were refused when they were stored; any left are skipped.
    const config = parseThresholdConfig(entries);
    const gate: CompanyGate = {
      entries,
      digest: createHash('sha256').update(entries).digest('hex').slice(0, 12),
      gate: new AlertGate({ entries: config.entries.map((e) => e.entry) }),
    };
    this.gates.set(companyId, gate);
    return gate;
  }

  private async ruleSet(tx: Queryable): Promise<RuleSet> {
    const version = await ruleSetVersion(tx, 'suricata');
    if (this.set?.version === version) return this.set;
    // In turn: the statements share the batch's connection.
    const rules = await loadEnabledRules(tx, 'suricata');
    const disabled = await loadDisabledRuleKeys(tx, 'suricata');
    const turnedOff = await loadTurnedOff(tx, 'suricata');
    const shared = new Map<string, StoredSuricataRule>();
    const own = new Map<number, Map<string, StoredSuricataRule>>();
    for (const rule of rules) {
      if (rule.scope === 'all') shared.set(rule.ruleKey, storedRule(rule));
      else {
        let map = own.get(rule.companyId);
        if (map === undefined) own.set(rule.companyId, (map = new Map()));
        map.set(rule.ruleKey, storedRule(rule));
      }
    }
    const sharedDisabled = new Set<string>();
    const ownDisabled = new Map<number, Set<string>>();
    for (const d of disabled) {
      if (d.scope === 'all') sharedDisabled.add(d.ruleKey);
      else {
        let keys = ownDisabled.get(d.companyId);
        if (keys === undefined) ownDisabled.set(d.companyId, (keys = new Set()));
        keys.add(d.ruleKey);
      }
    }
    this.set = { version, shared, own, turnedOff, sharedDisabled, ownDisabled };
    return this.set;
  }
}
