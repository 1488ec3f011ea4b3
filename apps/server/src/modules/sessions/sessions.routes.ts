import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requestUrl, requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { countList, listPage } from '../../list/list-engine';
import { auditContextOf } from '../audit/audit.service';
import { sessionList, sessionListOrderings } from './sessions.repository';
import { SessionsService } from './sessions.service';

/** `sessions`: every signed-in user lists and ends their own sessions; nobody sees anyone else's. */
export async function registerSessions(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const sessions = new SessionsService(db);
  const api = endpoints.sessions;
  // The list serves exactly the orderings the contract declares (as registerList checks for others).
  const declared = `${[...api.spec.orderings].sort().join(',')} by ${api.spec.defaultOrdering.join(',')}`;
  const served = `${[...sessionListOrderings.orderings].sort().join(',')} by ${sessionListOrderings.defaultOrdering.join(',')}`;
  if (declared !== served) {
    throw new Error(`${api.list.path}: the contract declares orderings ${declared}, the list serves ${served}.`);
  }

  // The list resource depends on the caller (its own sessions), so it is built per request; the
  // list engine validates the query and the filters.
  route(
    app,
    api.list,
    async ({ request }) => {
      const actor = requireActor(request);
      return listPage(db, sessionList(actor), {
        query: request.query as Record<string, unknown>,
        body: request.body,
        scope: actor.scope,
        url: requestUrl(request, deps.config.publicUrl),
      });
    },
    { parseRequest: false },
  );

  route(
    app,
    api.count,
    async ({ request }) => {
      const actor = requireActor(request);
      return { count: await countList(db, sessionList(actor), request.body, actor.scope) };
    },
    { parseRequest: false },
  );

  route(app, api.end, async ({ request, params }) => ({
    ended: await sessions.endOne(requireActor(request), auditContextOf(request), params.id),
  }));

  route(app, api.endOthers, async ({ request }) => ({
    ended: await sessions.endOthers(requireActor(request), auditContextOf(request)),
  }));
}
