import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, generateOtpSecret, hotp, otpauthUrl, otpStep, totp, verifyTotp } from './otp';

// RFC 6238 appendix B uses the ASCII key "12345678901234567890" for SHA-1.
const rfcSecret = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('matches the SHA-1 test vector at T=%i', (seconds, expected) => {
    expect(totp(rfcSecret, seconds * 1000, 8)).toBe(expected);
    // Six digits are the last six of the same truncated value.
    expect(totp(rfcSecret, seconds * 1000)).toBe(expected.slice(2));
  });

  it('matches the RFC 4226 HOTP vectors', () => {
    const key = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 3, 9].map((c) => hotp(key, c))).toEqual(['755224', '287082', '359152', '969429', '520489']);
  });

  it('accepts the current step and one on either side, and nothing further', () => {
    const now = 1_700_000_000_000;
    const step = otpStep(now);
    for (const offset of [-1, 0, 1]) {
      const code = totp(rfcSecret, now + offset * 30_000);
      expect(verifyTotp(rfcSecret, code, { atMs: now })).toBe(step + offset);
    }
    for (const offset of [-3, -2, 2, 3]) {
      expect(verifyTotp(rfcSecret, totp(rfcSecret, now + offset * 30_000), { atMs: now })).toBeNull();
    }
  });

  it('refuses a step at or before the last one used (no replay)', () => {
    const now = 1_700_000_000_000;
    const code = totp(rfcSecret, now);
    const step = verifyTotp(rfcSecret, code, { atMs: now })!;
    expect(verifyTotp(rfcSecret, code, { atMs: now, lastUsedStep: step })).toBeNull();
    expect(verifyTotp(rfcSecret, code, { atMs: now, lastUsedStep: step - 1 })).toBe(step);
    const next = totp(rfcSecret, now + 30_000);
    expect(verifyTotp(rfcSecret, next, { atMs: now, lastUsedStep: step })).toBe(step + 1);
  });

  it('refuses malformed codes and secrets', () => {
    expect(verifyTotp(rfcSecret, '12345')).toBeNull();
    expect(verifyTotp(rfcSecret, 'abcdef')).toBeNull();
    expect(verifyTotp('not base32!', '123456')).toBeNull();
    const now = Date.now();
    expect(verifyTotp(rfcSecret, ` ${totp(rfcSecret, now).replace(/(\d{3})/, '$1 ')}`, { atMs: now })).not.toBeNull();
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    const secret = generateOtpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(generateOtpSecret()).not.toBe(secret);
  });

  it('builds the otpauth URI authenticator apps read', () => {
    expect(otpauthUrl('JBSWY3DPEHPK3PXP', 'alice smith', 'Vigil')).toBe(
      'otpauth://totp/Vigil:alice%20smith?secret=JBSWY3DPEHPK3PXP&issuer=Vigil',
    );
  });
});
