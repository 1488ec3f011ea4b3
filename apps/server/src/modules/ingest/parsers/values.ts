import { isIPv4, isIPv6 } from 'node:net';
import { MAX_EVENT_STRING, type FileHashes } from '@vigil/contract';

/** A JSON object as JSON.parse gives it. */
export type JsonObject = Record<string, unknown>;

/**
 * A field that is present but cannot be read as what it should be. Thrown inside a record's
 * normalisation and turned into that record's reason by the line parser; never leaves the parsers.
 */
export class FieldError extends Error {}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const segmentCache = new Map<string, readonly string[]>();

/** The value at a dotted path through nested objects (`get(r, 'process.parent.pid')`); own properties only. */
export function get(obj: JsonObject, path: string): unknown {
  let segments = segmentCache.get(path);
  if (segments === undefined) {
    segments = path.split('.');
    segmentCache.set(path, segments);
  }
  let node: unknown = obj;
  for (const segment of segments) {
    if (!isObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

const MAX_EXPAND_DEPTH = 8;

function hasDottedKey(obj: JsonObject, depth: number): boolean {
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    if (key.includes('.')) return true;
    const value = obj[key];
    if (depth < MAX_EXPAND_DEPTH && isObject(value) && hasDottedKey(value, depth + 1)) return true;
  }
  return false;
}

/**
 * The record with dotted keys (`{"process.name": …}`, as some shippers write ECS) turned into
 * nested objects, merged with nested ones; where both give a value, the later key wins. The
 * record itself when it has no dotted key. Never sets anything through a `__proto__` key.
 */
export function expandDottedKeys(obj: JsonObject): JsonObject {
  return hasDottedKey(obj, 0) ? expand(obj, 0) : obj;
}

function expand(obj: JsonObject, depth: number): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(obj)) {
    const raw = obj[key];
    const value = isObject(raw) && depth < MAX_EXPAND_DEPTH ? expand(raw, depth + 1) : raw;
    const parts = key.split('.');
    if (parts.includes('__proto__')) continue;
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (isObject(next)) node = next;
      else {
        const created: JsonObject = {};
        node[part] = created;
        node = created;
      }
    }
    const last = parts[parts.length - 1] as string;
    const existing = node[last];
    node[last] = isObject(existing) && isObject(value) ? { ...existing, ...value } : value;
  }
  return out;
}

/** A short description of a value for a reason: `"abc"`, `12`, `an object`, `a list`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}

/** Cuts a string to the longest a normalised field keeps and replaces NUL. */
export function clean(value: string): string {
  const cut = value.length > MAX_EVENT_STRING ? value.slice(0, MAX_EVENT_STRING) : value;
  return cut.includes('\u0000') ? cut.replaceAll('\u0000', '\uFFFD') : cut;
}

export interface StringOptions {
  /** Values that mean "none" besides absence and the empty string (Windows writes `-`). */
  empty?: readonly string[];
}

/** Text, or null when absent or empty; numbers and booleans are written out. */
export function readString(value: unknown, field: string, options?: StringOptions): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    if (value === '' || options?.empty?.includes(value)) return null;
    return clean(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new FieldError(`${field} must be text, found ${describe(value)}`);
}

/** A list of strings from a string or a list of strings; empty entries dropped. */
export function readStringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    const text = readString(item, field);
    if (text !== null) out.push(text);
  }
  return out;
}

export interface IntegerOptions {
  min?: number;
  max?: number;
  /** Accept `0x1f4` (Windows Security events write process ids in hex). */
  hex?: boolean;
}

/** A whole number from a number or a decimal (or, if allowed, hexadecimal) string. */
export function readInteger(value: unknown, field: string, options: IntegerOptions = {}): number | null {
  if (value === undefined || value === null || value === '') return null;
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  let n: number | null = null;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const s = value.trim();
    if (/^-?\d{1,16}$/.test(s)) n = Number(s);
    else if (options.hex === true && /^0x[0-9a-f]{1,13}$/i.test(s)) n = Number.parseInt(s.slice(2), 16);
  }
  if (n === null || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
    throw new FieldError(`${field} must be a whole number ${range}, found ${describe(value)}`);
  }
  return n;
}

export function readPort(value: unknown, field: string): number | null {
  return readInteger(value, field, { min: 0, max: 65_535 });
}

/** A canonical IP address, or null when absent; anything else present is an error. */
export function readIp(value: unknown, field: string, options?: StringOptions): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && options?.empty?.includes(value)) return null;
  const ip = typeof value === 'string' ? normaliseIp(value) : null;
  if (ip === null) throw new FieldError(`${field} is not an IP address (${describe(value)})`);
  return ip;
}

/**
 * The canonical form of an IP address: IPv4 as a dotted quad; IPv6 in RFC 5952 form (lower case,
 * longest zero run as `::`), without brackets or zone; an IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.5`) as its IPv4 address. Null when the text is not an address.
 */
export function normaliseIp(text: string): string | null {
  let s = text.trim();
  if (s.length > 100) return null;
  if (isIPv4(s)) return s;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!isIPv6(s)) return null;
  const groups = ipv6Groups(s);
  if (groups === null) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes `::`.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The eight 16-bit groups of an address that isIPv6 accepted. */
function ipv6Groups(s: string): number[] | null {
  const parseHalf = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    for (const part of half.split(':')) {
      if (part.includes('.')) {
        const octets = part.split('.').map(Number);
        if (octets.length !== 4) return null;
        const [a = 0, b = 0, c = 0, d = 0] = octets;
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(Number.parseInt(part, 16));
    }
    return out;
  };
  const double = s.indexOf('::');
  if (double < 0) {
    const all = parseHalf(s);
    return all !== null && all.length === 8 ? all : null;
  }
  const left = parseHalf(s.slice(0, double));
  const right = parseHalf(s.slice(double + 2));
  if (left === null || right === null || left.length + right.length > 7) return null;
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,12}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A timestamp in UTC ISO 8601 (`2024-05-06T10:11:12.123456Z`, fraction kept to microseconds and
 * without trailing zeros), or null when the text is not one. Accepts ISO 8601 / RFC 3339 with `T`
 * or a space, with or without a zone (`Z`, `+0200`, `+02:00`, `+02`; none means UTC, as Sysmon's
 * UtcTime is written), fractions written with `.` or `,`.
 */
export function normaliseTimestamp(text: string): string | null {
  const m = TIMESTAMP.exec(text.trim());
  if (m === null) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', fraction = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (day > daysInMonth(year, month)) return null; // 31 April, 29 February of a common year
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (offsetHours > 23 || minutes > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (offsetHours * 60 + minutes);
  }
  const micros = fraction.slice(0, 6).replace(/0+$/, '');
  const tail = micros === '' ? 'Z' : `.${micros}Z`;
  if (offsetMinutes === 0) {
    // Already UTC (the usual case): no date arithmetic needed.
    if (year < 1) return null;
    return `${y}-${mo}-${d}T${h.padStart(2, '0')}:${mi.padStart(2, '0')}:${sec.padStart(2, '0')}${tail}`;
  }
  // Date.UTC reads years 0..99 as 1900..1999; shift them by 400 years (same calendar) and back.
  const early = year < 100;
  const ms =
    Date.UTC(early ? year + 400 : year, month - 1, day, hour, minute, second) -
    offsetMinutes * 60_000 -
    (early ? 12_622_780_800_000 : 0);
  const date = new Date(ms);
  const outYear = date.getUTCFullYear();
  if (outYear < 1 || outYear > 9999) return null;
  return `${date.toISOString().slice(0, 19)}${tail}`; // toISOString: YYYY-MM-DDTHH:MM:SS.sssZ for years 1..9999
}

/** A timestamp field: ISO 8601 text or a number of milliseconds since 1970 (epoch_millis). */
export function readTimestamp(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') {
    // ±100,000,000 days is the range of a JavaScript date; we keep years 1..9999.
    if (Number.isFinite(value) && value >= -62_135_596_800_000 && value <= 253_402_300_799_999) {
      return normaliseTimestamp(new Date(Math.trunc(value)).toISOString());
    }
  } else if (typeof value === 'string') {
    const ts = normaliseTimestamp(value);
    if (ts !== null) return ts;
  }
  throw new FieldError(`${field} is not a timestamp (${describe(value)}); send ISO 8601, e.g. 2024-05-06T10:11:12Z`);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const HASH_LENGTHS = { md5: 32, sha1: 40, sha256: 64 } as const;

/** A hex digest of the given kind in lower case, or null when absent. */
export function readHash(value: unknown, kind: keyof typeof HASH_LENGTHS, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && value.length === HASH_LENGTHS[kind] && /^[0-9a-f]+$/i.test(value)) {
    return value.toLowerCase();
  }
  throw new FieldError(`${field} is not an ${kind.toUpperCase()} hash (${describe(value)})`);
}

export function emptyHashes(): FileHashes {
  return { md5: null, sha1: null, sha256: null };
}

/** The last component of a Windows or POSIX path. */
export function baseName(path: string | null): string | null {
  if (path === null) return null;
  const cut = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
  const name = path.slice(cut + 1);
  return name === '' ? null : name;
}

/** Null when every value of a group is null, an empty list or a group of nulls. */
export function nullIfEmpty<T extends object>(group: T): T | null {
  return isEmptyValue(group) ? null : group;
}

function isEmptyValue(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    for (const key in value) {
      if (Object.hasOwn(value, key) && !isEmptyValue((value as JsonObject)[key])) return false;
    }
    return true;
  }
  return false;
}
