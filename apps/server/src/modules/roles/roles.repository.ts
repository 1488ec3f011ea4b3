import { roleFiltersSchema, type Permission, type Role } from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface RoleRow {
  id: number;
  company_id: number;
  name: string;
  description: string;
  permissions: Permission[];
  user_count: number;
  created_at: Date;
  updated_at: Date;
}

export const toRole = (row: RoleRow): Role => ({
  ...row,
  user_count: Number(row.user_count),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const columns = sql`r.id, r.company_id, r.name, r.description, r.permissions,
  (SELECT count(*) FROM user_roles ur JOIN users u ON u.id = ur.user_id WHERE ur.role_id = r.id AND u.archived_at IS NULL)::int8 AS user_count,
  r.created_at, r.updated_at`;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

export const roleList: ListResource<RoleRow, z.infer<typeof roleFiltersSchema>, Role> = {
  from: sql`roles r`,
  select: columns,
  tenantColumn: sql`r.company_id`,
  idField: { expr: sql`r.id`, type: 'int8' },
  filtersSchema: roleFiltersSchema,
  filters: {
    search: filter.search(sql`r.name`, sql`r.description`),
    company_id: (v) => filter.in<number>(sql`r.company_id`, 'int8')(list(v)),
  },
  orderings: {
    name: { expr: sql`lower(r.name)`, type: 'text' },
    created_at: { expr: sql`r.created_at`, type: 'timestamptz' },
    id: { expr: sql`r.id`, type: 'int8' },
  },
  defaultOrdering: ['name'],
  toItem: toRole,
};

export async function findRole(db: Queryable, scope: TenantScope, id: number, lock = false): Promise<RoleRow | null> {
  const { rows } = await db.query<RoleRow>(sql`
    SELECT ${columns} FROM roles r WHERE r.id = ${id} AND ${tenantCondition(scope, sql`r.company_id`)}
    ${lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export async function findRolesByIds(db: Queryable, scope: TenantScope, ids: readonly number[]): Promise<RoleRow[]> {
  const { rows } = await db.query<RoleRow>(sql`
    SELECT ${columns} FROM roles r WHERE r.id = ANY(${[...ids]}::int8[]) AND ${tenantCondition(scope, sql`r.company_id`)}`);
  return rows;
}

export async function roleNameTaken(db: Queryable, companyId: number, name: string, exceptId: number | null) {
  const { rows } = await db.query(sql`
    SELECT 1 FROM roles WHERE company_id = ${companyId} AND lower(name) = lower(${name})
    ${exceptId === null ? sql`` : sql`AND id <> ${exceptId}`}`);
  return rows.length > 0;
}

export async function insertRole(
  db: Queryable,
  values: { company_id: number; name: string; description: string; permissions: Permission[] },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO roles (company_id, name, description, permissions)
    VALUES (${values.company_id}, ${values.name}, ${values.description}, ${JSON.stringify(values.permissions)}::jsonb)
    RETURNING id`);
  return rows[0]!.id;
}

export async function updateRoleRow(
  db: Queryable,
  id: number,
  values: { name?: string; description?: string; permissions?: Permission[] },
): Promise<void> {
  const sets = [sql`updated_at = now()`];
  if (values.name !== undefined) sets.push(sql`name = ${values.name}`);
  if (values.description !== undefined) sets.push(sql`description = ${values.description}`);
  if (values.permissions !== undefined) sets.push(sql`permissions = ${JSON.stringify(values.permissions)}::jsonb`);
  await db.query(sql`UPDATE roles SET ${sql.join(sets)} WHERE id = ${id}`);
}

/** A company's role by name, case-insensitively. */
export async function findRoleByName(db: Queryable, companyId: number, name: string): Promise<{ id: number } | null> {
  const { rows } = await db.query<{ id: number }>(
    sql`SELECT id FROM roles WHERE company_id = ${companyId} AND lower(name) = lower(${name})`,
  );
  return rows[0] ?? null;
}

export async function deleteRole(db: Queryable, id: number): Promise<void> {
  await db.query(sql`DELETE FROM roles WHERE id = ${id}`);
}
