/**
 * How the values of typed fields are read (docs/query-language.md). The checker refuses every value
 * these cannot read, so the server's query compiler may call them on a checked query and trust a
 * non-null answer. Each is pure: the same text (and the same `now`) always reads the same.
 */

/** A number: an integer or a decimal, optionally signed (`42`, `-1`, `0.5`); no exponent, no `Infinity`. */
export function parseNumberValue(text: string): number | null {
  if (!/^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** `true` or `false`, whatever the case. */
export function parseBooleanValue(text: string): boolean | null {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return null;
}

export interface IpValue {
  /**
   * The address in canonical form (IPv4 dotted, IPv6 compressed as RFC 5952 writes it); with a prefix,
   * the block's first address (the bits past the prefix cleared), so `10.1.2.3/8` is `10.0.0.0`.
   */
  address: string;
  /** The CIDR prefix length, or null for a single address. */
  prefix: number | null;
  family: 4 | 6;
}

function parseIpv4Groups(text: string): number[] | null {
  const pieces = text.split('.');
  if (pieces.length !== 4) return null;
  const bytes: number[] = [];
  for (const piece of pieces) {
    // No leading zeros: `010` is octal to some readers and decimal to others.
    if (!/^(0|[1-9]\d{0,2})$/.test(piece)) return null;
    const value = Number(piece);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

/** The eight 16-bit groups of an IPv6 address, or null. Accepts `::` and a dotted IPv4 tail; no zone. */
function parseIpv6Groups(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const readGroups = (half: string, last: boolean): number[] | null => {
    if (half === '') return [];
    const groups: number[] = [];
    const pieces = half.split(':');
    for (let index = 0; index < pieces.length; index++) {
      const piece = pieces[index]!;
      if (last && index === pieces.length - 1 && piece.includes('.')) {
        const bytes = parseIpv4Groups(piece);
        if (!bytes) return null;
        groups.push(bytes[0]! * 256 + bytes[1]!, bytes[2]! * 256 + bytes[3]!);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
      groups.push(parseInt(piece, 16));
    }
    return groups;
  };
  const compressed = halves.length === 2;
  const head = readGroups(halves[0]!, !compressed);
  const tail = compressed ? readGroups(halves[1]!, true) : [];
  if (!head || !tail) return null;
  const count = head.length + tail.length;
  if (compressed ? count > 7 : count !== 8) return null;
  return [...head, ...Array<number>(8 - count).fill(0), ...tail];
}

function formatIpv6(groups: number[]): string {
  // The longest run of two or more zero groups (the first of equal ones) becomes `::`.
  let bestStart = -1;
  let bestLength = 0;
  for (let index = 0; index < 8;) {
    if (groups[index] !== 0) {
      index++;
      continue;
    }
    let end = index;
    while (end < 8 && groups[end] === 0) end++;
    if (end - index > bestLength && end - index >= 2) {
      bestStart = index;
      bestLength = end - index;
    }
    index = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Clears the bits past `prefix` in big-endian groups of `bitsPerGroup` bits. */
function maskGroups(groups: number[], prefix: number, bitsPerGroup: number): number[] {
  return groups.map((group, index) => {
    const kept = Math.min(Math.max(prefix - index * bitsPerGroup, 0), bitsPerGroup);
    const mask = kept === 0 ? 0 : ((1 << bitsPerGroup) - 1) & ~((1 << (bitsPerGroup - kept)) - 1);
    return group & mask;
  });
}

/**
 * An IPv4 or IPv6 address, or a CIDR block (`10.0.0.0/8`, `2001:db8::/32`) with a prefix of 0–32 or
 * 0–128. IPv6 zone identifiers (`fe80::1%eth0`) are not accepted.
 */
export function parseIpValue(text: string): IpValue | null {
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  let prefix: number | null = null;
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
    prefix = Number(prefixText);
  }
  const ipv4 = parseIpv4Groups(addressText);
  if (ipv4) {
    if (prefix !== null && prefix > 32) return null;
    const bytes = prefix === null ? ipv4 : maskGroups(ipv4, prefix, 8);
    return { address: bytes.join('.'), prefix, family: 4 };
  }
  const ipv6 = parseIpv6Groups(addressText);
  if (ipv6) {
    if (prefix !== null && prefix > 128) return null;
    const groups = prefix === null ? ipv6 : maskGroups(ipv6, prefix, 16);
    return { address: formatIpv6(groups), prefix, family: 6 };
  }
  return null;
}

const relativeUnits: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Latest and earliest instants a Date can hold (±8.64e15 ms). */
const maxTime = 8.64e15;
/** The longest relative time accepted: about 1,000 years. */
const maxRelative = 1_000 * 366 * 86_400_000;

/**
 * A time: `now`, `now-15m` / `now+1h` (units s, m, h, d, w), an ISO 8601 date (`2026-11-29`, midnight
 * UTC) or date and time (`2026-11-29T10:00`, `…:00`, `…:00.123`, with `Z` or an offset such as `+03:00`;
 * without one it is UTC). `T` may be written as a space in a quoted value. Case does not matter.
 */
export function parseTimeValue(text: string, now: Date): Date | null {
  const relative = /^now(?:([+-])(\d{1,9})([smhdw]))?$/i.exec(text);
  if (relative) {
    if (Number.isNaN(now.getTime())) return null;
    if (!relative[1]) return new Date(now.getTime());
    const amount = Number(relative[2]) * relativeUnits[relative[3]!.toLowerCase()]!;
    // Bounded far inside what a Date holds, so a checked value reads whatever `now` the compiler uses.
    if (amount > maxRelative) return null;
    const time = now.getTime() + (relative[1] === '-' ? -amount : amount);
    return Math.abs(time) <= maxTime ? new Date(time) : null;
  }
  const absolute =
    /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (!absolute) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', offset] = absolute;
  const numbers = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
  if (numbers.year < 1 || numbers.month < 1 || numbers.month > 12 || numbers.day < 1) return null;
  if (numbers.hour > 23 || numbers.minute > 59 || numbers.second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(numbers.year, numbers.month - 1, numbers.day);
  // A day past the month's last (`2026-02-30`) rolls over into the next month: refuse it.
  if (date.getUTCMonth() !== numbers.month - 1) return null;
  date.setUTCHours(numbers.hour, numbers.minute, numbers.second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  let offsetMinutes = 0;
  if (offset && offset.toUpperCase() !== 'Z') {
    const digits = offset.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (hours * 60 + minutes) * (digits.startsWith('-') ? -1 : 1);
  }
  return new Date(date.getTime() - offsetMinutes * 60_000);
}
