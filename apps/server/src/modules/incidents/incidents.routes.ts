import {
  canIncidentTransition,
  commentCreateSchema,
  incidentCreateSchema,
  incidentGroupingSchema,
  incidentTransitions,
  incidentUpdateSchema,
  taskCreateSchema,
  taskUpdateSchema,
  type Incident,
} from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { requireActor, type Actor } from '../../http/actor';
import { notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { inScope } from '../../http/tenancy';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { assignable } from '../alerts/alerts.bulk.repository';
import { liveEvents } from '../live/live.bus';
import {
  addTimeline,
  findIncident,
  findTask,
  incidentDetail,
  incidentList,
  insertTask,
  refreshIncidents,
  toIncident,
  updateTask,
  type IncidentRow,
} from './incidents.repository';

const perm = (action: string) => ({ config: { permission: { basename: 'incidents', action } } });

/** Links alerts (of the incident's company, in the caller's scope) to an incident; answers the ids linked. */
async function linkAlerts(tx: Queryable, actor: Actor, incident: { company_id: number; id: number }, ids: number[]) {
  const { rows } = await tx.query<{ id: number }>(sql`
    UPDATE alerts a SET incident_id = ${incident.id}, updated_at = now()
    WHERE a.company_id = ${incident.company_id} AND a.id = ANY(${ids}::int8[])
      AND a.incident_id IS DISTINCT FROM ${incident.id}::int8
    RETURNING a.id`);
  const linked = rows.map((r) => Number(r.id));
  await refreshIncidents(tx, [incident]);
  await addTimeline(
    tx,
    linked.map((alertId) => ({
      companyId: incident.company_id,
      incidentId: incident.id,
      kind: 'alert_linked',
      userId: actor.userId,
      username: actor.username,
      data: { alert_id: alertId },
    })),
  );
  return linked;
}

/** Unlinks alerts from an incident; answers the ids unlinked. */
async function unlinkAlerts(tx: Queryable, actor: Actor, incident: { company_id: number; id: number }, ids: number[]) {
  const { rows } = await tx.query<{ id: number }>(sql`
    UPDATE alerts a SET incident_id = NULL, updated_at = now()
    WHERE a.company_id = ${incident.company_id} AND a.incident_id = ${incident.id} AND a.id = ANY(${ids}::int8[])
    RETURNING a.id`);
  const unlinked = rows.map((r) => Number(r.id));
  await refreshIncidents(tx, [incident]);
  await addTimeline(
    tx,
    unlinked.map((alertId) => ({
      companyId: incident.company_id,
      incidentId: incident.id,
      kind: 'alert_unlinked',
      userId: actor.userId,
      username: actor.username,
      data: { alert_id: alertId },
    })),
  );
  return unlinked;
}

const acknowledgedStatuses: readonly Incident['status'][] = ['investigating', 'contained', 'resolved', 'closed'];

/** Incidents: made by hand from alerts or by grouping rules; timeline, tasks and SLA timers. */
export async function registerIncidents(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerListRoutes(app, incidentList, {
    apiBase: '/api/incidents/',
    basename: 'incidents',
    db,
    publicUrl: deps.config.publicUrl,
  });

  const load = async (tx: Queryable, actor: Actor, id: number, lock = false): Promise<IncidentRow> => {
    const row = await findIncident(tx, actor.scope, id, lock);
    if (!row) throw notFound();
    return row;
  };

  app.get('/api/incidents/:id/', perm('view'), async (request) => {
    const actor = requireActor(request);
    return incidentDetail(db, await load(db, actor, pathId(request.params)));
  });

  app.post('/api/incidents/', perm('add'), async (request, reply) => {
    const actor = requireActor(request);
    const input = parseOrThrow(incidentCreateSchema, request.body ?? {});
    const created = await db.transaction(async (tx) => {
      const { rows: alerts } = await tx.query<{ id: number; company_id: number; severity: Incident['severity'] }>(sql`
        SELECT a.id, a.company_id, a.severity FROM alerts a
        WHERE a.id = ANY(${input.alert_ids}::int8[])
          AND ${actor.scope.companies === 'all' ? sql`TRUE` : sql`a.company_id = ANY(${[...actor.scope.companies]}::int8[])`}`);
      if (alerts.length !== new Set(input.alert_ids).size)
        throw ValidationError.field('alert_ids', 'Some of these alerts do not exist.');
      const companies = new Set(alerts.map((a) => Number(a.company_id)));
      if (companies.size !== 1) throw ValidationError.field('alert_ids', 'An incident gathers alerts of one company.');
      const companyId = [...companies][0] as number;
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, companyId)))
        throw ValidationError.field('assignee_id', 'No such user can work on this incident.');
      const { rows } = await tx.query<{ id: number }>(sql`
        INSERT INTO incidents (company_id, title, description, severity, assignee_id)
        VALUES (${companyId}, ${input.title}, ${input.description ?? ''}, ${input.severity ?? 'info'},
                ${input.assignee_id ?? null}::int8)
        RETURNING id`);
      const id = Number(rows[0]?.id);
      await addTimeline(tx, [
        { companyId, incidentId: id, kind: 'created', userId: actor.userId, username: actor.username },
      ]);
      await linkAlerts(tx, actor, { company_id: companyId, id }, input.alert_ids);
      const row = await load(tx, actor, id);
      await recordAudit(tx, auditContextOf(request), {
        action: 'create',
        objectType: 'incident',
        objectId: id,
        objectRepr: row.title,
        companyId,
        after: { title: row.title, severity: row.severity, status: row.status, alert_ids: input.alert_ids },
      });
      return row;
    });
    await app.live.publish([
      ...liveEvents('incident.created', [created]),
      ...liveEvents(
        'alert.updated',
        input.alert_ids.map((id) => ({ id, company_id: created.company_id })),
      ),
    ]);
    reply.status(201);
    return incidentDetail(db, created);
  });

  app.patch('/api/incidents/:id/', perm('change'), async (request) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const after = await db.transaction(async (tx) => {
      const before = await load(tx, actor, id, true);
      const input = parseOrThrow(incidentUpdateSchema, request.body ?? {});
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, before.company_id)))
        throw ValidationError.field('assignee_id', 'No such user can work on this incident.');
      const status = input.status ?? before.status;
      if (!canIncidentTransition(before.status, status)) {
        const allowed = incidentTransitions[before.status].join(', ');
        throw ValidationError.field('status', `An incident that is ${before.status} can move to: ${allowed}.`);
      }
      if (input.summary !== undefined && status === before.status)
        throw ValidationError.field('summary', 'A summary goes with a change of status.');
      const overlap = input.add_alert_ids?.filter((alertId) => input.remove_alert_ids?.includes(alertId)) ?? [];
      if (overlap.length > 0)
        throw ValidationError.field('remove_alert_ids', 'An alert cannot be linked and unlinked at once.');
      const acknowledge = before.acknowledged_at === null && acknowledgedStatuses.includes(status);
      const resolve = (status === 'resolved' || status === 'closed') && before.resolved_at === null;
      const reopen = status !== 'resolved' && status !== 'closed';
      await tx.query(sql`
        UPDATE incidents SET
          title = ${input.title ?? before.title}, description = ${input.description ?? before.description},
          severity = ${input.severity ?? before.severity}, status = ${status},
          assignee_id = ${input.assignee_id !== undefined ? input.assignee_id : before.assignee_id}::int8,
          acknowledged_at = ${acknowledge ? sql`now()` : sql`acknowledged_at`},
          resolved_at = ${resolve ? sql`now()` : reopen ? sql`NULL` : sql`resolved_at`},
          updated_at = now()
        WHERE company_id = ${before.company_id} AND id = ${id}`);
      const who = { companyId: before.company_id, incidentId: id, userId: actor.userId, username: actor.username };
      const entries = [];
      if (status !== before.status)
        entries.push({
          ...who,
          kind: 'status',
          body: input.summary ?? '',
          data: { before: before.status, after: status },
        });
      if (input.assignee_id !== undefined && input.assignee_id !== before.assignee_id)
        entries.push({ ...who, kind: 'assignment', data: { before: before.assignee_id, after: input.assignee_id } });
      if (input.severity && input.severity !== before.severity)
        entries.push({ ...who, kind: 'severity', data: { before: before.severity, after: input.severity } });
      await addTimeline(tx, entries);
      let linked: number[] = [];
      let unlinked: number[] = [];
      if (input.add_alert_ids?.length) {
        const known = await tx.query<{ id: number }>(sql`
          SELECT a.id FROM alerts a
          WHERE a.company_id = ${before.company_id} AND a.id = ANY(${input.add_alert_ids}::int8[])`);
        if (known.rows.length !== new Set(input.add_alert_ids).size)
          throw ValidationError.field('add_alert_ids', 'Some of these alerts do not exist in this company.');
        linked = await linkAlerts(tx, actor, before, input.add_alert_ids);
      }
      if (input.remove_alert_ids?.length) unlinked = await unlinkAlerts(tx, actor, before, input.remove_alert_ids);
      const row = await load(tx, actor, id);
      const fields = (r: IncidentRow) => ({
        title: r.title,
        description: r.description,
        severity: r.severity,
        status: r.status,
        assignee_id: r.assignee_id,
        alert_count: Number(r.alert_count),
      });
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'incident',
        objectId: id,
        objectRepr: row.title,
        companyId: row.company_id,
        before: fields(before),
        after: {
          ...fields(row),
          ...(linked.length ? { linked_alert_ids: linked } : {}),
          ...(unlinked.length ? { unlinked_alert_ids: unlinked } : {}),
        },
      });
      return { row, changedAlerts: [...linked, ...unlinked] };
    });
    await app.live.publish([
      ...liveEvents('incident.updated', [after.row]),
      ...liveEvents(
        'alert.updated',
        after.changedAlerts.map((alertId) => ({ id: alertId, company_id: after.row.company_id })),
      ),
    ]);
    return toIncident(after.row);
  });

  app.post('/api/incidents/:id/comments/', perm('change'), async (request, reply) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const incident = await db.transaction(async (tx) => {
      const row = await load(tx, actor, id);
      const input = parseOrThrow(commentCreateSchema, request.body ?? {});
      await addTimeline(tx, [
        {
          companyId: row.company_id,
          incidentId: id,
          kind: 'comment',
          userId: actor.userId,
          username: actor.username,
          body: input.body,
        },
      ]);
      await recordAudit(tx, auditContextOf(request), {
        action: 'comment',
        objectType: 'incident',
        objectId: id,
        objectRepr: row.title,
        companyId: row.company_id,
        after: { comment: input.body.slice(0, 200) },
      });
      return row;
    });
    await app.live.publish(liveEvents('incident.updated', [incident]));
    reply.status(201);
    return incidentDetail(db, incident);
  });

  app.post('/api/incidents/:id/tasks/', perm('change'), async (request, reply) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const task = await db.transaction(async (tx) => {
      const row = await load(tx, actor, id);
      const input = parseOrThrow(taskCreateSchema, request.body ?? {});
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, row.company_id)))
        throw ValidationError.field('assignee_id', 'No such user can work on this incident.');
      const created = await insertTask(tx, row, input);
      await addTimeline(tx, [
        {
          companyId: row.company_id,
          incidentId: id,
          kind: 'task',
          userId: actor.userId,
          username: actor.username,
          data: { task_id: created.id, title: created.title },
        },
      ]);
      await recordAudit(tx, auditContextOf(request), {
        action: 'create',
        objectType: 'incident_task',
        objectId: created.id,
        objectRepr: created.title,
        companyId: row.company_id,
        after: { ...created },
      });
      return created;
    });
    reply.status(201);
    return task;
  });

  app.patch('/api/incidents/:id/tasks/:task_id/', perm('change'), async (request) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const taskId = pathId(request.params, 'task_id');
    return db.transaction(async (tx) => {
      const row = await load(tx, actor, id);
      const before = await findTask(tx, row, taskId);
      if (!before) throw notFound();
      const input = parseOrThrow(taskUpdateSchema, request.body ?? {});
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, row.company_id)))
        throw ValidationError.field('assignee_id', 'No such user can work on this incident.');
      const after = await updateTask(tx, row, before, input);
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'incident_task',
        objectId: taskId,
        objectRepr: after.title,
        companyId: row.company_id,
        before: { ...before },
        after: { ...after },
      });
      return after;
    });
  });

  // Grouping rules of one company (path id is the company).
  app.get('/api/incidents/grouping/:id/', perm('view'), async (request) => {
    const actor = requireActor(request);
    const companyId = pathId(request.params);
    if (!inScope(actor.scope, companyId)) throw notFound();
    const exists = await db.query(sql`SELECT 1 FROM companies WHERE id = ${companyId}`);
    if (exists.rows.length === 0) throw notFound();
    const { rows } = await db.query<{ enabled: boolean; by_host: boolean; by_user: boolean; window_minutes: number }>(
      sql`SELECT enabled, by_host, by_user, window_minutes FROM incident_grouping WHERE company_id = ${companyId}`,
    );
    return rows[0] ?? { enabled: false, by_host: true, by_user: false, window_minutes: 60 };
  });

  app.put('/api/incidents/grouping/:id/', perm('change'), async (request) => {
    const actor = requireActor(request);
    const companyId = pathId(request.params);
    if (!inScope(actor.scope, companyId)) throw notFound();
    return db.transaction(async (tx) => {
      const exists = await tx.query(sql`SELECT 1 FROM companies WHERE id = ${companyId}`);
      if (exists.rows.length === 0) throw notFound();
      const input = parseOrThrow(incidentGroupingSchema, request.body ?? {});
      const before = await tx.query<Record<string, unknown>>(
        sql`SELECT enabled, by_host, by_user, window_minutes FROM incident_grouping WHERE company_id = ${companyId}`,
      );
      await tx.query(sql`
        INSERT INTO incident_grouping (company_id, enabled, by_host, by_user, window_minutes)
        VALUES (${companyId}, ${input.enabled}, ${input.by_host}, ${input.by_user}, ${input.window_minutes})
        ON CONFLICT (company_id) DO UPDATE SET enabled = EXCLUDED.enabled, by_host = EXCLUDED.by_host,
          by_user = EXCLUDED.by_user, window_minutes = EXCLUDED.window_minutes, updated_at = now()`);
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'incident_grouping',
        objectId: companyId,
        objectRepr: null,
        companyId,
        before: before.rows[0] ?? null,
        after: input,
      });
      return input;
    });
  });
}
