import type { Credentials, PasswordChange } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import {
  fetchCurrentUser,
  isMainAppAllowed,
  setCurrentUser,
  takeSavedPath,
  type CurrentUser,
} from '../../../lib/session';

/** Activation link info, `GET /api/activate/<token>/`. */
export interface ActivationInfo {
  valid: boolean;
  username: string;
}

/** `POST /api/auth/`. Errors are shown on the form, not as notifications. */
export function signIn(credentials: Camelize<Credentials>) {
  return call(endpoints.auth.signIn, { body: credentials, notifyErrors: false });
}

/** `POST /api/auth/otp/` with the six-digit code. */
export function submitOtp(code: string) {
  return call(endpoints.auth.otp, { body: { code }, notifyErrors: false });
}

/** `POST /api/users/password/change/` (body: old_password, new_password, new_password_retry). */
export function changePassword(change: Camelize<PasswordChange>) {
  return call(endpoints.auth.changePassword, { body: change, notifyErrors: false });
}

export function fetchActivation(token: string, signal?: AbortSignal) {
  return call(endpoints.auth.activationInfo, {
    params: { token },
    notifyErrors: false,
    ...(signal ? { signal } : {}),
  });
}

export function activate(token: string, passwords: { newPassword: string; newPasswordRetry: string }) {
  return call(endpoints.auth.activate, {
    params: { token },
    body: passwords,
    notifyErrors: false,
  });
}

/** Whether the company of what was typed signs in through its provider (`GET /api/sso/providers/`). */
export function findSsoProvider(username: string) {
  return call(endpoints.sso.providers, { query: { username }, notifyErrors: false });
}

/** Leaves the half-finished sign-in (for "use another account" on the OTP and password screens). */
export async function abandonSignIn(): Promise<void> {
  await call(endpoints.auth.signOut, { notifyErrors: false }).catch(() => undefined);
  setCurrentUser(null);
}

/**
 * After a sign-in step: fetch the user again; when the main application may open, return to the
 * saved path first (never an auth page), so the main application starts there.
 */
export async function continueSignIn(): Promise<CurrentUser | null> {
  const user = await fetchCurrentUser();
  if (isMainAppAllowed(user, '/')) window.history.replaceState(null, '', takeSavedPath());
  setCurrentUser(user);
  return user;
}
