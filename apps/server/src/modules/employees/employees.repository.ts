import { employeeFiltersSchema, type Employee } from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { containsText, filter, type ListResource } from '../../list/list-engine';
import { accountCandidates } from './employee-accounts';

export interface EmployeeRow {
  id: number;
  company_id: number;
  full_name: string;
  emails: string[];
  accounts: string[];
  department: string;
  title: string;
  manager_id: number | null;
  manager_name: string | null;
  phone: string;
  unit_id: number | null;
  unit_name: string | null;
  distinguished_name: string | null;
  asset_count: number;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const toEmployee = (row: EmployeeRow): Employee => ({
  ...row,
  id: Number(row.id),
  company_id: Number(row.company_id),
  manager_id: row.manager_id === null ? null : Number(row.manager_id),
  unit_id: row.unit_id === null ? null : Number(row.unit_id),
  asset_count: Number(row.asset_count),
  archived: row.archived_at !== null,
  archived_at: row.archived_at === null ? null : row.archived_at.toISOString(),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const from = sql`employees e
  LEFT JOIN employees m ON m.id = e.manager_id
  LEFT JOIN units n ON n.id = e.unit_id`;
const columns = sql`e.id, e.company_id, e.full_name, e.emails, e.accounts, e.department, e.title,
  e.manager_id, m.full_name AS manager_name, e.phone, e.unit_id, n.name AS unit_name, e.distinguished_name,
  (SELECT count(*) FROM assets a WHERE a.owner_employee_id = e.id AND a.archived_at IS NULL)::int4 AS asset_count,
  e.archived_at, e.created_at, e.updated_at`;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Employees of the companies in scope: current ones by default, `archived: true` for the archive. */
export const employeeList: ListResource<EmployeeRow, z.infer<typeof employeeFiltersSchema>, Employee> = {
  from,
  select: columns,
  tenantColumn: sql`e.company_id`,
  idField: { expr: sql`e.id`, type: 'int8' },
  filtersSchema: employeeFiltersSchema,
  filters: {
    search: (v) =>
      sql.or([
        containsText(sql`e.full_name`, v),
        containsText(sql`e.department`, v),
        containsText(sql`e.title`, v),
        containsText(sql`array_to_string(e.emails, ' ')`, v),
        containsText(sql`array_to_string(e.accounts, ' ')`, v),
      ]),
    company_id: (v) => filter.in<number>(sql`e.company_id`, 'int8')(list(v)),
    department: (v) => {
      const names = list(v).map((d) => d.toLowerCase());
      return sql`lower(e.department) = ANY(${names}::text[])`;
    },
    unit_id: (v) => filter.in<number>(sql`e.unit_id`, 'int8')(list(v)),
    manager_id: (v) => filter.in<number>(sql`e.manager_id`, 'int8')(list(v)),
    account: (v) => sql`e.accounts @> ARRAY[${v}::text]`,
    email: (v) => sql`e.emails @> ARRAY[${v}::text]`,
    archived: (v) => (v ? sql`e.archived_at IS NOT NULL` : sql`e.archived_at IS NULL`),
    id: (v) => filter.in<number>(sql`e.id`, 'int8')(list(v)),
  },
  orderings: {
    full_name: { expr: sql`lower(e.full_name)`, type: 'text' },
    department: { expr: sql`lower(e.department)`, type: 'text' },
    created_at: { expr: sql`e.created_at`, type: 'timestamptz' },
    updated_at: { expr: sql`e.updated_at`, type: 'timestamptz' },
    id: { expr: sql`e.id`, type: 'int8' },
  },
  defaultOrdering: ['full_name'],
  defaultFilters: { archived: false },
  toItem: toEmployee,
};

export async function findEmployee(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<EmployeeRow | null> {
  const { rows } = await db.query<EmployeeRow>(sql`
    SELECT ${columns} FROM ${from} WHERE e.id = ${id} AND ${tenantCondition(scope, sql`e.company_id`)}
    ${lock ? sql`FOR UPDATE OF e` : sql``}`);
  return rows[0] ?? null;
}

/** Whether an employee of the company exists (a manager must be one). */
export async function employeeInCompany(db: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rows } = await db.query(sql`SELECT 1 FROM employees WHERE id = ${id} AND company_id = ${companyId}`);
  return rows.length > 0;
}

/** Whether `managerId` reports, directly or not, to `employeeId` (so making it the manager would loop). */
export async function reportsTo(db: Queryable, managerId: number, employeeId: number): Promise<boolean> {
  const { rows } = await db.query(sql`
    WITH RECURSIVE chain(id, depth) AS (
      SELECT ${managerId}::int8, 0
      UNION ALL
      SELECT e.manager_id, c.depth + 1 FROM chain c JOIN employees e ON e.id = c.id
      WHERE e.manager_id IS NOT NULL AND c.depth < 1000
    )
    SELECT 1 FROM chain WHERE id = ${employeeId}::int8 LIMIT 1`);
  return rows.length > 0;
}

export async function unitInCompany(db: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rows } = await db.query(sql`SELECT 1 FROM units WHERE id = ${id} AND company_id = ${companyId}`);
  return rows.length > 0;
}

export interface EmployeeFields {
  full_name: string;
  emails: string[];
  accounts: string[];
  department: string;
  title: string;
  manager_id: number | null;
  phone: string;
  unit_id: number | null;
}

export async function insertEmployee(db: Queryable, companyId: number, e: EmployeeFields): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO employees (company_id, full_name, emails, accounts, department, title, manager_id, phone, unit_id)
    VALUES (${companyId}, ${e.full_name}, ${e.emails}::text[], ${e.accounts}::text[], ${e.department}, ${e.title},
      ${e.manager_id}, ${e.phone}, ${e.unit_id})
    RETURNING id`);
  return Number(rows[0]!.id);
}

export async function updateEmployee(db: Queryable, id: number, change: Partial<EmployeeFields>): Promise<void> {
  const sets: SqlFragment[] = [sql`updated_at = now()`];
  if (change.full_name !== undefined) sets.push(sql`full_name = ${change.full_name}`);
  if (change.emails !== undefined) sets.push(sql`emails = ${change.emails}::text[]`);
  if (change.accounts !== undefined) sets.push(sql`accounts = ${change.accounts}::text[]`);
  if (change.department !== undefined) sets.push(sql`department = ${change.department}`);
  if (change.title !== undefined) sets.push(sql`title = ${change.title}`);
  if (change.manager_id !== undefined) sets.push(sql`manager_id = ${change.manager_id}`);
  if (change.phone !== undefined) sets.push(sql`phone = ${change.phone}`);
  if (change.unit_id !== undefined) sets.push(sql`unit_id = ${change.unit_id}`);
  await db.query(sql`UPDATE employees SET ${sql.join(sets)} WHERE id = ${id}`);
}

export async function setEmployeeArchived(db: Queryable, id: number, archived: boolean): Promise<void> {
  await db.query(sql`UPDATE employees SET archived_at = ${archived ? sql`now()` : sql`NULL`}, updated_at = now()
    WHERE id = ${id}`);
}

/**
 * The employee of each key (a normalised account or address) in one company, in one statement:
 * current employees before archived ones, then the lowest id. Keys nobody holds are absent.
 * `field` says which array the keys are looked up in. Other modules link events through this.
 */
export async function employeeIdsByKeys(
  db: Queryable,
  companyId: number,
  field: 'accounts' | 'emails',
  keys: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const distinct = [...new Set(keys)];
  if (distinct.length === 0) return found;
  const column = field === 'accounts' ? sql`e.accounts` : sql`e.emails`;
  const { rows } = await db.query<{ key: string; id: number }>(sql`
    SELECT k.key, best.id FROM unnest(${distinct}::text[]) AS k(key)
    CROSS JOIN LATERAL (
      SELECT e.id FROM employees e
      -- The array index finds the key's few holders and the company filters them: the company's
      -- own index ANDed in (as stale statistics may plan) would read all its employees per key.
      WHERE ${column} @> ARRAY[k.key] AND (e.company_id + 0) = ${companyId}::int8
      ORDER BY e.archived_at IS NOT NULL, e.id LIMIT 1
    ) best`);
  for (const row of rows) found.set(row.key, Number(row.id));
  return found;
}

/**
 * The employee a user name of an endpoint event (`user.name`, `user.domain`) names in a company, or
 * null: the most specific form first (`domain\name`, then a UPN, then the bare name).
 */
export async function resolveEmployeeByAccount(
  db: Queryable,
  companyId: number,
  name: string,
  domain: string | null,
): Promise<number | null> {
  const candidates = accountCandidates(name, domain);
  const found = await employeeIdsByKeys(db, companyId, 'accounts', candidates);
  for (const key of candidates) {
    const id = found.get(key);
    if (id !== undefined) return id;
  }
  return null;
}

/** The employee reading a mail address in a company, or null. */
export async function resolveEmployeeByEmail(db: Queryable, companyId: number, email: string): Promise<number | null> {
  const key = email.trim().toLowerCase();
  return (await employeeIdsByKeys(db, companyId, 'emails', [key])).get(key) ?? null;
}
