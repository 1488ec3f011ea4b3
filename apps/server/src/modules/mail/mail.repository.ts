import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';

/** A user who may receive mail, with what decides whether it does. */
export interface RecipientRow {
  id: number;
  username: string;
  email: string | null;
  first_name: string;
  last_name: string;
  company_id: number;
  archived: boolean;
  /** The user turned release notes off (mailing_setting.release_notes is false). */
  release_notes_off: boolean;
}

const recipientColumns = sql`
  u.id, u.username, u.email, u.first_name, u.last_name, u.company_id,
  u.archived_at IS NOT NULL AS archived,
  COALESCE(u.mailing_setting -> 'release_notes' = 'false'::jsonb, false) AS release_notes_off`;

/** Users with these ids that the scope can see (archived ones included), by id. */
export async function findUsersInScope(
  db: Queryable,
  scope: TenantScope,
  ids: readonly number[],
): Promise<RecipientRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<RecipientRow>(sql`
    SELECT ${recipientColumns} FROM users u
    WHERE u.id = ANY(${[...ids]}::int8[]) AND ${tenantCondition(scope, sql`u.company_id`)}
    ORDER BY u.id`);
  return rows;
}

/** Which of these company ids the scope can see. */
export async function findCompaniesInScope(
  db: Queryable,
  scope: TenantScope,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: number }>(sql`
    SELECT c.id FROM companies c
    WHERE c.id = ANY(${[...ids]}::int8[]) AND ${tenantCondition(scope, sql`c.id`)}`);
  return rows.map((row) => row.id);
}

/**
 * Users of the given companies (or of every company when `companies` is 'all'), always within the
 * scope, archived ones included; `activeCompaniesOnly` leaves out companies that were deactivated.
 */
export async function usersOfCompanies(
  db: Queryable,
  scope: TenantScope,
  companies: readonly number[] | 'all',
  options: { activeCompaniesOnly?: boolean } = {},
): Promise<RecipientRow[]> {
  const conditions: SqlFragment[] = [tenantCondition(scope, sql`u.company_id`)];
  conditions.push(tenantCondition({ companies }, sql`u.company_id`));
  if (options.activeCompaniesOnly) conditions.push(sql`c.is_active`);
  const { rows } = await db.query<RecipientRow>(sql`
    SELECT ${recipientColumns} FROM users u JOIN companies c ON c.id = u.company_id
    WHERE ${sql.and(conditions)}
    ORDER BY u.id`);
  return rows;
}
