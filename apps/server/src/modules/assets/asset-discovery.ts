import { recordSystemAudits } from '../audit/audit.service';
import type { InventoryStep } from '../pipeline/inventory-step';
import { needsNetworks, networksOf, observationsOf, type Observation } from './discovery-observations';
import { planDiscovery, SEEN_GRAIN_MS, type AssetRef, type IpClaim } from './discovery-plan';
import {
  insertDiscovered,
  lockCompanyAssets,
  readKnownAssets,
  readNetworks,
  readPins,
  updateDiscovered,
} from './discovery.repository';
import { claimsThatChange, upsertIpHosts, type IpHostClaim } from './ip-hosts.repository';
import type { SightingMemory } from './sighting-memory';

const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

/** A plan's claim as the IP history stores it; `createdIds` names the plan's new assets. */
function toClaim(c: IpClaim, createdIds: readonly number[]): IpHostClaim {
  const ref: AssetRef = c.asset;
  return {
    assetId: 'id' in ref ? ref.id : createdIds[ref.created]!,
    ip: c.ip,
    mac: c.mac,
    source: c.source,
    firstSeen: c.firstSeen,
    lastSeen: c.lastSeen,
  };
}

/** The keys a batch's observations may match assets and pins on. */
function keysOf(observations: readonly Observation[]) {
  return {
    agentIds: unique(observations.map((o) => o.agentId)),
    macs: unique(observations.map((o) => o.mac)),
    nameKeys: unique(observations.map((o) => o.nameKey)),
    ips: unique(observations.map((o) => o.ip?.ip ?? null)),
    sources: unique(observations.map((o) => o.source)),
  };
}

/**
 * Asset discovery, the pipeline's inventory step: what a batch's events say about machines
 * (discovery-observations.ts) becomes assets and IP history (discovery-plan.ts decides, in memory).
 * A batch that says anything reads the pins, the known assets and the IP claims it touches (its
 * networks too when DNS answers or flows need them); when that changes nothing stored — the usual
 * case for an estate already known — it is done, without a lock. Otherwise it takes the company's
 * lock, reads and plans again, and writes: one insert with its audit records, one update and one
 * upsert of IP claims, whatever the batch's size.
 */
export const assetDiscoveryStep = (memory: SightingMemory): InventoryStep => ({
  name: 'assets',
  async run({ companyId, tx }, events) {
    if (events.length === 0 || events[0]!.kind === 'mail') return;
    const networks = networksOf(needsNetworks(events) ? await readNetworks(tx, companyId) : []);
    const observations = observationsOf(events, networks);
    if (observations.length === 0) return;
    if (memory.covers(companyId, observations)) return;
    const keys = keysOf(observations);
    const planNow = async () => {
      const pins = await readPins(tx, companyId, keys);
      const pinned = [...new Set([...pins.ip.values(), ...pins.mac.values(), ...pins.source.values()])];
      const known = await readKnownAssets(tx, companyId, { ...keys, pinned });
      const plan = planDiscovery(observations, known, pins);
      // Claims of new assets are new; those of known assets are written only when they change.
      const claims = await claimsThatChange(
        tx,
        companyId,
        plan.claims.filter((c) => 'id' in c.asset).map((c) => toClaim(c, [])),
        SEEN_GRAIN_MS,
      );
      return { plan, claims, writes: plan.created.length + plan.changed.length + claims.length };
    };
    // Most batches of a known estate change nothing (sightings within the grain): they take no lock.
    // One that writes takes the company's lock — so two batches never make twins, and a merge or a
    // split is never undone by a plan made before it — and plans again on what is there now.
    let { plan, claims, writes } = await planNow();
    if (writes === 0) {
      memory.remember(companyId, observations);
      return;
    }
    await lockCompanyAssets(tx, companyId);
    ({ plan, claims, writes } = await planNow());
    memory.remember(companyId, observations);
    if (writes === 0) return;
    // Ids come in the order the rows were inserted (one sequence, ascending within the statement).
    const createdIds = await insertDiscovered(tx, companyId, plan.created);
    await updateDiscovered(tx, plan.changed);
    // A discovered asset is recorded as the system's creation; later sightings only move its times.
    await recordSystemAudits(
      tx,
      plan.created.map((a, i) => ({
        companyId,
        action: 'create',
        objectType: 'asset',
        objectId: createdIds[i]!,
        objectRepr: a.name,
        changes: { kind: { before: null, after: a.kind }, sources: { before: null, after: a.sources } },
      })),
    );
    await upsertIpHosts(tx, companyId, [
      ...claims,
      ...plan.claims.filter((c) => !('id' in c.asset)).map((c) => toClaim(c, createdIds)),
    ]);
  },
});
