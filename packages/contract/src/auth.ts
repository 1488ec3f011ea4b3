import { z } from 'zod';

const passwordText = (message: string) => z.string({ message }).min(1, message).max(200, 'At most 200 characters.');

/** `POST /api/auth/`: sign in with a username or an e-mail address. */
export const credentialsSchema = z.object({
  username: z
    .string({ message: 'Enter your username or e-mail.' })
    .trim()
    .min(1, 'Enter your username or e-mail.')
    .max(254, 'At most 254 characters.'),
  password: passwordText('Enter your password.'),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** The caller as `GET /api/auth/` and the sign-in steps describe it. */
export const authUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  company_id: z.number().int(),
  two_factor_enabled: z.boolean(),
  /** False until the one-time code of this session is given (always true without two-factor). */
  two_factor_passed: z.boolean(),
  /** The password must be replaced before the main application opens. */
  password_expired: z.boolean(),
});

/** Answer of `GET /api/auth/`, of each sign-in step and of leaving an impersonation. */
export const authStateSchema = z.object({
  authenticated: z.boolean(),
  user: authUserSchema.nullable(),
  /** The administrator acting as `user`, while impersonating. */
  impersonator: z.object({ id: z.number().int(), username: z.string() }).nullable(),
});
export type AuthState = z.infer<typeof authStateSchema>;

/** Answer of `DELETE /api/auth/` (sign out): where the browser goes next. */
export const logoutAnswerSchema = z.object({ logout_url: z.string() });
export type LogoutAnswer = z.infer<typeof logoutAnswerSchema>;

/** A six-digit code from an authenticator app (spaces are ignored). */
const otpCode = z
  .string({ message: 'Enter the six-digit code from your authenticator app.' })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the six-digit code from your authenticator app.'));

/** `POST /api/auth/otp/` and `POST /api/users/otp/secret/save/`. */
export const otpCodeSchema = z.object({ code: otpCode }).strict();

/** `GET /api/users/otp/secret/generate/`: shown once, to be put in an authenticator app. */
export const otpSecretSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
});
export type OtpSecret = z.infer<typeof otpSecretSchema>;

/** `DELETE /api/users/otp/secret/delete/`: turning two-factor off needs the password. */
export const otpDisableSchema = z.object({ password: passwordText('Enter your password.') }).strict();

/** Answer of enabling, disabling or resetting two-factor authentication. */
export const twoFactorStatusSchema = z.object({ two_factor_enabled: z.boolean() });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** `POST /api/users/password/change/`: the old password and the new one twice. */
export const passwordChangeSchema = z
  .object({
    old_password: passwordText('Enter your current password.'),
    new_password: passwordText('Enter a new password.'),
    new_password_retry: passwordText('Repeat the new password.'),
  })
  .strict();
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** `GET /api/activate/<token>/`. */
export const activationInfoSchema = z.object({ valid: z.boolean(), username: z.string() });

/** `POST /api/activate/<token>/`: the first password (or a reset one). */
export const activationSchema = z
  .object({
    new_password: passwordText('Enter a new password.'),
    new_password_retry: passwordText('Repeat the new password.'),
  })
  .strict();

/** `POST /api/users/me/token/`: the key is shown this once and cannot be read again. */
export const apiTokenSchema = z.object({ token: z.string(), token_creation_ts: z.string() });
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** Answer of `DELETE /api/users/me/token/`: the user has no API key any more. */
export const apiTokenRevokedSchema = z.object({ token_creation_ts: z.null() });
export type ApiTokenRevoked = z.infer<typeof apiTokenRevokedSchema>;

/** Path of the activation and password-reset links: the one-time token (checked by the handler). */
export const activationTokenParams = z.object({ token: z.string() });

/** One of the caller's sessions (the `sessions` resource). */
export const userSessionSchema = z.object({
  /** Opaque public id; the session's secret never leaves the server. */
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string(),
  /** The session this request was made with. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;

/** Path parameter of `DELETE /api/sessions/{id}/`: the session's public id. */
export const userSessionParams = z.object({ id: z.uuid() });

/** Filters accepted in the body of `POST /api/sessions/check/`. */
export const userSessionFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    current: z.boolean().optional(),
  })
  .strict();
export type UserSessionFilters = z.infer<typeof userSessionFiltersSchema>;

/** `DELETE /api/sessions/`: how many sessions were ended. */
export const sessionsEndedSchema = z.object({ ended: z.number().int() });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;

/** `POST /api/auth/impersonate/`. */
export const impersonateSchema = z
  .object({
    user_id: z
      .number({ message: 'Choose the user to act as.' })
      .int('Choose the user to act as.')
      .min(1, 'Choose the user to act as.')
      .max(Number.MAX_SAFE_INTEGER, 'Choose the user to act as.'),
  })
  .strict();
