import type { Detection } from '../pipeline/detections';
import type { RuleHit } from './rule-engines.repository';

/** A batch's detections from stored rules counted per company and rule, for today's hit counts. */
export function hitsOfBatch(detections: readonly Detection[], now = new Date()): RuleHit[] {
  const counts = new Map<string, { companyId: number; ruleId: number; hits: number }>();
  for (const d of detections) {
    if (d.source.type !== 'rule' || d.source.storedRuleId === undefined) continue;
    const key = `${d.companyId}:${d.source.storedRuleId}`;
    const count = counts.get(key);
    if (count) count.hits += 1;
    else counts.set(key, { companyId: d.companyId, ruleId: d.source.storedRuleId, hits: 1 });
  }
  const day = now.toISOString().slice(0, 10);
  const at = now.toISOString();
  return [...counts.values()].map((c) => ({ ...c, day, lastHitAt: at }));
}
