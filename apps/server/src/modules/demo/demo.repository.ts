import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { CUSTOMERS, PROVIDER_ACCOUNTS } from './scenario';

/** Whether the database holds no customer company and no ingested events yet (a fresh installation). */
export async function isEmptyInstallation(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ busy: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM companies WHERE kind = 'customer')
        OR EXISTS (SELECT 1 FROM ingest_batches) AS busy`);
  return !rows[0]?.busy;
}

/** What of the demo exists already: company names and usernames it would create. */
export async function existingDemoObjects(db: Queryable): Promise<string[]> {
  const names = CUSTOMERS.map((c) => c.name.toLowerCase());
  const usernames = [...PROVIDER_ACCOUNTS, ...CUSTOMERS.flatMap((c) => c.accounts)].map((a) =>
    a.username.toLowerCase(),
  );
  const { rows } = await db.query<{ what: string }>(sql`
    SELECT 'company "' || name || '"' AS what FROM companies WHERE lower(name) = ANY(${names}::text[])
    UNION ALL
    SELECT 'user "' || username || '"' FROM users WHERE lower(username) = ANY(${usernames}::text[])`);
  return rows.map((r) => r.what);
}

/** The provider company and its first active superuser, who sets the demo up. */
export async function providerAdministrator(
  db: Queryable,
): Promise<{ companyId: number; userId: number; username: string } | null> {
  const { rows } = await db.query<{ company_id: number; id: number; username: string }>(sql`
    SELECT u.company_id, u.id, u.username FROM users u JOIN companies c ON c.id = u.company_id
    WHERE c.kind = 'provider' AND u.is_superuser AND u.archived_at IS NULL
    ORDER BY u.id LIMIT 1`);
  const row = rows[0];
  return row ? { companyId: Number(row.company_id), userId: Number(row.id), username: row.username } : null;
}

/** Jobs of these kinds not finished yet (retro-hunts queued by indicators, YARA scans by new files). */
export async function pendingJobs(db: Queryable, kinds: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql`
    SELECT count(*)::int4 AS n FROM jobs WHERE kind = ANY(${kinds}::text[]) AND status IN ('pending', 'running')`);
  return Number(rows[0]?.n ?? 0);
}
