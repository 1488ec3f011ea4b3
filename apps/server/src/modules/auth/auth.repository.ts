import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { TenantScope } from '../../http/tenancy';
import { tenantCondition } from '../../http/tenancy';

/** What signing in needs to know about an account. */
export interface LoginUserRow {
  id: number;
  username: string;
  company_id: number;
  is_superuser: boolean;
  password_hash: string | null;
  otp_secret: string | null;
  ip_whitelist: string[];
  locked: boolean;
}

/** The active account a sign-in names, by username or else by e-mail (case-insensitive). */
export async function findLoginUser(db: Queryable, login: string): Promise<LoginUserRow | null> {
  const { rows } = await db.query<LoginUserRow>(sql`
    SELECT id, username, company_id, is_superuser, password_hash, otp_secret, ip_whitelist,
           COALESCE(locked_until > now(), false) AS locked
    FROM users
    WHERE (lower(username) = lower(${login}) OR lower(email) = lower(${login})) AND archived_at IS NULL
    ORDER BY (lower(username) = lower(${login})) DESC
    LIMIT 1`);
  return rows[0] ?? null;
}

/** An account by id (archived accounts included only when asked). */
export async function findUserById(db: Queryable, id: number): Promise<LoginUserRow | null> {
  const { rows } = await db.query<LoginUserRow>(sql`
    SELECT id, username, company_id, is_superuser, password_hash, otp_secret, ip_whitelist,
           COALESCE(locked_until > now(), false) AS locked
    FROM users WHERE id = ${id} AND archived_at IS NULL`);
  return rows[0] ?? null;
}

/** An active account the scope may see, or null (another tenant's account does not exist). */
export async function findUserInScope(db: Queryable, scope: TenantScope, id: number): Promise<LoginUserRow | null> {
  const { rows } = await db.query<LoginUserRow>(sql`
    SELECT id, username, company_id, is_superuser, password_hash, otp_secret, ip_whitelist,
           COALESCE(locked_until > now(), false) AS locked
    FROM users WHERE id = ${id} AND archived_at IS NULL AND ${tenantCondition(scope, sql`company_id`)}`);
  return rows[0] ?? null;
}

/** Two-factor state of a user. */
export interface OtpStateRow {
  otp_secret: string | null;
  otp_pending_secret: string | null;
  otp_last_step: number | null;
}

export async function otpState(db: Queryable, userId: number): Promise<OtpStateRow | null> {
  const { rows } = await db.query<OtpStateRow>(
    sql`SELECT otp_secret, otp_pending_secret, otp_last_step FROM users WHERE id = ${userId}`,
  );
  return rows[0] ?? null;
}

/**
 * Marks a time step used, only if it is later than the last one used: of two requests racing with
 * the same code, one wins. Answers whether this one did.
 */
export async function claimOtpStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const { rowCount } = await db.query(sql`
    UPDATE users SET otp_last_step = ${step}
    WHERE id = ${userId} AND (otp_last_step IS NULL OR otp_last_step < ${step})`);
  return rowCount === 1;
}

/**
 * The two-factor secret waiting to be confirmed: the one already pending, else `fresh`, kept now.
 * Asking again answers the same secret until a code of it is confirmed (or two-factor is turned
 * off), so asking changes nothing the second time. Null when the user does not exist.
 */
export async function pendingOtpSecret(db: Queryable, userId: number, fresh: string): Promise<string | null> {
  await db.query(sql`
    UPDATE users SET otp_pending_secret = ${fresh}, updated_at = now()
    WHERE id = ${userId} AND otp_pending_secret IS NULL`);
  // A statement of its own: it sees the secret of a request that raced this one and won.
  const { rows } = await db.query<{ otp_pending_secret: string | null }>(
    sql`SELECT otp_pending_secret FROM users WHERE id = ${userId}`,
  );
  return rows[0]?.otp_pending_secret ?? null;
}

/** Turns two-factor on with the confirmed pending secret. */
export async function activatePendingOtpSecret(db: Queryable, userId: number, step: number): Promise<void> {
  await db.query(sql`
    UPDATE users SET otp_secret = otp_pending_secret, otp_pending_secret = NULL, otp_last_step = ${step},
                     updated_at = now()
    WHERE id = ${userId}`);
}

/** Turns two-factor off. Answers whether it was on. */
export async function clearOtp(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ was_enabled: boolean }>(sql`
    UPDATE users u SET otp_secret = NULL, otp_pending_secret = NULL, otp_last_step = NULL, updated_at = now()
    FROM (SELECT id, otp_secret IS NOT NULL AS was_enabled FROM users WHERE id = ${userId} FOR UPDATE) old
    WHERE u.id = old.id
    RETURNING old.was_enabled`);
  return rows[0]?.was_enabled ?? false;
}

/** Stores a new password hash; the password is no longer expired. */
export async function setPassword(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.query(sql`
    UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now(), password_must_change = false,
                     failed_logins = 0, locked_until = NULL, updated_at = now()
    WHERE id = ${userId}`);
}

/** Replaces the user's API token (only its hash is kept). Answers the creation time. */
export async function setApiToken(db: Queryable, userId: number, tokenHash: string): Promise<Date> {
  const { rows } = await db.query<{ token_created_at: Date }>(sql`
    UPDATE users SET token_hash = ${tokenHash}, token_created_at = now(), updated_at = now()
    WHERE id = ${userId} RETURNING token_created_at`);
  return rows[0]!.token_created_at;
}

/** Revokes the user's API token. Answers whether there was one. */
export async function clearApiToken(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ had: boolean }>(sql`
    UPDATE users u SET token_hash = NULL, token_created_at = NULL, updated_at = now()
    FROM (SELECT id, token_hash IS NOT NULL AS had FROM users WHERE id = ${userId} FOR UPDATE) old
    WHERE u.id = old.id
    RETURNING old.had`);
  return rows[0]?.had ?? false;
}

/** What the auth state shows of a user (and of the administrator acting as it). */
export interface AuthUserRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  company_id: number;
  two_factor_enabled: boolean;
  impersonator_username: string | null;
}

export async function findAuthUser(
  db: Queryable,
  userId: number,
  impersonatorId: number | null,
): Promise<AuthUserRow | null> {
  const { rows } = await db.query<AuthUserRow>(sql`
    SELECT u.id, u.username, u.first_name, u.last_name, u.company_id, u.otp_secret IS NOT NULL AS two_factor_enabled,
           (SELECT i.username FROM users i WHERE i.id = ${impersonatorId}) AS impersonator_username
    FROM users u WHERE u.id = ${userId}`);
  return rows[0] ?? null;
}

/** Whether a user may make a personal API key: superusers, and users granted the privilege by name. */
export async function mayCreateApiToken(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ allowed: boolean }>(sql`
    SELECT (is_superuser OR coalesce((privileged_settings ->> 'api_tokens')::boolean, false)) AS allowed
    FROM users WHERE id = ${userId}`);
  return rows[0]?.allowed === true;
}
