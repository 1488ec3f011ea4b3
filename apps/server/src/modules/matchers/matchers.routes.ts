import { endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { WEBHOOK_JOB_KIND } from './apply-matchers';
import { committedActionList, matcherList, toMatcher } from './matchers.repository';
import { MatchersService } from './matchers.service';
import { webhookJobHandler } from './webhook';

/** Matchers ("committed actions"): conditions over new alerts → actions, and the actions they took. */
export async function registerMatchers(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  app.jobs.register(
    WEBHOOK_JOB_KIND,
    webhookJobHandler({
      timeoutMs: deps.config.webhookTimeoutMs,
      allowPrivateAddresses: deps.config.webhookAllowPrivateAddresses,
    }),
  );
  const matchers = new MatchersService(db, deps.config.webhookAllowPrivateAddresses);
  const api = endpoints.matchers;
  const listOptions = { db, publicUrl: deps.config.publicUrl };
  registerList(app, api, matcherList, listOptions);
  registerList(app, api.actions, committedActionList, listOptions);
  /** A path naming no matcher the caller can see answers 404 before the body is checked. */
  const matcherFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) =>
      Boolean(await matchers.get(requireActor(request), id)),
  };

  route(app, api.get, async ({ request, params }) => toMatcher(await matchers.get(requireActor(request), params.id)));

  route(app, api.create, async ({ request, body }) =>
    toMatcher(await matchers.create(requireActor(request), auditContextOf(request), body)),
  );

  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toMatcher(await matchers.update(requireActor(request), auditContextOf(request), params.id, body)),
    matcherFirst,
  );

  route(app, api.remove, async ({ request, params }) => {
    await matchers.remove(requireActor(request), auditContextOf(request), params.id);
  });
}
