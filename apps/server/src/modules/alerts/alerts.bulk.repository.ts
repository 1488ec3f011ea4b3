import type { AlertBulk } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { inScope, tenantCondition, type TenantScope } from '../../http/tenancy';
import { auditRecordsFrom, type AuditContext } from '../audit/audit.service';
import { alertWhere } from './alerts.repository';

/**
 * The companies whose alerts (and incidents) a user may be given: its own and those granted to it,
 * or all of them for staff who see every company. Null when there is no such user. This is the one
 * rule of who can work on what, whoever hands the work out: a person, a bulk action or a matcher.
 */
export async function assignableCompanies(db: Queryable, userId: number): Promise<TenantScope | null> {
  const { rows } = await db.query<{ all_companies: boolean; company_ids: number[] }>(sql`
    SELECT u.all_companies,
           ARRAY[u.company_id] || COALESCE((SELECT array_agg(uc.company_id) FROM user_companies uc
                                            WHERE uc.user_id = u.id), '{}') AS company_ids
    FROM users u WHERE u.id = ${userId}`);
  const row = rows[0];
  if (!row) return null;
  return { companies: row.all_companies ? 'all' : row.company_ids.map(Number) };
}

/** Whether a user may be given alerts of `companyId` (any company when null): see `assignableCompanies`. */
export async function assignable(db: Queryable, userId: number, companyId: number | null): Promise<boolean> {
  const reach = await assignableCompanies(db, userId);
  return reach !== null && (companyId === null || inScope(reach, companyId));
}

/** Whether a user may be given alerts of any company in a scope: a user of one of them, or staff who see all. */
export async function assignableInScope(db: Queryable, userId: number, scope: TenantScope): Promise<boolean> {
  const { rows } = await db.query(sql`
    SELECT 1 FROM users u WHERE u.id = ${userId} AND (u.all_companies OR ${tenantCondition(scope, sql`u.company_id`)})`);
  return rows.length > 0;
}

/** What one bulk change did in one company: how many alerts changed and the first 500 of their ids. */
export interface BulkChanged {
  company_id: number;
  n: number;
  ids: number[];
}

/** What the service checked of a bulk action: the incident it adds to, the companies its assignee works on. */
export interface CheckedBulkTargets {
  incident: { company_id: number; id: number } | null;
  /** For `assign` to a user: only alerts of these companies are given to that user. */
  assigneeReach: TenantScope | null;
}

/** The SET clause and the "would change" condition of one (already checked) bulk action over alias `a`. */
function actionSql(action: AlertBulk['action'], checked: CheckedBulkTargets) {
  const { incident } = checked;
  switch (action.action) {
    case 'assign':
      return {
        set: sql`assignee_id = ${action.assignee_id}::int8`,
        // Alerts of a company the assignee does not work on stay as they are.
        changed: sql.and([
          sql`a.assignee_id IS DISTINCT FROM ${action.assignee_id}::int8`,
          ...(checked.assigneeReach ? [tenantCondition(checked.assigneeReach, sql`a.company_id`)] : []),
        ]),
      };
    case 'set_status': {
      const final = action.status === 'resolved' || action.status === 'closed';
      const resolution = final ? (action.resolution ?? null) : null;
      return {
        set: sql`status = ${action.status}, resolution = ${resolution}::text`,
        changed: sql`(a.status, a.resolution) IS DISTINCT FROM (${action.status}::text, ${resolution}::text)`,
      };
    }
    case 'add_tags':
      return {
        set: sql`tags = ARRAY(SELECT DISTINCT t FROM unnest(a.tags || ${action.tags}::text[]) t ORDER BY t)`,
        changed: sql`NOT (a.tags @> ${action.tags}::text[])`,
      };
    case 'remove_tags':
      return {
        set: sql`tags = ARRAY(SELECT t FROM unnest(a.tags) t WHERE t <> ALL(${action.tags}::text[]))`,
        changed: sql`a.tags && ${action.tags}::text[]`,
      };
    case 'add_to_incident': {
      if (!incident) throw new Error('add_to_incident needs the incident it adds to.');
      return {
        set: sql`incident_id = ${incident.id}::int8`,
        // Alerts join incidents of their own company only.
        changed: sql`a.company_id = ${incident.company_id}::int8 AND a.incident_id IS DISTINCT FROM ${incident.id}::int8`,
      };
    }
  }
}

/**
 * One bulk action over the alerts named by ids or by a filter, in the caller's tenant scope: one
 * UPDATE … WHERE for all of them (rows that would not change are skipped), one audit record per
 * company listing the action, the selection and the count, and one narrow row per alert in
 * alert_bulk_changes so each alert's history shows the bulk record — all in a single statement.
 * The action has been checked by the caller, which hands over what it checked (`CheckedBulkTargets`).
 */
export async function bulkUpdateAlerts(
  tx: Queryable,
  scope: TenantScope,
  context: AuditContext,
  request: AlertBulk,
  checked: CheckedBulkTargets,
): Promise<BulkChanged[]> {
  const selection: SqlFragment = request.ids
    ? sql.and([tenantCondition(scope, sql`a.company_id`), sql`a.id = ANY(${request.ids}::int8[])`])
    : alertWhere(request.filter ?? {}, scope);
  const { set, changed } = actionSql(request.action, checked);
  const described = JSON.stringify({
    action: request.action,
    ...(request.ids ? { ids: request.ids.length > 1000 ? `${request.ids.length} ids` : request.ids } : {}),
    ...(request.filter ? { filter: request.filter } : {}),
  });
  const { rows } = await tx.query<BulkChanged>(sql`
    WITH upd AS (
      UPDATE alerts a SET ${set}, updated_at = now()
      WHERE ${selection} AND ${changed}
      RETURNING a.company_id, a.id
    ),
    logs AS (
      ${auditRecordsFrom(context, {
        companyId: sql`company_id`,
        action: sql`'bulk_update'`,
        objectType: sql`'alert'`,
        objectId: sql`NULL`,
        objectRepr: sql`count(*)::text || ' alert(s)'`,
        changes: sql`jsonb_build_object('bulk', jsonb_build_object('before', NULL, 'after', ${described}::jsonb),
                                'count', jsonb_build_object('before', NULL, 'after', count(*)))`,
        from: sql`upd GROUP BY company_id`,
      })}
      RETURNING id, company_id
    ),
    history AS (
      INSERT INTO alert_bulk_changes (company_id, alert_id, system_log_id)
      SELECT u.company_id, u.id, l.id FROM upd u JOIN logs l ON l.company_id = u.company_id
    )
    SELECT company_id, count(*)::int8 AS n, (array_agg(id ORDER BY id))[1:500] AS ids FROM upd GROUP BY company_id`);
  return rows.map((r) => ({ company_id: Number(r.company_id), n: Number(r.n), ids: r.ids.map(Number) }));
}
