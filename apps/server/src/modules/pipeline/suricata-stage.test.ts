import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEveLines } from '../ingest/parsers';
import { alertRecordFor, ruleMetadata } from '../ingest/parsers/fixtures/eve-suricata7';
import type { Detection } from './detections';
import type { StoredEvent } from './stored-events';
import { suricataDetections } from './suricata-stage';

/** The detections of EVE records, as if stored with ids from 1. */
function detect(records: readonly object[]): Detection[] {
  const stored: StoredEvent[] = parseEveLines(records.map((r) => JSON.stringify(r)).join('\n')).map((r, i) => {
    if (!r.ok) throw new Error(r.reason);
    return { kind: 'network', companyId: 7, id: i + 1, ts: r.event.timestamp, event: r.event };
  });
  return suricataDetections(stored);
}

/** A rule in Emerging Threats' form, written here: its metadata names an ATT&CK tactic and technique. */
const ET_STYLE_RULE =
  'alert http $EXTERNAL_NET any -> $HOME_NET any (msg:"ET EXPLOIT Example Appliance Path Traversal Attempt"; ' +
  'flow:established,to_server; http.uri; content:"/../../etc/passwd"; fast_pattern; classtype:web-application-attack; ' +
  'sid:2059999; rev:2; metadata:affected_product Example_Appliance, attack_target Server, created_at 2024_05_02, ' +
  'deployment Perimeter, mitre_tactic_id TA0001, mitre_tactic_name Initial_Access, mitre_technique_id T1190, ' +
  'mitre_technique_name Exploit_Public_Facing_Application, signature_severity Major, updated_at 2024_06_11;)';

describe('Suricata alerts become detections', () => {
  it("carry the rule's ATT&CK tactic and technique ids, and the rest of its metadata", () => {
    expect(ruleMetadata(ET_STYLE_RULE)).toMatchObject({ mitre_tactic_id: ['TA0001'], deployment: ['Perimeter'] });
    const [detection] = detect([alertRecordFor(ET_STYLE_RULE)]);
    expect(detection).toMatchObject({
      title: 'ET EXPLOIT Example Appliance Path Traversal Attempt',
      severity: 'high',
      mitre: ['TA0001', 'T1190'],
      source: {
        type: 'rule',
        engine: 'suricata',
        ruleId: '2059999',
        revision: 2,
        metadata: {
          signature_severity: ['Major'],
          deployment: ['Perimeter'],
          affected_product: ['Example_Appliance'],
          created_at: ['2024_05_02'],
          updated_at: ['2024_06_11'],
        },
      },
    });
    // The same rule without its metadata names no ATT&CK id and carries no metadata.
    const plain = ET_STYLE_RULE.replace(/metadata:[^;]*;/, '');
    const [bare] = detect([alertRecordFor(plain)]);
    expect(bare?.mitre).toEqual([]);
    expect(bare?.source).not.toHaveProperty('metadata');
  });
});

// Real rules that ship with Suricata, when the shared data folder is beside the repository.
const RULES = path.resolve(import.meta.dirname, '../../../../../../shared/data/suricata/rules');

describe.skipIf(!existsSync(RULES))('real Suricata rules', () => {
  const rules = existsSync(RULES)
    ? readdirSync(RULES)
        .filter((name) => name.endsWith('.rules'))
        .sort()
        // A rule may go on over several lines, each ending in a backslash.
        .flatMap((name) =>
          readFileSync(path.join(RULES, name), 'utf8')
            .replace(/\\\r?\n/g, '')
            .split('\n'),
        )
        .filter((line) => /^(alert|drop|reject|pass)\s/.test(line.trim()))
    : [];

  it('every rule gives an alert line that becomes a detection with its sid, message and metadata', () => {
    expect(rules.length).toBeGreaterThan(100);
    const records = rules.map((rule) => alertRecordFor(rule));
    // The rules Suricata ships carry no metadata keyword: their alerts name none.
    for (const result of parseEveLines(records.map((r) => JSON.stringify(r)).join('\n'))) {
      expect(result.ok && result.event.alert).toMatchObject({
        metadata: {},
        mitre_tactic_ids: [],
        mitre_technique_ids: [],
      });
    }
    const detections = detect(records);
    expect(detections).toHaveLength(rules.length);
    detections.forEach((detection, i) => {
      const rule = rules[i]!;
      expect(detection.source).toMatchObject({ ruleId: /sid\s*:\s*(\d+)/.exec(rule)?.[1] });
      expect(rule).toContain(`msg:"${detection.title}"`);
    });
    // Their classtype is protocol-command-decode: priority 3, which is low on our scale.
    expect(new Set(detections.map((d) => d.severity))).toEqual(new Set(['low']));
  });

  it("a real rule's ATT&CK metadata ends up as the detection's ATT&CK ids", () => {
    // Rules of the set that name ATT&CK ids are used as they are. The rules Suricata ships name none,
    // so then a real one gets the metadata keyword Emerging Threats rules carry.
    const named = rules.filter((rule) => /metadata\s*:[^;]*mitre_(tactic|technique)_id/.test(rule));
    const real = named[0] ?? rules[0]!;
    const rule =
      named.length > 0 ? real : real.replace(/\bsid\s*:/, `${/metadata:[^;]*;/.exec(ET_STYLE_RULE)![0]} sid:`);
    const metadata = ruleMetadata(rule);
    const [detection] = detect([alertRecordFor(rule)]);
    expect(detection?.source).toMatchObject({ ruleId: /sid\s*:\s*(\d+)/.exec(real)?.[1] });
    const namedIds = ['mitre_tactic_id', 'mitre_technique_id', 'mitre_subtechnique_id'].flatMap((key) =>
      (metadata[key] ?? []).map((id) => id.toUpperCase()),
    );
    expect(detection?.mitre).toEqual([...new Set(namedIds)]);
    expect(detection?.mitre.length).toBeGreaterThan(0);
  });
});
