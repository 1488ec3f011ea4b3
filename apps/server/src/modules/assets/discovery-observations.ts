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
  seen: string;
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

function fromEndpoint(event: EndpointEvent, seen: string): Observation[] {
  const host = splitHostName(event.host.name);
  const { agentId, macs } = ecsExtras(event);
  if (!host && !agentId) return [];
  const os = splitOs(event.host.os);
  const base = {
    nameKey: host?.nameKey ?? null,
    name: host?.name ?? null,
    fqdn: host?.fqdn ?? null,
    agentId,
    os,
    kind: kindOfOs(event.host.os),
    source: `endpoint:${(agentId ?? host?.nameKey ?? '').slice(0, 200)}`,
    seen,
  };
  const ips = [...new Set(event.host.ip.map((ip) => ip.toLowerCase()))].filter(isUsableAddress);
  const out: Observation[] = [{ ...base, mac: macs[0] ?? null, ip: null }];
  for (const mac of macs.slice(1)) out.push({ ...base, mac, ip: null });
  for (const ip of ips) out.push({ ...base, mac: null, ip: { ip, source: 'endpoint', until: seen } });
  return out;
}

const sensorSource = (event: NetworkEvent) => `eve:${(event.host ?? 'sensor').slice(0, 200)}`;

function fromDhcp(event: NetworkEvent, seen: string): Observation[] {
  const dhcp = event.dhcp;
  const mac = normaliseMac(dhcp?.client_mac);
  if (!dhcp || !mac) return [];
  const host = splitHostName(dhcp.hostname);
  const acked = (dhcp.dhcp_type ?? '').toLowerCase() === 'ack';
  const assigned =
    acked && dhcp.assigned_ip && isUsableAddress(dhcp.assigned_ip) ? dhcp.assigned_ip.toLowerCase() : null;
  const until = new Date(Date.parse(seen) + (dhcp.lease_time ?? 0) * 1000).toISOString();
  return [
    {
      nameKey: host?.nameKey ?? null,
      name: host?.name ?? null,
      fqdn: host?.fqdn ?? null,
      mac,
      agentId: null,
      ip: assigned ? { ip: assigned, source: 'dhcp', until } : null,
      os: null,
      kind: null,
      source: sensorSource(event),
      seen,
    },
  ];
}

function fromDns(event: NetworkEvent, seen: string, networks: Networks): Observation[] {
  const out: Observation[] = [];
  for (const answer of event.dns?.answers ?? []) {
    const type = (answer.rrtype ?? '').toUpperCase();
    if (type !== 'A' && type !== 'AAAA') continue;
    const ip = (answer.rdata ?? '').toLowerCase();
    const host = splitHostName(answer.rrname);
    if (!host || !isUsableAddress(ip) || !networks.has(ip)) continue;
    out.push({
      ...host,
      mac: null,
      agentId: null,
      ip: { ip, source: 'dns', until: seen },
      os: null,
      kind: null,
      source: sensorSource(event),
      seen,
    });
  }
  return out;
}

function fromFlow(event: NetworkEvent, seen: string, networks: Networks): Observation[] {
  const out: Observation[] = [];
  for (const address of [event.src_ip, event.dest_ip]) {
    const ip = (address ?? '').toLowerCase();
    if (!isUsableAddress(ip) || !networks.has(ip)) continue;
    out.push({
      nameKey: null,
      name: null,
      fqdn: null,
      mac: null,
      agentId: null,
      ip: { ip, source: 'flow', until: seen },
      os: null,
      kind: 'other',
      source: sensorSource(event),
      seen,
    });
  }
  return out;
}

/** Whether a batch holds events whose reading needs the company's networks (DNS answers, flows). */
export function needsNetworks(events: readonly StoredEvent[]): boolean {
  return events.some((e) => e.kind === 'network' && (e.event.event_type === 'dns' || e.event.event_type === 'flow'));
}

/**
 * What a batch's events say about machines: endpoint events (host name, addresses, OS, ECS agent id
 * and MACs), EVE `dhcp` records (host name, MAC, the address an ACK gives until its lease ends), EVE
 * `dns` answers naming an address inside the company's networks, and EVE `flow` records with an
 * address inside them. Other events say nothing.
 */
export function observationsOf(events: readonly StoredEvent[], networks: Networks): Observation[] {
  const out: Observation[] = [];
  for (const stored of events) {
    if (stored.kind === 'endpoint') out.push(...fromEndpoint(stored.event, stored.ts));
    else if (stored.kind === 'network') {
      const type = stored.event.event_type;
      if (type === 'dhcp') out.push(...fromDhcp(stored.event, stored.ts));
      else if (!networks.empty && type === 'dns') out.push(...fromDns(stored.event, stored.ts, networks));
      else if (!networks.empty && type === 'flow') out.push(...fromFlow(stored.event, stored.ts, networks));
    }
  }
  return out;
}
