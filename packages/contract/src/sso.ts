import { z } from 'zod';
import { messageSchema } from './errors';

/**
 * Single sign-on with OpenID Connect, configured per company.
 *
 * Provider addresses must be https; plain http is accepted only on the machine itself
 * (127.0.0.1, ::1, localhost), for development and tests.
 */

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether text holds ASCII control characters (newlines, NUL, DEL…). */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Whether a URL is https, or http on a loopback host. */
export function isSecureOrLoopbackUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
}

const issuer = z
  .string({ message: "Enter the provider's issuer URL." })
  .trim()
  .min(1, "Enter the provider's issuer URL.")
  .max(500, 'An issuer URL is at most 500 characters.')
  .refine(isSecureOrLoopbackUrl, 'The issuer must be an https:// URL (http:// only on 127.0.0.1 or localhost).')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.search === '' && url.hash === '';
    } catch {
      return true; // reported by the previous check
    }
  }, 'An issuer URL has no query string or fragment.');

const clientId = z
  .string({ message: 'Enter the client id registered at the provider.' })
  .trim()
  .min(1, 'Enter the client id registered at the provider.')
  .max(255, 'A client id is at most 255 characters.')
  .regex(/^[\x21-\x7E]+$/, 'A client id has printable characters and no spaces.');

/** RFC 6749 §3.3 scope tokens, space separated; `openid` is required. */
const scopes = z
  .string({ message: 'Enter the scopes to request, separated by spaces.' })
  .max(500, 'Scopes are at most 500 characters.')
  .transform((value) => value.trim().split(/\s+/).filter(Boolean))
  .refine((list) => list.every((s) => /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s)), 'A scope has no quotes or backslashes.')
  .refine((list) => list.includes('openid'), 'The scopes must include openid.')
  .transform((list) => [...new Set(list)].join(' '));

const passwordChangeUrl = z
  .string()
  .trim()
  .max(1000, 'A password change URL is at most 1000 characters.')
  .refine(isSecureOrLoopbackUrl, 'The password change URL must be an https:// URL.');

/** A company's provider settings as answered; the client secret is never shown. */
export const ssoSettingsSchema = z.object({
  company_id: z.number().int(),
  /** False until the settings are saved once; the other fields are then defaults. */
  configured: z.boolean(),
  enabled: z.boolean(),
  issuer: z.string().nullable(),
  client_id: z.string().nullable(),
  /** Whether a client secret is stored (the secret itself is write-only). */
  client_secret_set: z.boolean(),
  scopes: z.string(),
  /** Create unknown users at their first sign-in, with `default_role_id`. */
  jit_create: z.boolean(),
  default_role_id: z.number().int().nullable(),
  /** The provider's page where a user changes its password; null uses `<issuer>/account`. */
  password_change_url: z.string().nullable(),
  /** The address to register at the provider as the client's redirect URI. */
  redirect_uri: z.string(),
  updated_at: z.string().nullable(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/**
 * `PUT /api/companies/{id}/sso/`: fields left out keep their value. `client_secret` is
 * write-only: left out it is kept, `""` removes it (a public client using PKCE only).
 * `issuer` and `client_id` are required the first time.
 */
export const ssoSettingsUpdateSchema = z
  .object({
    issuer: issuer.optional(),
    client_id: clientId.optional(),
    client_secret: z
      .string({ message: 'A client secret is text.' })
      .max(1000, 'A client secret is at most 1000 characters.')
      .refine((value) => !hasControlCharacters(value), 'A client secret has no control characters.')
      .optional(),
    scopes: scopes.optional(),
    enabled: z.boolean({ message: 'Enabled is true or false.' }).optional(),
    jit_create: z.boolean({ message: 'Create users at first sign-in is true or false.' }).optional(),
    default_role_id: z
      .number({ message: 'Choose a role of this company.' })
      .int('Choose a role of this company.')
      .min(1, 'Choose a role of this company.')
      .nullable()
      .optional(),
    password_change_url: passwordChangeUrl.nullable().optional(),
  })
  .strict();
export type SsoSettingsUpdate = z.infer<typeof ssoSettingsUpdateSchema>;

/** `GET /api/sso/providers/?username=`: whether the login screen offers single sign-on. */
export const ssoProvidersQuerySchema = z
  .object({
    username: z
      .string({ message: 'Enter your username or e-mail.' })
      .trim()
      .min(1, 'Enter your username or e-mail.')
      .max(254, 'A username or e-mail is at most 254 characters.'),
  })
  .strict();
export type SsoProvidersQuery = z.infer<typeof ssoProvidersQuerySchema>;

export const ssoProvidersAnswerSchema = z.object({
  /** Where to send the browser to sign in with the company's provider; null for everyone else. */
  sso_authorize_url: z.string().nullable(),
});
export type SsoProvidersAnswer = z.infer<typeof ssoProvidersAnswerSchema>;

/** `GET /api/sso/login/?company=&next=`: starts a sign-in at the company's provider. */
export const ssoLoginQuerySchema = z.object({
  company: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** A path of this console to return to after signing in; anything else is ignored. */
  next: z.string().max(2000).optional(),
});
export type SsoLoginQuery = z.infer<typeof ssoLoginQuerySchema>;

/** The provider's answer at `GET /api/sso/callback/` (read by the handler; anything else is ignored). */
export const ssoCallbackQuerySchema = z.object({
  state: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  iss: z.string().optional(),
});

/** `POST /api/users/sso/password/change/`: the provider page where the user changes its password. */
export const ssoPasswordChangeAnswerSchema = z.object({ url: z.string() });
export type SsoPasswordChangeAnswer = z.infer<typeof ssoPasswordChangeAnswerSchema>;

/** `POST /api/users/{id}/sso/password/reset/`: what was done. */
export const ssoPasswordResetAnswerSchema = z.object({
  /** The user's sessions that were ended. */
  sessions_ended: z.number().int(),
  /** Whether a link to a provider identity was removed (the next sign-in maps by e-mail again). */
  unlinked: z.boolean(),
  /** The provider page where the password is changed, for the administrator to pass on. */
  url: z.string(),
  messages: z.array(messageSchema),
});
export type SsoPasswordResetAnswer = z.infer<typeof ssoPasswordResetAnswerSchema>;

/**
 * Why a sign-in through the provider failed; the callback redirects to `/login?sso_error=<code>`.
 * - `unavailable`: the company has no (enabled) single sign-on, or its provider cannot be reached
 * - `invalid_state`: the answer does not belong to a sign-in started in this browser, or it expired
 * - `denied`: the provider or the user cancelled
 * - `provider_error`: the code exchange or the ID token was refused
 * - `email_missing`: the provider gave no (verified) e-mail address to map the user by
 * - `no_account`: no user of this company has that e-mail, and creating one is off
 * - `account_disabled`: the user is archived
 * - `subject_mismatch`: the user is linked to another identity of the provider
 * - `server_error`: Vigil failed to finish the sign-in; trying again may help
 */
export const ssoErrorCodes = [
  'unavailable',
  'invalid_state',
  'denied',
  'provider_error',
  'email_missing',
  'no_account',
  'account_disabled',
  'subject_mismatch',
  'server_error',
] as const;
export type SsoErrorCode = (typeof ssoErrorCodes)[number];
