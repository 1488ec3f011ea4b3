import type { AuthState as AuthStateWire, CurrentUser as CurrentUserWire } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { useSyncExternalStore } from 'react';
import { setTimeZone } from '../dates/zone';
import { ApiError, call, type Camelize } from '../http';
import { isMainAppExcludedLocation } from './paths';

export type CurrentUser = Camelize<CurrentUserWire>;
export type AuthState = Camelize<AuthStateWire>;

const DEFAULT_PROVIDER_NAME = 'Vigil';

let user: CurrentUser | null = null;
const listeners = new Set<() => void>();

/** "<company label> Managed XDR", or "Vigil Managed XDR" without a label. */
export function labelOf(current: Pick<CurrentUser, 'label'> | null): string {
  return `${current?.label.companyName?.trim() || DEFAULT_PROVIDER_NAME} Managed XDR`;
}

/** Shows the label as the document title (start-up step 2). */
export function applyLabel(current: Pick<CurrentUser, 'label'> | null): void {
  document.title = labelOf(current);
}

/** Dates follow the user's zone; null means the browser's. A zone the browser does not know falls back with a warning. */
function applyTimeZone(current: CurrentUser | null): void {
  try {
    setTimeZone(current?.timeZone ?? null);
  } catch (error) {
    console.warn(error instanceof Error ? error.message : error);
    setTimeZone(null);
  }
}

/**
 * Sets the signed-in user's data (null when signed out) and what depends on it: the label and the
 * time zone here; the permissions are rebuilt by their subscriber each time (see
 * lib/permissions `connectAbility`, installed by the main application).
 */
export function setCurrentUser(next: CurrentUser | null): void {
  user = next;
  applyTimeZone(next);
  applyLabel(next);
  for (const listener of listeners) listener();
}

export function getCurrentUser(): CurrentUser | null {
  return user;
}

export function subscribeCurrentUser(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The signed-in user's data, re-rendering when it changes. */
export function useCurrentUser(): CurrentUser | null {
  return useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
}

/** Like `useCurrentUser`, for the main application, where a user is always signed in. */
export function useSignedInUser(): CurrentUser {
  const current = useCurrentUser();
  if (!current) throw new Error('useSignedInUser is used outside the main application');
  return current;
}

/** `GET /api/users/me/`: the user, or null when signed out (401). */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await call(endpoints.users.me, { redirectOnUnauthorized: false, notifyErrors: false });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Fetches the user again and sets it (after sign-in, OTP, password change, profile changes). */
export async function refreshCurrentUser(): Promise<CurrentUser | null> {
  const next = await fetchCurrentUser();
  setCurrentUser(next);
  return next;
}

/**
 * The main application opens for a user who passed two-factor and whose password has not
 * expired, or on an excluded location; everyone else gets the reduced application.
 */
export function isMainAppAllowed(current: CurrentUser | null, pathname: string): boolean {
  if (!current) return false;
  return (current.twoFactorPassed && !current.passwordExpired) || isMainAppExcludedLocation(pathname);
}

/** "First Last", or the username. */
export function displayName(current: Pick<CurrentUser, 'firstName' | 'lastName' | 'username'>): string {
  return `${current.firstName} ${current.lastName}`.trim() || current.username;
}
