import type { Database } from '../../src/db/database';
import { sql } from '../../src/db/sql';

export type Errors = { errors: Record<string, string[]> };
export type Detail = { detail: string; code?: string };

/** Audit actions recorded about a user, oldest first. */
export async function auditActions(db: Database, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ action: string }>(
    sql`SELECT action FROM system_logs WHERE object_type = 'user' AND object_id = ${String(userId)} ORDER BY id`,
  );
  return rows.map((r) => r.action);
}

/** Columns of one user row, read straight from the database. */
export async function userRow<T = Record<string, unknown>>(db: Database, userId: number): Promise<T> {
  const { rows } = await db.query<T>(sql`SELECT * FROM users WHERE id = ${userId}`);
  return rows[0]!;
}
