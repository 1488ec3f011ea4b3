import type {
  ApiToken,
  AuthState,
  CurrentUser,
  OtpSecret,
  PasswordChange,
  ProfileUpdate,
  SessionsEnded,
  SsoPasswordChangeAnswer,
  TwoFactorStatus,
  UserSession,
} from '@vigil/contract';
import { http, type Camelize } from '../../../lib/http';
import type { ListDefinition } from '../../../lib/list';

export type Session = Camelize<UserSession>;

/** `PUT /api/users/me/`: the profile's own fields; answers the whole current user. */
export const updateProfile = (data: Camelize<ProfileUpdate>) =>
  http.put<CurrentUser>('/api/users/me/', { data, notifyErrors: false });

export const changePassword = (data: Camelize<PasswordChange>) =>
  http.post<AuthState>('/api/users/password/change/', { data, notifyErrors: false });

/** The provider page where an SSO user changes its password. */
export const ssoPasswordChangeUrl = () => http.post<SsoPasswordChangeAnswer>('/api/users/sso/password/change/');

export const createApiToken = () => http.post<ApiToken>('/api/users/me/token/');
export const revokeApiToken = () => http.delete<{ token_creation_ts: null }>('/api/users/me/token/');

/** A new two-factor secret, pending until a code it produces is confirmed. */
export const generateOtpSecret = () => http.get<OtpSecret>('/api/users/otp/secret/generate/');
export const saveOtpSecret = (code: string) =>
  http.post<TwoFactorStatus>('/api/users/otp/secret/save/', { data: { code }, notifyErrors: false });
export const disableOtp = (password: string) =>
  http.delete<TwoFactorStatus>('/api/users/otp/secret/delete/', {
    data: { password },
    notifyErrors: false,
  });

/** The signed-in user's sessions over the list engine (`POST /api/sessions/check/`). */
export const sessionList = {
  basename: 'sessions',
  filters: { search: 'string' },
  orderable: ['last_seen_at', 'created_at'],
  defaultOrdering: '-last_seen_at',
  pageSizes: [25, 50, 100],
  defaultPageSize: 25,
} as const satisfies ListDefinition<Record<string, 'string'>>;

export const endSession = (id: string) => http.delete<SessionsEnded>(`/api/sessions/${id}/`);
export const endOtherSessions = () => http.delete<SessionsEnded>('/api/sessions/');
