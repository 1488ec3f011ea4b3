import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { ssoUserColumns as userColumns, type SsoUserRow } from '../users/account-state.repository';

/** A company's provider settings as stored (client_secret included: never answer it as is). */
export interface SsoSettingsRow {
  company_id: number;
  enabled: boolean;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  jit_create: boolean;
  default_role_id: number | null;
  password_change_url: string | null;
  updated_at: Date;
}

/** What is written by a save; every field, already merged with what was stored. */
export type SsoSettingsValues = Omit<SsoSettingsRow, 'company_id' | 'updated_at'>;

const settingsColumns = sql`s.company_id, s.enabled, s.issuer, s.client_id, s.client_secret, s.scopes, s.jit_create,
  s.default_role_id, s.password_change_url, s.updated_at`;

export async function findSettings(db: Queryable, companyId: number, lock = false): Promise<SsoSettingsRow | null> {
  const { rows } = await db.query<SsoSettingsRow>(
    sql`SELECT ${settingsColumns} FROM company_sso s WHERE s.company_id = ${companyId} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  return rows[0] ?? null;
}

/** Settings of an active company whose single sign-on is enabled, or null. */
export async function findEnabledSettings(db: Queryable, companyId: number): Promise<SsoSettingsRow | null> {
  const { rows } = await db.query<SsoSettingsRow>(sql`
    SELECT ${settingsColumns} FROM company_sso s JOIN companies c ON c.id = s.company_id
    WHERE s.company_id = ${companyId} AND s.enabled AND c.is_active`);
  return rows[0] ?? null;
}

export async function saveSettings(
  db: Queryable,
  companyId: number,
  values: SsoSettingsValues,
): Promise<SsoSettingsRow> {
  const { rows } = await db.query<SsoSettingsRow>(sql`
    INSERT INTO company_sso AS s (company_id, enabled, issuer, client_id, client_secret, scopes, jit_create,
                                  default_role_id, password_change_url, updated_at)
    VALUES (${companyId}, ${values.enabled}, ${values.issuer}, ${values.client_id}, ${values.client_secret},
            ${values.scopes}, ${values.jit_create}, ${values.default_role_id}, ${values.password_change_url}, now())
    ON CONFLICT (company_id) DO UPDATE SET
      enabled = EXCLUDED.enabled, issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
      client_secret = EXCLUDED.client_secret, scopes = EXCLUDED.scopes, jit_create = EXCLUDED.jit_create,
      default_role_id = EXCLUDED.default_role_id, password_change_url = EXCLUDED.password_change_url,
      updated_at = now()
    RETURNING ${settingsColumns}`);
  return rows[0] as SsoSettingsRow;
}

export async function deleteSettings(db: Queryable, companyId: number): Promise<void> {
  await db.query(sql`DELETE FROM company_sso WHERE company_id = ${companyId}`);
}

/** A company in the caller's scope (another tenant's company does not exist), optionally locked. */
export async function findCompanyInScope(
  db: Queryable,
  scope: TenantScope,
  id: number,
  lock = false,
): Promise<{ id: number; name: string } | null> {
  const { rows } = await db.query<{ id: number; name: string }>(sql`
    SELECT c.id, c.name FROM companies c WHERE c.id = ${id} AND ${tenantCondition(scope, sql`c.id`)}
    ${lock ? sql`FOR NO KEY UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export async function isRoleOfCompany(db: Queryable, roleId: number, companyId: number): Promise<boolean> {
  const { rows } = await db.query(sql`SELECT 1 FROM roles WHERE id = ${roleId} AND company_id = ${companyId}`);
  return rows.length > 0;
}

// ── Sign-ins in progress ────────────────────────────────────────────────────────────────────

export interface LoginStateRow {
  company_id: number;
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  next_path: string | null;
}

/** Records a sign-in in progress under the hash of its state; expired ones are cleared on the way. */
export async function insertLoginState(
  db: Queryable,
  stateHash: string,
  state: LoginStateRow,
  ttlSeconds: number,
): Promise<void> {
  await db.query(sql`DELETE FROM sso_login_states WHERE expires_at < now()`);
  await db.query(sql`
    INSERT INTO sso_login_states (id, company_id, code_verifier, nonce, redirect_uri, next_path, expires_at)
    VALUES (${stateHash}, ${state.company_id}, ${state.code_verifier}, ${state.nonce}, ${state.redirect_uri},
            ${state.next_path}, now() + make_interval(secs => ${ttlSeconds}))`);
}

/** Takes a sign-in in progress out (it can be finished once), or null when unknown or expired. */
export async function takeLoginState(db: Queryable, stateHash: string): Promise<LoginStateRow | null> {
  const { rows } = await db.query<LoginStateRow & { expired: boolean }>(sql`
    DELETE FROM sso_login_states WHERE id = ${stateHash}
    RETURNING company_id, code_verifier, nonce, redirect_uri, next_path, expires_at < now() AS expired`);
  const row = rows[0];
  if (!row || row.expired) return null;
  return {
    company_id: row.company_id,
    code_verifier: row.code_verifier,
    nonce: row.nonce,
    redirect_uri: row.redirect_uri,
    next_path: row.next_path,
  };
}

// ── Users ───────────────────────────────────────────────────────────────────────────────────

// Users are read here and written by the users module (linking, unlinking, creating at a first
// sign-on: users/account-state.repository.ts).

export type { SsoUserRow };

/** The user of a company linked to a provider subject. */
export async function findUserBySubject(db: Queryable, companyId: number, subject: string): Promise<SsoUserRow | null> {
  const { rows } = await db.query<SsoUserRow>(
    sql`SELECT ${userColumns} FROM users u WHERE u.company_id = ${companyId} AND u.sso_subject = ${subject}`,
  );
  return rows[0] ?? null;
}

/** The user with this e-mail (case-insensitive), whatever its company: e-mails are unique. */
export async function findUserByEmail(db: Queryable, email: string): Promise<SsoUserRow | null> {
  const { rows } = await db.query<SsoUserRow>(
    sql`SELECT ${userColumns} FROM users u WHERE lower(u.email) = lower(${email})`,
  );
  return rows[0] ?? null;
}

/** A user in the caller's scope, or null (another tenant's user does not exist for the caller). */
export async function findUserInScope(db: Queryable, scope: TenantScope, id: number): Promise<SsoUserRow | null> {
  const { rows } = await db.query<SsoUserRow>(sql`
    SELECT ${userColumns} FROM users u WHERE u.id = ${id} AND ${tenantCondition(scope, sql`u.company_id`)}
    FOR UPDATE`);
  return rows[0] ?? null;
}

/** Company of the active user signing in as `login` (username or e-mail, as the password sign-in takes it). */
export async function companyOfLogin(db: Queryable, login: string): Promise<number | null> {
  const { rows } = await db.query<{ company_id: number }>(sql`
    SELECT company_id FROM users
    WHERE (lower(username) = lower(${login}) OR lower(email) = lower(${login})) AND archived_at IS NULL
    ORDER BY (lower(username) = lower(${login})) DESC
    LIMIT 1`);
  return rows[0]?.company_id ?? null;
}

export async function companyOfUser(db: Queryable, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ company_id: number }>(
    sql`SELECT company_id FROM users WHERE id = ${userId} AND archived_at IS NULL`,
  );
  return rows[0]?.company_id ?? null;
}

export async function usernameTaken(db: Queryable, username: string): Promise<boolean> {
  const { rows } = await db.query(sql`SELECT 1 FROM users WHERE lower(username) = lower(${username})`);
  return rows.length > 0;
}
