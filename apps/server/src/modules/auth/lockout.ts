import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

// Lock-out after repeated failed sign-ins per network address (auth_failures). The per-account
// lock-out (users.failed_logins / locked_until) is written by the users module.

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
