import { actionsOf, endpoints, resourceKinds } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { roleList, toRole } from './roles.repository';
import { RolesService } from './roles.service';

/**
 * Roles bundle permissions over the resource registry. They belong to a company and are
 * administered with the `users` permissions (roles are part of user administration).
 */
export async function registerRoles(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const roles = new RolesService(deps.db);
  const api = endpoints.roles;
  registerList(app, api, roleList, { db: deps.db, publicUrl: deps.config.publicUrl });

  /** Every resource kind and the actions a role may grant on it, for the role editor. */
  route(app, api.catalog, async () =>
    resourceKinds.map((k) => ({ basename: k.basename, section: k.section, actions: actionsOf(k) })),
  );

  route(app, api.get, async ({ request, params }) => toRole(await roles.get(requireActor(request), params.id)));

  route(app, api.create, async ({ request, body }) =>
    toRole(await roles.create(requireActor(request), auditContextOf(request), body)),
  );

  for (const spec of [api.replace, api.update]) {
    route(app, spec, async ({ request, params, body }) =>
      toRole(await roles.update(requireActor(request), auditContextOf(request), params.id, body)),
    );
  }

  route(app, api.remove, async ({ request, params }) => {
    await roles.remove(requireActor(request), auditContextOf(request), params.id);
  });
}
