import type { EndpointSpec } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Queryable } from '../db/database';
import { requestUrl, requireActor, type Actor } from '../http/actor';
import { route } from '../http/endpoints';
import { countList, listPage, type ListResource } from './list-engine';

export interface ListRoutesOptions {
  db: Queryable;
  publicUrl: string | undefined;
  /** Brings the resource's rows up to date before a page or count is read (e.g. folds a queue). */
  beforeRead?: () => Promise<unknown>;
}

/** Options of a list whose resource depends on who reads it (what it shows for the caller's company). */
export interface ActorListRoutesOptions<R, F extends Record<string, unknown>, O> extends ListRoutesOptions {
  /** The resource as this caller reads it; `resource` (same filters and orderings) is what start-up checks. */
  forActor?: (actor: Actor) => ListResource<R, F, O>;
}

/** A list resource's endpoints as the contract declares them (`listEndpoints`). */
export interface ListEndpointGroup {
  spec: { orderings: readonly string[]; defaultOrdering: readonly string[] };
  list: JsonEndpoint;
  count: JsonEndpoint;
}

/** An endpoint answering JSON with 200. */
type JsonEndpoint = EndpointSpec & { readonly responses: { readonly 200: z.ZodType } };

/**
 * Registers a list resource's declared `check/` and `count/` endpoints over the list engine. The
 * orderings the engine knows must be the ones the contract declares (checked at start-up), so the
 * console, the reference and the server never disagree about them.
 */
export function registerList<R, F extends Record<string, unknown>, O>(
  app: FastifyInstance,
  endpoints: ListEndpointGroup,
  resource: ListResource<R, F, O>,
  options: ActorListRoutesOptions<R, F, O>,
): void {
  const resourceFor = (actor: Actor) => options.forActor?.(actor) ?? resource;
  const declared = [...endpoints.spec.orderings].sort().join(',');
  const served = Object.keys(resource.orderings).sort().join(',');
  if (declared !== served || endpoints.spec.defaultOrdering.join(',') !== resource.defaultOrdering.join(',')) {
    throw new Error(
      `${endpoints.list.path}: the contract declares orderings [${declared}] (default ${endpoints.spec.defaultOrdering.join(',')}) ` +
        `but the list engine serves [${served}] (default ${resource.defaultOrdering.join(',')}).`,
    );
  }
  route(
    app,
    endpoints.list,
    async ({ request }) => {
      const actor = requireActor(request);
      await options.beforeRead?.();
      return listPage(options.db, resourceFor(actor), {
        query: request.query as Record<string, unknown>,
        body: request.body,
        scope: actor.scope,
        url: requestUrl(request, options.publicUrl),
      });
    },
    { parseRequest: false },
  );
  route(
    app,
    endpoints.count,
    async ({ request }) => {
      const actor = requireActor(request);
      await options.beforeRead?.();
      return { count: await countList(options.db, resourceFor(actor), request.body, actor.scope) };
    },
    { parseRequest: false },
  );
}
