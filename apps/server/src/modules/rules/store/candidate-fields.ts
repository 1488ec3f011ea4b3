import type { RuleImportRejection } from '@vigil/contract';
import type { AlertSeverity } from '../../pipeline/detections';

/** One rule read from an imported file, with every field the store keeps. */
export interface RuleCandidate {
  file: string;
  /** 1-based line the rule starts on. */
  line: number;
  /** Sigma `id`, Suricata `gid:sid`, YARA `<file name>:<rule name>`. */
  key: string;
  title: string;
  description: string;
  level: AlertSeverity;
  tags: string[];
  /** ATT&CK technique and tactic ids. */
  techniques: string[];
  author: string;
  references: string[];
  licence: string;
  details: Record<string, unknown>;
  /** The text stored and run: for YARA, enough to compile on its own. */
  source: string;
  /** Whether the rule is on when first stored (a Suricata rule commented out in its file is not). */
  enabled: boolean;
  /** Why the engine cannot run it; such a rule is stored disabled. */
  unsupported: string | null;
}

export interface FileReading {
  rules: RuleCandidate[];
  rejected: RuleImportRejection[];
}

const levels: Record<string, AlertSeverity> = {
  informational: 'info',
  info: 'info',
  low: 'low',
  medium: 'medium',
  moderate: 'medium',
  high: 'high',
  critical: 'critical',
};

/** A level or severity word as an alert severity; null for a word it is not. */
export function levelOfWord(word: string | null | undefined): AlertSeverity | null {
  return word ? (levels[word.trim().toLowerCase()] ?? null) : null;
}

/** A 0–100 score as an alert severity. */
export function levelOfScore(score: number): AlertSeverity {
  if (score >= 90) return 'critical';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  if (score >= 20) return 'low';
  return 'info';
}

/** The ATT&CK Enterprise tactics by the names Sigma tags use (`attack.credential-access`). */
export const ATTACK_TACTICS: Readonly<Record<string, string>> = {
  reconnaissance: 'TA0043',
  'resource-development': 'TA0042',
  'initial-access': 'TA0001',
  execution: 'TA0002',
  persistence: 'TA0003',
  'privilege-escalation': 'TA0004',
  'defense-evasion': 'TA0005',
  'credential-access': 'TA0006',
  discovery: 'TA0007',
  'lateral-movement': 'TA0008',
  collection: 'TA0009',
  exfiltration: 'TA0010',
  'command-and-control': 'TA0011',
  impact: 'TA0040',
};

/** Distinct, non-empty texts in their first order. */
export function distinct(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
}
