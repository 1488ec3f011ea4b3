import { apiRequest } from '../../../lib/api-client';

/**
 * The answer of `GET/POST /api/auth/`. The contract package has no schema for it yet; when it gains
 * one (`authStateSchema`), this interface gives way to the inferred type.
 */
export interface AuthState {
  authenticated: boolean;
  user: CurrentUser | null;
}

export interface CurrentUser {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  company_id: number;
  two_factor_passed: boolean;
  password_expired: boolean;
}

/** Who is signed in (sets the anti-forgery cookie as a side effect). */
export function fetchAuthState(): Promise<AuthState> {
  return apiRequest<AuthState>('GET', '/api/auth/');
}

export function signIn(username: string, password: string): Promise<AuthState> {
  return apiRequest<AuthState>('POST', '/api/auth/', { username, password });
}

/** Ends the session; the answer says where the browser should go next. */
export function signOut(): Promise<{ logout_url: string }> {
  return apiRequest<{ logout_url: string }>('DELETE', '/api/auth/');
}

/** "First Last", or the username when the user has no name. */
export function displayName(user: CurrentUser): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}
