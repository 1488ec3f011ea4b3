import type { AlertSeverity } from '../../pipeline/detections';
import { parseRulesFile } from '../suricata/rules-file';
import type { SuricataRule } from '../suricata/rule-types';
import { distinct, levelOfWord, type FileReading } from './candidate-fields';

/** `signature_severity` words of the common rule sets (Emerging Threats) as alert severities. */
const signatureSeverity: Record<string, AlertSeverity> = {
  critical: 'critical',
  major: 'high',
  minor: 'low',
  informational: 'info',
};

/**
 * The level of a Suricata rule: its metadata `signature_severity` (Critical, Major, Minor,
 * Informational), else its `priority` (1 high, 2 medium, 3 low, 4 and more info), else medium.
 */
export function suricataLevel(rule: SuricataRule): AlertSeverity {
  for (const value of rule.metadata.signature_severity ?? []) {
    const level = signatureSeverity[value.toLowerCase()] ?? levelOfWord(value);
    if (level) return level;
  }
  if (rule.priority !== null) {
    if (rule.priority <= 1) return 'high';
    if (rule.priority === 2) return 'medium';
    if (rule.priority === 3) return 'low';
    return 'info';
  }
  return 'medium';
}

/** The sid a refused rule's text names, when it names one: how the refusal is recognised. */
function sidOf(text: string): string {
  const sid = /\bsid\s*:\s*(\d+)/.exec(text)?.[1];
  if (!sid) return '';
  const gid = /\bgid\s*:\s*(\d+)/.exec(text)?.[1] ?? '1';
  return `${gid}:${sid}`;
}

/** The rules of a Suricata rules file; a rule commented out in the file is stored disabled. */
export function suricataCandidates(file: string, content: string): FileReading {
  const parsed = parseRulesFile(content);
  return {
    rejected: parsed.refused.map((r) => ({ file, line: r.line, rule: sidOf(r.text), reason: r.reason })),
    rules: parsed.rules.map(({ line, rule }) => ({
      file,
      line,
      key: `${rule.gid}:${rule.sid}`,
      title: rule.msg ?? `sid ${rule.sid}`,
      description: '',
      level: suricataLevel(rule),
      tags: distinct([...(rule.classtype ? [rule.classtype] : []), ...(rule.metadata.tag ?? [])]),
      techniques: distinct([...rule.mitreTechniqueIds, ...rule.mitreTacticIds]),
      author: distinct(rule.metadata.author ?? []).join(', '),
      references: rule.references.map((r) => `${r.type},${r.value}`),
      licence: '',
      details: {
        gid: rule.gid,
        sid: rule.sid,
        rev: rule.rev,
        action: rule.action,
        protocol: rule.protocol,
        classtype: rule.classtype,
        priority: rule.priority,
        metadata: rule.metadata,
        noalert: rule.noalert,
        threshold: rule.threshold,
        detection_filter: rule.detectionFilter,
        flowbits: rule.flowbits,
      },
      source: rule.text,
      enabled: rule.enabled,
      unsupported: null,
    })),
  };
}
