import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

// Lock-out after repeated failed sign-ins: per account (users.failed_logins / locked_until) and
// per network address (auth_failures).

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

/** Window of the per-address limit on failed sign-ins. */
export const IP_FAILURE_WINDOW_MINUTES = 15;

/** Failed sign-ins from an address within the window. */
export async function recentIpFailures(db: Queryable, ip: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql`
    SELECT count(*)::int8 AS n FROM auth_failures
    WHERE ip = ${ip} AND at > now() - make_interval(mins => ${IP_FAILURE_WINDOW_MINUTES})`);
  return Number(rows[0]?.n ?? 0);
}

/** Notes a failed sign-in from an address and forgets those too old to count. */
export async function recordIpFailure(db: Queryable, ip: string): Promise<void> {
  await db.query(sql`INSERT INTO auth_failures (ip) VALUES (${ip})`);
  await db.query(
    sql`DELETE FROM auth_failures WHERE at < now() - make_interval(mins => ${IP_FAILURE_WINDOW_MINUTES * 4})`,
  );
}
