import { BlockList, isIP } from 'node:net';
import type { AssetKind, EndpointEvent, IpHostSource, NetworkEvent } from '@vigil/contract';
import type { StoredEvent } from '../pipeline/stored-events';

/** What one event says about one machine. */
export interface Observation {
  /** The short host name, lower case: the key discovery matches names on. */
  nameKey: string | null;
  /** The name as the source wrote it (short form). */
  name: string | null;
  fqdn: string | null;
  mac: string | null;
  agentId: string | null;
  /** An address the machine held, from when to when, and how we know. */
  ip: { ip: string; source: IpHostSource; until: string } | null;
  os: { name: string; version: string } | null;
  kind: AssetKind | null;
  /** Who reported it: `endpoint:<agent id or host>`, `eve:<sensor>`. */
  source: string;
  /** The first and the last sighting in the batch (canonical ISO 8601, so they compare as text). */
  first: string;
  last: string;
}

/** A company's internal networks as a matcher of addresses. */
export interface Networks {
  has(ip: string): boolean;
  readonly empty: boolean;
}

/** Builds the matcher of a list of CIDRs (`10.0.0.0/8`, `fd00::/8`); entries that do not parse are passed over. */
export function networksOf(cidrs: readonly string[]): Networks {
  const list = new BlockList();
  let count = 0;
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/');
    const family = address ? isIP(address) : 0;
    if (!address || family === 0 || prefix === undefined) continue;
    list.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    count += 1;
  }
  return {
    empty: count === 0,
    has: (ip) => {
      const family = isIP(ip);
      return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** Addresses that say nothing about which machine it is: unspecified, loopback, link-local, broadcast. */
export function isUsableAddress(ip: string): boolean {
  const v = ip.toLowerCase();
  if (isIP(v) === 0) return false;
  if (v === '0.0.0.0' || v === '255.255.255.255' || v === '::' || v === '::1') return false;
  return !(v.startsWith('127.') || v.startsWith('169.254.') || v.startsWith('fe80:'));
}

/** A host name split into its short name (first label) and, when it has dots, the fully qualified one. */
export function splitHostName(text: string | null): { name: string; nameKey: string; fqdn: string | null } | null {
  const value = (text ?? '').trim().replace(/\.$/, '');
  if (value === '' || value.length > 255 || isIP(value) !== 0 || /[\s/\\]/.test(value)) return null;
  const dot = value.indexOf('.');
  const name = dot < 0 ? value : value.slice(0, dot);
  if (name === '') return null;
  return { name, nameKey: name.toLowerCase(), fqdn: dot < 0 ? null : value.toLowerCase() };
}

/** An operating system string split into a name and a trailing version (`Windows 10 Pro 10.0.19045`). */
export function splitOs(text: string | null): { name: string; version: string } | null {
  const value = (text ?? '').trim();
  if (value === '') return null;
  const match = /^(.*?)\s+v?(\d+(?:\.\d+)+)$/.exec(value);
  return match
    ? { name: match[1]!.slice(0, 200), version: match[2]!.slice(0, 100) }
    : { name: value.slice(0, 200), version: '' };
}

/** The kind an operating system suggests: servers and workstations by name, phones by platform. */
export function kindOfOs(os: string | null): AssetKind | null {
  if (!os) return null;
  const v = os.toLowerCase();
  if (v.includes('server')) return 'server';
  if (/android|ios|ipados/.test(v)) return 'mobile';
  if (/windows|mac ?os|os x/.test(v)) return 'workstation';
  return null;
}

const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;

function normaliseMac(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const mac = value.trim().toLowerCase().replaceAll('-', ':');
  return MAC.test(mac) && mac !== '00:00:00:00:00:00' && mac !== 'ff:ff:ff:ff:ff:ff' ? mac : null;
}

function field(record: Record<string, unknown>, ...path: string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** ECS carries the agent's id (`agent.id`) and the host's MAC addresses (`host.mac`) beside what is normalised. */
function ecsExtras(event: EndpointEvent): { agentId: string | null; macs: string[] } {
  if (event.source_format !== 'ecs') return { agentId: null, macs: [] };
  const agent = field(event.raw, 'agent', 'id');
  const mac = field(event.raw, 'host', 'mac');
  const macs = (Array.isArray(mac) ? mac : [mac]).map(normaliseMac).filter((m): m is string => m !== null);
  const agentId = typeof agent === 'string' && agent.trim() !== '' ? agent.trim().slice(0, 200) : null;
  return { agentId, macs: [...new Set(macs)] };
}

/** A sighting's observations before the batch's span of them is known. */
type Sighting = Omit<Observation, 'first' | 'last' | 'ip'> & { ip: { ip: string; source: IpHostSource } | null };

function endpointSightings(event: EndpointEvent): Sighting[] {
  const host = splitHostName(event.host.name);
  const { agentId, macs } = ecsExtras(event);
  if (!host && !agentId) return [];
  const base = {
    nameKey: host?.nameKey ?? null,
    name: host?.name ?? null,
    fqdn: host?.fqdn ?? null,
    agentId,
    os: splitOs(event.host.os),
    kind: kindOfOs(event.host.os),
    source: `endpoint:${(agentId ?? host?.nameKey ?? '').slice(0, 200)}`,
  };
  const out: Sighting[] = [{ ...base, mac: macs[0] ?? null, ip: null }];
  for (const mac of macs.slice(1)) out.push({ ...base, mac, ip: null });
  for (const ip of new Set(event.host.ip.map((a) => a.toLowerCase()))) {
    if (isUsableAddress(ip)) out.push({ ...base, mac: null, ip: { ip, source: 'endpoint' } });
  }
  return out;
}

const sensorSource = (event: NetworkEvent) => `eve:${(event.host ?? 'sensor').slice(0, 200)}`;
const nothing = { nameKey: null, name: null, fqdn: null, mac: null, agentId: null, os: null, kind: null } as const;

function dhcpSighting(event: NetworkEvent, dhcp: NonNullable<NetworkEvent['dhcp']>, mac: string): Sighting {
  const host = splitHostName(dhcp.hostname);
  const acked = (dhcp.dhcp_type ?? '').toLowerCase() === 'ack';
  const ip = acked && dhcp.assigned_ip && isUsableAddress(dhcp.assigned_ip) ? dhcp.assigned_ip.toLowerCase() : null;
  return {
    ...nothing,
    nameKey: host?.nameKey ?? null,
    name: host?.name ?? null,
    fqdn: host?.fqdn ?? null,
    mac,
    ip: ip ? { ip, source: 'dhcp' } : null,
    source: sensorSource(event),
  };
}

/**
 * Gathers a batch's sightings by what they say: an event that says what an earlier one said only
 * widens the span (first, last, and until when the address is held), so the work per event is a
 * key and a map lookup, and what the plan reads does not grow with the batch.
 */
class Sightings {
  private readonly byKey = new Map<string, { sightings: Sighting[]; first: number; last: number; until: number }>();

  add(key: string, ts: string, holdMs: number, make: () => Sighting[]): void {
    const at = Date.parse(ts);
    const held = this.byKey.get(key);
    if (held) {
      if (at < held.first) held.first = at;
      if (at > held.last) held.last = at;
      if (at + holdMs > held.until) held.until = at + holdMs;
      return;
    }
    this.byKey.set(key, { sightings: make(), first: at, last: at, until: at + holdMs });
  }

  observations(): Observation[] {
    const out: Observation[] = [];
    for (const { sightings, first, last, until } of this.byKey.values()) {
      const span = { first: new Date(first).toISOString(), last: new Date(last).toISOString() };
      const held = new Date(until).toISOString();
      for (const s of sightings) out.push({ ...s, ...span, ip: s.ip ? { ...s.ip, until: held } : null });
    }
    return out;
  }
}

/** Whether a batch holds events whose reading needs the company's networks (DNS answers, flows). */
export function needsNetworks(events: readonly StoredEvent[]): boolean {
  return events.some((e) => e.kind === 'network' && (e.event.event_type === 'dns' || e.event.event_type === 'flow'));
}

/**
 * What a batch's events say about machines: endpoint events (host name, addresses, OS, ECS agent id
 * and MACs), EVE `dhcp` records (host name, MAC, the address an ACK gives until its lease ends), EVE
 * `dns` answers naming an address inside the company's networks, and EVE `flow` records with an
 * address inside them. Other events say nothing. Events that say the same are one observation
 * spanning their times.
 */
export function observationsOf(events: readonly StoredEvent[], networks: Networks): Observation[] {
  const found = new Sightings();
  const internal = new Map<string, boolean>();
  const inside = (address: string | null): string | null => {
    if (address === null || networks.empty) return null;
    let yes = internal.get(address);
    if (yes === undefined) {
      yes = isUsableAddress(address) && networks.has(address);
      internal.set(address, yes);
    }
    return yes ? address.toLowerCase() : null;
  };
  for (const stored of events) {
    if (stored.kind === 'endpoint') {
      const { host, raw, source_format: format } = stored.event;
      const extras =
        format === 'ecs' ? `${String(field(raw, 'agent', 'id'))}|${String(field(raw, 'host', 'mac'))}` : '';
      const key = `e|${host.name}|${host.os}|${host.ip.join(',')}|${extras}`;
      found.add(key, stored.ts, 0, () => endpointSightings(stored.event));
    } else if (stored.kind === 'network') {
      const event = stored.event;
      const type = event.event_type;
      const dhcp = event.dhcp;
      if (type === 'dhcp' && dhcp) {
        const mac = normaliseMac(dhcp.client_mac);
        if (!mac) continue;
        const key = `d|${event.host}|${mac}|${dhcp.hostname}|${dhcp.dhcp_type}|${dhcp.assigned_ip}`;
        found.add(key, stored.ts, (dhcp.lease_time ?? 0) * 1000, () => [dhcpSighting(event, dhcp, mac)]);
      } else if (type === 'dns' && !networks.empty) {
        for (const answer of event.dns?.answers ?? []) {
          const rrtype = (answer.rrtype ?? '').toUpperCase();
          const ip = rrtype === 'A' || rrtype === 'AAAA' ? inside(answer.rdata) : null;
          const host = ip ? splitHostName(answer.rrname) : null;
          if (!ip || !host) continue;
          found.add(`n|${event.host}|${host.fqdn ?? host.name}|${ip}`, stored.ts, 0, () => [
            { ...nothing, ...host, ip: { ip, source: 'dns' }, source: sensorSource(event) },
          ]);
        }
      } else if (type === 'flow' && !networks.empty) {
        for (const address of [event.src_ip, event.dest_ip]) {
          const ip = inside(address);
          if (!ip) continue;
          found.add(`f|${event.host}|${ip}`, stored.ts, 0, () => [
            { ...nothing, kind: 'other', ip: { ip, source: 'flow' }, source: sensorSource(event) },
          ]);
        }
      }
    }
  }
  return found.observations();
}
