import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { sql } from '../db/sql';
import { hashPassword } from '../modules/auth/passwords';
import { validatePasswordPolicy } from '../modules/auth/password-policy';
import { unlockUser } from '../modules/auth/lockout';
import { recordAudit } from '../modules/audit/audit.repository';
import { providerCompany } from '../modules/companies/companies.repository';
import { endAllAccess, findUserByUsername } from '../modules/users/users.repository';

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
    const company = options.company
      ? (
          await tx.query<{ id: number; name: string }>(
            sql`SELECT id, name FROM companies WHERE lower(name) = lower(${options.company})`,
          )
        ).rows[0]
      : await providerCompany(tx);
    if (!company) {
      throw new CommandError(
        options.company
          ? `No company named "${options.company}".`
          : 'The database has no provider company yet: start the server once.',
      );
    }
    let roleId: number | null = null;
    if (options.role) {
      const role = await tx.query<{ id: number }>(
        sql`SELECT id FROM roles WHERE company_id = ${company.id} AND lower(name) = lower(${options.role})`,
      );
      if (!role.rows[0]) throw new CommandError(`${company.name} has no role named "${options.role}".`);
      roleId = role.rows[0].id;
    }
    const { rows } = await tx.query<{ id: number }>(sql`
      INSERT INTO users (company_id, username, email, password_hash, password_changed_at, is_superuser, all_companies)
      VALUES (${company.id}, ${options.username}, ${options.email ?? null}, ${passwordHash}, now(), true, true)
      RETURNING id`);
    const id = rows[0]!.id;
    if (roleId !== null) await tx.query(sql`INSERT INTO user_roles (user_id, role_id) VALUES (${id}, ${roleId})`);
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
    await tx.query(sql`
      UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now(), password_must_change = true,
                       failed_logins = 0, locked_until = NULL, updated_at = now()
      WHERE id = ${user.id}`);
    await endAllAccess(tx, user.id);
    await recordAudit(tx, cli, {
      action: 'reset_password',
      objectType: 'user',
      objectId: user.id,
      objectRepr: username,
      companyId: user.company_id,
    });
  });
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
