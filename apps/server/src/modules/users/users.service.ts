import type { Permission, PrivilegedFlag, User, UserCreate, UserUpdate } from '@vigil/contract';
import type { Config } from '../../config';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope, seesAllCompanies } from '../../http/tenancy';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { hashPassword } from '../auth/passwords';
import { validatePasswordPolicy } from '../auth/password-policy';
import { beyondActor, outranksActor } from '../roles/permission-rules';
import { findRolesByIds } from '../roles/roles.repository';
import { endAllSessionsOf } from '../sessions/sessions.service';
import { findUnit } from '../units/units.repository';
import { startActivation } from './activation';
import {
  allUsers,
  availableUsers,
  countActiveUsers,
  dropApiToken,
  findUser,
  findUsersByIds,
  insertUser,
  replaceUserCompanies,
  replaceUserRoles,
  setPrivilegedSettings,
  setUserArchived,
  toUser,
  updateUserRow,
  usernameOrEmailTaken,
  userReach,
  type UserRef,
  type UserRow,
} from './users.repository';

// The users module is the one writer of users and their roles: other modules change a user's
// sign-in state through these, inside their own transaction, and write the audit record.
export {
  activatePendingOtpSecret,
  claimOtpStep,
  clearApiToken,
  clearOtp,
  insertSsoUser,
  linkSubject,
  pendingOtpSecret,
  putTemporaryApiToken,
  recordLoginFailure,
  recordLoginSuccess,
  restoreApiToken,
  setApiToken,
  setPassword,
  storedApiToken,
  unlinkCompanyUsers,
  unlinkUser,
  unlockUser,
  type SsoUserRow,
  type StoredApiToken,
} from './account-state.repository';

/** Ends every session of a user (archive, password reset) and revokes its API token. */
export async function endAllAccess(tx: Queryable, userId: number): Promise<void> {
  await endAllSessionsOf(tx, userId);
  await dropApiToken(tx, userId);
}

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
  if (input.all_companies && !seesAllCompanies(actor.scope)) {
    throw forbidden('Only staff with access to all companies can grant it.');
  }
  for (const id of input.extra_company_ids ?? []) {
    if (!inScope(actor.scope, id)) (errors.extra_company_ids ??= []).push(`No company with id ${id}.`);
  }
  if (input.unit_id !== undefined && input.unit_id !== null) {
    // The unit must belong to the user's company: look it up in that company alone.
    if (!(await findUnit(db, { companies: [companyId] }, input.unit_id))) {
      errors.unit_id = [`No unit with id ${input.unit_id} in this company.`];
    }
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

/**
 * Refuses (403) an actor who may not act on this user: one who lacks anything the user holds — its
 * superuser rank, a permission, a company it sees (`outranksActor`, the one rule for every change
 * made to another user). A user that does not exist passes: the caller answers 404 for it.
 */
export async function assertCanManage(db: Queryable, actor: Actor, userId: number): Promise<void> {
  const reach = await userReach(db, userId);
  if (!reach) return;
  const refusal = outranksActor(actor, {
    isSuperuser: reach.is_superuser,
    allCompanies: reach.all_companies,
    companyIds: reach.company_ids,
    permissions: reach.permissions,
  });
  if (refusal) throw forbidden(refusal);
}

/** A created user, and the activation link when it was created without a password. */
export interface CreatedUser {
  row: UserRow;
  activation: string | null;
}

/** User administration: each change in one transaction with its audit records. */
export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'passwordMinLength' | 'activationTtlHours'>,
  ) {}

  async get(actor: Actor, id: number): Promise<UserRow> {
    const user = await findUser(this.db, actor.scope, id);
    if (!user) throw notFound();
    return user;
  }

  countActive(actor: Actor): Promise<number> {
    return countActiveUsers(this.db, actor.scope);
  }

  available(actor: Actor): Promise<UserRef[]> {
    return availableUsers(this.db, actor.scope);
  }

  all(actor: Actor): Promise<UserRow[]> {
    return allUsers(this.db, actor.scope);
  }

  /** `base` is the console's address, for the activation link. */
  async create(actor: Actor, audit: AuditContext, input: UserCreate, base: string): Promise<CreatedUser> {
    const companyId = input.company_id ?? actor.companyId;
    if (input.password !== undefined) {
      const problems = validatePasswordPolicy(input.password, {
        username: input.username,
        minLength: this.config.passwordMinLength,
      });
      if (problems.length > 0) throw new ValidationError({ password: problems });
    }
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
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
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'user',
        objectId: id,
        objectRepr: row.username,
        companyId,
        after: userSnapshot(row),
      });
      const activation =
        passwordHash === null ? await startActivation(tx, row, base, this.config.activationTtlHours) : null;
      return { row, activation };
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: UserUpdate): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      const before = await findUser(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await assertCanManage(tx, actor, id);
      if (id === actor.userId && input.is_superuser === false && before.is_superuser) {
        throw ValidationError.field('is_superuser', 'You cannot take away your own superuser rights.');
      }
      await checkUserWrite(tx, actor, input, input.company_id ?? before.company_id, id);
      await updateUserRow(tx, id, input);
      if (input.role_ids) await replaceUserRoles(tx, id, input.role_ids);
      if (input.extra_company_ids) await replaceUserCompanies(tx, id, input.extra_company_ids);
      const after = (await findUser(tx, { companies: 'all' }, id))!;
      await recordAudit(tx, audit, {
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
  }

  /**
   * Archives (ending every session and revoking API tokens) or restores the users named by `ids`;
   * any id not in scope is a field error and nothing changes.
   */
  async archiveOrRestore(
    actor: Actor,
    audit: AuditContext,
    ids: readonly number[],
    action: 'archive' | 'restore',
  ): Promise<{ count: number }> {
    const unique = [...new Set(ids)];
    return this.db.transaction(async (tx) => {
      const users = await findUsersByIds(tx, actor.scope, unique);
      const found = new Set(users.map((u) => u.id));
      const missing = unique.filter((id) => !found.has(id));
      if (missing.length > 0) throw ValidationError.field('ids', `No user with id ${missing.join(', ')}.`);
      if (action === 'archive' && found.has(actor.userId)) {
        throw ValidationError.field('ids', 'You cannot archive yourself.');
      }
      for (const user of users) await assertCanManage(tx, actor, user.id);
      for (const user of users) {
        await setUserArchived(tx, user.id, action === 'archive');
        if (action === 'archive') await endAllAccess(tx, user.id);
        await recordAudit(tx, audit, {
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

  /**
   * Sets a user's privileged flags. The user is looked up before the body is read: another
   * company's user does not exist, whatever the body says.
   */
  async changePrivilegedSettings(
    actor: Actor,
    audit: AuditContext,
    id: number,
    readFlags: () => Partial<Record<PrivilegedFlag, boolean>>,
  ): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      const before = await findUser(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await assertCanManage(tx, actor, id);
      // The object lists the flags that are on; a flag left out (or false) is off.
      const enabled = Object.fromEntries(Object.entries(readFlags()).filter(([, on]) => on === true));
      await setPrivilegedSettings(tx, id, enabled);
      await recordAudit(tx, audit, {
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
  }
}
