import type { NetworkEvent } from '@vigil/contract';
import {
  FieldError,
  describe,
  isObject,
  nullIfEmpty,
  readInteger,
  readIp,
  readString,
  readStringList,
  type JsonObject,
} from './values';

/*
 * The application-layer and TCP groups of an EVE record that only Suricata writes (ssh, dhcp,
 * smtp with its email, tcp), read field by field as Suricata 7 names them.
 */

/** `true`/`false`, or the same written as text by pipelines that stringify everything. */
export function readBoolean(value: unknown, field: string): boolean | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new FieldError(`${field} must be true or false, found ${describe(value)}`);
}

const MAC = /^[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}$/i;

/** A hardware address in lower case with colons (`00:1a:2b:3c:4d:5e`); `-` separators are accepted. */
export function readMac(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && MAC.test(value.trim())) return value.trim().toLowerCase().replaceAll('-', ':');
  throw new FieldError(`${field} is not a MAC address (${describe(value)})`);
}

/** Suricata writes 0.0.0.0 where a DHCP message carries no address. */
const NO_ADDRESS = { empty: ['0.0.0.0'] } as const;

function readIpList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  items.forEach((item, i) => {
    const ip = readIp(item, `${field}[${i}]`, NO_ADDRESS);
    if (ip !== null) out.push(ip);
  });
  return out;
}

const TCP_FLAG_NAMES = ['syn', 'fin', 'rst', 'psh', 'ack', 'urg', 'ecn', 'cwr'] as const;

export function readTcp(tcp: JsonObject): NonNullable<NetworkEvent['tcp']> {
  const flags: string[] = [];
  for (const name of TCP_FLAG_NAMES) if (readBoolean(tcp[name], `tcp.${name}`) === true) flags.push(name);
  return {
    tcp_flags: readString(tcp.tcp_flags, 'tcp.tcp_flags'),
    tcp_flags_ts: readString(tcp.tcp_flags_ts, 'tcp.tcp_flags_ts'),
    tcp_flags_tc: readString(tcp.tcp_flags_tc, 'tcp.tcp_flags_tc'),
    flags,
    state: readString(tcp.state, 'tcp.state'),
  };
}

type SshParty = NonNullable<NonNullable<NetworkEvent['ssh']>['client']>;

function readSshParty(ssh: JsonObject, side: 'client' | 'server'): SshParty | null {
  const party = ssh[side];
  if (party === undefined || party === null) return null;
  if (!isObject(party)) throw new FieldError(`ssh.${side} must be an object, found ${describe(party)}`);
  const hassh = party.hassh;
  return nullIfEmpty({
    proto_version: readString(party.proto_version, `ssh.${side}.proto_version`),
    software_version: readString(party.software_version, `ssh.${side}.software_version`),
    // `{hash, string}` in EVE; some pipelines flatten it to the hash.
    hassh: readString(isObject(hassh) ? hassh.hash : hassh, `ssh.${side}.hassh.hash`),
  });
}

export function readSsh(ssh: JsonObject): NonNullable<NetworkEvent['ssh']> {
  return { client: readSshParty(ssh, 'client'), server: readSshParty(ssh, 'server') };
}

export function readDhcp(dhcp: JsonObject): NonNullable<NetworkEvent['dhcp']> {
  return {
    type: readString(dhcp.type, 'dhcp.type'),
    id: readInteger(dhcp.id, 'dhcp.id'),
    dhcp_type: readString(dhcp.dhcp_type, 'dhcp.dhcp_type'),
    client_mac: readMac(dhcp.client_mac, 'dhcp.client_mac'),
    client_ip: readIp(dhcp.client_ip, 'dhcp.client_ip', NO_ADDRESS),
    assigned_ip: readIp(dhcp.assigned_ip, 'dhcp.assigned_ip', NO_ADDRESS),
    requested_ip: readIp(dhcp.requested_ip, 'dhcp.requested_ip', NO_ADDRESS),
    relay_ip: readIp(dhcp.relay_ip, 'dhcp.relay_ip', NO_ADDRESS),
    next_server_ip: readIp(dhcp.next_server_ip, 'dhcp.next_server_ip', NO_ADDRESS),
    hostname: readString(dhcp.hostname, 'dhcp.hostname'),
    lease_time: readInteger(dhcp.lease_time, 'dhcp.lease_time'),
    subnet_mask: readString(dhcp.subnet_mask, 'dhcp.subnet_mask'),
    routers: readIpList(dhcp.routers, 'dhcp.routers'),
    dns_servers: readIpList(dhcp.dns_servers, 'dhcp.dns_servers'),
  };
}

/** EVE `smtp` (the session) with EVE `email` (the message), either of which may be absent. */
export function readSmtp(record: JsonObject): NetworkEvent['smtp'] {
  const smtp = objectOrNull(record.smtp, 'smtp');
  const email = objectOrNull(record.email, 'email');
  if (smtp === null && email === null) return null;
  const s = smtp ?? {};
  const e = email ?? {};
  return nullIfEmpty({
    helo: readString(s.helo, 'smtp.helo'),
    mail_from: readString(s.mail_from, 'smtp.mail_from'),
    rcpt_to: readStringList(s.rcpt_to, 'smtp.rcpt_to'),
    from: readString(e.from, 'email.from'),
    to: readStringList(e.to, 'email.to'),
    cc: readStringList(e.cc, 'email.cc'),
    subject: readString(e.subject, 'email.subject'),
    attachments: readStringList(e.attachment, 'email.attachment'),
    status: readString(e.status, 'email.status'),
  });
}

function objectOrNull(value: unknown, field: string): JsonObject | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new FieldError(`${field} must be an object, found ${describe(value)}`);
  return value;
}
