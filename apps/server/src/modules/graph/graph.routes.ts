import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { GraphService } from './graph.service';

/** The investigation graph of an alert or an incident, and expansion of one node. */
export async function registerGraph(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const graphs = new GraphService(deps.db);
  const api = endpoints.graph;

  route(app, api.get, async ({ request, query }) => graphs.graph(requireActor(request), query));

  route(app, api.expand, async ({ request, body }) => graphs.expand(requireActor(request), body));
}
