import { isIPv4 } from 'node:net';
import { domainToASCII } from 'node:url';
import type { IndicatorType } from '@vigil/contract';
import { normaliseUrl } from '../ingest/parsers/urls';
import { normaliseIp } from '../ingest/parsers/values';

/** A value made canonical for its type, or the reason it is not one. */
export type NormalisedValue = { ok: true; value: string } | { ok: false; reason: string };

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const hashLengths = { md5: 32, sha1: 40, sha256: 64 } as const;
const hashPatterns = { md5: /^[0-9a-f]{32}$/, sha1: /^[0-9a-f]{40}$/, sha256: /^[0-9a-f]{64}$/ } as const;

/** A host name in lower-case ASCII (IDN as punycode, no trailing dot), or null when it is not one. */
export function normaliseDomain(text: string): string | null {
  let s = text.trim().toLowerCase();
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s === '' || s.length > 253 || normaliseIp(s) !== null) return null;
  const ascii = /^[\x21-\x7e]*$/.test(s) ? s : domainToASCII(s);
  if (ascii === '' || ascii.length > 253) return null;
  return ascii.split('.').every((label) => LABEL.test(label)) ? ascii : null;
}

/** An e-mail address in lower case with an ASCII domain, or null. */
export function normaliseEmail(text: string): string | null {
  const s = text.trim().toLowerCase();
  const at = s.lastIndexOf('@');
  if (at <= 0 || at > 64 || s.length > 320) return null;
  const local = s.slice(0, at);
  if (/[\s<>(),;:"[\]\\]/.test(local)) return null;
  const domain = normaliseDomain(s.slice(at + 1));
  return domain === null ? null : `${local}@${domain}`;
}

/** The last segment of a Windows or POSIX path, lower case (file names match case-insensitively). */
export function normaliseFileName(text: string): string | null {
  const base = text.trim().split(/[\\/]/).pop() ?? '';
  return base === '' || base === '.' || base === '..' ? null : base.toLowerCase();
}

/** Bits of an address: IPv4 as a 32-bit number, IPv6 as 32 hex digits. */
export function ipv4ToNumber(ip: string): number {
  let result = 0;
  let octet = 0;
  for (let i = 0; i < ip.length; i += 1) {
    const code = ip.charCodeAt(i);
    if (code === 46) {
      result = result * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + (code - 48);
  }
  return result * 256 + octet;
}

/** 32 lower-case hex digits of a canonical IPv6 address. */
export function ipv6ToHex(ip: string): string {
  const double = ip.indexOf('::');
  const parts = (half: string) => (half === '' ? [] : half.split(':'));
  let groups: string[];
  if (double < 0) groups = ip.split(':');
  else {
    const left = parts(ip.slice(0, double));
    const right = parts(ip.slice(double + 2));
    groups = [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  }
  return groups.map((g) => g.padStart(4, '0')).join('');
}

function numberToIpv4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 0xff}.${(n >>> 8) & 0xff}.${n & 0xff}`;
}

/** The first `bits` bits of 32 hex digits as hex digits (a last partial digit masked): a prefix key. */
export function hexPrefix(hex: string, bits: number): string {
  const full = bits >> 2;
  const rest = bits & 3;
  if (rest === 0) return hex.slice(0, full);
  const nibble = Number.parseInt(hex[full] ?? '0', 16) & (0xf << (4 - rest)) & 0xf;
  return hex.slice(0, full) + nibble.toString(16);
}

/** Keeps the first `bits` bits of 32 hex digits (the rest zero). */
export function maskHex(hex: string, bits: number): string {
  const full = bits >> 2;
  const rest = bits & 3;
  let out = hex.slice(0, full);
  if (rest > 0) {
    const nibble = Number.parseInt(hex[full] ?? '0', 16) & (0xf << (4 - rest)) & 0xf;
    out += nibble.toString(16);
  }
  return out.padEnd(32, '0');
}

function hexToIpv6(hex: string): string {
  const groups: string[] = [];
  for (let i = 0; i < 32; i += 4) groups.push(hex.slice(i, i + 4));
  return normaliseIp(groups.join(':')) ?? groups.join(':');
}

/** `10.1.2.3/8` → `10.0.0.0/8`; a bare address is its own /32 or /128. */
export function normaliseCidr(text: string): NormalisedValue {
  const [addressText = '', lengthText, ...extra] = text.trim().split('/');
  if (extra.length > 0) return { ok: false, reason: 'A network is written address/prefix length, e.g. 10.0.0.0/8.' };
  const address = normaliseIp(addressText);
  if (address === null) return { ok: false, reason: `${addressText || 'The address'} is not an IP address.` };
  const v4 = isIPv4(address);
  const max = v4 ? 32 : 128;
  if (lengthText !== undefined && !/^\d{1,3}$/.test(lengthText))
    return { ok: false, reason: `The prefix length must be a whole number from 0 to ${max}.` };
  const bits = lengthText === undefined ? max : Number(lengthText);
  if (bits > max) return { ok: false, reason: `The prefix length must be a whole number from 0 to ${max}.` };
  if (v4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return { ok: true, value: `${numberToIpv4((ipv4ToNumber(address) & mask) >>> 0)}/${bits}` };
  }
  return { ok: true, value: `${hexToIpv6(maskHex(ipv6ToHex(address), bits))}/${bits}` };
}

/** Checks and normalises an indicator value for its type. */
export function normaliseIndicatorValue(type: IndicatorType, raw: string): NormalisedValue {
  const text = raw.trim();
  const fail = (reason: string): NormalisedValue => ({ ok: false, reason });
  switch (type) {
    case 'ip': {
      const ip = normaliseIp(text);
      return ip === null ? fail(`${text} is not an IPv4 or IPv6 address.`) : { ok: true, value: ip };
    }
    case 'cidr':
      return normaliseCidr(text);
    case 'domain': {
      const domain = normaliseDomain(text.replace(/^\*\./, ''));
      return domain === null ? fail(`${text} is not a domain name.`) : { ok: true, value: domain };
    }
    case 'url': {
      const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? normaliseUrl(text) : null;
      return url === null ? fail(`${text} is not an http, https or ftp URL.`) : { ok: true, value: url };
    }
    case 'email': {
      const email = normaliseEmail(text);
      return email === null ? fail(`${text} is not an e-mail address.`) : { ok: true, value: email };
    }
    case 'md5':
    case 'sha1':
    case 'sha256': {
      const length = hashLengths[type];
      const hash = text.toLowerCase();
      return hashPatterns[type].test(hash)
        ? { ok: true, value: hash }
        : fail(`An ${type.toUpperCase()} is ${length} hexadecimal digits.`);
    }
    case 'filename': {
      if (/[\\/]/.test(text)) return fail('Give a file name without its folder.');
      const name = normaliseFileName(text);
      return name === null ? fail('Give a file name.') : { ok: true, value: name };
    }
  }
}
