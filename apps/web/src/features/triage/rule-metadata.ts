import type { TFunction } from '../../lib/i18n';

/**
 * What a Suricata rule says of itself (its `metadata` keyword, as EVE logs it: each key with its
 * values), laid out for people: known keys by a translated label, values with the underscores
 * rulesets write for spaces made spaces again and `2019_07_26` dates written `2019-07-26`.
 */

/** Metadata keys with a label of their own (`triage.ruleMetadata.<key>`), in the order shown. */
export const ruleMetadataKeys = [
  'signature_severity',
  'confidence',
  'deployment',
  'attack_target',
  'affected_product',
  'mitre_tactic_name',
  'mitre_technique_name',
  'former_category',
  'performance_impact',
  'tag',
  'created_at',
  'updated_at',
] as const;
export type RuleMetadataKey = (typeof ruleMetadataKeys)[number];

/** ATT&CK ids are shown as ATT&CK, not among the metadata. */
const SHOWN_ELSEWHERE = new Set(['mitre_tactic_id', 'mitre_technique_id', 'mitre_subtechnique_id']);

const DATE = /^(\d{4})_(\d{2})_(\d{2})$/;

/** One value as a person reads it. */
export function ruleMetadataValue(value: string): string {
  const date = DATE.exec(value);
  if (date) return `${date[1]}-${date[2]}-${date[3]}`;
  return value.replaceAll('_', ' ');
}

export interface RuleMetadataEntry {
  key: string;
  /** The key's label in `triage.ruleMetadata`, or null when the key has none (its name is shown). */
  known: RuleMetadataKey | null;
  value: string;
}

/** The entries to show: known keys first in their order, then the others by name; ATT&CK ids left out. */
export function ruleMetadataEntries(metadata: unknown): RuleMetadataEntry[] {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return [];
  const values = metadata as Record<string, unknown>;
  const text = (key: string) => {
    const list = values[key];
    const items = (Array.isArray(list) ? list : [list]).filter((item): item is string => typeof item === 'string');
    return items.map(ruleMetadataValue).join(', ');
  };
  const entries: RuleMetadataEntry[] = [];
  for (const key of ruleMetadataKeys) {
    const value = Object.hasOwn(values, key) ? text(key) : '';
    if (value !== '') entries.push({ key, known: key, value });
  }
  const known = new Set<string>(ruleMetadataKeys);
  for (const key of Object.keys(values).sort()) {
    if (known.has(key) || SHOWN_ELSEWHERE.has(key)) continue;
    const value = text(key);
    if (value !== '') entries.push({ key, known: null, value });
  }
  return entries;
}

/** The entries as label/value pairs, labels in the reader's language (a key without one shows its name). */
export function ruleMetadataItems(metadata: unknown, t: TFunction): Array<[string, string]> {
  return ruleMetadataEntries(metadata).map((entry) => [
    entry.known ? t(`triage.ruleMetadata.${entry.known}`) : entry.key,
    entry.value,
  ]);
}
