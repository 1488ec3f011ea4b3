import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requestUrl, requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { SearchService } from './search.service';

/** Search over events and alerts with the query language: a page of hits, their histogram, known values. */
export async function registerSearch(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const searches = new SearchService(deps.db);
  const api = endpoints.search;

  route(app, api.run, async ({ request, query, body }) =>
    searches.run(requireActor(request), body, query, requestUrl(request, deps.config.publicUrl)),
  );

  route(app, api.histogram, async ({ request, body }) => searches.histogram(requireActor(request), body));

  route(app, api.values, async ({ request, body }) => searches.values(requireActor(request), body));

  // The hits as a file for those allowed to take raw events out of the console.
  route(app, api.export, async ({ request, reply, query, body }) => {
    const { content, truncated } = await searches.export(requireActor(request), body, query.format);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    return reply
      .header(
        'content-type',
        query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      )
      .header(
        'content-disposition',
        `attachment; filename="vigil-search-${stamp}.${query.format === 'csv' ? 'csv' : 'jsonl'}"`,
      )
      .header('x-content-type-options', 'nosniff')
      .header('x-vigil-truncated', String(truncated))
      .send(content);
  });
}
