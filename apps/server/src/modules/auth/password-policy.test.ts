import { describe, expect, it } from 'vitest';
import { validatePasswordPolicy } from './password-policy';

describe('password policy', () => {
  it('accepts a reasonable password', () => {
    expect(validatePasswordPolicy('Correct-horse-9', { username: 'alice' })).toEqual([]);
  });

  it('refuses short passwords, using the configured length', () => {
    expect(validatePasswordPolicy('Short-1', { username: 'alice' })).toEqual([
      'The password must be at least 10 characters long.',
    ]);
    expect(validatePasswordPolicy('Longer-pass-1', { username: 'alice', minLength: 16 })).toEqual([
      'The password must be at least 16 characters long.',
    ]);
  });

  it('refuses digits only, the username inside, and the old password again', () => {
    expect(validatePasswordPolicy('12345678901', { username: 'alice' })).toContain(
      'The password cannot be made of digits only.',
    );
    expect(validatePasswordPolicy('my-ALICE-password', { username: 'Alice' })).toContain(
      'The password cannot contain the username.',
    );
    expect(validatePasswordPolicy('Same-password-1', { username: 'bob', oldPassword: 'Same-password-1' })).toContain(
      'The new password must differ from the current one.',
    );
  });

  it('does not treat a very short username as contained everywhere', () => {
    expect(validatePasswordPolicy('Jolly-jumper-77', { username: 'jo' })).toEqual([]);
  });

  it('lists every problem at once', () => {
    expect(validatePasswordPolicy('123', { username: 'bob' })).toHaveLength(2);
  });
});
