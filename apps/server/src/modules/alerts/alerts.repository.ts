import {
  alertFiltersSchema,
  type Alert,
  type AlertComment,
  type AlertDetail,
  type AlertFilters,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';
import { severityScore, type AlertSeverity } from '../pipeline/detections';

export interface AlertRow {
  id: number;
  company_id: number;
  title: string;
  description: string;
  severity: Alert['severity'];
  score: number;
  status: Alert['status'];
  resolution: Alert['resolution'];
  assignee_id: number | null;
  source: Alert['source'];
  detection: Record<string, unknown>;
  dedup_key: string;
  first_seen: Date;
  last_seen: Date;
  count: number;
  observables: Alert['observables'];
  mitre: string[];
  tags: string[];
  incident_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export const alertColumns = sql`a.id, a.company_id, a.title, a.description, a.severity, a.score, a.status, a.resolution,
  a.assignee_id, a.source, a.detection, a.dedup_key, a.first_seen, a.last_seen, a.count, a.observables, a.mitre,
  a.tags, a.incident_id, a.created_at, a.updated_at`;

export function toAlert(row: AlertRow): Alert {
  return {
    ...row,
    count: Number(row.count),
    first_seen: row.first_seen.toISOString(),
    last_seen: row.last_seen.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The fields an audit record keeps of an alert (what a user can change). */
export function auditedFields(row: AlertRow): Record<string, unknown> {
  return {
    status: row.status,
    resolution: row.resolution,
    assignee_id: row.assignee_id,
    severity: row.severity,
    tags: row.tags,
    incident_id: row.incident_id,
  };
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/**
 * Equal to one of the values. One value is a plain equality: with `= ANY(array)` on a leading
 * index column PostgreSQL 15 cannot read (company_id, status, severity, last_seen) in order and
 * sorts every match instead of stopping after a page.
 */
function oneOf<T>(column: SqlFragment, cast: string, value: T | T[]): SqlFragment | null {
  const values = [...new Set(list(value))];
  if (values.length === 0) return null;
  if (values.length === 1) return sql`${column} = ${values[0]}::${sql.raw(cast)}`;
  return sql`${column} = ANY(${values}::${sql.raw(cast)}[])`;
}

/** Alert filters as SQL conditions over alias `a` (shared by the list and bulk actions). */
export const alertFilters: ListResource<AlertRow, AlertFilters, Alert>['filters'] = {
  search: filter.search(sql`a.title`, sql`a.description`, sql`a.observables::text`),
  id: (v) => oneOf(sql`a.id`, 'int8', v),
  status: (v) => oneOf(sql`a.status`, 'text', v),
  severity: (v) => oneOf(sql`a.severity`, 'text', v),
  source: (v) => oneOf(sql`a.source`, 'text', v),
  assignee_id: (v) => oneOf(sql`a.assignee_id`, 'int8', v),
  unassigned: (v) => (v ? sql`a.assignee_id IS NULL` : sql`a.assignee_id IS NOT NULL`),
  company_id: (v) => oneOf(sql`a.company_id`, 'int8', v),
  tags: (v) => sql`a.tags && ${list(v)}::text[]`,
  incident_id: (v) => oneOf(sql`a.incident_id`, 'int8', v),
  // The stored rule a detection came from (DetectionSource.storedRuleId); indexed.
  rule_id: (v) => oneOf(sql`((a.detection ->> 'storedRuleId')::int8)`, 'int8', v),
  first_seen_from: filter.gte<string>(sql`a.first_seen`, 'timestamptz'),
  first_seen_to: filter.lte<string>(sql`a.first_seen`, 'timestamptz'),
  last_seen_from: filter.gte<string>(sql`a.last_seen`, 'timestamptz'),
  last_seen_to: filter.lte<string>(sql`a.last_seen`, 'timestamptz'),
};

/** Conditions of validated filters plus the tenant scope, for statements outside the list engine. */
export function alertWhere(filters: AlertFilters, scope: TenantScope): SqlFragment {
  const parts: SqlFragment[] = [tenantCondition(scope, sql`a.company_id`)];
  for (const key of Object.keys(filters) as (keyof AlertFilters)[]) {
    const value = filters[key];
    const apply = alertFilters[key] as ((v: unknown, all: AlertFilters) => SqlFragment | null) | undefined;
    if (value === undefined || value === null || !apply) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    const condition = apply(value, filters);
    if (condition) parts.push(condition);
  }
  return sql.and(parts);
}

/** The alert queue as a list resource: newest activity first by default. */
export const alertList: ListResource<AlertRow, AlertFilters, Alert> = {
  from: sql`alerts a`,
  select: alertColumns,
  tenantColumn: sql`a.company_id`,
  idField: { expr: sql`a.id`, type: 'int8' },
  filtersSchema: alertFiltersSchema,
  filters: alertFilters,
  orderings: {
    last_seen: { expr: sql`a.last_seen`, type: 'timestamptz' },
    first_seen: { expr: sql`a.first_seen`, type: 'timestamptz' },
    severity: { expr: sql`a.score`, type: 'int4' },
    count: { expr: sql`a.count`, type: 'int8' },
    id: { expr: sql`a.id`, type: 'int8' },
  },
  defaultOrdering: ['-last_seen'],
  toItem: toAlert,
};

/** One alert in scope, or null: another tenant's alert does not exist for the caller. */
export async function findAlert(db: Queryable, scope: TenantScope, id: number, lock = false): Promise<AlertRow | null> {
  const { rows } = await db.query<AlertRow>(
    sql`SELECT ${alertColumns} FROM alerts a WHERE a.id = ${id} AND ${tenantCondition(scope, sql`a.company_id`)}
        ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

export interface AlertPatch {
  status?: Alert['status'];
  resolution?: Alert['resolution'];
  assignee_id?: number | null;
  severity?: AlertSeverity;
  tags?: string[];
  incident_id?: number | null;
}

export async function updateAlert(db: Queryable, row: AlertRow, patch: AlertPatch): Promise<AlertRow> {
  const severity = patch.severity ?? row.severity;
  const { rows } = await db.query<AlertRow>(sql`
    UPDATE alerts a SET
      status = ${patch.status ?? row.status},
      resolution = ${patch.resolution !== undefined ? patch.resolution : row.resolution},
      assignee_id = ${patch.assignee_id !== undefined ? patch.assignee_id : row.assignee_id}::int8,
      severity = ${severity},
      score = ${patch.severity ? severityScore[severity] : row.score}::int4,
      tags = ${patch.tags ?? row.tags}::text[],
      incident_id = ${patch.incident_id !== undefined ? patch.incident_id : row.incident_id}::int8,
      updated_at = now()
    WHERE a.company_id = ${row.company_id} AND a.id = ${row.id}
    RETURNING ${alertColumns}`);
  return rows[0] as AlertRow;
}

interface CommentRow {
  id: number;
  user_id: number | null;
  username: string | null;
  body: string;
  created_at: Date;
}

const toComment = (row: CommentRow): AlertComment => ({ ...row, created_at: row.created_at.toISOString() });

export async function insertAlertComment(
  db: Queryable,
  alert: AlertRow,
  author: { userId: number; username: string },
  body: string,
): Promise<AlertComment> {
  const { rows } = await db.query<CommentRow>(sql`
    INSERT INTO alert_comments (company_id, alert_id, user_id, username, body)
    VALUES (${alert.company_id}, ${alert.id}, ${author.userId}, ${author.username}, ${body})
    RETURNING id, user_id, username, body, created_at`);
  return toComment(rows[0] as CommentRow);
}

/** Linked event refs, comments and history (own audit records and bulk records) of one alert. */
export async function alertDetail(db: Queryable, alert: AlertRow): Promise<AlertDetail> {
  const c = alert.company_id;
  const events = await db.query<{ kind: Alert['source']; id: number; ts: Date }>(sql`
    SELECT event_kind AS kind, event_id AS id, ts FROM alert_events
    WHERE company_id = ${c} AND alert_id = ${alert.id} ORDER BY ts, event_id LIMIT 100`);
  const comments = await db.query<CommentRow>(sql`
    SELECT id, user_id, username, body, created_at FROM alert_comments
    WHERE company_id = ${c} AND alert_id = ${alert.id} ORDER BY id`);
  const history = await db.query<{
    id: number;
    date_time: Date;
    username: string | null;
    action: string;
    changes: Record<string, { before: unknown; after: unknown }>;
  }>(sql`
    SELECT l.id, l.date_time, l.username, l.action, l.changes FROM system_logs l
    WHERE l.company_id = ${c} AND l.object_type = 'alert' AND l.object_id = ${String(alert.id)}
    UNION ALL
    SELECT l.id, l.date_time, l.username, l.action, l.changes FROM alert_bulk_changes b
    JOIN system_logs l ON l.company_id = b.company_id AND l.id = b.system_log_id
    WHERE b.company_id = ${c} AND b.alert_id = ${alert.id}
    ORDER BY id LIMIT 500`);
  return {
    ...toAlert(alert),
    events: events.rows.map((e) => ({ ...e, ts: e.ts.toISOString() })),
    comments: comments.rows.map(toComment),
    history: history.rows.map((h) => ({ ...h, date_time: h.date_time.toISOString() })),
  };
}

/** The alerts of these ids in the caller's scope, with what an incident made of them needs. */
export async function alertsForIncident(
  db: Queryable,
  scope: TenantScope,
  ids: readonly number[],
): Promise<{ id: number; company_id: number; severity: AlertSeverity }[]> {
  const { rows } = await db.query<{ id: number; company_id: number; severity: AlertSeverity }>(sql`
    SELECT a.id, a.company_id, a.severity FROM alerts a
    WHERE a.id = ANY(${[...ids]}::int8[]) AND ${tenantCondition(scope, sql`a.company_id`)}`);
  return rows.map((r) => ({ id: Number(r.id), company_id: Number(r.company_id), severity: r.severity }));
}

/** How many of these ids are alerts of one company. */
export async function countAlertsInCompany(db: Queryable, companyId: number, ids: readonly number[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql`
    SELECT count(*)::int4 AS n FROM alerts a WHERE a.company_id = ${companyId} AND a.id = ANY(${[...ids]}::int8[])`);
  return Number(rows[0]?.n ?? 0);
}

/** Puts alerts of the incident's company into the incident; answers the ids that moved. */
export async function setAlertsIncident(
  db: Queryable,
  incident: { company_id: number; id: number },
  ids: readonly number[],
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(sql`
    UPDATE alerts a SET incident_id = ${incident.id}, updated_at = now()
    WHERE a.company_id = ${incident.company_id} AND a.id = ANY(${[...ids]}::int8[])
      AND a.incident_id IS DISTINCT FROM ${incident.id}::int8
    RETURNING a.id`);
  return rows.map((r) => Number(r.id));
}

/** Takes alerts out of an incident; answers the ids that left it. */
export async function clearAlertsIncident(
  db: Queryable,
  incident: { company_id: number; id: number },
  ids: readonly number[],
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(sql`
    UPDATE alerts a SET incident_id = NULL, updated_at = now()
    WHERE a.company_id = ${incident.company_id} AND a.incident_id = ${incident.id}
      AND a.id = ANY(${[...ids]}::int8[])
    RETURNING a.id`);
  return rows.map((r) => Number(r.id));
}
