import { actionsOf, resourceKinds, roleCreateSchema, roleUpdateSchema, type Permission } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { sql } from '../../db/sql';
import { requireActor, type Actor } from '../../http/actor';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { pathId } from '../../http/params';
import { beyondActor, normalisePermissions, permissionErrors } from './permission-rules';
import { findRole, insertRole, roleList, roleNameTaken, toRole, updateRoleRow } from './roles.repository';

/**
 * Roles bundle permissions over the resource registry. They belong to a company and are
 * administered with the `users` permissions (roles are part of user administration).
 */
export async function registerRoles(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerListRoutes(app, roleList, {
    apiBase: '/api/roles/',
    basename: 'users',
    db,
    publicUrl: deps.config.publicUrl,
  });

  /** Every resource kind and the actions a role may grant on it, for the role editor. */
  app.get('/api/roles/catalog/', async () =>
    resourceKinds.map((k) => ({ basename: k.basename, section: k.section, actions: actionsOf(k) })),
  );

  app.get('/api/roles/:id/', { config: { permission: { basename: 'users', action: 'view' } } }, async (request) => {
    const role = await findRole(db, requireActor(request).scope, pathId(request.params));
    if (!role) throw notFound();
    return toRole(role);
  });

  app.post('/api/roles/', { config: { permission: { basename: 'users', action: 'add' } } }, async (request, reply) => {
    const actor = requireActor(request);
    const input = parseOrThrow(roleCreateSchema, request.body ?? {});
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', `No company with id ${companyId}.`);
    const permissions = normalisePermissions(input.permissions);
    checkPermissions(actor, permissions);
    const role = await db.transaction(async (tx) => {
      if (await roleNameTaken(tx, companyId, input.name, null)) {
        throw ValidationError.field('name', `This company already has a role named "${input.name}".`);
      }
      const id = await insertRole(tx, {
        company_id: companyId,
        name: input.name,
        description: input.description ?? '',
        permissions,
      });
      const row = (await findRole(tx, actor.scope, id))!;
      await recordAudit(tx, auditContextOf(request), {
        action: 'create',
        objectType: 'role',
        objectId: id,
        objectRepr: row.name,
        companyId,
        after: { name: row.name, description: row.description, permissions: row.permissions },
      });
      return row;
    });
    reply.status(201);
    return toRole(role);
  });

  const update = { config: { permission: { basename: 'users', action: 'change' } } };
  const updateHandler = async (request: FastifyRequest) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const input = parseOrThrow(roleUpdateSchema, request.body ?? {});
    const permissions = input.permissions ? normalisePermissions(input.permissions) : undefined;
    if (permissions) checkPermissions(actor, permissions);
    const role = await db.transaction(async (tx) => {
      const before = await findRole(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if (input.name !== undefined && (await roleNameTaken(tx, before.company_id, input.name, id))) {
        throw ValidationError.field('name', `This company already has a role named "${input.name}".`);
      }
      await updateRoleRow(tx, id, { ...input, permissions });
      const after = (await findRole(tx, actor.scope, id))!;
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'role',
        objectId: id,
        objectRepr: after.name,
        companyId: after.company_id,
        before: { name: before.name, description: before.description, permissions: before.permissions },
        after: { name: after.name, description: after.description, permissions: after.permissions },
      });
      return after;
    });
    return toRole(role);
  };
  app.put('/api/roles/:id/', update, updateHandler);
  app.patch('/api/roles/:id/', update, updateHandler);

  app.delete(
    '/api/roles/:id/',
    { config: { permission: { basename: 'users', action: 'delete' } } },
    async (request, reply) => {
      const actor = requireActor(request);
      const id = pathId(request.params);
      await db.transaction(async (tx) => {
        const role = await findRole(tx, actor.scope, id, true);
        if (!role) throw notFound();
        checkPermissions(actor, role.permissions);
        await tx.query(sql`DELETE FROM roles WHERE id = ${id}`);
        await recordAudit(tx, auditContextOf(request), {
          action: 'delete',
          objectType: 'role',
          objectId: id,
          objectRepr: role.name,
          companyId: role.company_id,
          before: { name: role.name, permissions: role.permissions },
        });
      });
      reply.status(204);
    },
  );
}

/** Refuses unknown resources/actions (400) and permissions the actor does not hold itself (403). */
function checkPermissions(actor: Actor, permissions: readonly Permission[]) {
  const errors = permissionErrors(permissions);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const missing = beyondActor(actor, permissions);
  if (missing.length > 0) throw forbidden(`You cannot grant permissions you do not have: ${missing.join(', ')}.`);
}
