import { companyFiltersSchema, type Company, type CompanyCreate, type CompanyUpdate } from '@vigil/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface CompanyRow {
  id: number;
  name: string;
  kind: Company['kind'];
  label_name: string | null;
  description: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export function toCompany(row: CompanyRow): Company {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

const columns = sql`c.id, c.name, c.kind, c.label_name, c.description, c.is_active, c.created_at, c.updated_at`;

type CompanyFilters = z.infer<typeof companyFiltersSchema>;
const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Companies as a list resource; a caller sees the companies in its scope. */
export const companyList: ListResource<CompanyRow, CompanyFilters, Company> = {
  from: sql`companies c`,
  select: columns,
  tenantColumn: sql`c.id`,
  idField: { expr: sql`c.id`, type: 'int8' },
  filtersSchema: companyFiltersSchema,
  filters: {
    search: filter.search(sql`c.name`, sql`c.label_name`, sql`c.description`),
    kind: (v) => filter.in<string>(sql`c.kind`, 'text')(list(v)),
    is_active: filter.eq<boolean>(sql`c.is_active`),
    id: (v) => filter.in<number>(sql`c.id`, 'int8')(list(v)),
  },
  orderings: {
    name: { expr: sql`lower(c.name)`, type: 'text' },
    created_at: { expr: sql`c.created_at`, type: 'timestamptz' },
    kind: { expr: sql`c.kind`, type: 'text' },
    id: { expr: sql`c.id`, type: 'int8' },
  },
  defaultOrdering: ['name'],
  toItem: toCompany,
};

/** One company in scope, or null (another tenant's company does not exist for the caller). */
export async function findCompany(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<CompanyRow | null> {
  const { rows } = await db.query<CompanyRow>(
    sql`SELECT ${columns} FROM companies c WHERE c.id = ${id} AND ${tenantCondition(scope, sql`c.id`)}
        ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

export async function findCompanyByName(db: Queryable, name: string): Promise<CompanyRow | null> {
  const { rows } = await db.query<CompanyRow>(
    sql`SELECT ${columns} FROM companies c WHERE lower(c.name) = lower(${name})`,
  );
  return rows[0] ?? null;
}

export async function insertCompany(
  db: Queryable,
  input: CompanyCreate & { kind: Company['kind'] },
): Promise<CompanyRow> {
  const { rows } = await db.query<CompanyRow>(sql`
    INSERT INTO companies AS c (name, kind, label_name, description)
    VALUES (${input.name}, ${input.kind}, ${input.label_name ?? null}, ${input.description ?? ''})
    RETURNING ${columns}`);
  return rows[0] as CompanyRow;
}

export async function updateCompany(db: Queryable, id: number, patch: CompanyUpdate): Promise<CompanyRow> {
  const sets = [sql`updated_at = now()`];
  if (patch.name !== undefined) sets.push(sql`name = ${patch.name}`);
  if (patch.label_name !== undefined) sets.push(sql`label_name = ${patch.label_name}`);
  if (patch.description !== undefined) sets.push(sql`description = ${patch.description}`);
  if (patch.is_active !== undefined) sets.push(sql`is_active = ${patch.is_active}`);
  const { rows } = await db.query<CompanyRow>(
    sql`UPDATE companies AS c SET ${sql.join(sets)} WHERE c.id = ${id} RETURNING ${columns}`,
  );
  return rows[0] as CompanyRow;
}

export async function providerCompany(db: Queryable): Promise<CompanyRow | null> {
  const { rows } = await db.query<CompanyRow>(sql`SELECT ${columns} FROM companies c WHERE c.kind = 'provider'`);
  return rows[0] ?? null;
}
