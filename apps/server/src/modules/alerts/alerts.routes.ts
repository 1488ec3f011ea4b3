import { alertBulkSchema, alertSources, alertUpdateSchema, commentCreateSchema } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { can, requireActor } from '../../http/actor';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { liveEvents } from '../live/live.bus';
import { assignable, bulkUpdateAlerts } from './alerts.bulk';
import { eventBasenames, linkedEvents } from './alerts.events.repository';
import {
  alertDetail,
  alertList,
  auditedFields,
  findAlert,
  insertAlertComment,
  toAlert,
  updateAlert,
  type AlertPatch,
} from './alerts.repository';

const perm = (action: string) => ({ config: { permission: { basename: 'alerts', action } } });

/** Alerts: the queue, one alert, triage changes, comments and bulk actions. */
export async function registerAlerts(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerListRoutes(app, alertList, {
    apiBase: '/api/alerts/',
    basename: 'alerts',
    db,
    publicUrl: deps.config.publicUrl,
  });

  app.get('/api/alerts/:id/', perm('view'), async (request) => {
    const actor = requireActor(request);
    const alert = await findAlert(db, actor.scope, pathId(request.params));
    if (!alert) throw notFound();
    return alertDetail(db, alert);
  });

  // The linked events with their contents, of the kinds the caller may view on their own pages.
  app.get('/api/alerts/:id/events/', perm('view'), async (request) => {
    const actor = requireActor(request);
    const alert = await findAlert(db, actor.scope, pathId(request.params));
    if (!alert) throw notFound();
    const kinds = alertSources.filter((kind) => can(actor, eventBasenames[kind], 'view'));
    return linkedEvents(db, alert, kinds);
  });

  app.patch('/api/alerts/:id/', perm('change'), async (request) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const updated = await db.transaction(async (tx) => {
      const before = await findAlert(tx, actor.scope, id, true);
      if (!before) throw notFound();
      const input = parseOrThrow(alertUpdateSchema, request.body ?? {});
      const patch: AlertPatch = { ...input };
      const status = input.status ?? before.status;
      const final = status === 'resolved' || status === 'closed';
      if (final) {
        const resolution = input.resolution !== undefined ? input.resolution : before.resolution;
        if (!resolution) throw ValidationError.field('resolution', 'Say how the alert was resolved.');
        patch.resolution = resolution;
      } else {
        if (input.resolution)
          throw ValidationError.field('resolution', 'Only resolved or closed alerts have a resolution.');
        patch.resolution = null;
      }
      if (input.assignee_id !== undefined && input.assignee_id !== null) {
        if (!(await assignable(tx, input.assignee_id, before.company_id)))
          throw ValidationError.field('assignee_id', 'No such user can work on this alert.');
      }
      const after = await updateAlert(tx, before, patch);
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'alert',
        objectId: id,
        objectRepr: after.title.slice(0, 200),
        companyId: after.company_id,
        before: auditedFields(before),
        after: auditedFields(after),
      });
      return after;
    });
    await app.live.publish(liveEvents('alert.updated', [updated]));
    return toAlert(updated);
  });

  app.post('/api/alerts/:id/comments/', perm('change'), async (request, reply) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const comment = await db.transaction(async (tx) => {
      const alert = await findAlert(tx, actor.scope, id);
      if (!alert) throw notFound();
      const input = parseOrThrow(commentCreateSchema, request.body ?? {});
      const created = await insertAlertComment(tx, alert, actor, input.body);
      await recordAudit(tx, auditContextOf(request), {
        action: 'comment',
        objectType: 'alert',
        objectId: id,
        objectRepr: alert.title.slice(0, 200),
        companyId: alert.company_id,
        after: { comment_id: created.id },
      });
      return { created, alert };
    });
    await app.live.publish(liveEvents('alert.updated', [comment.alert]));
    reply.status(201);
    return comment.created;
  });

  // Bulk needs the `bulk` extra action (the route's guard) and `change` (checked here).
  app.post('/api/alerts/bulk/', perm('bulk'), async (request) => {
    const actor = requireActor(request);
    if (!can(actor, 'alerts', 'change')) throw forbidden();
    const input = parseOrThrow(alertBulkSchema, request.body ?? {});
    const outcome = await db.transaction((tx) => bulkUpdateAlerts(tx, actor.scope, auditContextOf(request), input));
    await app.live.publish(outcome.live);
    return { updated: outcome.updated };
  });
}
