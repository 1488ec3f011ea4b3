import type { AlertBulk } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { ValidationError } from '../../http/errors';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import type { AuditContext } from '../audit/audit.repository';
import { addTimeline, findIncident, refreshIncidents } from '../incidents/incidents.repository';
import { liveEvents, type LiveEvent } from '../live/live.bus';
import { alertWhere } from './alerts.repository';

/** Whether a user may be given alerts of `companyId`: one of its own, or staff who can see it. */
export async function assignable(db: Queryable, userId: number, companyId: number | null): Promise<boolean> {
  const { rows } = await db.query(sql`
    SELECT 1 FROM users u WHERE u.id = ${userId} AND (
      ${companyId}::int8 IS NULL OR u.company_id = ${companyId}::int8 OR u.all_companies
      OR EXISTS (SELECT 1 FROM user_companies uc WHERE uc.user_id = u.id AND uc.company_id = ${companyId}::int8))`);
  return rows.length > 0;
}

/** Whether a user may be given alerts of any company in a scope: a user of one of them, or staff who see all. */
async function assignableInScope(db: Queryable, userId: number, scope: TenantScope): Promise<boolean> {
  const { rows } = await db.query(sql`
    SELECT 1 FROM users u WHERE u.id = ${userId} AND (u.all_companies OR ${tenantCondition(scope, sql`u.company_id`)})`);
  return rows.length > 0;
}

export interface BulkOutcome {
  updated: number;
  live: LiveEvent[];
}

/**
 * One bulk action over the alerts named by ids or by a filter, in the caller's transaction and in
 * the caller's tenant scope: one UPDATE … WHERE for all of them (rows that would not change are
 * skipped), one audit record per company listing the action, the selection and the count, and one
 * narrow row per alert in alert_bulk_changes so each alert's history shows the bulk record — all
 * in a single statement.
 */
export async function bulkUpdateAlerts(
  tx: Queryable,
  scope: TenantScope,
  context: AuditContext,
  request: AlertBulk,
): Promise<BulkOutcome> {
  const action = request.action;
  const selection: SqlFragment = request.ids
    ? sql.and([tenantCondition(scope, sql`a.company_id`), sql`a.id = ANY(${request.ids}::int8[])`])
    : alertWhere(request.filter ?? {}, scope);
  let set: SqlFragment;
  let changed: SqlFragment;
  let incident: { company_id: number; id: number } | null = null;
  switch (action.action) {
    case 'assign':
      if (action.assignee_id !== null && !(await assignableInScope(tx, action.assignee_id, scope)))
        throw ValidationError.field('action.assignee_id', 'No such user.');
      set = sql`assignee_id = ${action.assignee_id}::int8`;
      changed = sql`a.assignee_id IS DISTINCT FROM ${action.assignee_id}::int8`;
      break;
    case 'set_status': {
      const final = action.status === 'resolved' || action.status === 'closed';
      if (final && !action.resolution)
        throw ValidationError.field('action.resolution', 'Say how the alerts were resolved.');
      if (!final && action.resolution)
        throw ValidationError.field('action.resolution', 'Only resolved or closed alerts have a resolution.');
      const resolution = final ? (action.resolution ?? null) : null;
      set = sql`status = ${action.status}, resolution = ${resolution}::text`;
      changed = sql`(a.status, a.resolution) IS DISTINCT FROM (${action.status}::text, ${resolution}::text)`;
      break;
    }
    case 'add_tags':
      set = sql`tags = ARRAY(SELECT DISTINCT t FROM unnest(a.tags || ${action.tags}::text[]) t ORDER BY t)`;
      changed = sql`NOT (a.tags @> ${action.tags}::text[])`;
      break;
    case 'remove_tags':
      set = sql`tags = ARRAY(SELECT t FROM unnest(a.tags) t WHERE t <> ALL(${action.tags}::text[]))`;
      changed = sql`a.tags && ${action.tags}::text[]`;
      break;
    case 'add_to_incident': {
      const found = await findIncident(tx, scope, action.incident_id);
      if (!found) throw ValidationError.field('action.incident_id', 'No such incident.');
      incident = { company_id: found.company_id, id: found.id };
      set = sql`incident_id = ${found.id}::int8`;
      // Alerts join incidents of their own company only.
      changed = sql`a.company_id = ${found.company_id}::int8 AND a.incident_id IS DISTINCT FROM ${found.id}::int8`;
      break;
    }
  }
  const described = JSON.stringify({
    action,
    ...(request.ids ? { ids: request.ids.length > 1000 ? `${request.ids.length} ids` : request.ids } : {}),
    ...(request.filter ? { filter: request.filter } : {}),
  });
  const { rows } = await tx.query<{ company_id: number; n: number; ids: number[] }>(sql`
    WITH upd AS (
      UPDATE alerts a SET ${set}, updated_at = now()
      WHERE ${selection} AND ${changed}
      RETURNING a.company_id, a.id
    ),
    logs AS (
      INSERT INTO system_logs (company_id, user_id, username, impersonator_id, ip, action, object_type, object_id,
                               object_repr, changes)
      SELECT company_id, ${context.userId}::int8, ${context.username}::text, ${context.impersonatorId}::int8,
             ${context.ip}::text, 'bulk_update', 'alert', NULL, count(*)::text || ' alert(s)',
             jsonb_build_object('bulk', jsonb_build_object('before', NULL, 'after', ${described}::jsonb),
                                'count', jsonb_build_object('before', NULL, 'after', count(*)))
      FROM upd GROUP BY company_id
      RETURNING id, company_id
    ),
    history AS (
      INSERT INTO alert_bulk_changes (company_id, alert_id, system_log_id)
      SELECT u.company_id, u.id, l.id FROM upd u JOIN logs l ON l.company_id = u.company_id
    )
    SELECT company_id, count(*)::int8 AS n, (array_agg(id ORDER BY id))[1:500] AS ids FROM upd GROUP BY company_id`);
  const updated = rows.reduce((sum, r) => sum + Number(r.n), 0);
  const live: LiveEvent[] = rows.map((r) => ({
    type: 'alert.updated',
    company_id: Number(r.company_id),
    ids: r.ids.map(Number),
    count: Number(r.n),
  }));
  if (incident && updated > 0) {
    await refreshIncidents(tx, [incident]);
    await addTimeline(tx, [
      {
        companyId: incident.company_id,
        incidentId: incident.id,
        kind: 'alerts_linked',
        userId: context.userId,
        username: context.username,
        data: { count: updated, alert_ids: rows.flatMap((r) => r.ids.map(Number)).slice(0, 500) },
      },
    ]);
    live.push(...liveEvents('incident.updated', [incident]));
  }
  return { updated, live };
}
