import type { Database } from '../../db/database';
import { sql } from '../../db/sql';
import type { RevocationEpoch } from './identity-cache';

/**
 * The revocation epoch of a PostgreSQL server database: the sequence `auth_epoch`, moved on with
 * `nextval` by every change that may revoke (a sequence takes no row lock and leaves no dead rows,
 * and its value is seen by every session at once) and read by every use of a cached credential.
 * Null for an embedded database, which belongs to one process.
 */
export function revocationEpochOf(db: Database): RevocationEpoch | null {
  if (db.kind !== 'server') return null;
  return {
    async read() {
      const { rows } = await db.query<{ epoch: number }>(
        sql`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS epoch FROM auth_epoch`,
      );
      return Number(rows[0]?.epoch ?? 0);
    },
    async bump() {
      const { rows } = await db.query<{ epoch: number }>(sql`SELECT nextval('auth_epoch') AS epoch`);
      return Number(rows[0]!.epoch);
    },
  };
}
