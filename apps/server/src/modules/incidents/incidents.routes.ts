import { endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { incidentList, toIncident } from './incidents.repository';
import { IncidentsService } from './incidents.service';

/** Incidents: made by hand from alerts or by grouping rules; timeline, tasks and SLA timers. */
export async function registerIncidents(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const incidents = new IncidentsService(db, app.live);
  const api = endpoints.incidents;
  registerList(app, api, incidentList, { db, publicUrl: deps.config.publicUrl });
  /** A path naming nothing the caller can see answers 404 before the body is checked. */
  const incidentFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) =>
      Boolean(await incidents.get(requireActor(request), id)),
  };
  const taskFirst = {
    exists: async ({ id, task_id }: { id: number; task_id: number }, request: FastifyRequest) =>
      Boolean(await incidents.task(requireActor(request), id, task_id)),
  };
  const companyFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) =>
      Boolean(await incidents.grouping(requireActor(request), id)),
  };

  route(app, api.get, async ({ request, params }) => incidents.get(requireActor(request), params.id));

  route(app, api.create, async ({ request, body }) =>
    incidents.create(requireActor(request), auditContextOf(request), body),
  );

  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toIncident(await incidents.update(requireActor(request), auditContextOf(request), params.id, body)),
    incidentFirst,
  );

  route(
    app,
    api.comment,
    async ({ request, params, body }) =>
      incidents.comment(requireActor(request), auditContextOf(request), params.id, body.body),
    incidentFirst,
  );

  route(
    app,
    api.addTask,
    async ({ request, params, body }) =>
      incidents.addTask(requireActor(request), auditContextOf(request), params.id, body),
    incidentFirst,
  );

  route(
    app,
    api.updateTask,
    async ({ request, params, body }) =>
      incidents.updateTask(requireActor(request), auditContextOf(request), params.id, params.task_id, body),
    taskFirst,
  );

  // Grouping rules of one company (the path id is the company).
  route(app, api.grouping, async ({ request, params }) => incidents.grouping(requireActor(request), params.id));

  route(
    app,
    api.setGrouping,
    async ({ request, params, body }) =>
      incidents.setGrouping(requireActor(request), auditContextOf(request), params.id, body),
    companyFirst,
  );
}
