import { unitFiltersSchema, type Unit } from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface UnitRow {
  id: number;
  company_id: number;
  name: string;
  description: string;
  user_count: number;
  created_at: Date;
  updated_at: Date;
}

export const toUnit = (row: UnitRow): Unit => ({
  ...row,
  user_count: Number(row.user_count),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const columns = sql`n.id, n.company_id, n.name, n.description,
  (SELECT count(*) FROM users u WHERE u.unit_id = n.id AND u.archived_at IS NULL)::int8 AS user_count,
  n.created_at, n.updated_at`;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Units: departments inside a company that users belong to. */
export const unitList: ListResource<UnitRow, z.infer<typeof unitFiltersSchema>, Unit> = {
  from: sql`units n`,
  select: columns,
  tenantColumn: sql`n.company_id`,
  idField: { expr: sql`n.id`, type: 'int8' },
  filtersSchema: unitFiltersSchema,
  filters: {
    search: filter.search(sql`n.name`, sql`n.description`),
    company_id: (v) => filter.in<number>(sql`n.company_id`, 'int8')(list(v)),
  },
  orderings: {
    name: { expr: sql`lower(n.name)`, type: 'text' },
    created_at: { expr: sql`n.created_at`, type: 'timestamptz' },
    id: { expr: sql`n.id`, type: 'int8' },
  },
  defaultOrdering: ['name'],
  toItem: toUnit,
};

export async function findUnit(db: Queryable, scope: TenantScope, id: number, lock = false): Promise<UnitRow | null> {
  const { rows } = await db.query<UnitRow>(sql`
    SELECT ${columns} FROM units n WHERE n.id = ${id} AND ${tenantCondition(scope, sql`n.company_id`)}
    ${lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export async function unitNameTaken(db: Queryable, companyId: number, name: string, exceptId: number | null) {
  const { rows } = await db.query(sql`
    SELECT 1 FROM units WHERE company_id = ${companyId} AND lower(name) = lower(${name})
    ${exceptId === null ? sql`` : sql`AND id <> ${exceptId}`}`);
  return rows.length > 0;
}

export async function insertUnit(
  db: Queryable,
  unit: { companyId: number; name: string; description: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO units (company_id, name, description) VALUES (${unit.companyId}, ${unit.name}, ${unit.description})
    RETURNING id`);
  return Number(rows[0]!.id);
}

export async function updateUnit(db: Queryable, id: number, change: { name?: string; description?: string }) {
  const sets = [sql`updated_at = now()`];
  if (change.name !== undefined) sets.push(sql`name = ${change.name}`);
  if (change.description !== undefined) sets.push(sql`description = ${change.description}`);
  await db.query(sql`UPDATE units SET ${sql.join(sets)} WHERE id = ${id}`);
}

export async function deleteUnit(db: Queryable, id: number): Promise<void> {
  await db.query(sql`DELETE FROM units WHERE id = ${id}`);
}
