import { currentUserSchema, endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { auditContextOf } from '../audit/audit.service';
import { MeService } from './me.service';

/** The signed-in user's own data: read by the console at start-up, and the profile page's edits. */
export async function registerMe(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const me = new MeService(deps.db, deps.config);
  const api = endpoints.users;

  // The console asks for the current user often; the answer is remembered with the identity and
  // forgotten with it (any write request clears both). It is checked against the contract once,
  // when built, and remembered as its JSON text, which is sent as it is.
  route(app, api.me, async ({ request, reply }) => {
    const actor = requireActor(request);
    const key = `me:${actor.sessionId ?? `token-user:${actor.userId}`}`;
    let json = app.identityCache.get<string>(key);
    if (json === undefined) {
      const mark = app.identityCache.mark();
      json = JSON.stringify(currentUserSchema.parse(await me.current(actor)));
      app.identityCache.set(key, json, mark);
    }
    return reply.type('application/json; charset=utf-8').send(json);
  });

  for (const spec of [api.replaceMe, api.updateMe]) {
    route(app, spec, async ({ request, body }) => {
      const actor = requireActor(request);
      await me.updateProfile(actor, auditContextOf(request), body);
      return me.current(actor);
    });
  }
}
