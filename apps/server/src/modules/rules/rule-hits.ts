import type { Detection } from '../pipeline/detections';
import type { RuleHit } from './rule-engines.repository';

/** A batch's detections from stored rules counted per rule, for today's hit counts. */
export function hitsOfBatch(companyId: number, detections: readonly Detection[], now = new Date()): RuleHit[] {
  const counts = new Map<number, number>();
  for (const d of detections) {
    if (d.source.type !== 'rule' || d.source.storedRuleId === undefined) continue;
    counts.set(d.source.storedRuleId, (counts.get(d.source.storedRuleId) ?? 0) + 1);
  }
  const day = now.toISOString().slice(0, 10);
  const at = now.toISOString();
  return [...counts].map(([ruleId, hits]) => ({ companyId, ruleId, day, hits, lastHitAt: at }));
}
