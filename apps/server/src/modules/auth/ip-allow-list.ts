import { BlockList, isIP } from 'node:net';

/** One allow-list entry: a network address, how many leading bits must match, and its family. */
export interface IpRule {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`): they stand for the IPv4 address they carry. */
const mappedRange = new BlockList();
mappedRange.addSubnet('::ffff:0:0', 96, 'ipv6');

/** An address without an IPv6 zone (`fe80::1%eth0` → `fe80::1`). */
function withoutZone(text: string): string {
  const zone = text.indexOf('%');
  return zone < 0 ? text : text.slice(0, zone);
}

function isMapped(address: string): boolean {
  return mappedRange.check(address, 'ipv6');
}

/** Parses `10.0.0.1`, `10.0.0.0/8`, `2001:db8::1` or `2001:db8::/32`; null when it is neither. */
export function parseIpRule(text: string): IpRule | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const network = withoutZone(address);
  const version = isIP(network);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  // A mapped rule (::ffff:10.0.0.0/104) is an IPv4 rule; a shorter prefix has no IPv4 meaning.
  if (family === 'ipv6' && isMapped(network) && prefix < 96) return null;
  return { network, prefix, family };
}

/** Whether an allow-list entry is well formed (for validating what users save). */
export function isValidIpRule(text: string): boolean {
  return parseIpRule(text) !== null;
}

/**
 * An allow-list as two block lists: IPv4 rules (with IPv4-mapped IPv6 ones) and the other IPv6
 * rules. IPv4 and IPv4-mapped addresses are checked against the first only, other IPv6 addresses
 * against the second only, so `::/0` does not admit every IPv4 address.
 */
interface CompiledList {
  v4: BlockList;
  v6: BlockList;
}

function compile(list: readonly string[]): CompiledList {
  const compiled = { v4: new BlockList(), v6: new BlockList() };
  for (const entry of list) {
    const rule = parseIpRule(entry);
    if (!rule) continue;
    const side = rule.family === 'ipv4' || isMapped(rule.network) ? compiled.v4 : compiled.v6;
    try {
      side.addSubnet(rule.network, rule.prefix, rule.family);
    } catch {
      // An entry the block list refuses matches nothing, like any other malformed entry.
    }
  }
  return compiled;
}

/**
 * Whether `ip` may be used by a user with this allow-list. An empty list allows every address;
 * malformed entries match nothing (so a typo never opens the account to the world).
 */
export function ipAllowed(list: readonly string[] | null | undefined, ip: string): boolean {
  if (!list || list.length === 0) return true;
  const address = withoutZone(ip);
  const version = isIP(address);
  if (version === 0) return false;
  const compiled = compile(list);
  if (version === 4) return compiled.v4.check(address, 'ipv4');
  return isMapped(address) ? compiled.v4.check(address, 'ipv6') : compiled.v6.check(address, 'ipv6');
}
