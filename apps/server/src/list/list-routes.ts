import { countAnswerSchema } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import { requestUrl, requireActor } from '../http/actor';
import { countList, listPage, type ListResource } from './list-engine';

export interface ListRoutesOptions {
  /** Base path of the resource's API, e.g. `/api/system_logs/`. */
  apiBase: string;
  /** Permission basename checked for `view`. */
  basename: string;
  db: Queryable;
  publicUrl: string | undefined;
  /** Brings the resource's rows up to date before a page or count is read (e.g. folds a queue). */
  beforeRead?: () => Promise<unknown>;
}

/**
 * Registers `POST <apiBase>check/` and `POST <apiBase>count/` for a resource. The caller's tenant
 * scope comes from the signed-in actor, never from the request.
 */
export function registerListRoutes<R, F extends Record<string, unknown>, O>(
  app: FastifyInstance,
  resource: ListResource<R, F, O>,
  options: ListRoutesOptions,
): void {
  const config = { permission: { basename: options.basename, action: 'view' } };
  app.post(`${options.apiBase}check/`, { config }, async (request) => {
    const actor = requireActor(request);
    await options.beforeRead?.();
    return listPage(options.db, resource, {
      query: request.query as Record<string, unknown>,
      body: request.body,
      scope: actor.scope,
      url: requestUrl(request, options.publicUrl),
    });
  });
  app.post(
    `${options.apiBase}count/`,
    { config, schema: { response: { 200: countAnswerSchema } } },
    async (request) => {
      const actor = requireActor(request);
      await options.beforeRead?.();
      return { count: await countList(options.db, resource, request.body, actor.scope) };
    },
  );
}
