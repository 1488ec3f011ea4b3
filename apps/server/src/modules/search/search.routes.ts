import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requestUrl, requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { SearchService } from './search.service';

/** Search over events and alerts with the query language: a page of hits, and their histogram. */
export async function registerSearch(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const searches = new SearchService(deps.db);
  const api = endpoints.search;

  route(app, api.run, async ({ request, query, body }) =>
    searches.run(requireActor(request), body, query, requestUrl(request, deps.config.publicUrl)),
  );

  route(app, api.histogram, async ({ request, body }) => searches.histogram(requireActor(request), body));
}
