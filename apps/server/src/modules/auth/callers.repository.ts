import type { Permission } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import type { Actor } from '../../http/actor';
import { liveSession } from '../sessions/sessions.repository';
import { touchSession } from '../sessions/sessions.service';
import { hashToken } from './tokens';

// Who is calling: the user (and administrator acting as it) behind a session token or an API key.
// Sessions themselves are written by the sessions module.

/** last_seen_at is written at most this often per session, to keep reads cheap. */
const TOUCH_EVERY_SECONDS = 60;

interface AccessRow {
  user_id: number;
  username: string;
  company_id: number;
  is_superuser: boolean;
  all_companies: boolean;
  extra_companies: number[] | null;
  permissions: Permission[] | null;
}

/** Companies and permissions of a user, from its own company, granted companies and roles. */
export function accessOf(row: AccessRow): Pick<Actor, 'scope' | 'permissions'> {
  const permissions = new Map<string, Set<string>>();
  for (const entry of row.permissions ?? []) {
    if (!entry || typeof entry.basename !== 'string' || !Array.isArray(entry.actions)) continue;
    const set = permissions.get(entry.basename) ?? new Set<string>();
    for (const action of entry.actions) if (typeof action === 'string') set.add(action);
    permissions.set(entry.basename, set);
  }
  const companies =
    row.is_superuser || row.all_companies
      ? ('all' as const)
      : [...new Set([row.company_id, ...(row.extra_companies ?? [])])];
  return { scope: { companies }, permissions };
}

/** Columns that gather the access facts of the user aliased `u`. */
const accessSelect = sql`
  u.id AS user_id, u.username, u.company_id, u.is_superuser, u.all_companies,
  (SELECT array_agg(uc.company_id) FROM user_companies uc WHERE uc.user_id = u.id) AS extra_companies,
  (SELECT jsonb_agg(p) FROM user_roles ur JOIN roles r ON r.id = ur.role_id,
          jsonb_array_elements(r.permissions) p WHERE ur.user_id = u.id) AS permissions`;

/** Rules that decide whether a signed-in user must replace the password first. */
export interface PasswordRules {
  /** Days after which a password expires; 0 means never (PASSWORD_MAX_AGE_DAYS). */
  passwordMaxAgeDays: number;
}

/** True when the user of alias `u` must replace the password (set by someone else, or too old). */
function passwordExpiredSql(rules: PasswordRules): SqlFragment {
  const tooOld =
    rules.passwordMaxAgeDays > 0
      ? sql`(u.password_hash IS NOT NULL AND (u.password_changed_at IS NULL
             OR u.password_changed_at < now() - make_interval(days => ${rules.passwordMaxAgeDays})))`
      : sql`FALSE`;
  return sql`(u.password_must_change OR ${tooOld})`;
}

/** A caller recognised from a credential, with the allow-list its requests must come from. */
export interface ResolvedCaller {
  actor: Actor;
  /** Addresses or ranges the person at the keyboard may work from (empty: anywhere). */
  ipWhitelist: string[];
}

/**
 * The caller behind a session token, or null when the session is unknown, ended, expired or idle
 * too long, or its user (or impersonating administrator) is archived.
 */
export async function resolveSession(
  db: Queryable,
  token: string,
  rules: PasswordRules,
): Promise<ResolvedCaller | null> {
  if (token.length > 200) return null;
  const id = hashToken(token);
  const { rows } = await db.query<
    AccessRow & {
      impersonator_id: number | null;
      two_factor_passed: boolean;
      password_expired: boolean;
      ip_whitelist: string[];
      stale: boolean;
    }
  >(sql`
    SELECT ${accessSelect}, s.impersonator_id, s.two_factor_passed,
           (s.impersonator_id IS NULL AND ${passwordExpiredSql(rules)}) AS password_expired,
           COALESCE(imp.ip_whitelist, u.ip_whitelist) AS ip_whitelist,
           s.last_seen_at < now() - make_interval(secs => ${TOUCH_EVERY_SECONDS}) AS stale
    FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN users imp ON imp.id = s.impersonator_id
    WHERE s.id = ${id} AND ${liveSession} AND u.archived_at IS NULL
      AND (s.impersonator_id IS NULL OR imp.archived_at IS NULL)`);
  const row = rows[0];
  if (!row) return null;
  if (row.stale) await touchSession(db, id);
  return {
    actor: {
      userId: row.user_id,
      username: row.username,
      companyId: row.company_id,
      isSuperuser: row.is_superuser,
      ...accessOf(row),
      impersonatorId: row.impersonator_id,
      via: 'session',
      sessionId: id,
      twoFactorPassed: row.two_factor_passed,
      passwordExpired: row.password_expired,
    },
    ipWhitelist: row.ip_whitelist,
  };
}

/**
 * The caller behind an API key, or null when no active user holds it. Keys stand for machines:
 * two-factor does not apply and password expiry does not stop them (revoke the key instead).
 */
export async function resolveApiToken(db: Queryable, token: string): Promise<ResolvedCaller | null> {
  if (token.length > 200) return null;
  const { rows } = await db.query<AccessRow & { ip_whitelist: string[] }>(sql`
    SELECT ${accessSelect}, u.ip_whitelist FROM users u
    WHERE u.token_hash = ${hashToken(token)} AND u.archived_at IS NULL`);
  const row = rows[0];
  if (!row) return null;
  return {
    actor: {
      userId: row.user_id,
      username: row.username,
      companyId: row.company_id,
      isSuperuser: row.is_superuser,
      ...accessOf(row),
      impersonatorId: null,
      via: 'token',
      sessionId: null,
      twoFactorPassed: true,
      passwordExpired: false,
    },
    ipWhitelist: row.ip_whitelist,
  };
}

/** The administrator's own session an impersonation session returns to. */
export async function parentSessionOf(db: Queryable, sessionId: string): Promise<string | null> {
  const { rows } = await db.query<{ parent_session_id: string | null }>(
    sql`SELECT parent_session_id FROM sessions WHERE id = ${sessionId}`,
  );
  return rows[0]?.parent_session_id ?? null;
}
