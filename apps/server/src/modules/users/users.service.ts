import type { Permission, User, UserCreate, UserUpdate } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { Actor } from '../../http/actor';
import { forbidden, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { beyondActor } from '../roles/permission-rules';
import { findRolesByIds } from '../roles/roles.repository';
import { toUser, usernameOrEmailTaken, type UserRow } from './users.repository';

/** What an audit record shows of a user: the answer without timestamps. */
export function userSnapshot(row: UserRow): Partial<User> {
  const { created_at: _c, updated_at: _u, last_login_at: _l, ...rest } = toUser(row);
  return rest;
}

/**
 * Checks the references and privileges of a user create/update against the actor: the company,
 * unit, roles and extra companies must exist in the actor's scope; superuser and all-companies
 * flags need an actor who has them; roles may not grant what the actor does not hold.
 * `companyId` is the user's company after the change.
 */
export async function checkUserWrite(
  db: Queryable,
  actor: Actor,
  input: UserCreate | UserUpdate,
  companyId: number,
  existingId: number | null,
): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (!inScope(actor.scope, companyId)) errors.company_id = [`No company with id ${companyId}.`];
  if (input.is_superuser && !actor.isSuperuser) throw forbidden('Only a superuser can make another superuser.');
  if (input.all_companies && actor.scope.companies !== 'all') {
    throw forbidden('Only staff with access to all companies can grant it.');
  }
  for (const id of input.extra_company_ids ?? []) {
    if (!inScope(actor.scope, id)) (errors.extra_company_ids ??= []).push(`No company with id ${id}.`);
  }
  if (input.unit_id !== undefined && input.unit_id !== null) {
    const { rows } = await db.query(sql`SELECT 1 FROM units WHERE id = ${input.unit_id} AND company_id = ${companyId}`);
    if (rows.length === 0) errors.unit_id = [`No unit with id ${input.unit_id} in this company.`];
  }
  if (input.role_ids && input.role_ids.length > 0) {
    const roles = await findRolesByIds(db, actor.scope, input.role_ids);
    const found = new Set(roles.filter((r) => r.company_id === companyId).map((r) => r.id));
    const missing = input.role_ids.filter((id) => !found.has(id));
    if (missing.length > 0) errors.role_ids = [`No role with id ${missing.join(', ')} in this company.`];
    const granted: Permission[] = roles.flatMap((r) => r.permissions);
    const beyond = beyondActor(actor, granted);
    if (beyond.length > 0 && missing.length === 0) {
      throw forbidden(`You cannot grant permissions you do not have: ${beyond.join(', ')}.`);
    }
  }
  if (input.username !== undefined && (await usernameOrEmailTaken(db, 'username', input.username, existingId))) {
    errors.username = ['This username is taken.'];
  }
  if (input.email && (await usernameOrEmailTaken(db, 'email', input.email, existingId))) {
    errors.email = ['Another user has this e-mail address.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** Whether the actor may act on this user at all: superusers are only managed by superusers. */
export function assertCanManage(actor: Actor, target: UserRow): void {
  if (target.is_superuser && !actor.isSuperuser) throw forbidden('Only a superuser can change a superuser.');
}
