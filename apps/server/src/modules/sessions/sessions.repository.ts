import { userSessionFiltersSchema, type UserSession, type UserSessionFilters } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { Actor } from '../../http/actor';
import { filter, type ListResource } from '../../list/list-engine';
import { hashToken, newToken } from '../auth/tokens';

/** How long a session lives without use, and at most. */
export const SESSION_IDLE_SECONDS = 12 * 60 * 60;
export const SESSION_ABSOLUTE_SECONDS = 7 * 24 * 60 * 60;

/** Condition on alias `s` for a session that can still be used. */
export const liveSession = sql`s.ended_at IS NULL AND s.expires_at > now()
  AND s.last_seen_at > now() - make_interval(secs => ${SESSION_IDLE_SECONDS})`;

interface SessionRow {
  public_id: string;
  created_at: Date;
  last_seen_at: Date;
  ip: string | null;
  user_agent: string;
  current: boolean;
}

/**
 * The sessions a person can see as theirs: open sessions of the user, except those in which an
 * administrator acts as them (those belong to the administrator), unless it is the current one.
 */
function ownSessions(actor: Actor) {
  return sql`s.user_id = ${actor.userId} AND ${liveSession}
    AND (s.impersonator_id IS NULL OR s.id = ${actor.sessionId})`;
}

/** Orderings of the sessions list (the same for every caller). */
const orderings = {
  created_at: { expr: sql`s.created_at`, type: 'timestamptz' },
  last_seen_at: { expr: sql`s.last_seen_at`, type: 'timestamptz' },
} as const;
const defaultOrdering = ['-last_seen_at'];

/** What the contract's list declaration must agree with (checked when the routes register). */
export const sessionListOrderings = { orderings: Object.keys(orderings), defaultOrdering };

/** The caller's sessions as a list resource (`POST /api/sessions/check/`). */
export function sessionList(actor: Actor): ListResource<SessionRow, UserSessionFilters, UserSession> {
  const current = sql`COALESCE(s.id = ${actor.sessionId}, false)`;
  return {
    from: sql`sessions s`,
    select: sql`s.public_id::text AS public_id, s.created_at, s.last_seen_at, s.ip, s.user_agent, ${current} AS current`,
    idField: { expr: sql`s.public_id::text`, type: 'text' },
    baseCondition: ownSessions(actor),
    filtersSchema: userSessionFiltersSchema,
    filters: {
      search: filter.search(sql`s.ip`, sql`s.user_agent`),
      current: (value) => (value ? current : sql`NOT ${current}`),
    },
    orderings,
    defaultOrdering,
    toItem: (row) => ({
      id: row.public_id,
      created_at: row.created_at.toISOString(),
      last_seen_at: row.last_seen_at.toISOString(),
      ip: row.ip,
      user_agent: row.user_agent,
      current: row.current,
    }),
  };
}

/** The caller's open sessions, most recently used first (for the current user's `sessions`). */
export async function activeSessions(db: Queryable, actor: Actor, limit = 100): Promise<UserSession[]> {
  const resource = sessionList(actor);
  const { rows } = await db.query<SessionRow>(sql`
    SELECT ${resource.select} FROM ${resource.from} WHERE ${ownSessions(actor)}
    ORDER BY s.last_seen_at DESC, s.public_id LIMIT ${limit}`);
  return rows.map(resource.toItem);
}

/** How many open sessions the caller has (the current user's `sessions_count`). */
export async function countActiveSessions(db: Queryable, actor: Actor): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    sql`SELECT count(*)::int8 AS n FROM sessions s WHERE ${ownSessions(actor)}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Ends one of the caller's sessions by its public id; answers what it was, or null when none. */
export async function endOwnSession(
  db: Queryable,
  actor: Actor,
  publicId: string,
): Promise<{ ip: string | null; user_agent: string } | null> {
  const { rows } = await db.query<{ ip: string | null; user_agent: string }>(sql`
    UPDATE sessions s SET ended_at = now()
    WHERE s.public_id = ${publicId}::uuid AND ${ownSessions(actor)}
    RETURNING s.ip, s.user_agent`);
  return rows[0] ?? null;
}

/** Ends every session of the caller but the current one; answers how many ended. */
export async function endOtherOwnSessions(db: Queryable, actor: Actor): Promise<number> {
  const { rowCount } = await db.query(sql`
    UPDATE sessions s SET ended_at = now()
    WHERE ${ownSessions(actor)} AND s.id IS DISTINCT FROM ${actor.sessionId}`);
  return rowCount;
}

// ── Starting and ending sessions (sign-in, impersonation, password changes, archiving) ──────

export interface SessionInfo {
  ip: string | null;
  userAgent: string;
  impersonatorId?: number | null;
  /** For an impersonation session: the administrator's own session, resumed afterwards. */
  parentSessionId?: string | null;
  twoFactorPassed: boolean;
}

/** Starts a session and returns its secret token (only its hash is stored). */
export async function createSession(db: Queryable, userId: number, info: SessionInfo): Promise<string> {
  const token = newToken();
  await db.query(sql`
    INSERT INTO sessions (id, user_id, impersonator_id, parent_session_id, expires_at, ip, user_agent, two_factor_passed)
    VALUES (${hashToken(token)}, ${userId}, ${info.impersonatorId ?? null}, ${info.parentSessionId ?? null},
            now() + make_interval(secs => ${SESSION_ABSOLUTE_SECONDS}), ${info.ip}, ${info.userAgent.slice(0, 500)},
            ${info.twoFactorPassed})`);
  return token;
}

/** Notes that a session (by its stored id) was used just now. */
export async function touchSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query(sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${sessionId}`);
}

export async function endSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query(sql`UPDATE sessions SET ended_at = now() WHERE id = ${sessionId} AND ended_at IS NULL`);
}

/** Ends every open session of a user except `keep` (null: all of them). Answers how many ended. */
export async function endUserSessions(db: Queryable, userId: number, keep: string | null): Promise<number> {
  const { rowCount } = await db.query(sql`
    UPDATE sessions SET ended_at = now()
    WHERE user_id = ${userId} AND ended_at IS NULL AND expires_at > now()
      ${keep ? sql`AND id <> ${keep}` : sql``}`);
  return rowCount;
}

/** Ends every session of a user not ended yet, expired ones included (archive, password reset). */
export async function endAllSessionsOf(db: Queryable, userId: number): Promise<void> {
  await db.query(sql`UPDATE sessions SET ended_at = now() WHERE user_id = ${userId} AND ended_at IS NULL`);
}

/** Records that this session has passed two-factor authentication. */
export async function markTwoFactorPassed(db: Queryable, sessionId: string): Promise<void> {
  await db.query(sql`UPDATE sessions SET two_factor_passed = true WHERE id = ${sessionId}`);
}
