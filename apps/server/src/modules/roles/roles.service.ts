import type { Permission, RoleCreate, RoleUpdate } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { beyondActor, normalisePermissions, permissionErrors } from './permission-rules';
import { deleteRole, findRole, insertRole, roleNameTaken, updateRoleRow, type RoleRow } from './roles.repository';

/** Refuses unknown resources/actions (400) and permissions the actor does not hold itself (403). */
function checkPermissions(actor: Actor, permissions: readonly Permission[]) {
  const errors = permissionErrors(permissions);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const missing = beyondActor(actor, permissions);
  if (missing.length > 0) throw forbidden(`You cannot grant permissions you do not have: ${missing.join(', ')}.`);
}

const nameTaken = (name: string) => ValidationError.field('name', `This company already has a role named "${name}".`);

/** A role in the audit log: its name, description and permissions (a deletion: name and permissions). */
const audited: AuditedKind<RoleRow> = {
  objectType: 'role',
  repr: (role) => role.name,
  snapshot: (role) => ({ name: role.name, description: role.description, permissions: role.permissions }),
  deleted: (role) => ({ name: role.name, permissions: role.permissions }),
};

/**
 * Roles bundle permissions over the resource registry; they belong to a company. A role never
 * grants what the administrator changing it does not hold. Each change is one transaction with
 * its audit record.
 */
export class RolesService {
  constructor(private readonly db: Database) {}

  async get(actor: Actor, id: number): Promise<RoleRow> {
    const role = await findRole(this.db, actor.scope, id);
    if (!role) throw notFound();
    return role;
  }

  async create(actor: Actor, audit: AuditContext, input: RoleCreate): Promise<RoleRow> {
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', `No company with id ${companyId}.`);
    const permissions = normalisePermissions(input.permissions);
    checkPermissions(actor, permissions);
    return this.db.transaction(async (tx) => {
      if (await roleNameTaken(tx, companyId, input.name, null)) throw nameTaken(input.name);
      const id = await insertRole(tx, {
        company_id: companyId,
        name: input.name,
        description: input.description ?? '',
        permissions,
      });
      const row = (await findRole(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { after: row });
      return row;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: RoleUpdate): Promise<RoleRow> {
    const permissions = input.permissions ? normalisePermissions(input.permissions) : undefined;
    if (permissions) checkPermissions(actor, permissions);
    return this.db.transaction(async (tx) => {
      const before = await findRole(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if (input.name !== undefined && (await roleNameTaken(tx, before.company_id, input.name, id))) {
        throw nameTaken(input.name);
      }
      await updateRoleRow(tx, id, { ...input, permissions });
      const after = (await findRole(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  /** Deleting a role takes its permissions away from its users: only someone holding them all may. */
  async remove(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const role = await findRole(tx, actor.scope, id, true);
      if (!role) throw notFound();
      checkPermissions(actor, role.permissions);
      await deleteRole(tx, id);
      await recordChange(tx, audit, audited, { before: role });
    });
  }
}
