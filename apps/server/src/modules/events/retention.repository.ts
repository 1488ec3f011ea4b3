import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { EventTable } from '../ingest/ingest.service';

/** Each company and how many days it keeps its data. */
export async function companyRetentions(db: Queryable): Promise<{ id: number; retention_days: number }[]> {
  const { rows } = await db.query<{ id: number; retention_days: number }>(
    sql`SELECT id, retention_days FROM companies ORDER BY id`,
  );
  return rows;
}

/** The monthly partitions of an event table (`<table>_pYYYYMM`). */
export async function monthlyPartitions(db: Queryable, table: EventTable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(sql`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = ${table} AND c.relname ~ ${`^${table}_p[0-9]{6}$`}`);
  return rows.map((r) => r.name);
}
