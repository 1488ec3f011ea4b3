import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { hashPassword } from '../modules/auth/passwords';
import { validatePasswordPolicy } from '../modules/auth/password-policy';
import { revocationEpochOf } from '../modules/auth/revocation.repository';
import { recordAudit } from '../modules/audit/audit.service';
import { findCompanyByName, providerCompany } from '../modules/companies/companies.repository';
import { findRoleByName } from '../modules/roles/roles.repository';
import { findUserByUsername, insertUser, replaceUserRoles, resetUserPassword } from '../modules/users/users.repository';
import { endAllAccess, unlockUser } from '../modules/users/users.service';

/** A failure the command line reports as one readable line. */
export class CommandError extends Error {}

const cli = { userId: null, username: 'vigil-cli', impersonatorId: null, ip: null };

function checkPassword(password: string, username: string, minLength: number): void {
  const problems = validatePasswordPolicy(password, { username, minLength });
  if (problems.length > 0) throw new CommandError(`The password is not accepted: ${problems.join(' ')}`);
}

export async function createAdmin(
  db: Database,
  config: Config,
  options: { username: string; password: string; email?: string; company?: string; role?: string },
): Promise<{ id: number; username: string; company: string }> {
  checkPassword(options.password, options.username, config.passwordMinLength);
  const passwordHash = await hashPassword(options.password);
  return db.transaction(async (tx) => {
    if (await findUserByUsername(tx, options.username))
      throw new CommandError(`The username "${options.username}" is taken.`);
    const company = options.company ? await findCompanyByName(tx, options.company) : await providerCompany(tx);
    if (!company) {
      throw new CommandError(
        options.company
          ? `No company named "${options.company}".`
          : 'The database has no provider company yet: start the server once.',
      );
    }
    let roleId: number | null = null;
    if (options.role) {
      const role = await findRoleByName(tx, company.id, options.role);
      if (!role) throw new CommandError(`${company.name} has no role named "${options.role}".`);
      roleId = role.id;
    }
    const id = await insertUser(tx, {
      company_id: company.id,
      username: options.username,
      email: options.email ?? null,
      password_hash: passwordHash,
      is_superuser: true,
      all_companies: true,
    });
    if (roleId !== null) await replaceUserRoles(tx, id, [roleId]);
    await recordAudit(tx, cli, {
      action: 'create',
      objectType: 'user',
      objectId: id,
      objectRepr: options.username,
      companyId: company.id,
      after: { username: options.username, is_superuser: true, all_companies: true },
    });
    return { id, username: options.username, company: company.name };
  });
}

export async function resetPassword(
  db: Database,
  config: Config,
  username: string,
  password?: string,
): Promise<string> {
  const chosen = password ?? randomBytes(12).toString('base64url');
  if (password !== undefined) checkPassword(password, username, config.passwordMinLength);
  const passwordHash = await hashPassword(chosen);
  await db.transaction(async (tx) => {
    const user = await findUserByUsername(tx, username);
    if (!user) throw new CommandError(`No user named "${username}".`);
    await resetUserPassword(tx, user.id, passwordHash);
    await endAllAccess(tx, user.id);
    await recordAudit(tx, cli, {
      action: 'reset_password',
      objectType: 'user',
      objectId: user.id,
      objectRepr: username,
      companyId: user.company_id,
    });
  });
  // The user's sessions and token ended: running server processes stop accepting them now.
  await revocationEpochOf(db)?.bump();
  return chosen;
}

export async function unlock(db: Database, username: string): Promise<void> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new CommandError(`No user named "${username}".`);
  await db.transaction(async (tx) => {
    await unlockUser(tx, user.id);
    await recordAudit(tx, cli, {
      action: 'unlock',
      objectType: 'user',
      objectId: user.id,
      objectRepr: username,
      companyId: user.company_id,
    });
  });
}
