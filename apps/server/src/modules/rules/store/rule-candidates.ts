import type { RuleImportRejection, RuleKind } from '@vigil/contract';
import { sigmaCandidates } from './sigma-candidates';
import { suricataCandidates } from './suricata-candidates';
import { yaraCandidates } from './yara-candidates';
import type { FileReading, RuleCandidate } from './candidate-fields';

export type { FileReading, RuleCandidate };

/** Reads one rule file of a kind into the rules it holds and the rules it refuses (with line and reason). */
export function readRuleFile(kind: RuleKind, file: string, content: string): FileReading {
  if (kind === 'suricata') return suricataCandidates(file, content);
  if (kind === 'sigma') return sigmaCandidates(file, content);
  return yaraCandidates(file, content);
}

/**
 * Reads the files of one import. A key met twice keeps its first rule; the later one is refused,
 * saying where the first is. Rules that name no licence get `defaultLicence`.
 */
export function readRuleFiles(
  kind: RuleKind,
  files: readonly { name: string; content: string }[],
  defaultLicence = '',
): FileReading {
  const rules: RuleCandidate[] = [];
  const rejected: RuleImportRejection[] = [];
  const seen = new Map<string, RuleCandidate>();
  for (const { name, content } of files) {
    const reading = readRuleFile(kind, name, content);
    rejected.push(...reading.rejected);
    for (const rule of reading.rules) {
      const first = seen.get(rule.key);
      if (first) {
        rejected.push({
          file: rule.file,
          line: rule.line,
          rule: rule.key,
          reason: `the same rule (${rule.key}) is at ${first.file} line ${first.line} already; only that one is imported`,
        });
        continue;
      }
      seen.set(rule.key, rule);
      rules.push(rule.licence === '' ? { ...rule, licence: defaultLicence } : rule);
    }
  }
  return { rules, rejected };
}
