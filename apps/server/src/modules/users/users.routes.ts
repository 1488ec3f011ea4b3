import {
  idsSchema,
  privilegedSettingsSchema,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
  type UserUpdate,
} from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { sql } from '../../db/sql';
import { publicBase, requestUrl, requireActor } from '../../http/actor';
import { notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { tenantCondition } from '../../http/tenancy';
import { listPage } from '../../list/list-engine';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit, systemLogList } from '../audit/audit.repository';
import { hashPassword } from '../auth/passwords';
import { validatePasswordPolicy } from '../auth/password-policy';
import {
  endAllAccess,
  findUser,
  findUsersByIds,
  fullName,
  insertUser,
  replaceUserCompanies,
  replaceUserRoles,
  toUser,
  updateUserRow,
  userColumns,
  userList,
  type UserRow,
} from './users.repository';
import { startActivation } from './activation';
import { assertCanManage, checkUserWrite, userSnapshot } from './users.service';

const perm = (action: string) => ({ config: { permission: { basename: 'users', action } } });

/** Users administration (spec §6, §7): list, create, edit, archive, restore, privileged flags, timelines. */
export async function registerUsers(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerListRoutes(app, userList, {
    apiBase: '/api/users/',
    basename: 'users',
    db,
    publicUrl: deps.config.publicUrl,
  });

  app.get('/api/users/count/', perm('view'), async (request) => {
    const actor = requireActor(request);
    const { rows } = await db.query<{ count: number }>(sql`
      SELECT count(*)::int8 AS count FROM users u
      WHERE u.archived_at IS NULL AND ${tenantCondition(actor.scope, sql`u.company_id`)}`);
    return { count: Number(rows[0]?.count ?? 0) };
  });

  /** Light list for pickers (assignee, recipients): any signed-in user, active users in scope. */
  app.get('/api/users/available/', async (request) => {
    const actor = requireActor(request);
    const { rows } = await db.query<{
      id: number;
      username: string;
      first_name: string;
      last_name: string;
      company_id: number;
    }>(sql`
      SELECT u.id, u.username, u.first_name, u.last_name, u.company_id FROM users u
      WHERE u.archived_at IS NULL AND ${tenantCondition(actor.scope, sql`u.company_id`)}
      ORDER BY lower(u.first_name || ' ' || u.last_name), lower(u.username) LIMIT 5000`);
    return rows.map((r) => ({ id: r.id, username: r.username, full_name: fullName(r), company_id: r.company_id }));
  });

  /** Every user in scope, archived ones included, unpaged (at most 10,000). */
  app.get('/api/users/all/', perm('view'), async (request) => {
    const actor = requireActor(request);
    const { rows } = await db.query<UserRow>(sql`
      SELECT ${userColumns} FROM users u JOIN companies c ON c.id = u.company_id
      WHERE ${tenantCondition(actor.scope, sql`u.company_id`)} ORDER BY lower(u.username) LIMIT 10000`);
    return { results: rows.map(toUser), count: rows.length };
  });

  app.get('/api/users/:id/', perm('view'), async (request) => {
    const user = await findUser(db, requireActor(request).scope, pathId(request.params));
    if (!user) throw notFound();
    return userSchema.parse(toUser(user));
  });

  app.post('/api/users/', perm('add'), async (request, reply) => {
    const actor = requireActor(request);
    const input = parseOrThrow(userCreateSchema, request.body ?? {});
    const companyId = input.company_id ?? actor.companyId;
    if (input.password !== undefined) {
      const problems = validatePasswordPolicy(input.password, {
        username: input.username,
        minLength: deps.config.passwordMinLength,
      });
      if (problems.length > 0) throw new ValidationError({ password: problems });
    }
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const created = await db.transaction(async (tx) => {
      await checkUserWrite(tx, actor, input, companyId, null);
      const id = await insertUser(tx, {
        ...input,
        company_id: companyId,
        password_hash: passwordHash,
        // A password an administrator typed is known to two people: the user replaces it.
        password_must_change: passwordHash !== null,
      });
      await replaceUserRoles(tx, id, input.role_ids ?? []);
      await replaceUserCompanies(tx, id, input.extra_company_ids ?? []);
      const row = (await findUser(tx, actor.scope, id))!;
      await recordAudit(tx, auditContextOf(request), {
        action: 'create',
        objectType: 'user',
        objectId: id,
        objectRepr: row.username,
        companyId,
        after: userSnapshot(row),
      });
      const activation =
        passwordHash === null
          ? await startActivation(tx, row, publicBase(request, deps.config.publicUrl), deps.config.activationTtlHours)
          : null;
      return { row, activation };
    });
    reply.status(201);
    return { ...toUser(created.row), activation_link: created.activation };
  });

  const update = async (request: FastifyRequest) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const input: UserUpdate = parseOrThrow(userUpdateSchema, request.body ?? {});
    const updated = await db.transaction(async (tx) => {
      const before = await findUser(tx, actor.scope, id, true);
      if (!before) throw notFound();
      assertCanManage(actor, before);
      if (id === actor.userId && input.is_superuser === false && before.is_superuser) {
        throw ValidationError.field('is_superuser', 'You cannot take away your own superuser rights.');
      }
      await checkUserWrite(tx, actor, input, input.company_id ?? before.company_id, id);
      await updateUserRow(tx, id, input);
      if (input.role_ids) await replaceUserRoles(tx, id, input.role_ids);
      if (input.extra_company_ids) await replaceUserCompanies(tx, id, input.extra_company_ids);
      const after = (await findUser(tx, { companies: 'all' }, id))!;
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'user',
        objectId: id,
        objectRepr: after.username,
        companyId: after.company_id,
        before: userSnapshot(before),
        after: userSnapshot(after),
      });
      return after;
    });
    return toUser(updated);
  };
  app.put('/api/users/:id/', perm('change'), update);
  app.patch('/api/users/:id/', perm('change'), update);

  /** Loads the users named by `ids` for a batch action; any id not in scope is a field error. */
  async function batch(request: FastifyRequest, action: 'archive' | 'restore') {
    const actor = requireActor(request);
    const { ids } = parseOrThrow(idsSchema, request.body ?? {});
    const unique = [...new Set(ids)];
    return db.transaction(async (tx) => {
      const users = await findUsersByIds(tx, actor.scope, unique);
      const found = new Set(users.map((u) => u.id));
      const missing = unique.filter((id) => !found.has(id));
      if (missing.length > 0) throw ValidationError.field('ids', `No user with id ${missing.join(', ')}.`);
      if (action === 'archive' && found.has(actor.userId)) {
        throw ValidationError.field('ids', 'You cannot archive yourself.');
      }
      for (const user of users) assertCanManage(actor, user);
      for (const user of users) {
        if (action === 'archive') {
          await tx.query(
            sql`UPDATE users SET archived_at = now(), updated_at = now() WHERE id = ${user.id} AND archived_at IS NULL`,
          );
          await endAllAccess(tx, user.id);
        } else {
          await tx.query(sql`UPDATE users SET archived_at = NULL, updated_at = now() WHERE id = ${user.id}`);
        }
        await recordAudit(tx, auditContextOf(request), {
          action,
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
          before: { archived: user.archived_at !== null },
          after: { archived: action === 'archive' },
        });
      }
      return { count: users.length };
    });
  }
  app.delete('/api/users/', perm('delete'), async (request) => batch(request, 'archive'));
  app.post('/api/users/restore/', perm('restore'), async (request) => batch(request, 'restore'));

  app.post('/api/users/:id/change_privileged_settings/', perm('change_privileged_settings'), async (request) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const updated = await db.transaction(async (tx) => {
      // Another company's user does not exist, whatever the body says: look it up first.
      const before = await findUser(tx, actor.scope, id, true);
      if (!before) throw notFound();
      assertCanManage(actor, before);
      const { privileged_settings: flags } = parseOrThrow(privilegedSettingsSchema, request.body ?? {});
      // The object lists the flags that are on; a flag left out (or false) is off.
      const enabled = Object.fromEntries(Object.entries(flags).filter(([, on]) => on === true));
      await tx.query(
        sql`UPDATE users SET privileged_settings = ${JSON.stringify(enabled)}::jsonb, updated_at = now() WHERE id = ${id}`,
      );
      await recordAudit(tx, auditContextOf(request), {
        action: 'change_privileged_settings',
        objectType: 'user',
        objectId: id,
        objectRepr: before.username,
        companyId: before.company_id,
        before: { privileged_settings: before.privileged_settings },
        after: { privileged_settings: enabled },
      });
      return (await findUser(tx, actor.scope, id))!;
    });
    return toUser(updated);
  });

  /** Timelines of one user, newest first: changes made to the user, and actions the user took. */
  const timeline = (kind: 'object' | 'actor') => async (request: FastifyRequest) => {
    const actor = requireActor(request);
    const id = pathId(request.params, 'user');
    const target = await findUser(db, actor.scope, id);
    if (!target) throw notFound();
    const condition =
      kind === 'object' ? sql`l.object_type = 'user' AND l.object_id = ${String(id)}` : sql`l.user_id = ${id}`;
    return listPage(
      db,
      { ...systemLogList, baseCondition: condition },
      {
        query: request.query as Record<string, unknown>,
        body: request.body,
        scope: actor.scope,
        url: requestUrl(request, deps.config.publicUrl),
      },
    );
  };
  app.post('/api/users/:user/timeline/check/', perm('view'), timeline('object'));
  app.post('/api/users/:user/user_logs_timeline/check/', perm('view'), timeline('actor'));
}
