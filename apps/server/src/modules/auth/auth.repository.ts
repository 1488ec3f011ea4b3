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
