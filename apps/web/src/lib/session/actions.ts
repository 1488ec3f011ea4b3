import { endpoints } from '@vigil/contract/client';
import { call } from '../http';
import { changeLanguage, type Language } from '../i18n';
import { applyTheme, getTheme, isThemeName } from '../theme';
import { getCurrentUser, setCurrentUser, type CurrentUser } from './session-store';

/**
 * The user whose profile may be written: one fully signed in. A half-signed-in session (before its
 * one-time code, or with an expired password) may not change the profile; its choice stays in this
 * browser until the sign-in is complete.
 */
function fullySignedIn(): CurrentUser | null {
  const user = getCurrentUser();
  return user && user.twoFactorPassed && !user.passwordExpired ? user : null;
}

/**
 * Switches the theme now and keeps it with the user (`PUT /api/users/me/`). An unknown theme is
 * refused with a warning and changes nothing.
 */
export async function changeTheme(value: unknown): Promise<boolean> {
  const previous = getTheme();
  if (!applyTheme(value)) return false;
  if (fullySignedIn() && value !== previous && isThemeName(value)) {
    const user = await call(endpoints.users.replaceMe, { body: { theme: value } });
    setCurrentUser(user);
  }
  return true;
}

/** Switches the interface language, keeps it in this browser and, when signed in, as the user's locale. */
export async function changeLocale(language: Language): Promise<void> {
  await changeLanguage(language);
  const user = fullySignedIn();
  if (user && user.locale !== language) {
    setCurrentUser(await call(endpoints.users.replaceMe, { body: { locale: language } }));
  }
}

/** Ends the session on the server, then leaves for the address it returns. */
export async function signOut(): Promise<void> {
  const { logoutUrl } = await call(endpoints.auth.signOut, {});
  window.location.assign(logoutUrl || '/login');
}
