import type { SearchHit } from '@vigil/contract';
import { hitSummary } from '@vigil/contract/query';
import { toCamelCase, type Camelize } from '../../../lib/http';

type Hit = Camelize<SearchHit>;

/** One line that says what a hit is, from its kind's event (as the console spells its fields). */
export function summaryOf(hit: Hit): string {
  return hitSummary(hit.kind, hit.event as Record<string, unknown>, toCamelCase);
}
