import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { sql } from '../../db/sql';
import { hashPassword } from '../auth/passwords';
import { insertCompany, providerCompany } from '../companies/companies.repository';

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
    const { rows } = await tx.query<{ n: number }>(sql`SELECT count(*)::int8 AS n FROM users`);
    if (Number(rows[0]?.n ?? 0) > 0) return { admin: null };
    const username = config.adminUsername ?? 'admin';
    const generated = config.adminPassword === undefined;
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    await tx.query(sql`
      INSERT INTO users (company_id, username, first_name, last_name, password_hash, password_changed_at,
                         password_must_change, is_superuser, all_companies)
      VALUES (${provider.id}, ${username}, 'Administrator', '', ${await hashPassword(password)}, now(),
              ${generated}, true, true)`);
    return { admin: { username, password: generated ? password : null, mustChange: generated } };
  });
}
