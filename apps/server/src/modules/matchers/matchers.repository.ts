import {
  committedActionFiltersSchema,
  matcherFiltersSchema,
  type CommittedAction,
  type CommittedActionFilters,
  type Matcher,
  type MatcherFilters,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface MatcherRow {
  id: number;
  company_id: number;
  name: string;
  enabled: boolean;
  all_companies: boolean;
  position: number;
  conditions: Matcher['conditions'];
  actions: Matcher['actions'];
  created_at: Date;
  updated_at: Date;
}

const columns = sql`m.id, m.company_id, m.name, m.enabled, m.all_companies, m.position, m.conditions, m.actions,
  m.created_at, m.updated_at`;

export const toMatcher = (row: MatcherRow): Matcher => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

export const matcherList: ListResource<MatcherRow, MatcherFilters, Matcher> = {
  from: sql`matchers m`,
  select: columns,
  tenantColumn: sql`m.company_id`,
  idField: { expr: sql`m.id`, type: 'int8' },
  filtersSchema: matcherFiltersSchema,
  filters: {
    search: filter.search(sql`m.name`),
    enabled: filter.eq<boolean>(sql`m.enabled`),
    company_id: (v) => filter.in<number>(sql`m.company_id`, 'int8')(list(v)),
  },
  orderings: {
    position: { expr: sql`m.position`, type: 'int4' },
    name: { expr: sql`lower(m.name)`, type: 'text' },
    created_at: { expr: sql`m.created_at`, type: 'timestamptz' },
    id: { expr: sql`m.id`, type: 'int8' },
  },
  defaultOrdering: ['position'],
  toItem: toMatcher,
};

interface ActionRow {
  id: number;
  company_id: number;
  matcher_id: number;
  matcher_name: string | null;
  alert_id: number;
  alert_title: string | null;
  action: string;
  params: Record<string, unknown>;
  outcome: CommittedAction['outcome'];
  reason: string | null;
  job_id: number | null;
  created_at: Date;
}

/** Committed actions, newest first, with the matcher and alert they belong to. */
export const committedActionList: ListResource<ActionRow, CommittedActionFilters, CommittedAction> = {
  from: sql`matcher_actions x
    LEFT JOIN matchers mm ON mm.id = x.matcher_id
    LEFT JOIN alerts aa ON aa.company_id = x.company_id AND aa.id = x.alert_id`,
  select: sql`x.id, x.company_id, x.matcher_id, mm.name AS matcher_name, x.alert_id, aa.title AS alert_title, x.action,
    x.params, x.outcome, x.reason, x.job_id, x.created_at`,
  tenantColumn: sql`x.company_id`,
  idField: { expr: sql`x.id`, type: 'int8' },
  filtersSchema: committedActionFiltersSchema,
  filters: {
    matcher_id: (v) => filter.in<number>(sql`x.matcher_id`, 'int8')(list(v)),
    alert_id: (v) => filter.in<number>(sql`x.alert_id`, 'int8')(list(v)),
    action: (v) => filter.in<string>(sql`x.action`, 'text')(list(v)),
    company_id: (v) => filter.in<number>(sql`x.company_id`, 'int8')(list(v)),
  },
  orderings: {
    created_at: { expr: sql`x.created_at`, type: 'timestamptz' },
    id: { expr: sql`x.id`, type: 'int8' },
  },
  defaultOrdering: ['-created_at'],
  toItem: (row) => ({ ...row, created_at: row.created_at.toISOString() }),
};

export async function findMatcher(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<MatcherRow | null> {
  const { rows } = await db.query<MatcherRow>(
    sql`SELECT ${columns} FROM matchers m WHERE m.id = ${id} AND ${tenantCondition(scope, sql`m.company_id`)}
        ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

export interface MatcherValues {
  name: string;
  enabled: boolean;
  all_companies: boolean;
  position: number;
  conditions: Matcher['conditions'];
  actions: Matcher['actions'];
}

export async function insertMatcher(db: Queryable, companyId: number, v: MatcherValues): Promise<MatcherRow> {
  const { rows } = await db.query<MatcherRow>(sql`
    INSERT INTO matchers AS m (company_id, name, enabled, all_companies, position, conditions, actions)
    VALUES (${companyId}, ${v.name}, ${v.enabled}, ${v.all_companies}, ${v.position},
            ${JSON.stringify(v.conditions)}::jsonb, ${JSON.stringify(v.actions)}::jsonb)
    RETURNING ${columns}`);
  return rows[0] as MatcherRow;
}

export async function updateMatcher(db: Queryable, row: MatcherRow, v: MatcherValues): Promise<MatcherRow> {
  const { rows } = await db.query<MatcherRow>(sql`
    UPDATE matchers AS m SET name = ${v.name}, enabled = ${v.enabled}, all_companies = ${v.all_companies},
      position = ${v.position}, conditions = ${JSON.stringify(v.conditions)}::jsonb,
      actions = ${JSON.stringify(v.actions)}::jsonb, updated_at = now()
    WHERE m.company_id = ${row.company_id} AND m.id = ${row.id}
    RETURNING ${columns}`);
  return rows[0] as MatcherRow;
}

export async function deleteMatcher(db: Queryable, row: MatcherRow): Promise<void> {
  await db.query(sql`DELETE FROM matchers WHERE company_id = ${row.company_id} AND id = ${row.id}`);
}
