import { sql, type SqlFragment } from '../db/sql';

/**
 * The companies a caller may see. Every query on tenant data goes through `tenantCondition`,
 * so the rule lives in one place below the route handlers.
 */
export interface TenantScope {
  /** `all` for provider staff granted every company; otherwise the visible company ids. */
  readonly companies: 'all' | readonly number[];
}

/** SQL condition that keeps only the rows of companies in scope. */
export function tenantCondition(scope: TenantScope, column: SqlFragment): SqlFragment {
  if (scope.companies === 'all') return sql`TRUE`;
  if (scope.companies.length === 0) return sql`FALSE`;
  // One company is a plain equality so the planner can walk (company_id, …) indexes in order.
  if (scope.companies.length === 1) return sql`${column} = ${scope.companies[0]}::int8`;
  return sql`${column} = ANY(${[...scope.companies]}::int8[])`;
}

/** Whether one company is visible in the scope. */
export function inScope(scope: TenantScope, companyId: number): boolean {
  return scope.companies === 'all' || scope.companies.includes(companyId);
}

/** Whether the scope covers every company (provider staff granted all of them). */
export function seesAllCompanies(scope: TenantScope): boolean {
  return scope.companies === 'all';
}

/** The company ids of a scope that does not cover every company; null when it covers all. */
export function scopeCompanyIds(scope: TenantScope): readonly number[] | null {
  return scope.companies === 'all' ? null : scope.companies;
}
