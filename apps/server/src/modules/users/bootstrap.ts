import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { sql } from '../../db/sql';
import { hashPassword } from '../auth/passwords';
import { insertCompany, providerCompany } from '../companies/companies.repository';
import { anyUserExists, insertUser } from './users.repository';

export interface BootstrapResult {
  /** Set when this start created the first administrator. */
  admin: { username: string; password: string | null; mustChange: boolean } | null;
}

/**
 * First start on an empty database: the provider company and the first administrator. The
 * administrator comes from VIGIL_ADMIN_USERNAME / VIGIL_ADMIN_PASSWORD when set; otherwise
 * `admin` with a random password that must be changed at the first sign-in.
 */
export async function bootstrap(
  db: Database,
  config: Pick<Config, 'providerName' | 'adminUsername' | 'adminPassword'>,
): Promise<BootstrapResult> {
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT pg_advisory_xact_lock(${0x76696768})`);
    const provider =
      (await providerCompany(tx)) ?? (await insertCompany(tx, { name: config.providerName, kind: 'provider' }));
    if (await anyUserExists(tx)) return { admin: null };
    const username = config.adminUsername ?? 'admin';
    const generated = config.adminPassword === undefined;
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    await insertUser(tx, {
      company_id: provider.id,
      username,
      first_name: 'Administrator',
      password_hash: await hashPassword(password),
      password_must_change: generated,
      is_superuser: true,
      all_companies: true,
    });
    return { admin: { username, password: generated ? password : null, mustChange: generated } };
  });
}
