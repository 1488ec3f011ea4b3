import { endpoint, idParams, noContent, permission, publicAccess, rawAnswer, signedIn } from '../endpoint';
import {
  ssoCallbackQuerySchema,
  ssoLoginQuerySchema,
  ssoPasswordChangeAnswerSchema,
  ssoPasswordResetAnswerSchema,
  ssoProvidersAnswerSchema,
  ssoProvidersQuerySchema,
  ssoSettingsSchema,
  ssoSettingsUpdateSchema,
} from '../sso';

const tag = 'sso';

/**
 * Single sign-on with OpenID Connect: a company's provider settings (administered with the
 * `companies` permissions), the sign-in redirect and callback, and the provider-side password pages.
 */
export const ssoEndpoints = {
  settings: endpoint({
    method: 'GET',
    path: '/api/companies/:id/sso/',
    summary: 'Read a company’s single sign-on settings',
    description: 'Defaults (with `configured: false`) when none are saved. The client secret is never shown.',
    tag,
    access: permission('companies', 'view'),
    params: idParams,
    responses: { 200: ssoSettingsSchema },
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: '/api/companies/:id/sso/',
    summary: 'Change a company’s single sign-on settings',
    description: 'Fields left out keep their value. A new issuer unlinks the company’s users from their identities.',
    tag,
    access: permission('companies', 'change'),
    params: idParams,
    body: ssoSettingsUpdateSchema,
    responses: { 200: ssoSettingsSchema },
  }),
  removeSettings: endpoint({
    method: 'DELETE',
    path: '/api/companies/:id/sso/',
    summary: 'Remove a company’s single sign-on settings',
    tag,
    access: permission('companies', 'change'),
    params: idParams,
    responses: { 204: noContent },
  }),
  providers: endpoint({
    method: 'GET',
    path: '/api/sso/providers/',
    summary: 'Whether the login screen offers single sign-on for a username',
    description: 'Unknown users, archived users and users of companies without single sign-on all get null alike.',
    tag,
    access: publicAccess,
    reducedApp: true,
    query: ssoProvidersQuerySchema,
    responses: { 200: ssoProvidersAnswerSchema },
  }),
  login: endpoint({
    method: 'GET',
    path: '/api/sso/login/',
    summary: 'Start a sign-in at a company’s provider',
    description: 'Redirects to the provider; when it cannot be used, to `/login?sso_error=<code>`.',
    tag,
    access: publicAccess,
    reducedApp: true,
    query: ssoLoginQuerySchema,
    responses: { 302: rawAnswer('Redirect to the provider, or to the login screen with the reason.') },
  }),
  callback: endpoint({
    method: 'GET',
    path: '/api/sso/callback/',
    summary: 'The provider’s answer to a sign-in',
    description:
      'Signs the mapped user in and redirects to the page the sign-in started from, or to ' +
      '`/login?sso_error=<code>` when it is refused.',
    tag,
    access: publicAccess,
    reducedApp: true,
    query: ssoCallbackQuerySchema,
    responses: { 302: rawAnswer('Redirect into the console, or to the login screen with the reason.') },
  }),
  passwordChange: endpoint({
    method: 'POST',
    path: '/api/users/sso/password/change/',
    summary: 'The provider page where one changes one’s password',
    tag,
    access: signedIn,
    reducedApp: 'password_expired',
    responses: { 200: ssoPasswordChangeAnswerSchema },
  }),
  passwordReset: endpoint({
    method: 'POST',
    path: '/api/users/:id/sso/password/reset/',
    summary: 'Reset another user’s single sign-on',
    description:
      'Unlinks the user from its provider identity (the next sign-in maps it by e-mail again) and ends its ' +
      'sessions; the password itself is reset at the provider, whose page the answer names.',
    tag,
    access: permission('users', 'reset_sso_password'),
    params: idParams,
    responses: { 200: ssoPasswordResetAnswerSchema },
  }),
};
