import {
  userFiltersSchema,
  type CurrentUser,
  type Permission,
  type PrivilegedFlag,
  type ProfileUpdate,
  type User,
  type UserFilters,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { filter, type ListResource } from '../../list/list-engine';

export interface UserRow {
  id: number;
  username: string;
  email: string | null;
  first_name: string;
  last_name: string;
  phone: string;
  company_id: number;
  company_name: string;
  unit_id: number | null;
  role_ids: number[] | null;
  extra_company_ids: number[] | null;
  all_companies: boolean;
  is_superuser: boolean;
  ip_whitelist: string[];
  otp_secret: string | null;
  privileged_settings: Record<string, boolean>;
  locked_until: Date | null;
  password_hash: string | null;
  archived_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Full name as shown in lists: "First Last", or the username when both are empty. */
export function fullName(row: { first_name: string; last_name: string; username: string }): string {
  return `${row.first_name} ${row.last_name}`.trim() || row.username;
}

/** Row → answer; secrets (password hash, OTP secret, token hash) never leave this function. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: fullName(row),
    phone: row.phone,
    company_id: row.company_id,
    company_name: row.company_name,
    unit_id: row.unit_id,
    role_ids: row.role_ids ?? [],
    extra_company_ids: row.extra_company_ids ?? [],
    all_companies: row.all_companies,
    is_superuser: row.is_superuser,
    ip_whitelist: row.ip_whitelist,
    two_factor_enabled: row.otp_secret !== null,
    privileged_settings: row.privileged_settings,
    locked: row.locked_until !== null && row.locked_until.getTime() > Date.now(),
    activated: row.password_hash !== null,
    archived: row.archived_at !== null,
    archived_at: iso(row.archived_at),
    last_login_at: iso(row.last_login_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const userColumns = sql`
  u.id, u.username, u.email, u.first_name, u.last_name, u.phone, u.company_id, c.name AS company_name, u.unit_id,
  (SELECT array_agg(ur.role_id ORDER BY ur.role_id) FROM user_roles ur WHERE ur.user_id = u.id) AS role_ids,
  (SELECT array_agg(uc.company_id ORDER BY uc.company_id) FROM user_companies uc WHERE uc.user_id = u.id) AS extra_company_ids,
  u.all_companies, u.is_superuser, u.ip_whitelist, u.otp_secret, u.privileged_settings, u.locked_until,
  u.password_hash, u.archived_at, u.last_login_at, u.created_at, u.updated_at`;
const userFrom = sql`users u JOIN companies c ON c.id = u.company_id`;

const list = <T>(value: T | T[]) => (Array.isArray(value) ? value : [value]);

/** Users as a list resource: active users by default, `archived: true` for the archive. */
export const userList: ListResource<UserRow, UserFilters, User> = {
  from: userFrom,
  select: userColumns,
  tenantColumn: sql`u.company_id`,
  idField: { expr: sql`u.id`, type: 'int8' },
  filtersSchema: userFiltersSchema,
  filters: {
    search: filter.search(
      sql`u.username`,
      sql`u.first_name`,
      sql`u.last_name`,
      sql`u.email`,
      sql`(u.first_name || ' ' || u.last_name)`,
    ),
    company_id: (v) => filter.in<number>(sql`u.company_id`, 'int8')(list(v)),
    unit_id: (v) => filter.in<number>(sql`u.unit_id`, 'int8')(list(v)),
    role_id: (v) =>
      sql`EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_id = ANY(${list(v)}::int8[]))`,
    archived: (v) => (v ? sql`u.archived_at IS NOT NULL` : sql`u.archived_at IS NULL`),
    is_superuser: filter.eq<boolean>(sql`u.is_superuser`),
    two_factor_enabled: (v) => (v ? sql`u.otp_secret IS NOT NULL` : sql`u.otp_secret IS NULL`),
    id: (v) => filter.in<number>(sql`u.id`, 'int8')(list(v)),
  },
  orderings: {
    username: { expr: sql`lower(u.username)`, type: 'text' },
    first_name: { expr: sql`lower(u.first_name)`, type: 'text' },
    last_name: { expr: sql`lower(u.last_name)`, type: 'text' },
    email: { expr: sql`lower(u.email)`, type: 'text', nullable: true },
    company: { expr: sql`lower(c.name)`, type: 'text' },
    created_at: { expr: sql`u.created_at`, type: 'timestamptz' },
    last_login_at: { expr: sql`u.last_login_at`, type: 'timestamptz', nullable: true },
    id: { expr: sql`u.id`, type: 'int8' },
  },
  defaultOrdering: ['username'],
  defaultFilters: { archived: false },
  toItem: toUser,
};

/** One user in the caller's scope, or null. */
export async function findUser(db: Queryable, scope: TenantScope, id: number, lock = false): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(sql`
    SELECT ${userColumns} FROM ${userFrom}
    WHERE u.id = ${id} AND ${tenantCondition(scope, sql`u.company_id`)}
    ${lock ? sql`FOR UPDATE OF u` : sql``}`);
  return rows[0] ?? null;
}

/** What a user may see and do (rank, companies, the permissions of its roles); null when there is no such user. */
export async function userReach(
  db: Queryable,
  userId: number,
): Promise<{ is_superuser: boolean; all_companies: boolean; company_ids: number[]; permissions: Permission[] } | null> {
  const { rows } = await db.query<{
    is_superuser: boolean;
    all_companies: boolean;
    company_ids: number[];
    permissions: Permission[] | null;
  }>(sql`
    SELECT u.is_superuser, u.all_companies,
           ARRAY[u.company_id] || COALESCE((SELECT array_agg(uc.company_id) FROM user_companies uc
                                            WHERE uc.user_id = u.id), '{}') AS company_ids,
           (SELECT jsonb_agg(p) FROM user_roles ur JOIN roles r ON r.id = ur.role_id,
                   jsonb_array_elements(r.permissions) p WHERE ur.user_id = u.id) AS permissions
    FROM users u WHERE u.id = ${userId}`);
  const row = rows[0];
  if (!row) return null;
  return { ...row, company_ids: row.company_ids.map(Number), permissions: row.permissions ?? [] };
}

export async function findUsersByIds(db: Queryable, scope: TenantScope, ids: readonly number[]): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(sql`
    SELECT ${userColumns} FROM ${userFrom}
    WHERE u.id = ANY(${[...ids]}::int8[]) AND ${tenantCondition(scope, sql`u.company_id`)}
    ORDER BY u.id FOR UPDATE OF u`);
  return rows;
}

export async function findUserByUsername(
  db: Queryable,
  username: string,
): Promise<{ id: number; company_id: number } | null> {
  const { rows } = await db.query<{ id: number; company_id: number }>(
    sql`SELECT id, company_id FROM users WHERE lower(username) = lower(${username})`,
  );
  return rows[0] ?? null;
}

export async function usernameOrEmailTaken(
  db: Queryable,
  field: 'username' | 'email',
  value: string,
  exceptId: number | null,
): Promise<boolean> {
  const column = field === 'username' ? sql`lower(username)` : sql`lower(email)`;
  const { rows } = await db.query(
    sql`SELECT 1 FROM users WHERE ${column} = lower(${value}) ${exceptId === null ? sql`` : sql`AND id <> ${exceptId}`}`,
  );
  return rows.length > 0;
}

export interface UserWrite {
  username?: string;
  email?: string | null;
  first_name?: string;
  last_name?: string;
  phone?: string;
  company_id?: number;
  unit_id?: number | null;
  all_companies?: boolean;
  is_superuser?: boolean;
  ip_whitelist?: string[];
  password_hash?: string | null;
  password_must_change?: boolean;
}

const writable: (keyof UserWrite)[] = [
  'username',
  'email',
  'first_name',
  'last_name',
  'phone',
  'company_id',
  'unit_id',
  'all_companies',
  'is_superuser',
  'ip_whitelist',
  'password_hash',
  'password_must_change',
];

function assignments(values: UserWrite): SqlFragment[] {
  const sets: SqlFragment[] = [];
  for (const key of writable) {
    const value = values[key];
    if (value === undefined) continue;
    sets.push(key === 'ip_whitelist' ? sql`${sql.ident(key)} = ${value}::text[]` : sql`${sql.ident(key)} = ${value}`);
  }
  return sets;
}

export async function insertUser(
  db: Queryable,
  values: UserWrite & { username: string; company_id: number },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO users (username, company_id, email, first_name, last_name, phone, unit_id, all_companies, is_superuser,
                       ip_whitelist, password_hash, password_changed_at, password_must_change)
    VALUES (${values.username}, ${values.company_id}, ${values.email ?? null}, ${values.first_name ?? ''},
            ${values.last_name ?? ''}, ${values.phone ?? ''}, ${values.unit_id ?? null}, ${values.all_companies ?? false},
            ${values.is_superuser ?? false}, ${values.ip_whitelist ?? []}::text[], ${values.password_hash ?? null},
            ${values.password_hash ? sql`now()` : null}, ${values.password_must_change ?? false})
    RETURNING id`);
  return rows[0]!.id;
}

export async function updateUserRow(db: Queryable, id: number, values: UserWrite): Promise<void> {
  const sets = assignments(values);
  if (sets.length === 0) return;
  await db.query(sql`UPDATE users SET ${sql.join([...sets, sql`updated_at = now()`])} WHERE id = ${id}`);
}

export async function replaceUserRoles(db: Queryable, userId: number, roleIds: readonly number[]): Promise<void> {
  await db.query(sql`DELETE FROM user_roles WHERE user_id = ${userId}`);
  if (roleIds.length > 0) {
    await db.query(sql`INSERT INTO user_roles (user_id, role_id) SELECT ${userId}, unnest(${[...roleIds]}::int8[])`);
  }
}

export async function replaceUserCompanies(
  db: Queryable,
  userId: number,
  companyIds: readonly number[],
): Promise<void> {
  await db.query(sql`DELETE FROM user_companies WHERE user_id = ${userId}`);
  if (companyIds.length > 0) {
    await db.query(
      sql`INSERT INTO user_companies (user_id, company_id) SELECT ${userId}, unnest(${[...companyIds]}::int8[])`,
    );
  }
}

/** Revokes a user's API token, leaving the record's change time alone (archive, password reset). */
export async function dropApiToken(db: Queryable, userId: number): Promise<void> {
  await db.query(sql`UPDATE users SET token_hash = NULL, token_created_at = NULL WHERE id = ${userId}`);
}

/** Archives a user (when not archived yet) or brings it back. */
export async function setUserArchived(db: Queryable, userId: number, archived: boolean): Promise<void> {
  await db.query(
    archived
      ? sql`UPDATE users SET archived_at = now(), updated_at = now() WHERE id = ${userId} AND archived_at IS NULL`
      : sql`UPDATE users SET archived_at = NULL, updated_at = now() WHERE id = ${userId}`,
  );
}

/** Whether a user holds a privileged flag: superusers hold them all. */
export async function holdsPrivilegedFlag(db: Queryable, userId: number, flag: PrivilegedFlag): Promise<boolean> {
  const { rows } = await db.query<{ allowed: boolean }>(sql`
    SELECT (is_superuser OR coalesce((privileged_settings ->> ${flag})::boolean, false)) AS allowed
    FROM users WHERE id = ${userId}`);
  return rows[0]?.allowed === true;
}

/** Replaces a user's privileged flags with the ones given (those that are on). */
export async function setPrivilegedSettings(
  db: Queryable,
  userId: number,
  enabled: Record<string, boolean>,
): Promise<void> {
  await db.query(
    sql`UPDATE users SET privileged_settings = ${JSON.stringify(enabled)}::jsonb, updated_at = now() WHERE id = ${userId}`,
  );
}

/** Sets a new password chosen outside the console (command line): it must be changed at sign-in. */
export async function resetUserPassword(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.query(sql`
    UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now(), password_must_change = true,
                     failed_logins = 0, locked_until = NULL, updated_at = now()
    WHERE id = ${userId}`);
}

/** How many users in scope are not archived. */
export async function countActiveUsers(db: Queryable, scope: TenantScope): Promise<number> {
  const { rows } = await db.query<{ count: number }>(sql`
    SELECT count(*)::int8 AS count FROM users u
    WHERE u.archived_at IS NULL AND ${tenantCondition(scope, sql`u.company_id`)}`);
  return Number(rows[0]?.count ?? 0);
}

export interface UserRef {
  id: number;
  username: string;
  full_name: string;
  company_id: number;
}

/** Active users in scope by name, for pickers (at most 5,000). */
export async function availableUsers(db: Queryable, scope: TenantScope): Promise<UserRef[]> {
  const { rows } = await db.query<{
    id: number;
    username: string;
    first_name: string;
    last_name: string;
    company_id: number;
  }>(sql`
    SELECT u.id, u.username, u.first_name, u.last_name, u.company_id FROM users u
    WHERE u.archived_at IS NULL AND ${tenantCondition(scope, sql`u.company_id`)}
    ORDER BY lower(u.first_name || ' ' || u.last_name), lower(u.username) LIMIT 5000`);
  return rows.map((r) => ({ id: r.id, username: r.username, full_name: fullName(r), company_id: r.company_id }));
}

/** Every user in scope, archived ones included, by username (at most 10,000). */
export async function allUsers(db: Queryable, scope: TenantScope): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(sql`
    SELECT ${userColumns} FROM ${userFrom}
    WHERE ${tenantCondition(scope, sql`u.company_id`)} ORDER BY lower(u.username) LIMIT 10000`);
  return rows;
}

/** Whether any user exists (the first start creates the first administrator). */
export async function anyUserExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query(sql`SELECT 1 FROM users LIMIT 1`);
  return rows.length > 0;
}

/** The signed-in user's own record, as the current-user answer needs it. */
export interface MeRow {
  id: number;
  username: string;
  email: string | null;
  first_name: string;
  last_name: string;
  phone: string;
  time_zone: string | null;
  theme: CurrentUser['theme'];
  locale: CurrentUser['locale'];
  ip_whitelist: string[];
  token_created_at: Date | null;
  company_id: number;
  mailing_setting: CurrentUser['mailing_setting'];
  otp_secret: string | null;
  password_changed_at: Date | null;
  critan: boolean;
  telephone_notifications_settings: CurrentUser['telephone_notifications_settings'];
  privileged_settings: Record<string, boolean>;
  is_superuser: boolean;
  all_companies: boolean;
  label_name: string | null;
  provider_label: string | null;
}

export async function findMe(db: Queryable, userId: number): Promise<MeRow | null> {
  const { rows } = await db.query<MeRow>(sql`
    SELECT u.id, u.username, u.email, u.first_name, u.last_name, u.phone, u.time_zone, u.theme, u.locale, u.ip_whitelist,
           u.token_created_at, u.company_id, u.mailing_setting, u.otp_secret, u.password_changed_at, u.critan,
           u.telephone_notifications_settings, u.privileged_settings, u.is_superuser, u.all_companies, c.label_name,
           (SELECT p.label_name FROM companies p WHERE p.kind = 'provider') AS provider_label
    FROM users u JOIN companies c ON c.id = u.company_id WHERE u.id = ${userId}`);
  return rows[0] ?? null;
}

/** Active companies in scope, the provider first, by name (at most 1,000). */
export async function companiesOfScope(
  db: Queryable,
  scope: TenantScope,
): Promise<{ id: number; name: string; kind: 'provider' | 'customer' }[]> {
  const { rows } = await db.query<{ id: number; name: string; kind: 'provider' | 'customer' }>(sql`
    SELECT c.id, c.name, c.kind FROM companies c
    WHERE c.is_active AND ${tenantCondition(scope, sql`c.id`)}
    ORDER BY c.kind DESC, lower(c.name) LIMIT 1000`);
  return rows;
}

export async function findUsername(db: Queryable, userId: number): Promise<{ id: number; username: string } | null> {
  const { rows } = await db.query<{ id: number; username: string }>(
    sql`SELECT id, username FROM users WHERE id = ${userId}`,
  );
  return rows[0] ?? null;
}

/** The fields a user changes on its own profile. */
export const profileColumns = [
  'first_name',
  'last_name',
  'phone',
  'time_zone',
  'theme',
  'locale',
  'mailing_setting',
  'telephone_notifications_settings',
  'critan',
] as const satisfies readonly (keyof ProfileUpdate)[];

/** The profile fields of a user and its company, locked for a change. */
export async function lockProfile(db: Queryable, userId: number): Promise<Record<string, unknown> | null> {
  const { rows } = await db.query<Record<string, unknown>>(sql`
    SELECT ${sql.join(profileColumns.map((c) => sql.ident(c)))}, company_id FROM users WHERE id = ${userId} FOR UPDATE`);
  return rows[0] ?? null;
}

/** Writes the profile fields given; answers whether anything was given. */
export async function updateProfile(db: Queryable, userId: number, input: ProfileUpdate): Promise<boolean> {
  const sets = profileColumns
    .filter((column) => input[column] !== undefined)
    .map((column) => {
      const value = input[column];
      return typeof value === 'object' && value !== null
        ? sql`${sql.ident(column)} = ${JSON.stringify(value)}::jsonb`
        : sql`${sql.ident(column)} = ${value}`;
    });
  if (sets.length === 0) return false;
  await db.query(sql`UPDATE users SET ${sql.join([...sets, sql`updated_at = now()`])} WHERE id = ${userId}`);
  return true;
}
