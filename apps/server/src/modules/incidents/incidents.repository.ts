import {
  incidentFiltersSchema,
  type Incident,
  type IncidentDetail,
  type IncidentFilters,
  type IncidentGrouping,
  type IncidentTask,
} from '@vigil/contract';
import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';
import type { AlertSeverity } from '../pipeline/detections';
import { slaOf } from './sla';

export interface IncidentRow {
  id: number;
  company_id: number;
  title: string;
  description: string;
  severity: AlertSeverity;
  status: Incident['status'];
  assignee_id: number | null;
  group_key: string | null;
  observables: Incident['observables'];
  alert_count: number;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const incidentColumns = sql`i.id, i.company_id, i.title, i.description, i.severity, i.status, i.assignee_id,
  i.group_key, i.observables, i.acknowledged_at, i.resolved_at, i.created_at, i.updated_at,
  (SELECT count(*) FROM alerts a WHERE a.company_id = i.company_id AND a.incident_id = i.id)::int8 AS alert_count`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toIncident(row: IncidentRow, now = new Date()): Incident {
  return {
    ...row,
    alert_count: Number(row.alert_count),
    acknowledged_at: iso(row.acknowledged_at),
    resolved_at: iso(row.resolved_at),
    sla: slaOf(row, now),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

export const incidentList: ListResource<IncidentRow, IncidentFilters, Incident> = {
  from: sql`incidents i`,
  select: incidentColumns,
  tenantColumn: sql`i.company_id`,
  idField: { expr: sql`i.id`, type: 'int8' },
  filtersSchema: incidentFiltersSchema,
  filters: {
    search: filter.search(sql`i.title`, sql`i.description`, sql`i.observables::text`),
    status: (v) => filter.in<string>(sql`i.status`, 'text')(list(v)),
    severity: (v) => filter.in<string>(sql`i.severity`, 'text')(list(v)),
    assignee_id: (v) => filter.in<number>(sql`i.assignee_id`, 'int8')(list(v)),
    company_id: (v) => filter.in<number>(sql`i.company_id`, 'int8')(list(v)),
    created_from: filter.gte<string>(sql`i.created_at`, 'timestamptz'),
    created_to: filter.lte<string>(sql`i.created_at`, 'timestamptz'),
  },
  orderings: {
    created_at: { expr: sql`i.created_at`, type: 'timestamptz' },
    updated_at: { expr: sql`i.updated_at`, type: 'timestamptz' },
    severity: {
      expr: sql`array_position(ARRAY['info','low','medium','high','critical']::text[], i.severity)`,
      type: 'int4',
    },
    id: { expr: sql`i.id`, type: 'int8' },
  },
  defaultOrdering: ['-created_at'],
  toItem: (row) => toIncident(row),
};

export async function findIncident(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<IncidentRow | null> {
  const { rows } = await db.query<IncidentRow>(
    sql`SELECT ${incidentColumns} FROM incidents i WHERE i.id = ${id} AND ${tenantCondition(scope, sql`i.company_id`)}
        ${lock ? sql`FOR UPDATE OF i` : sql``}`,
  );
  return rows[0] ?? null;
}

export async function findIncidentIn(db: Queryable, companyId: number, id: number): Promise<IncidentRow | null> {
  return findIncident(db, { companies: [companyId] }, id);
}

export interface TimelineEntry {
  companyId: number;
  incidentId: number;
  kind: string;
  userId: number | null;
  username: string | null;
  body?: string;
  data?: Record<string, unknown>;
}

/** Adds timeline entries with one statement per few thousand. */
export async function addTimeline(db: Queryable, entries: readonly TimelineEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await bulkInsert(
    db,
    'incident_timeline',
    [
      { name: 'company_id', type: 'int8' },
      { name: 'incident_id', type: 'int8' },
      { name: 'kind', type: 'text' },
      { name: 'user_id', type: 'int8' },
      { name: 'username', type: 'text' },
      { name: 'body', type: 'text' },
      { name: 'data', type: 'jsonb' },
    ],
    entries.map((e) => [e.companyId, e.incidentId, e.kind, e.userId, e.username, e.body ?? '', e.data ?? {}]),
  );
}

/**
 * Recomputes what incidents gather from their alerts: the distinct observables (at most 500) and
 * a severity raised to the highest of the alerts (never lowered: an analyst may have raised it).
 */
export async function refreshIncidents(db: Queryable, keys: readonly { company_id: number; id: number }[]) {
  if (keys.length === 0) return;
  await db.query(sql`
    UPDATE incidents i SET
      observables = COALESCE((
        SELECT jsonb_agg(o ORDER BY o->>'kind', o->>'value') FROM (
          SELECT DISTINCT jsonb_build_object('kind', ob->>'kind', 'value', ob->>'value') AS o
          FROM alerts a, jsonb_array_elements(a.observables) ob
          WHERE a.company_id = i.company_id AND a.incident_id = i.id
          LIMIT 500) s), '[]'::jsonb),
      severity = COALESCE((
        SELECT CASE WHEN max(a.score) >= 95 THEN 'critical' WHEN max(a.score) >= 75 THEN 'high'
                    WHEN max(a.score) >= 50 THEN 'medium' WHEN max(a.score) >= 30 THEN 'low' ELSE 'info' END
        FROM alerts a WHERE a.company_id = i.company_id AND a.incident_id = i.id
        HAVING array_position(ARRAY['info','low','medium','high','critical']::text[],
                 CASE WHEN max(a.score) >= 95 THEN 'critical' WHEN max(a.score) >= 75 THEN 'high'
                      WHEN max(a.score) >= 50 THEN 'medium' WHEN max(a.score) >= 30 THEN 'low' ELSE 'info' END)
             > array_position(ARRAY['info','low','medium','high','critical']::text[], i.severity)), i.severity),
      updated_at = now()
    FROM unnest(${keys.map((k) => k.company_id)}::int8[], ${keys.map((k) => k.id)}::int8[]) AS k(company_id, id)
    WHERE i.company_id = k.company_id AND i.id = k.id`);
}

interface TaskRow {
  id: number;
  incident_id: number;
  title: string;
  status: IncidentTask['status'];
  assignee_id: number | null;
  due_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const toTask = (row: TaskRow): IncidentTask => ({
  ...row,
  due_at: iso(row.due_at),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const taskColumns = sql`id, incident_id, title, status, assignee_id, due_at, created_at, updated_at`;

export async function insertTask(
  db: Queryable,
  incident: IncidentRow,
  input: {
    title: string;
    status?: IncidentTask['status'] | undefined;
    assignee_id?: number | null | undefined;
    due_at?: string | null | undefined;
  },
): Promise<IncidentTask> {
  const { rows } = await db.query<TaskRow>(sql`
    INSERT INTO incident_tasks (company_id, incident_id, title, status, assignee_id, due_at)
    VALUES (${incident.company_id}, ${incident.id}, ${input.title}, ${input.status ?? 'todo'},
            ${input.assignee_id ?? null}::int8, ${input.due_at ?? null}::timestamptz)
    RETURNING ${taskColumns}`);
  return toTask(rows[0] as TaskRow);
}

export async function findTask(db: Queryable, incident: IncidentRow, taskId: number): Promise<IncidentTask | null> {
  const { rows } = await db.query<TaskRow>(sql`
    SELECT ${taskColumns} FROM incident_tasks
    WHERE company_id = ${incident.company_id} AND incident_id = ${incident.id} AND id = ${taskId} FOR UPDATE`);
  return rows[0] ? toTask(rows[0]) : null;
}

export async function updateTask(
  db: Queryable,
  incident: IncidentRow,
  task: IncidentTask,
  patch: {
    title?: string | undefined;
    status?: IncidentTask['status'] | undefined;
    assignee_id?: number | null | undefined;
    due_at?: string | null | undefined;
  },
): Promise<IncidentTask> {
  const { rows } = await db.query<TaskRow>(sql`
    UPDATE incident_tasks SET
      title = ${patch.title ?? task.title},
      status = ${patch.status ?? task.status},
      assignee_id = ${patch.assignee_id !== undefined ? patch.assignee_id : task.assignee_id}::int8,
      due_at = ${patch.due_at !== undefined ? patch.due_at : task.due_at}::timestamptz,
      updated_at = now()
    WHERE company_id = ${incident.company_id} AND id = ${task.id}
    RETURNING ${taskColumns}`);
  return toTask(rows[0] as TaskRow);
}

export async function incidentDetail(db: Queryable, incident: IncidentRow): Promise<IncidentDetail> {
  const c = incident.company_id;
  const alerts = await db.query<{ id: number }>(
    sql`SELECT id FROM alerts WHERE company_id = ${c} AND incident_id = ${incident.id} ORDER BY id LIMIT 1000`,
  );
  const timeline = await db.query<{
    id: number;
    kind: string;
    user_id: number | null;
    username: string | null;
    body: string;
    data: Record<string, unknown>;
    created_at: Date;
  }>(sql`SELECT id, kind, user_id, username, body, data, created_at FROM incident_timeline
         WHERE company_id = ${c} AND incident_id = ${incident.id} ORDER BY id LIMIT 1000`);
  const tasks = await db.query<TaskRow>(
    sql`SELECT ${taskColumns} FROM incident_tasks WHERE company_id = ${c} AND incident_id = ${incident.id} ORDER BY id`,
  );
  return {
    ...toIncident(incident),
    alert_ids: alerts.rows.map((a) => a.id),
    timeline: timeline.rows.map((t) => ({ ...t, created_at: t.created_at.toISOString() })),
    tasks: tasks.rows.map(toTask),
  };
}

export async function insertIncident(
  db: Queryable,
  companyId: number,
  input: { title: string; description: string; severity: AlertSeverity; assignee_id: number | null },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO incidents (company_id, title, description, severity, assignee_id)
    VALUES (${companyId}, ${input.title}, ${input.description}, ${input.severity}, ${input.assignee_id}::int8)
    RETURNING id`);
  return Number(rows[0]!.id);
}

/** Writes an incident's own fields; the acknowledge and resolve times move with the status. */
export async function updateIncident(
  db: Queryable,
  row: IncidentRow,
  change: {
    title: string;
    description: string;
    severity: AlertSeverity;
    status: Incident['status'];
    assignee_id: number | null;
    acknowledge: boolean;
    resolve: boolean;
    reopen: boolean;
  },
): Promise<void> {
  await db.query(sql`
    UPDATE incidents SET
      title = ${change.title}, description = ${change.description},
      severity = ${change.severity}, status = ${change.status},
      assignee_id = ${change.assignee_id}::int8,
      acknowledged_at = ${change.acknowledge ? sql`now()` : sql`acknowledged_at`},
      resolved_at = ${change.resolve ? sql`now()` : change.reopen ? sql`NULL` : sql`resolved_at`},
      updated_at = now()
    WHERE company_id = ${row.company_id} AND id = ${row.id}`);
}

/** A company's grouping settings, or null when it never set them. */
export async function findGrouping(db: Queryable, companyId: number): Promise<IncidentGrouping | null> {
  const { rows } = await db.query<IncidentGrouping>(
    sql`SELECT enabled, by_host, by_user, window_minutes FROM incident_grouping WHERE company_id = ${companyId}`,
  );
  return rows[0] ?? null;
}

export async function saveGrouping(db: Queryable, companyId: number, input: IncidentGrouping): Promise<void> {
  await db.query(sql`
    INSERT INTO incident_grouping (company_id, enabled, by_host, by_user, window_minutes)
    VALUES (${companyId}, ${input.enabled}, ${input.by_host}, ${input.by_user}, ${input.window_minutes})
    ON CONFLICT (company_id) DO UPDATE SET enabled = EXCLUDED.enabled, by_host = EXCLUDED.by_host,
      by_user = EXCLUDED.by_user, window_minutes = EXCLUDED.window_minutes, updated_at = now()`);
}
