import { isIP } from 'node:net';

/**
 * Address and port expressions of a Suricata rule header and of threshold.config `ip` values:
 * `any`, variables (`$HOME_NET`), negation (`!`), groups (`[a, b]`), CIDR blocks and single
 * addresses; for ports also ranges (`1024:`, `:1023`, `80:90`).
 */
export type AddressExpr =
  | { kind: 'any' }
  | { kind: 'var'; name: string }
  | { kind: 'ip'; address: string; prefix: number; family: 4 | 6 }
  | { kind: 'not'; expr: AddressExpr }
  | { kind: 'group'; items: AddressExpr[] };

export type PortExpr =
  | { kind: 'any' }
  | { kind: 'var'; name: string }
  | { kind: 'range'; from: number; to: number }
  | { kind: 'not'; expr: PortExpr }
  | { kind: 'group'; items: PortExpr[] };

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const VARIABLE = /^\$[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits a group's inside at its top-level commas; null when brackets do not balance. */
function splitGroup(inner: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth < 0) return null;
    } else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  parts.push(inner.slice(start).trim());
  return parts;
}

/** Reads the common shape of both grammars; `leaf` reads one plain item. */
function parseExpr<T>(
  text: string,
  what: string,
  leaf: (item: string) => Parsed<T>,
  wrap: { any: T; var: (name: string) => T; not: (e: T) => T; group: (items: T[]) => T },
): Parsed<T> {
  const s = text.trim();
  if (s === '') return { ok: false, reason: `an empty ${what}` };
  if (s === 'any') return { ok: true, value: wrap.any };
  if (s.startsWith('!')) {
    const rest = s.slice(1).trim();
    if (rest === 'any') return { ok: false, reason: `"!any" as ${what} matches nothing` };
    const inner = parseExpr(rest, what, leaf, wrap);
    return inner.ok ? { ok: true, value: wrap.not(inner.value) } : inner;
  }
  if (s.startsWith('[')) {
    if (!s.endsWith(']')) return { ok: false, reason: `the ${what} group "${s}" is not closed with "]"` };
    const parts = splitGroup(s.slice(1, -1));
    if (parts === null) return { ok: false, reason: `the brackets of the ${what} group "${s}" do not balance` };
    if (parts.some((p) => p === '')) return { ok: false, reason: `the ${what} group "${s}" has an empty item` };
    const items: T[] = [];
    for (const part of parts) {
      const item = parseExpr(part, what, leaf, wrap);
      if (!item.ok) return item;
      items.push(item.value);
    }
    return { ok: true, value: wrap.group(items) };
  }
  if (s.startsWith('$')) {
    if (!VARIABLE.test(s)) return { ok: false, reason: `"${s}" is not a valid variable name` };
    return { ok: true, value: wrap.var(s.slice(1)) };
  }
  return leaf(s);
}

function ipLeaf(item: string): Parsed<AddressExpr> {
  const slash = item.indexOf('/');
  const address = slash < 0 ? item : item.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return { ok: false, reason: `"${item}" is not an IP address, a CIDR block, a variable or "any"` };
  const max = family === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const bits = item.slice(slash + 1);
    if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) {
      return { ok: false, reason: `"${item}" has a network prefix outside 0–${max}` };
    }
    prefix = Number(bits);
  }
  return { ok: true, value: { kind: 'ip', address, prefix, family: family === 4 ? 4 : 6 } };
}

function portNumber(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n <= 65535 ? n : null;
}

function portLeaf(item: string): Parsed<PortExpr> {
  const colon = item.indexOf(':');
  if (colon < 0) {
    const n = portNumber(item);
    return n === null
      ? { ok: false, reason: `"${item}" is not a port number (0–65535), a range, a variable or "any"` }
      : { ok: true, value: { kind: 'range', from: n, to: n } };
  }
  const low = item.slice(0, colon).trim();
  const high = item.slice(colon + 1).trim();
  const from = low === '' ? 0 : portNumber(low);
  const to = high === '' ? 65535 : portNumber(high);
  if (from === null || to === null || (low === '' && high === '')) {
    return { ok: false, reason: `"${item}" is not a port range (from:to, each 0–65535)` };
  }
  if (from > to) return { ok: false, reason: `the port range "${item}" starts after it ends` };
  return { ok: true, value: { kind: 'range', from, to } };
}

export function parseAddress(text: string): Parsed<AddressExpr> {
  return parseExpr<AddressExpr>(text, 'address', ipLeaf, {
    any: { kind: 'any' },
    var: (name) => ({ kind: 'var', name }),
    not: (expr) => ({ kind: 'not', expr }),
    group: (items) => ({ kind: 'group', items }),
  });
}

export function parsePort(text: string): Parsed<PortExpr> {
  return parseExpr<PortExpr>(text, 'port', portLeaf, {
    any: { kind: 'any' },
    var: (name) => ({ kind: 'var', name }),
    not: (expr) => ({ kind: 'not', expr }),
    group: (items) => ({ kind: 'group', items }),
  });
}

function ipToBigInt(address: string, family: 4 | 6): bigint {
  if (family === 4) return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  // Expand "::" and an embedded IPv4 tail into eight 16-bit groups.
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipToBigInt(v4[1]!, 4);
    text = `${text.slice(0, -v4[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** Whether `ip` lies inside the block `address/prefix`. */
function inBlock(ip: string, block: { address: string; prefix: number; family: 4 | 6 }): boolean {
  const family = isIP(ip);
  if (family !== block.family) return false;
  const bits = family === 4 ? 32 : 128;
  const shift = BigInt(bits - block.prefix);
  return ipToBigInt(ip, block.family) >> shift === ipToBigInt(block.address, block.family) >> shift;
}

/** Values of address variables (`HOME_NET` → its expression), as the sensor's configuration sets them. */
export type AddressVars = ReadonlyMap<string, AddressExpr>;

/**
 * Whether an IP address is inside an address expression. A variable with no value in `vars`
 * matches nothing (so a suppression over an unknown variable never hides an alert); a group
 * matches when an item matches and no negated item does, as Suricata reads `[10.0.0.0/8, !10.1.0.0/16]`.
 */
export function addressMatches(expr: AddressExpr, ip: string, vars: AddressVars, seen = new Set<string>()): boolean {
  switch (expr.kind) {
    case 'any':
      return isIP(ip) !== 0;
    case 'ip':
      return inBlock(ip, expr);
    case 'not':
      return isIP(ip) !== 0 && !addressMatches(expr.expr, ip, vars, seen);
    case 'var': {
      const value = vars.get(expr.name);
      if (!value || seen.has(expr.name)) return false;
      return addressMatches(value, ip, vars, new Set([...seen, expr.name]));
    }
    case 'group': {
      const positives = expr.items.filter((i) => i.kind !== 'not');
      const negatives = expr.items.filter((i) => i.kind === 'not');
      const inPositive =
        positives.length === 0 ? isIP(ip) !== 0 : positives.some((i) => addressMatches(i, ip, vars, seen));
      return inPositive && negatives.every((i) => addressMatches(i, ip, vars, seen));
    }
  }
}

export function formatAddress(expr: AddressExpr): string {
  switch (expr.kind) {
    case 'any':
      return 'any';
    case 'var':
      return `$${expr.name}`;
    case 'ip':
      return expr.prefix === (expr.family === 4 ? 32 : 128) ? expr.address : `${expr.address}/${expr.prefix}`;
    case 'not':
      return `!${formatAddress(expr.expr)}`;
    case 'group':
      return `[${expr.items.map(formatAddress).join(',')}]`;
  }
}

export function formatPort(expr: PortExpr): string {
  switch (expr.kind) {
    case 'any':
      return 'any';
    case 'var':
      return `$${expr.name}`;
    case 'range':
      if (expr.from === expr.to) return String(expr.from);
      return `${expr.from}:${expr.to === 65535 ? '' : expr.to}`;
    case 'not':
      return `!${formatPort(expr.expr)}`;
    case 'group':
      return `[${expr.items.map(formatPort).join(',')}]`;
  }
}
