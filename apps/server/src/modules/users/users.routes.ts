import { endpoints, privilegedSettingsSchema } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { publicBase, requestUrl, requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { parseOrThrow } from '../../http/errors';
import { listPage } from '../../list/list-engine';
import { registerList } from '../../list/list-routes';
import { userTimelineList } from '../audit/audit.repository';
import { auditContextOf } from '../audit/audit.service';
import { toUser, userList } from './users.repository';
import { UsersService } from './users.service';

/** Users administration: list, create, edit, archive, restore, privileged flags, timelines. */
export async function registerUsers(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const users = new UsersService(db, deps.config);
  const api = endpoints.users;
  registerList(app, api, userList, { db, publicUrl: deps.config.publicUrl });

  route(app, api.activeCount, async ({ request }) => ({ count: await users.countActive(requireActor(request)) }));

  /** Light list for pickers (assignee, recipients): any signed-in user, active users in scope. */
  route(app, api.available, async ({ request }) => users.available(requireActor(request)));

  route(app, api.all, async ({ request }) => {
    const rows = await users.all(requireActor(request));
    return { results: rows.map(toUser), count: rows.length };
  });

  route(app, api.get, async ({ request, params }) => toUser(await users.get(requireActor(request), params.id)));

  route(app, api.create, async ({ request, body }) => {
    const base = publicBase(request, deps.config.publicUrl);
    const created = await users.create(requireActor(request), auditContextOf(request), body, base);
    return { ...toUser(created.row), activation_link: created.activation };
  });

  for (const spec of [api.replace, api.update]) {
    route(app, spec, async ({ request, params, body }) =>
      toUser(await users.update(requireActor(request), auditContextOf(request), params.id, body)),
    );
  }

  route(app, api.archive, async ({ request, body }) =>
    users.archiveOrRestore(requireActor(request), auditContextOf(request), body.ids, 'archive'),
  );
  route(app, api.restore, async ({ request, body }) =>
    users.archiveOrRestore(requireActor(request), auditContextOf(request), body.ids, 'restore'),
  );

  // The user is looked up before the body is read (another company's user is a 404 whatever the
  // body says), so the body is parsed by the service's callback, not up front.
  route(
    app,
    api.changePrivilegedSettings,
    async ({ request, params }) => {
      const readFlags = () => parseOrThrow(privilegedSettingsSchema, request.body ?? {}).privileged_settings;
      return toUser(
        await users.changePrivilegedSettings(requireActor(request), auditContextOf(request), params.id, readFlags),
      );
    },
    { parseRequest: false },
  );

  /** Timelines of one user, newest first: changes made to the user, and actions the user took. */
  const timeline = (spec: typeof api.timeline, kind: 'object' | 'actor') =>
    route(
      app,
      spec,
      async ({ request, params }) => {
        const actor = requireActor(request);
        const target = await users.get(actor, params.user);
        return listPage(db, userTimelineList(kind, target.id), {
          query: request.query as Record<string, unknown>,
          body: request.body,
          scope: actor.scope,
          url: requestUrl(request, deps.config.publicUrl),
        });
      },
      { parseRequest: false },
    );
  timeline(api.timeline, 'object');
  timeline(api.actionsTimeline, 'actor');
}
