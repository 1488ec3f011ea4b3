import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { generateOtpSecret, otpauthUrl, otpStep, totp, verifyTotp } from './otp';

// RFC 6238 appendix B uses the ASCII key "12345678901234567890" for SHA-1; in base32:
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

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

  it('accepts the RFC 6238 code at T=59 for its step and refuses it once used', () => {
    // T=59 s is step 1; the published 8-digit code is 94287082, the six-digit one its last six.
    expect(verifyTotp(rfcSecret, '287082', { atMs: 59_000 })).toBe(1);
    expect(verifyTotp(rfcSecret, '287 082', { atMs: 59_000 })).toBe(1);
    expect(verifyTotp(rfcSecret, '287082', { atMs: 59_000, lastUsedStep: 1 })).toBeNull();
    // Step 1 is still inside the window 30 s later, and 60 s later it is not.
    expect(verifyTotp(rfcSecret, '287082', { atMs: 89_000 })).toBe(1);
    expect(verifyTotp(rfcSecret, '287082', { atMs: 119_000 })).toBeNull();
  });

  it('keeps accepting secrets stored before, with the codes they gave', () => {
    // Codes computed by the earlier implementation for secrets of the stored form, at 1 700 000 000 s.
    const at = 1_700_000_000_000;
    for (const [secret, code] of [
      ['JBSWY3DPEHPK3PXP', '324550'],
      [rfcSecret, '921300'],
      ['6UUN7RS7ZXJS3CN2URD2NN7TZIJVZN6G', '181049'],
    ] as const) {
      expect(totp(secret, at)).toBe(code);
      expect(verifyTotp(secret, code, { atMs: at })).toBe(56_666_666);
      // Case, spaces and padding in a stored secret never mattered.
      const spelled = `${secret.toLowerCase().replace(/(.{4})/g, '$1 ')}==`;
      expect(verifyTotp(spelled, code, { atMs: at })).toBe(56_666_666);
    }
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

  it('makes 160-bit secrets in unpadded base32', () => {
    expect(Secret.fromBase32(rfcSecret).latin1).toBe('12345678901234567890');
    const secret = generateOtpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(Secret.fromBase32(secret).bytes).toHaveLength(20);
    expect(generateOtpSecret()).not.toBe(secret);
  });

  it('builds the otpauth URI authenticator apps read', () => {
    const uri = otpauthUrl('JBSWY3DPEHPK3PXP', 'alice smith', 'Vigil');
    expect(uri.startsWith('otpauth://totp/Vigil:alice%20smith?')).toBe(true);
    expect(Object.fromEntries(new URL(uri).searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Vigil',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
