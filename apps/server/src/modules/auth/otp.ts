import { Secret, TOTP } from 'otpauth';

/** Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): SHA-1, 6 digits, 30-second steps. */
export const OTP_STEP_SECONDS = 30;
export const OTP_DIGITS = 6;
/** Steps accepted on either side of the current one, for clock drift between phone and server. */
export const OTP_WINDOW = 1;
const OTP_ALGORITHM = 'SHA1';

/**
 * The key of a stored base32 secret, or null when it is not base32. Case, whitespace and `=`
 * padding anywhere are ignored, as they always were for stored secrets.
 */
function secretKey(secret: string): Secret | null {
  try {
    return Secret.fromBase32(secret.replace(/[\s=]/g, ''));
  } catch {
    return null;
  }
}

/** The time step a moment falls in. */
export function otpStep(atMs: number): number {
  return TOTP.counter({ period: OTP_STEP_SECONDS, timestamp: atMs });
}

/** TOTP code of a base32 secret at a moment (default now); throws when the secret is not base32. */
export function totp(secret: string, atMs = Date.now(), digits = OTP_DIGITS): string {
  const key = secretKey(secret);
  if (!key) throw new Error('not a base32 string');
  return TOTP.generate({ secret: key, algorithm: OTP_ALGORITHM, digits, period: OTP_STEP_SECONDS, timestamp: atMs });
}

/**
 * The time step a code is valid for (within ±OTP_WINDOW of now), or null. Steps at or before
 * `lastUsedStep` are refused, so a code that has been used once can never be used again.
 * Spaces in the code are ignored; anything but six digits is refused.
 */
export function verifyTotp(
  secret: string,
  code: string,
  options: { atMs?: number; lastUsedStep?: number | null } = {},
): number | null {
  const candidate = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(candidate)) return null;
  const key = secretKey(secret);
  if (!key) return null;
  const atMs = options.atMs ?? Date.now();
  const delta = TOTP.validate({
    token: candidate,
    secret: key,
    algorithm: OTP_ALGORITHM,
    digits: OTP_DIGITS,
    period: OTP_STEP_SECONDS,
    timestamp: atMs,
    window: OTP_WINDOW,
  });
  if (delta === null) return null;
  const step = otpStep(atMs) + delta;
  const last = options.lastUsedStep;
  if (last !== null && last !== undefined && step <= last) return null;
  return step;
}

/** A new random secret: 160 bits, as RFC 4226 recommends, in base32 without padding. */
export function generateOtpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * `otpauth://` URI an authenticator app reads from a QR code: label `issuer:username`, the
 * issuer again as a parameter, the secret, and the algorithm, digits and period spelled out.
 */
export function otpauthUrl(secret: string, username: string, issuer: string): string {
  const key = secretKey(secret);
  if (!key) throw new Error('not a base32 string');
  return new TOTP({
    issuer,
    label: username,
    secret: key,
    algorithm: OTP_ALGORITHM,
    digits: OTP_DIGITS,
    period: OTP_STEP_SECONDS,
  }).toString();
}
