import { endpoints } from '@vigil/contract/client';
import { call } from '../http';
import { changeLanguage, type Language } from '../i18n';
import { applyTheme, getTheme, isThemeName } from '../theme';
import { getCurrentUser, setCurrentUser } from './session-store';

/**
 * Switches the theme now and keeps it with the user (`PUT /api/users/me/`). An unknown theme is
 * refused with a warning and changes nothing.
 */
export async function changeTheme(value: unknown): Promise<boolean> {
  const previous = getTheme();
  if (!applyTheme(value)) return false;
  if (getCurrentUser() && value !== previous && isThemeName(value)) {
    const user = await call(endpoints.users.replaceMe, { body: { theme: value } });
    setCurrentUser(user);
  }
  return true;
}

/** Switches the interface language, keeps it in this browser and, when signed in, as the user's locale. */
export async function changeLocale(language: Language): Promise<void> {
  await changeLanguage(language);
  const user = getCurrentUser();
  if (user && user.locale !== language) {
    setCurrentUser(await call(endpoints.users.replaceMe, { body: { locale: language } }));
  }
}

/** Ends the session on the server, then leaves for the address it returns. */
export async function signOut(): Promise<void> {
  const { logoutUrl } = await call(endpoints.auth.signOut, {});
  window.location.assign(logoutUrl || '/login');
}
