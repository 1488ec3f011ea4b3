// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isAuthPath, isMainAppExcludedLocation, peekSavedPath, savePath, takeSavedPath } from './paths';
import { isMainAppAllowed, labelOf, type CurrentUser } from './session-store';

const user = (changes: Partial<CurrentUser> = {}) =>
  ({ twoFactorPassed: true, passwordExpired: false, label: { companyName: null }, ...changes }) as CurrentUser;

describe('start-up choice', () => {
  it('opens the main application only after two-factor and with a valid password, or on an excluded location', () => {
    expect(isMainAppAllowed(user(), '/alerts')).toBe(true);
    expect(isMainAppAllowed(user({ twoFactorPassed: false }), '/alerts')).toBe(false);
    expect(isMainAppAllowed(user({ passwordExpired: true }), '/alerts')).toBe(false);
    expect(isMainAppAllowed(user({ passwordExpired: true }), '/headless-chrome/complex-reports/1')).toBe(true);
    expect(isMainAppAllowed(null, '/headless-chrome/documentation')).toBe(false);
    expect(isMainAppExcludedLocation('/headless-chromeX')).toBe(false);
  });

  it('labels the product with the company label, or Vigil', () => {
    expect(labelOf(user())).toBe('Vigil Managed XDR');
    expect(labelOf(user({ label: { companyName: 'Acme' } }))).toBe('Acme Managed XDR');
  });

  it('saves the path to return to, never an auth page', () => {
    expect(isAuthPath('/login')).toBe(true);
    expect(isAuthPath('/otp/')).toBe(true);
    expect(isAuthPath('/activate/abc')).toBe(true);
    expect(isAuthPath('/api/activate/abc/')).toBe(true);
    savePath('/settings/system-logs?page=2');
    savePath('/login');
    savePath('//evil.example/');
    expect(peekSavedPath()).toBe('/settings/system-logs?page=2');
    expect(takeSavedPath()).toBe('/settings/system-logs?page=2');
    expect(takeSavedPath()).toBe('/');
  });
});
