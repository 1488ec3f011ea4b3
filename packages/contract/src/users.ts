import { z } from 'zod';
import { userSessionSchema } from './auth';
import { permissionSchema } from './permissions';

export const themes = ['dark', 'light'] as const;
export const locales = ['en', 'ru'] as const;

/**
 * Flags an administrator grants one by one on top of a user's roles, for capabilities risky
 * enough to be given by name: sent as `{privileged_settings: {flag: true}}`.
 */
export const privilegedFlags = [
  /** May create a personal API token. */
  'api_tokens',
  /** May run response actions on endpoints (isolate a host, kill a process, remote shell). */
  'remote_response',
  /** May export raw events and bulk data. */
  'raw_export',
  /** May read the bodies and attachments of analysed mail. */
  'mail_content',
] as const;
export type PrivilegedFlag = (typeof privilegedFlags)[number];

export const mailingSettingSchema = z
  .object({
    /** New alerts of high severity and above. */
    alerts: z.boolean().optional(),
    /** Incidents assigned to the user or changing status. */
    incidents: z.boolean().optional(),
    /** Scheduled reports. */
    reports: z.boolean().optional(),
    /** Release notes of new versions. */
    release_notes: z.boolean().optional(),
  })
  .strict();

export const telephoneNotificationsSchema = z
  .object({
    weekdays: z.object({ enabled: z.boolean() }).strict(),
    weekends: z.object({ enabled: z.boolean() }).strict(),
  })
  .strict();

export const companyRefSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['provider', 'customer']),
});

/** `GET /api/users/me/`: everything the console needs about the signed-in user. */
export const currentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  /** IANA zone, or null for "the browser's zone". */
  time_zone: z.string().nullable(),
  theme: z.enum(themes),
  locale: z.enum(locales),
  ip_whitelist: z.array(z.string()),
  token_creation_ts: z.string().nullable(),
  company_id: z.number().int(),
  companies: z.array(companyRefSchema),
  mailing_setting: mailingSettingSchema,
  two_factor_enabled: z.boolean(),
  sessions: z.array(userSessionSchema),
  sessions_count: z.number().int(),
  ts_password_updated: z.string().nullable(),
  critan: z.boolean(),
  telephone_notifications_settings: telephoneNotificationsSchema,
  permissions: z.array(permissionSchema),
  privileged_settings: z.record(z.string(), z.boolean()),
  is_superuser: z.boolean(),
  /** Provider staff granted every company, present and future. */
  all_companies: z.boolean(),
  sso_authorize_url: z.string().nullable(),
  two_factor_passed: z.boolean(),
  password_expired: z.boolean(),
  impersonator: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  label: z.object({ company_name: z.string().nullable() }),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

const trimmed = (max: number, what: string) => z.string().trim().max(max, `${what} is at most ${max} characters.`);

export const profileUpdateSchema = z
  .object({
    first_name: trimmed(150, 'A first name'),
    last_name: trimmed(150, 'A last name'),
    phone: z
      .string()
      .trim()
      .max(40, 'A phone number is at most 40 characters.')
      .regex(/^[+\d\s().-]*$/, 'A phone number has digits, spaces and + ( ) - . only.'),
    /** Validated against the IANA zone list on the server. */
    time_zone: z.string().trim().max(100).nullable(),
    theme: z.enum(themes, { message: `The theme is one of: ${themes.join(', ')}.` }),
    locale: z.enum(locales, { message: `The language is one of: ${locales.join(', ')}.` }),
    mailing_setting: mailingSettingSchema,
    telephone_notifications_settings: telephoneNotificationsSchema,
    critan: z.boolean(),
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** A user as administrators see it in lists and details. */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  phone: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  unit_id: z.number().int().nullable(),
  role_ids: z.array(z.number().int()),
  extra_company_ids: z.array(z.number().int()),
  all_companies: z.boolean(),
  is_superuser: z.boolean(),
  ip_whitelist: z.array(z.string()),
  two_factor_enabled: z.boolean(),
  privileged_settings: z.record(z.string(), z.boolean()),
  locked: z.boolean(),
  activated: z.boolean(),
  archived: z.boolean(),
  archived_at: z.string().nullable(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

const username = z
  .string({ message: 'A username is required.' })
  .trim()
  .min(2, 'A username has at least 2 characters.')
  .max(150, 'A username is at most 150 characters.')
  .regex(/^[A-Za-z0-9._@+-]+$/, 'A username has letters, digits and . _ @ + - only.');
const email = z.email({ message: 'Enter a valid e-mail address.' }).trim().max(254).toLowerCase();
const ipEntry = z
  .string()
  .trim()
  .max(64)
  .regex(/^[0-9a-fA-F:.]+(\/\d{1,3})?$/, 'An address or range looks like 10.0.0.5, 10.0.0.0/24 or 2001:db8::/32.');

export const userCreateSchema = z
  .object({
    username,
    email: email.nullable().optional(),
    first_name: trimmed(150, 'A first name').optional(),
    last_name: trimmed(150, 'A last name').optional(),
    phone: trimmed(40, 'A phone number').optional(),
    /** Defaults to the administrator's own company. */
    company_id: z.number().int().positive().optional(),
    unit_id: z.number().int().positive().nullable().optional(),
    role_ids: z.array(z.number().int().positive()).max(50).optional(),
    /** Further companies this user may see (provider staff). */
    extra_company_ids: z.array(z.number().int().positive()).max(1000).optional(),
    all_companies: z.boolean().optional(),
    is_superuser: z.boolean().optional(),
    ip_whitelist: z.array(ipEntry).max(100).optional(),
    /** Optional: without it the user gets an activation link to choose one. */
    password: z.string().min(1).max(200).optional(),
  })
  .strict();
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = userCreateSchema.omit({ password: true }).partial().strict();
export type UserUpdate = z.infer<typeof userUpdateSchema>;

export const userFiltersSchema = z
  .object({
    search: z.string().trim().max(200).optional(),
    company_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
    unit_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
    role_id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
    /** false (default): active users; true: archived users only. */
    archived: z.boolean().optional(),
    is_superuser: z.boolean().optional(),
    two_factor_enabled: z.boolean().optional(),
    id: z.union([z.number().int(), z.array(z.number().int()).max(500)]).optional(),
  })
  .strict();
export type UserFilters = z.infer<typeof userFiltersSchema>;

export const idsSchema = z
  .object({
    ids: z
      .array(z.number({ message: 'Ids are whole numbers.' }).int().positive(), { message: 'Send the ids as a list.' })
      .min(1, 'Choose at least one.')
      .max(1000, 'At most 1000 at a time.'),
  })
  .strict();

export const privilegedSettingsSchema = z
  .object({
    privileged_settings: z.partialRecord(
      z.enum(privilegedFlags, { message: `Known flags: ${privilegedFlags.join(', ')}.` }),
      z.boolean(),
    ),
  })
  .strict();

/** A short entry for pickers (assignee, recipients). */
export const userRefSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  company_id: z.number().int(),
});

/** Answer of `POST /api/users/`: the user, and the activation link when no password was given. */
export const userCreatedSchema = userSchema.extend({ activation_link: z.string().nullable() });
export type UserCreated = z.infer<typeof userCreatedSchema>;

/** Answer of `DELETE /api/users/` and `POST /api/users/restore/`: how many users were changed. */
export const usersBatchAnswerSchema = z.object({ count: z.number().int() });
export type UsersBatchAnswer = z.infer<typeof usersBatchAnswerSchema>;

/** Answer of `POST /api/users/{id}/unlock/`. */
export const unlockAnswerSchema = z.object({ locked: z.boolean() });
export type UnlockAnswer = z.infer<typeof unlockAnswerSchema>;

/** Answer of `GET /api/users/all/`: every user in scope, archived ones included, unpaged. */
export const usersAllAnswerSchema = z.object({ results: z.array(userSchema), count: z.number().int() });
export type UsersAllAnswer = z.infer<typeof usersAllAnswerSchema>;
