import { endpoints } from '@vigil/contract/client';

/** Paths of the reduced application. */
export const LOGIN_PATH = '/login';
export const OTP_PATH = '/otp';
export const PASSWORD_EXPIRED_PATH = '/password_expired';
export const ACTIVATION_PATH_PREFIX = '/activate/';
/** The link in the activation mail (/api/activate/); the server answers a browser with the console. */
export const MAILED_ACTIVATION_PATH_PREFIX = endpoints.auth.activationInfo.path.slice(
  0,
  endpoints.auth.activationInfo.path.indexOf(':'),
);
/** Report and print pages opened by a headless browser: no sidebar, no header. */
export const HEADLESS_PREFIX = '/headless-chrome';

const authPaths = [LOGIN_PATH, OTP_PATH, PASSWORD_EXPIRED_PATH];

/** Whether a path opens the activation screen (`/activate/<token>` or the mailed `/api/activate/<token>/`). */
export function isActivationPath(pathname: string): boolean {
  return pathname.startsWith(ACTIVATION_PATH_PREFIX) || pathname.startsWith(MAILED_ACTIVATION_PATH_PREFIX);
}

/** Whether a path is one of the sign-in screens (never saved, never a 401 redirect target). */
export function isAuthPath(pathname: string): boolean {
  return authPaths.includes(pathname.replace(/\/+$/, '') || '/') || isActivationPath(pathname);
}

/**
 * Locations where the main application opens even before two-factor or a password change: the
 * headless-browser pages, which a rendering service opens with its own session.
 */
export function isMainAppExcludedLocation(pathname: string): boolean {
  return pathname === HEADLESS_PREFIX || pathname.startsWith(`${HEADLESS_PREFIX}/`);
}

const SAVED_PATH_KEY = 'vigil-saved-path';

/** Remembers where the user was, to return there after signing in; auth pages are never saved. */
export function savePath(path: string): void {
  const pathname = path.split(/[?#]/)[0] ?? '/';
  if (isAuthPath(pathname) || !path.startsWith('/') || path.startsWith('//')) return;
  try {
    sessionStorage.setItem(SAVED_PATH_KEY, path);
  } catch {
    // Storage can be unavailable (private modes); the user then lands on the start page.
  }
}

/** The saved path (cleared once read), or `/`. */
export function takeSavedPath(): string {
  try {
    const path = sessionStorage.getItem(SAVED_PATH_KEY);
    sessionStorage.removeItem(SAVED_PATH_KEY);
    if (path && path.startsWith('/') && !path.startsWith('//') && !isAuthPath(path.split(/[?#]/)[0] ?? '')) return path;
  } catch {
    // See savePath.
  }
  return '/';
}

export function currentPath(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/** The saved path without clearing it (for an SSO sign-in, which returns through the server). */
export function peekSavedPath(): string {
  try {
    const path = sessionStorage.getItem(SAVED_PATH_KEY);
    if (path && path.startsWith('/') && !path.startsWith('//') && !isAuthPath(path.split(/[?#]/)[0] ?? '')) return path;
  } catch {
    // See savePath.
  }
  return '/';
}

/** An SSO sign-in address with the console path to come back to (`next`, checked again by the server). */
export function ssoAddress(url: string, next: string): string {
  const address = new URL(url, window.location.href);
  if (!address.searchParams.has('next') && next !== '/') address.searchParams.set('next', next);
  return address.origin === window.location.origin ? `${address.pathname}${address.search}` : address.href;
}
