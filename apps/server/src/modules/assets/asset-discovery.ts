import { recordSystemAudits } from '../audit/audit.service';
import type { InventoryStep } from '../pipeline/inventory-step';
import { needsNetworks, networksOf, observationsOf, type Observation } from './discovery-observations';
import { planDiscovery, type AssetRef } from './discovery-plan';
import {
  insertDiscovered,
  lockCompanyAssets,
  readKnownAssets,
  readNetworks,
  readPins,
  updateDiscovered,
} from './discovery.repository';
import { upsertIpHosts } from './ip-hosts.repository';

const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

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
 * Per batch that says anything: the company's lock (so two batches of one company never make
 * twins), its networks when DNS answers or flows need them, the pins, the known assets, then one
 * insert with its audit records, one update and one upsert of IP claims — at most eight statements, whatever the batch's size.
 */
export const assetDiscoveryStep: InventoryStep = {
  name: 'assets',
  async run({ companyId, tx }, events) {
    if (events.length === 0 || events[0]!.kind === 'mail') return;
    const networks = networksOf(needsNetworks(events) ? await readNetworks(tx, companyId) : []);
    const observations = observationsOf(events, networks);
    if (observations.length === 0) return;
    await lockCompanyAssets(tx, companyId);
    const keys = keysOf(observations);
    const pins = await readPins(tx, companyId, keys);
    const pinned = [...new Set([...pins.ip.values(), ...pins.mac.values(), ...pins.source.values()])];
    const known = await readKnownAssets(tx, companyId, { ...keys, pinned });
    const plan = planDiscovery(observations, known, pins);
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
    const idOf = (ref: AssetRef) => ('id' in ref ? ref.id : createdIds[ref.created]!);
    await upsertIpHosts(
      tx,
      companyId,
      plan.claims.map((c) => ({
        assetId: idOf(c.asset),
        ip: c.ip,
        mac: c.mac,
        source: c.source,
        firstSeen: c.firstSeen,
        lastSeen: c.lastSeen,
      })),
    );
  },
};
