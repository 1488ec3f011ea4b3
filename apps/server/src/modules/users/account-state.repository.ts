import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

// A user's sign-in state as other modules change it: two-factor, password and API key (auth),
// lock-out after failed sign-ins (auth), the link to a single sign-on identity and users made at
// a first single sign-on (sso), a key that lives only while the demo loader runs (demo). Each
// takes the caller's transaction; the caller writes the audit record.

// ── Two-factor ──────────────────────────────────────────────────────────────────────────────

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

// ── Password and API key ────────────────────────────────────────────────────────────────────

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

/** A user's API key as stored: its hash and when it was made. */
export interface StoredApiToken {
  token_hash: string | null;
  token_created_at: Date | null;
}

export async function storedApiToken(db: Queryable, userId: number): Promise<StoredApiToken | null> {
  const { rows } = await db.query<StoredApiToken>(
    sql`SELECT token_hash, token_created_at FROM users WHERE id = ${userId}`,
  );
  return rows[0] ?? null;
}

/** Gives the user a key for a while, leaving the record's change time alone (the demo loader). */
export async function putTemporaryApiToken(db: Queryable, userId: number, tokenHash: string): Promise<void> {
  await db.query(sql`UPDATE users SET token_hash = ${tokenHash}, token_created_at = now() WHERE id = ${userId}`);
}

/** Puts back the key a user had before a temporary one. */
export async function restoreApiToken(db: Queryable, userId: number, previous: StoredApiToken): Promise<void> {
  await db.query(sql`
      UPDATE users SET token_hash = ${previous.token_hash}, token_created_at = ${previous.token_created_at}
      WHERE id = ${userId}`);
}

// ── Lock-out after repeated failed sign-ins (per account) ───────────────────────────────────

/**
 * Counts one more consecutive failure; at `maxFailures` the account locks for `lockoutMinutes`
 * and the counter starts again. Answers whether this failure locked it.
 */
export async function recordLoginFailure(
  db: Queryable,
  userId: number,
  maxFailures: number,
  lockoutMinutes: number,
): Promise<{ lockedNow: boolean }> {
  const { rows } = await db.query<{ locks: boolean }>(sql`
    UPDATE users u SET
      failed_logins = CASE WHEN old.locks THEN 0 ELSE old.failed_logins + 1 END,
      locked_until = CASE WHEN old.locks THEN now() + make_interval(mins => ${lockoutMinutes}) ELSE u.locked_until END
    FROM (SELECT id, failed_logins, failed_logins + 1 >= ${maxFailures} AS locks
          FROM users WHERE id = ${userId} FOR UPDATE) old
    WHERE u.id = old.id
    RETURNING old.locks`);
  return { lockedNow: rows[0]?.locks ?? false };
}

/** A successful sign-in: failures forgotten, time noted. */
export async function recordLoginSuccess(db: Queryable, userId: number): Promise<void> {
  await db.query(
    sql`UPDATE users SET failed_logins = 0, locked_until = NULL, last_login_at = now() WHERE id = ${userId}`,
  );
}

/**
 * Clears a lock-out and the failure count (administrators, `vigil user unlock`). Answers whether
 * the account was locked. The caller writes the audit record in the same transaction.
 */
export async function unlockUser(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ was_locked: boolean }>(sql`
    UPDATE users u SET failed_logins = 0, locked_until = NULL
    FROM (SELECT id, COALESCE(locked_until > now(), false) AS was_locked FROM users WHERE id = ${userId} FOR UPDATE) old
    WHERE u.id = old.id
    RETURNING old.was_locked`);
  return rows[0]?.was_locked ?? false;
}

// ── Single sign-on ──────────────────────────────────────────────────────────────────────────

/** What single sign-on needs to know of a user. */
export interface SsoUserRow {
  id: number;
  username: string;
  email: string | null;
  company_id: number;
  sso_subject: string | null;
  archived: boolean;
}

/** The columns of an SsoUserRow, of the user aliased `u`. */
export const ssoUserColumns = sql`u.id, u.username, u.email, u.company_id, u.sso_subject, u.archived_at IS NOT NULL AS archived`;

/** Removes every provider link of a company's users (its provider changed); returns how many. */
export async function unlinkCompanyUsers(db: Queryable, companyId: number): Promise<number> {
  const { rowCount } = await db.query(
    sql`UPDATE users SET sso_subject = NULL, updated_at = now() WHERE company_id = ${companyId} AND sso_subject IS NOT NULL`,
  );
  return rowCount;
}

export async function linkSubject(db: Queryable, userId: number, subject: string): Promise<void> {
  await db.query(sql`UPDATE users SET sso_subject = ${subject}, updated_at = now() WHERE id = ${userId}`);
}

export async function unlinkUser(db: Queryable, userId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    sql`UPDATE users SET sso_subject = NULL, updated_at = now() WHERE id = ${userId} AND sso_subject IS NOT NULL`,
  );
  return rowCount > 0;
}

/** Creates a user who signs in through the provider only (no password), with an optional role. */
export async function insertSsoUser(
  db: Queryable,
  user: {
    companyId: number;
    username: string;
    email: string;
    firstName: string;
    lastName: string;
    subject: string;
    roleId: number | null;
  },
): Promise<SsoUserRow> {
  const { rows } = await db.query<SsoUserRow>(sql`
    INSERT INTO users AS u (company_id, username, email, first_name, last_name, sso_subject)
    VALUES (${user.companyId}, ${user.username}, ${user.email}, ${user.firstName}, ${user.lastName}, ${user.subject})
    RETURNING ${ssoUserColumns}`);
  const created = rows[0] as SsoUserRow;
  if (user.roleId !== null) {
    await db.query(sql`
      INSERT INTO user_roles (user_id, role_id)
      SELECT ${created.id}, r.id FROM roles r WHERE r.id = ${user.roleId} AND r.company_id = ${user.companyId}`);
  }
  return created;
}
