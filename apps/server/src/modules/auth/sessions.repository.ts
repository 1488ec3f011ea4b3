import { createHash, randomBytes } from 'node:crypto';
import type { Permission } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { Actor } from '../../http/actor';

/** How long a session lives without use, and at most. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
export const SESSION_ABSOLUTE_SECONDS = 7 * 24 * 60 * 60;
/** last_seen_at is written at most this often per session, to keep reads cheap. */
const TOUCH_EVERY_SECONDS = 60;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

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

/** SQL that gathers one user's access facts; `userCondition` picks the user. */
const accessSelect = sql`
  u.id AS user_id, u.username, u.company_id, u.is_superuser, u.all_companies,
  (SELECT array_agg(uc.company_id) FROM user_companies uc WHERE uc.user_id = u.id) AS extra_companies,
  (SELECT jsonb_agg(p) FROM user_roles ur JOIN roles r ON r.id = ur.role_id,
          jsonb_array_elements(r.permissions) p WHERE ur.user_id = u.id) AS permissions`;

export interface SessionInfo {
  ip: string | null;
  userAgent: string;
  impersonatorId?: number | null;
  twoFactorPassed: boolean;
}

/** Starts a session and returns its secret token (only its hash is stored). */
export async function createSession(db: Queryable, userId: number, info: SessionInfo): Promise<string> {
  const token = newToken();
  await db.query(sql`
    INSERT INTO sessions (id, user_id, impersonator_id, expires_at, ip, user_agent, two_factor_passed)
    VALUES (${hashToken(token)}, ${userId}, ${info.impersonatorId ?? null},
            now() + make_interval(secs => ${SESSION_ABSOLUTE_SECONDS}), ${info.ip}, ${info.userAgent.slice(0, 500)},
            ${info.twoFactorPassed})`);
  return token;
}

/** The actor behind a session token, or null when it is unknown, ended, expired or idle too long. */
export async function actorFromSession(db: Queryable, token: string): Promise<Actor | null> {
  const id = hashToken(token);
  const { rows } = await db.query<
    AccessRow & { impersonator_id: number | null; two_factor_passed: boolean; password_must_change: boolean; stale: boolean }
  >(sql`
    SELECT ${accessSelect}, s.impersonator_id, s.two_factor_passed, u.password_must_change,
           s.last_seen_at < now() - make_interval(secs => ${TOUCH_EVERY_SECONDS}) AS stale
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = ${id} AND s.ended_at IS NULL AND s.expires_at > now()
      AND s.last_seen_at > now() - make_interval(secs => ${SESSION_IDLE_SECONDS})
      AND u.archived_at IS NULL`);
  const row = rows[0];
  if (!row) return null;
  if (row.stale) await db.query(sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${id}`);
  return {
    userId: row.user_id,
    username: row.username,
    companyId: row.company_id,
    isSuperuser: row.is_superuser,
    ...accessOf(row),
    impersonatorId: row.impersonator_id,
    via: 'session',
    sessionId: id,
    twoFactorPassed: row.two_factor_passed,
    passwordExpired: row.password_must_change,
  };
}

export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query(sql`UPDATE sessions SET ended_at = now() WHERE id = ${sessionId} AND ended_at IS NULL`);
}
