import { describe, expect, it } from 'vitest';
import { passwordChangeUrlOf, safeNextPath, usernameFromEmail } from './sso.service';

describe('safeNextPath', () => {
  it('keeps paths of this site', () => {
    expect(safeNextPath('/')).toBe('/');
    expect(safeNextPath('/alerts/12/?tab=events#top')).toBe('/alerts/12/?tab=events#top');
    expect(safeNextPath('/a/../b')).toBe('/b');
  });

  it('refuses anything that could leave the site', () => {
    for (const value of [
      undefined,
      '',
      'alerts',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/ok\nSet-Cookie: x=1',
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeNextPath(value)).toBeNull();
    }
  });
});

describe('usernameFromEmail', () => {
  it('lower-cases and keeps only characters usernames allow', () => {
    expect(usernameFromEmail('New.Person@Alpha.test')).toBe('new.person@alpha.test');
    expect(usernameFromEmail("o'brien+sec@x.test")).toBe('o_brien+sec@x.test');
    expect(usernameFromEmail('a')).toBe('sso_a');
  });
});

describe('passwordChangeUrlOf', () => {
  it('prefers the configured page and falls back to the issuer account console', () => {
    expect(passwordChangeUrlOf({ issuer: 'https://id.example/realms/acme/', password_change_url: null })).toBe(
      'https://id.example/realms/acme/account',
    );
    expect(passwordChangeUrlOf({ issuer: 'https://id.example', password_change_url: 'https://id.example/pw' })).toBe(
      'https://id.example/pw',
    );
  });
});
