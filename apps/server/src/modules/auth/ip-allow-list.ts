import { isIPv4, isIPv6 } from 'node:net';

/** One allow-list entry: an address family, its bytes and how many leading bits must match. */
export interface IpRule {
  bytes: Uint8Array;
  prefix: number;
}

function ipv4Bytes(text: string): Uint8Array | null {
  if (!isIPv4(text)) return null;
  return Uint8Array.from(text.split('.').map(Number));
}

function ipv6Bytes(text: string): Uint8Array | null {
  const address = text.split('%')[0] ?? '';
  if (!isIPv6(address)) return null;
  let head = address;
  let tailV4: Uint8Array | null = null;
  const lastColon = address.lastIndexOf(':');
  if (address.slice(lastColon + 1).includes('.')) {
    tailV4 = ipv4Bytes(address.slice(lastColon + 1));
    if (!tailV4) return null;
    head = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const [left = '', right] = head.split('::');
  const leftGroups = left === '' ? [] : left.split(':');
  const rightGroups = right === undefined || right === '' ? [] : right.split(':');
  const missing = 8 - leftGroups.length - rightGroups.length;
  const groups =
    right === undefined ? leftGroups : [...leftGroups, ...Array<string>(missing).fill('0'), ...rightGroups];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 255;
  });
  if (tailV4) bytes.set(tailV4, 12);
  return bytes;
}

/** Address bytes; IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is treated as the IPv4 address it carries. */
function addressBytes(text: string): Uint8Array | null {
  const v4 = ipv4Bytes(text);
  if (v4) return v4;
  const v6 = ipv6Bytes(text);
  if (!v6) return null;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  return mapped ? v6.slice(12) : v6;
}

/** Parses `10.0.0.1`, `10.0.0.0/8`, `2001:db8::1` or `2001:db8::/32`; null when it is neither. */
export function parseIpRule(text: string): IpRule | null {
  const trimmed = text.trim();
  const [address = '', prefixText, extra] = trimmed.split('/');
  if (extra !== undefined) return null;
  const bytes = addressBytes(address);
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (prefixText === undefined) return { bytes, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  let prefix = Number(prefixText);
  // A mapped IPv6 rule (::ffff:10.0.0.0/104) keeps its meaning once read as IPv4.
  if (bytes.length === 4 && !isIPv4(address)) prefix -= 96;
  if (prefix < 0 || prefix > max) return null;
  return { bytes, prefix };
}

/** Whether an allow-list entry is well formed (for validating what users save). */
export function isValidIpRule(text: string): boolean {
  return parseIpRule(text) !== null;
}

function matches(rule: IpRule, address: Uint8Array): boolean {
  if (rule.bytes.length !== address.length) return false;
  let bits = rule.prefix;
  for (let i = 0; bits > 0; i += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((rule.bytes[i]! & mask) !== (address[i]! & mask)) return false;
  }
  return true;
}

/**
 * Whether `ip` may be used by a user with this allow-list. An empty list allows every address;
 * malformed entries match nothing (so a typo never opens the account to the world).
 */
export function ipAllowed(list: readonly string[] | null | undefined, ip: string): boolean {
  if (!list || list.length === 0) return true;
  const address = addressBytes(ip);
  if (!address) return false;
  return list.some((entry) => {
    const rule = parseIpRule(entry);
    return rule !== null && matches(rule, address);
  });
}
