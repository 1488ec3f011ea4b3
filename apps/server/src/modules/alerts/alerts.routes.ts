import { alertSources, endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { can, requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { forbidden } from '../../http/errors';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { eventBasenames, linkedEvents } from './alerts.events.repository';
import { alertDetail, alertList, toAlert } from './alerts.repository';
import { AlertsService } from './alerts.service';

/** Alerts: the queue, one alert, triage changes, comments and bulk actions. */
export async function registerAlerts(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const alerts = new AlertsService(db, app.live);
  const api = endpoints.alerts;
  registerList(app, api, alertList, { db, publicUrl: deps.config.publicUrl });
  /** A path naming no alert the caller can see answers 404 before the body is checked. */
  const alertFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) =>
      Boolean(await alerts.get(requireActor(request), id)),
  };

  route(app, api.get, async ({ request, params }) =>
    alertDetail(db, await alerts.get(requireActor(request), params.id)),
  );

  // The linked events with their contents, of the kinds the caller may view on their own pages.
  route(app, api.events, async ({ request, params }) => {
    const actor = requireActor(request);
    const alert = await alerts.get(actor, params.id);
    const kinds = alertSources.filter((kind) => can(actor, eventBasenames[kind], 'view'));
    return linkedEvents(db, alert, kinds);
  });

  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toAlert(await alerts.update(requireActor(request), auditContextOf(request), params.id, body)),
    alertFirst,
  );

  route(
    app,
    api.comment,
    async ({ request, params, body }) =>
      alerts.comment(requireActor(request), auditContextOf(request), params.id, body.body),
    alertFirst,
  );

  // Bulk needs the `bulk` extra action (the declared access) and `change` (checked before the body is read).
  route(
    app,
    api.bulk,
    async ({ request, body }) => ({
      updated: await alerts.bulk(requireActor(request), auditContextOf(request), body),
    }),
    {
      preHandler: async (request) => {
        if (!can(requireActor(request), 'alerts', 'change')) throw forbidden();
      },
    },
  );
}
