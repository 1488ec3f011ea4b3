import type { RuleKind } from '@vigil/contract';

/** Where each kind of detection rule has its pages in Settings (the alert page links to a rule's page too). */
export const rulePaths: Record<RuleKind, string> = {
  suricata: '/settings/suricata-signatures',
  sigma: '/settings/sigma-rules',
  yara: '/settings/yara-signatures',
};

/** A rule's page. */
export const rulePath = (kind: RuleKind, id: number) => `${rulePaths[kind]}/${id}`;

/** Whether a text names a kind of rule (an alert's `detection.engine`). */
export const isRuleKind = (value: unknown): value is RuleKind =>
  typeof value === 'string' && Object.hasOwn(rulePaths, value);
