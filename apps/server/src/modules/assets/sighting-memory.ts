import { SEEN_GRAIN_MS } from './discovery-plan';
import type { Observation } from './discovery-observations';

/** The facts of an observation, without its times (an address's `until` is one). */
function factsOf(companyId: number, o: Observation): string {
  const ip = o.ip ? [o.ip.ip, o.ip.source] : null;
  return `${companyId}\u0000${JSON.stringify([o.nameKey, o.name, o.fqdn, o.mac, o.agentId, ip, o.os, o.kind, o.source])}`;
}

/** Until when the observation says the address is held (a DHCP lease's end; else its last sighting). */
const heldUntil = (o: Observation) => (o.ip ? Date.parse(o.ip.until) : Date.parse(o.last));

/**
 * What discovery in this process last found stored, by the facts of each observation: a batch whose
 * every observation was checked against the database within SEEN_GRAIN_MS, and reaches no earlier,
 * has nothing to write and skips its reads. An estate already known then costs discovery no statement
 * in most batches. Per process and forgetful by design: another process, a merge or a split is only
 * seen at the next check, at most one grain later; so stored last seen may trail by two grains.
 */
export class SightingMemory {
  private readonly checked = new Map<string, { first: number; last: number; until: number }>();

  constructor(private readonly limit = 200_000) {}

  /** Whether every observation was checked recently enough that it can have nothing to write. */
  covers(companyId: number, observations: readonly Observation[]): boolean {
    return observations.every((o) => {
      const entry = this.checked.get(factsOf(companyId, o));
      return (
        entry !== undefined &&
        Date.parse(o.first) >= entry.first &&
        Date.parse(o.last) - entry.last < SEEN_GRAIN_MS &&
        heldUntil(o) - entry.until < SEEN_GRAIN_MS
      );
    });
  }

  /** Records that the observations are now reflected in the database (written, or found within the grain). */
  remember(companyId: number, observations: readonly Observation[]): void {
    if (this.checked.size + observations.length > this.limit) this.checked.clear();
    for (const o of observations) {
      const key = factsOf(companyId, o);
      const entry = this.checked.get(key);
      const first = Date.parse(o.first);
      const last = Date.parse(o.last);
      const until = heldUntil(o);
      this.checked.set(key, {
        first: entry ? Math.min(entry.first, first) : first,
        last: entry ? Math.max(entry.last, last) : last,
        until: entry ? Math.max(entry.until, until) : until,
      });
    }
  }

  clear(): void {
    this.checked.clear();
  }
}
