import type { PasswordChange, ProfileUpdate, UserSession } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type Session = Camelize<UserSession>;

/** `PUT /api/users/me/`: the profile's own fields; answers the whole current user. */
export const updateProfile = (data: Camelize<ProfileUpdate>) =>
  call(endpoints.users.replaceMe, { body: data, notifyErrors: false });

export const changePassword = (data: Camelize<PasswordChange>) =>
  call(endpoints.auth.changePassword, { body: data, notifyErrors: false });

/** The provider page where an SSO user changes its password. */
export const ssoPasswordChangeUrl = () => call(endpoints.sso.passwordChange, {});

export const createApiToken = () => call(endpoints.auth.createApiToken, {});
export const revokeApiToken = () => call(endpoints.auth.revokeApiToken, {});

/** A new two-factor secret, pending until a code it produces is confirmed. */
export const generateOtpSecret = () => call(endpoints.auth.generateOtpSecret, {});
export const saveOtpSecret = (code: string) =>
  call(endpoints.auth.saveOtpSecret, { body: { code }, notifyErrors: false });
export const disableOtp = (password: string) =>
  call(endpoints.auth.disableOtp, { body: { password }, notifyErrors: false });

/** The signed-in user's sessions over the list engine (`POST /api/sessions/check/`). */
export const sessionList = defineList(endpoints.sessions.list, {
  pageSizes: [25, 50, 100],
  defaultPageSize: 25,
  pick: ['search'],
});

export const endSession = (id: string) => call(endpoints.sessions.end, { params: { id } });
export const endOtherSessions = () => call(endpoints.sessions.endOthers, {});
