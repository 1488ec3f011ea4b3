import { ruleFiltersSchema, type Rule, type RuleFilters, type RuleKind, type RuleScope } from '@vigil/contract';
import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';
import type { AlertSeverity } from '../pipeline/detections';
import type { RuleCandidate } from './store/rule-candidates';

export interface RuleRow {
  id: number;
  company_id: number;
  kind: RuleKind;
  scope: RuleScope;
  rule_key: string;
  revision: number;
  title: string;
  description: string;
  level: AlertSeverity;
  tags: string[];
  techniques: string[];
  author: string;
  licence: string;
  file_name: string;
  enabled: boolean;
  effective_enabled: boolean;
  unsupported: string | null;
  hits_30d: string | number;
  last_hit_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RuleFullRow extends RuleRow {
  references: string[];
  details: Record<string, unknown>;
  source: string;
  source_sha256: string;
}

/** Who reads: what they may see, and the company whose effective state they are shown. */
export interface RuleViewer {
  scope: TenantScope;
  companyId: number;
}

/** Rules a caller sees: those of its companies and every rule for all companies. */
export function ruleVisible(scope: TenantScope): SqlFragment {
  return sql`(r.scope = 'all' OR ${tenantCondition(scope, sql`r.company_id`)})`;
}

/**
 * Whether a rule runs for a company: on, supported, and — for a rule for all companies — not
 * turned off for that company.
 */
function effectiveFor(companyId: number): SqlFragment {
  return sql`(r.enabled AND r.unsupported IS NULL AND (r.scope = 'company' OR coalesce((
    SELECT s.enabled FROM rule_company_settings s WHERE s.rule_id = r.id AND s.company_id = ${companyId}::int8), true)))`;
}

const baseColumns = sql`r.id, r.company_id, r.kind, r.scope, r.rule_key, r.revision, r.title, r.description, r.level,
  r.tags, r.techniques, r.author, r.licence, r.file_name, r.enabled, r.unsupported, r.created_at, r.updated_at`;

/** Days of hits a rule's list row and detail count. */
export const HIT_DAYS = 30;

/** Hits of the rule in the viewer's companies over the last HIT_DAYS days, and the last one (any time). */
const hitColumns = (scope: TenantScope) => sql`
  (SELECT coalesce(sum(h.hits), 0) FROM rule_hits h WHERE h.rule_id = r.id
     AND h.day >= (now() AT TIME ZONE 'UTC')::date - ${HIT_DAYS - 1}::int4
     AND ${tenantCondition(scope, sql`h.company_id`)}) AS hits_30d,
  (SELECT max(h.last_hit_at) FROM rule_hits h WHERE h.rule_id = r.id
     AND ${tenantCondition(scope, sql`h.company_id`)}) AS last_hit_at`;

const columnsFor = (viewer: RuleViewer) =>
  sql`${baseColumns}, ${effectiveFor(viewer.companyId)} AS effective_enabled, ${hitColumns(viewer.scope)}`;
const fullColumnsFor = (viewer: RuleViewer) =>
  sql`${columnsFor(viewer)}, r."references", r.details, r.source, r.source_sha256`;

export const toRule = (row: RuleRow): Rule => ({
  id: Number(row.id),
  company_id: Number(row.company_id),
  kind: row.kind,
  scope: row.scope,
  rule_key: row.rule_key,
  revision: Number(row.revision),
  title: row.title,
  description: row.description,
  level: row.level,
  tags: row.tags,
  techniques: row.techniques,
  author: row.author,
  licence: row.licence,
  file_name: row.file_name,
  enabled: row.enabled,
  effective_enabled: row.effective_enabled,
  unsupported: row.unsupported,
  hits_30d: Number(row.hits_30d),
  last_hit_at: row.last_hit_at ? new Date(row.last_hit_at).toISOString() : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** ATT&CK ids: a technique also matches its sub-techniques (T1059 finds T1059.001). */
function techniqueCondition(ids: string[]): SqlFragment {
  const upper = ids.map((id) => id.toUpperCase());
  return sql`(r.techniques && ${upper}::text[] OR EXISTS (
    SELECT 1 FROM unnest(r.techniques) t WHERE split_part(t, '.', 1) = ANY(${upper}::text[])))`;
}

/** Conditions of the list filters (shared by the list, the count and the bulk change by filter). */
function ruleFilters(viewer: RuleViewer): ListResource<RuleRow, RuleFilters, Rule>['filters'] {
  return {
    search: filter.search(sql`r.title`, sql`r.description`, sql`r.rule_key`, sql`r.file_name`, sql`r.source`),
    enabled: (v) => (v ? effectiveFor(viewer.companyId) : sql`NOT ${effectiveFor(viewer.companyId)}`),
    unsupported: (v) => (v ? sql`r.unsupported IS NOT NULL` : sql`r.unsupported IS NULL`),
    technique: (v) => techniqueCondition(list(v)),
    level: (v) => filter.in<string>(sql`r.level`, 'text')(list(v)),
    tag: (v) => sql`r.tags && ${list(v)}::text[]`,
    author: (v) => filter.in<string>(sql`r.author`, 'text')(list(v)),
    file_name: (v) => filter.in<string>(sql`r.file_name`, 'text')(list(v)),
    scope: (v) => sql`r.scope = ${v}`,
    company_id: (v) => filter.in<number>(sql`r.company_id`, 'int8')(list(v)),
  };
}

/** The rules of one kind as the list engine reads them for a viewer. */
export function ruleList(kind: RuleKind, viewer: RuleViewer): ListResource<RuleRow, RuleFilters, Rule> {
  return {
    from: sql`rules r`,
    select: columnsFor(viewer),
    baseCondition: sql`r.kind = ${kind} AND ${ruleVisible(viewer.scope)}`,
    idField: { expr: sql`r.id`, type: 'int8' },
    filtersSchema: ruleFiltersSchema,
    filters: ruleFilters(viewer),
    orderings: {
      updated_at: { expr: sql`r.updated_at`, type: 'timestamptz' },
      created_at: { expr: sql`r.created_at`, type: 'timestamptz' },
      title: { expr: sql`r.title`, type: 'text' },
      rule_key: { expr: sql`r.rule_key`, type: 'text' },
      level: {
        expr: sql`(CASE r.level WHEN 'info' THEN 0 WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 ELSE 4 END)`,
        type: 'int4',
      },
      id: { expr: sql`r.id`, type: 'int8' },
    },
    defaultOrdering: ['-updated_at'],
    toItem: toRule,
  };
}

export async function findRule(
  db: Queryable,
  kind: RuleKind,
  viewer: RuleViewer,
  id: number,
  lock = false,
): Promise<RuleFullRow | null> {
  const { rows } = await db.query<RuleFullRow>(sql`
    SELECT ${fullColumnsFor(viewer)} FROM rules r
    WHERE r.id = ${id} AND r.kind = ${kind} AND ${ruleVisible(viewer.scope)} ${lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export interface RuleRevisionRow {
  revision: number;
  changed_at: Date;
  changed_by: string | null;
}

export async function ruleRevisions(db: Queryable, ruleId: number): Promise<RuleRevisionRow[]> {
  const { rows } = await db.query<RuleRevisionRow>(sql`
    SELECT v.revision, v.changed_at, u.username AS changed_by
    FROM rule_revisions v LEFT JOIN users u ON u.id = v.changed_by
    WHERE v.rule_id = ${ruleId} ORDER BY v.revision`);
  return rows;
}

export async function revisionSource(db: Queryable, ruleId: number, revision: number): Promise<string | null> {
  const { rows } = await db.query<{ source: string }>(
    sql`SELECT source FROM rule_revisions WHERE rule_id = ${ruleId} AND revision = ${revision}`,
  );
  return rows[0]?.source ?? null;
}

/** Deletes a rule; its revisions, company switches, hit counts and YARA matches go with it. */
export async function deleteRule(tx: Queryable, id: number): Promise<void> {
  await tx.query(sql`DELETE FROM rules WHERE id = ${id}`);
}

/** Hits of a rule per day over the last `days` days, in the companies of a scope. */
export async function ruleHits(
  db: Queryable,
  ruleId: number,
  scope: TenantScope,
  days: number,
): Promise<{ day: string; hits: number; last_hit_at: Date }[]> {
  const { rows } = await db.query<{ day: string; hits: number; last_hit_at: Date }>(sql`
    SELECT to_char(h.day, 'YYYY-MM-DD') AS day, sum(h.hits)::int8 AS hits, max(h.last_hit_at) AS last_hit_at
    FROM rule_hits h
    WHERE h.rule_id = ${ruleId} AND h.day >= (now() AT TIME ZONE 'UTC')::date - ${days - 1}::int4
      AND ${tenantCondition(scope, sql`h.company_id`)}
    GROUP BY h.day ORDER BY h.day`);
  return rows.map((r) => ({ ...r, hits: Number(r.hits) }));
}

/** Companies of a scope that turned a rule for all companies off. */
export async function disabledFor(db: Queryable, ruleId: number, scope: TenantScope): Promise<number[]> {
  const { rows } = await db.query<{ company_id: number }>(sql`
    SELECT s.company_id FROM rule_company_settings s
    WHERE s.rule_id = ${ruleId} AND NOT s.enabled AND ${tenantCondition(scope, sql`s.company_id`)}
    ORDER BY s.company_id`);
  return rows.map((r) => Number(r.company_id));
}

/** Where imported rules go. */
export interface RuleTarget {
  companyId: number;
  scope: RuleScope;
}

export interface ImportWritten {
  created: { id: number; rule_key: string; unsupported: boolean }[];
  updated: { id: number; rule_key: string; unsupported: boolean }[];
}

/**
 * Writes the rules of an import in a few statements: the candidates go to a temporary table, rules
 * whose text changed get a new revision (their parsed fields replaced; their switch kept unless the
 * engine can or cannot run them now), new keys are inserted, and each written revision's source
 * goes to rule_revisions. Rules whose text is the same are not touched.
 */
export async function writeImportedRules(
  tx: Queryable,
  kind: RuleKind,
  target: RuleTarget,
  candidates: readonly RuleCandidate[],
  userId: number | null,
  sha256: (text: string) => string,
): Promise<ImportWritten> {
  await tx.exec(`CREATE TEMP TABLE IF NOT EXISTS rule_import (
    rule_key text, title text, description text, level text, tags text[], techniques text[], author text,
    refs text[], licence text, details jsonb, source text, source_sha256 text, file_name text, enabled bool,
    unsupported text) ON COMMIT DROP`);
  await tx.exec('TRUNCATE rule_import');
  await bulkInsert(
    tx,
    'rule_import',
    [
      { name: 'rule_key', type: 'text' },
      { name: 'title', type: 'text' },
      { name: 'description', type: 'text' },
      { name: 'level', type: 'text' },
      { name: 'tags', type: 'text[]' },
      { name: 'techniques', type: 'text[]' },
      { name: 'author', type: 'text' },
      { name: 'refs', type: 'text[]' },
      { name: 'licence', type: 'text' },
      { name: 'details', type: 'jsonb' },
      { name: 'source', type: 'text' },
      { name: 'source_sha256', type: 'text' },
      { name: 'file_name', type: 'text' },
      { name: 'enabled', type: 'bool' },
      { name: 'unsupported', type: 'text' },
    ],
    candidates.map((c) => [
      c.key,
      c.title,
      c.description,
      c.level,
      c.tags,
      c.techniques,
      c.author,
      c.references,
      c.licence,
      c.details,
      c.source,
      sha256(c.source),
      c.file,
      c.enabled && c.unsupported === null,
      c.unsupported,
    ]),
    { chunkSize: 2000 },
  );
  await tx.exec('ANALYZE rule_import');
  const sameTarget = sql`r.kind = ${kind} AND r.scope = ${target.scope}
    AND (${target.scope} = 'all' OR r.company_id = ${target.companyId}::int8)`;
  const { rows: updated } = await tx.query<{ id: number; rule_key: string; unsupported: boolean }>(sql`
    WITH changed AS (
      UPDATE rules r SET revision = r.revision + 1, title = s.title, description = s.description, level = s.level,
        tags = s.tags, techniques = s.techniques, author = s.author, "references" = s.refs, licence = s.licence,
        details = s.details, source = s.source, source_sha256 = s.source_sha256, file_name = s.file_name,
        enabled = CASE WHEN s.unsupported IS NOT NULL THEN false WHEN r.unsupported IS NOT NULL THEN s.enabled
                       ELSE r.enabled END,
        unsupported = s.unsupported, updated_at = now()
      FROM rule_import s
      WHERE ${sameTarget} AND r.rule_key = s.rule_key AND r.source_sha256 <> s.source_sha256
      RETURNING r.id, r.rule_key, r.revision, r.source, r.unsupported
    ), revisions AS (
      INSERT INTO rule_revisions (rule_id, revision, source, changed_by)
      SELECT id, revision, source, ${userId}::int8 FROM changed
    )
    SELECT id, rule_key, unsupported IS NOT NULL AS unsupported FROM changed`);
  const { rows: created } = await tx.query<{ id: number; rule_key: string; unsupported: boolean }>(sql`
    WITH added AS (
      INSERT INTO rules (company_id, kind, scope, rule_key, title, description, level, tags, techniques, author,
        "references", licence, details, source, source_sha256, file_name, enabled, unsupported, created_by)
      SELECT ${target.companyId}::int8, ${kind}, ${target.scope}, s.rule_key, s.title, s.description, s.level, s.tags,
        s.techniques, s.author, s.refs, s.licence, s.details, s.source, s.source_sha256, s.file_name, s.enabled,
        s.unsupported, ${userId}::int8
      FROM rule_import s
      WHERE NOT EXISTS (SELECT 1 FROM rules r WHERE ${sameTarget} AND r.rule_key = s.rule_key)
      RETURNING id, rule_key, revision, source, unsupported
    ), revisions AS (
      INSERT INTO rule_revisions (rule_id, revision, source, changed_by)
      SELECT id, revision, source, ${userId}::int8 FROM added
    )
    SELECT id, rule_key, unsupported IS NOT NULL AS unsupported FROM added`);
  const ids = (rows: typeof created) => rows.map((r) => ({ ...r, id: Number(r.id) }));
  return { created: ids(created), updated: ids(updated) };
}

/** The ids, among `ids` or the rows `where` selects, of the rules of a kind a scope sees, with their scope and company. */
export async function selectRules(
  db: Queryable,
  kind: RuleKind,
  scope: TenantScope,
  where: SqlFragment,
): Promise<{ id: number; company_id: number; scope: RuleScope; enabled: boolean; unsupported: boolean }[]> {
  const { rows } = await db.query<{
    id: number;
    company_id: number;
    scope: RuleScope;
    enabled: boolean;
    unsupported: boolean;
  }>(sql`
    SELECT r.id, r.company_id, r.scope, r.enabled, r.unsupported IS NOT NULL AS unsupported FROM rules r
    WHERE r.kind = ${kind} AND ${ruleVisible(scope)} AND ${where} ORDER BY r.id FOR UPDATE`);
  return rows.map((r) => ({ ...r, id: Number(r.id), company_id: Number(r.company_id) }));
}

/** Sets the switch of rules (supported ones only when turning on); answers the ids changed. */
export async function setRulesEnabled(tx: Queryable, ids: readonly number[], enabled: boolean): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await tx.query<{ id: number }>(sql`
    UPDATE rules SET enabled = ${enabled}, updated_at = now()
    WHERE id = ANY(${[...ids]}::int8[]) AND enabled <> ${enabled} AND (${!enabled} OR unsupported IS NULL)
    RETURNING id`);
  return rows.map((r) => Number(r.id));
}

/** Turns rules for all companies on or off for one company; answers the ids whose setting changed. */
export async function setCompanyRuleSettings(
  tx: Queryable,
  companyId: number,
  ids: readonly number[],
  enabled: boolean,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await tx.query<{ rule_id: number }>(sql`
    INSERT INTO rule_company_settings AS s (company_id, rule_id, enabled)
    SELECT ${companyId}::int8, id, ${enabled} FROM unnest(${[...ids]}::int8[]) AS u(id)
    ON CONFLICT (company_id, rule_id) DO UPDATE SET enabled = excluded.enabled, updated_at = now()
      WHERE s.enabled <> excluded.enabled
    RETURNING rule_id`);
  // A rule never set for the company was on for it: turning it on changes nothing that shows.
  return rows.map((r) => Number(r.rule_id));
}

/** The Suricata rules that run for a company, by gid and sid. */
export async function effectiveSuricataSources(db: Queryable, companyId: number): Promise<string[]> {
  const { rows } = await db.query<{ source: string }>(sql`
    SELECT r.source FROM rules r
    WHERE r.kind = 'suricata' AND (r.scope = 'all' OR r.company_id = ${companyId}::int8) AND ${effectiveFor(companyId)}
    ORDER BY (r.details->>'gid')::int8, (r.details->>'sid')::int8, r.id`);
  return rows.map((r) => r.source);
}
