import { createHmac, randomBytes } from 'node:crypto';

/** Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): SHA-1, 6 digits, 30-second steps. */
export const OTP_STEP_SECONDS = 30;
export const OTP_DIGITS = 6;
/** Steps accepted on either side of the current one, for clock drift between phone and server. */
export const OTP_WINDOW = 1;

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps expect). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, spaces and padding ignored); throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error('not a base32 string');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** HOTP value of `counter` for a raw key (RFC 4226 §5.3, dynamic truncation). */
export function hotp(key: Uint8Array, counter: number, digits = OTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** The time step a moment falls in. */
export function otpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / OTP_STEP_SECONDS);
}

/** TOTP code of a base32 secret at a moment (default now). */
export function totp(secret: string, atMs = Date.now(), digits = OTP_DIGITS): string {
  return hotp(base32Decode(secret), otpStep(atMs), digits);
}

function sameCode(a: string, b: string): boolean {
  // Both are short digit strings of fixed length; compare without an early exit anyway.
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The time step a code is valid for (within ±OTP_WINDOW of now), or null. Steps at or before
 * `lastUsedStep` are refused, so a code that has been used once can never be used again.
 */
export function verifyTotp(
  secret: string,
  code: string,
  options: { atMs?: number; lastUsedStep?: number | null } = {},
): number | null {
  const candidate = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(candidate)) return null;
  let key: Buffer;
  try {
    key = base32Decode(secret);
  } catch {
    return null;
  }
  const now = otpStep(options.atMs ?? Date.now());
  let found: number | null = null;
  for (let step = now - OTP_WINDOW; step <= now + OTP_WINDOW; step += 1) {
    if (sameCode(hotp(key, step), candidate) && found === null) found = step;
  }
  if (found === null) return null;
  if (options.lastUsedStep !== null && options.lastUsedStep !== undefined && found <= options.lastUsedStep) return null;
  return found;
}

/** A new random secret: 160 bits, as RFC 4226 recommends, in base32. */
export function generateOtpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** `otpauth://` URI an authenticator app reads from a QR code. */
export function otpauthUrl(secret: string, username: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(username)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}`;
}
