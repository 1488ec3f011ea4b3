import type { AssetKind, IpHostSource } from '@vigil/contract';
import type { Observation } from './discovery-observations';

/** An asset as discovery reads and changes it. */
/** How far last seen of an asset or an address claim moves before it is written again. */
export const SEEN_GRAIN_MS = 5 * 60_000;

export interface KnownAsset {
  id: number;
  name: string;
  /** Null for an asset named by its address. */
  nameKey: string | null;
  kind: AssetKind;
  osName: string;
  osVersion: string;
  ips: string[];
  macs: string[];
  fqdn: string;
  agentId: string;
  sources: string[];
  firstSeen: string | null;
  lastSeen: string | null;
}

/** What splits took out of assets: each value stays on the asset named. */
export interface Pins {
  ip: ReadonlyMap<string, number>;
  mac: ReadonlyMap<string, number>;
  source: ReadonlyMap<string, number>;
}

/** An asset discovery makes; `ref` is its place in `created`. */
export type NewAsset = Omit<KnownAsset, 'id' | 'nameKey'>;

/** Either an asset that exists (its id) or one of the plan's new assets (its index). */
export type AssetRef = { id: number } | { created: number };

export interface IpClaim {
  asset: AssetRef;
  ip: string;
  mac: string | null;
  source: IpHostSource;
  firstSeen: string;
  lastSeen: string;
}

export interface DiscoveryPlan {
  created: NewAsset[];
  /** Known assets as they are to be after the batch; only those that change. */
  changed: KnownAsset[];
  claims: IpClaim[];
}

type Target = { known: KnownAsset } | { created: number };

/** An asset with a name and a kind and nothing else yet. */
export function blankAsset(name: string, kind: AssetKind): NewAsset {
  return {
    name,
    kind,
    osName: '',
    osVersion: '',
    ips: [],
    macs: [],
    fqdn: '',
    agentId: '',
    sources: [],
    firstSeen: null,
    lastSeen: null,
  };
}

const earlier = (a: string | null, b: string) => (a === null || b < a ? b : a);
const later = (a: string | null, b: string) => (a === null || b > a ? b : a);
const addTo = (list: string[], value: string) => {
  if (!list.includes(value)) list.push(value);
};

/** Union–find over the observations that name a machine (agent id, MAC, host name). */
function groupsOf(observations: readonly Observation[]): Observation[][] {
  const parent = observations.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const owner = new Map<string, number>();
  observations.forEach((o, i) => {
    for (const key of [o.agentId && `a:${o.agentId}`, o.mac && `m:${o.mac}`, o.nameKey && `n:${o.nameKey}`]) {
      if (!key) continue;
      const first = owner.get(key);
      if (first === undefined) owner.set(key, i);
      else parent[find(i)] = find(first);
    }
  });
  const groups = new Map<number, Observation[]>();
  observations.forEach((o, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(o);
    else groups.set(root, [o]);
  });
  return [...groups.values()];
}

const identifies = (o: Observation) => o.agentId !== null || o.mac !== null || o.nameKey !== null;

/**
 * Decides what a batch's observations change. Observations naming one machine (by agent id, MAC or
 * host name) are one group; a group is matched to a known asset by a split's pin on one of its
 * sources, then agent id, then MAC (pinned first), then host name, then an address-named asset
 * holding one of its addresses (which takes the group's name); else it is a new asset. Flow-only
 * addresses go to the asset a pin, this batch or a known asset gives them, else to a new asset
 * named by the address. An address a split pinned goes only to its asset; an address a machine
 * claims (DHCP, endpoint, DNS) leaves every other asset's current addresses. Pure: the same
 * observations over the same assets give the same plan, and applying a plan twice changes nothing.
 */
export function planDiscovery(
  observations: readonly Observation[],
  known: readonly KnownAsset[],
  pins: Pins,
): DiscoveryPlan {
  const assets = known.map((a) => ({ ...a, ips: [...a.ips], macs: [...a.macs], sources: [...a.sources] }));
  const byId = new Map(assets.map((a) => [a.id, a]));
  const created: NewAsset[] = [];
  const claims = new Map<string, IpClaim>();
  const claimed = new Map<string, Target>();
  const first = (pick: (a: KnownAsset) => boolean): KnownAsset | undefined => assets.find(pick);
  const pinned = (map: ReadonlyMap<string, number>, value: string | null) =>
    value === null ? undefined : byId.get(map.get(value) ?? -1);

  const refOf = (t: Target): AssetRef => ('known' in t ? { id: t.known.id } : { created: t.created });
  const recordOf = (t: Target): NewAsset | KnownAsset => ('known' in t ? t.known : created[t.created]!);

  const claim = (target: Target, o: Observation) => {
    if (!o.ip) return;
    const { ip, source, until } = o.ip;
    const pin = pinned(pins.ip, ip);
    const to: Target = pin ? { known: pin } : target;
    const record = recordOf(to);
    addTo(record.ips, ip);
    if (source !== 'flow') {
      for (const other of assets)
        if (other !== record && !pins.ip.has(ip)) other.ips = other.ips.filter((x) => x !== ip);
      claimed.set(ip, to);
    } else if (!claimed.has(ip)) claimed.set(ip, to);
    const ref = refOf(to);
    const key = `${'id' in ref ? `i${ref.id}` : `c${ref.created}`}|${ip}|${source}`;
    const held = claims.get(key);
    if (!held) claims.set(key, { asset: ref, ip, mac: o.mac, source, firstSeen: o.first, lastSeen: until });
    else {
      held.firstSeen = earlier(held.firstSeen, o.first)!;
      if (until > held.lastSeen) {
        held.lastSeen = until;
        held.mac = o.mac ?? held.mac;
      }
    }
  };

  const absorb = (record: NewAsset | KnownAsset, group: readonly Observation[], renameAddressNamed: boolean) => {
    const latest = [...group].sort((a, b) => (a.last < b.last ? 1 : -1));
    const named = latest.find((o) => o.name !== null);
    if (renameAddressNamed && named?.name) record.name = named.name;
    for (const o of group) {
      if (o.mac && !pins.mac.has(o.mac)) addTo(record.macs, o.mac);
      else if (o.mac && pins.mac.get(o.mac) === ('id' in record ? record.id : -1)) addTo(record.macs, o.mac);
      if (!pins.source.has(o.source) || pins.source.get(o.source) === ('id' in record ? record.id : -1)) {
        addTo(record.sources, o.source);
      }
      record.firstSeen = earlier(record.firstSeen, o.first);
      record.lastSeen = later(record.lastSeen, o.last);
    }
    const fqdn = latest.find((o) => o.fqdn)?.fqdn;
    if (record.fqdn === '' && fqdn) record.fqdn = fqdn;
    const agent = latest.find((o) => o.agentId)?.agentId;
    if (record.agentId === '' && agent) record.agentId = agent;
    const os = latest.find((o) => o.os)?.os;
    if (record.osName === '' && os) {
      record.osName = os.name;
      record.osVersion = os.version;
    }
    const kind = latest.find((o) => o.kind && o.kind !== 'other')?.kind;
    if (record.kind === 'other' && kind) record.kind = kind;
  };

  const create = (group: readonly Observation[], name: string, kind: AssetKind): Target => {
    created.push(blankAsset(name, kind));
    const target: Target = { created: created.length - 1 };
    absorb(created[created.length - 1]!, group, false);
    return target;
  };

  const identified = observations.filter(identifies);
  for (const group of groupsOf(identified)) {
    const has = <K extends keyof Observation>(k: K) => group.map((o) => o[k]).filter((v) => v !== null);
    const macs = has('mac') as string[];
    const agents = has('agentId') as string[];
    const names = has('nameKey') as string[];
    const ips = group.filter((o) => o.ip && o.ip.source !== 'flow').map((o) => o.ip!.ip);
    const match =
      group.map((o) => pinned(pins.source, o.source)).find(Boolean) ??
      first((a) => a.agentId !== '' && agents.includes(a.agentId)) ??
      macs.map((m) => pinned(pins.mac, m)).find(Boolean) ??
      first((a) => a.macs.some((m) => macs.includes(m))) ??
      first((a) => a.nameKey !== null && names.includes(a.nameKey));
    const takeover = match ? undefined : first((a) => a.nameKey === null && a.ips.some((ip) => ips.includes(ip)));
    let target: Target;
    if (match ?? takeover) {
      const asset = (match ?? takeover)!;
      absorb(asset, group, asset === takeover);
      target = { known: asset };
    } else {
      const name = group.find((o) => o.name)?.name ?? group.find((o) => o.mac)?.mac ?? agents[0]!;
      target = create(group, name, 'other');
    }
    for (const o of group) claim(target, o);
  }

  for (const o of observations) {
    if (identifies(o) || !o.ip) continue;
    const ip = o.ip.ip;
    const pin = pinned(pins.ip, ip);
    const holder = first((a) => a.ips.includes(ip));
    let target = claimed.get(ip) ?? (pin ? { known: pin } : holder ? { known: holder } : undefined);
    if (target) absorb(recordOf(target), [o], false);
    else target = create([o], ip, o.kind ?? 'other');
    claim(target, o);
  }

  // A sighting within SEEN_GRAIN_MS of the last one is not a change: busy machines are seen in every
  // batch, and rewriting their rows each time would be most of what discovery costs.
  const before = new Map(known.map((a) => [a.id, a]));
  for (const a of assets) {
    const was = before.get(a.id)?.lastSeen;
    if (was && a.lastSeen && Date.parse(a.lastSeen) - Date.parse(was) < SEEN_GRAIN_MS) a.lastSeen = was;
  }
  const original = new Map(known.map((a) => [a.id, JSON.stringify(a)]));
  const changed = assets.filter((a) => JSON.stringify(a) !== original.get(a.id));
  return { created, changed, claims: [...claims.values()] };
}
