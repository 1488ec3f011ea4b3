import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless the operator allows it: loopback, private, link-local,
 * carrier-grade NAT, multicast, reserved and unspecified ranges. A customer's administrator writes
 * webhook URLs; without this guard the server would call into the provider's own network for them.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may not reach (IPv4-mapped IPv6 is checked as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return false;
}

export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `The webhook host ${host} is at ${address}, a private or local network address; such addresses are refused ` +
        '(set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow them).',
    );
  }
}

/** The host of a URL as the network sees it (IPv6 without brackets), or null when it is not a URL. */
export function urlHost(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/** True when the URL's host is written as a refused address or is `localhost` (known without DNS). */
export function isPrivateLiteralUrl(url: string): boolean {
  const host = urlHost(url);
  if (host === null) return false;
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses names resolving to a refused address. The check is on
 * the very addresses the connection uses, so a name cannot pass the check and then resolve elsewhere.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) {
      callback(new PrivateAddressError(hostname, refused.address), []);
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
