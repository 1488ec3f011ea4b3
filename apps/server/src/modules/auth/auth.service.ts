import type { AuthState } from '@vigil/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { HttpError } from '../../http/errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { createSession, endSession, SESSION_ABSOLUTE_SECONDS } from '../sessions/sessions.service';
import { recordLoginSuccess } from '../users/users.service';
import { findAuthUser } from './auth.repository';
import { issueCsrfCookie, SESSION_COOKIE } from './auth.hooks';
import { parentSessionOf, resolveSession } from './callers.repository';

/** Holds the administrator's own session token while impersonating; sent only to the way back. */
export const IMPERSONATOR_COOKIE = 'vigil_impersonator_session';
export const IMPERSONATOR_COOKIE_PATH = '/api/auth/impersonate/';

/** The one answer to every refused sign-in: it never tells whether the account exists or is locked. */
export const BAD_CREDENTIALS = 'The username or password is not correct.';

/** Refusal when changing one's own credentials (password, two-factor, API key) while impersonating. */
export const notWhileImpersonating = () =>
  new HttpError(403, "You cannot change another user's credentials while acting as them.", 'impersonating');

export function sessionCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: SESSION_ABSOLUTE_SECONDS };
}

/** Audit context for things done by (or to) an account before anyone is signed in. */
export function accountContext(user: { id: number; username: string }, ip: string): AuditContext {
  return { userId: user.id, username: user.username, impersonatorId: null, ip };
}

/** What `GET /api/auth/` answers for a caller (or for nobody). */
export async function authState(db: Queryable, actor: Actor | null): Promise<AuthState> {
  if (!actor) return { authenticated: false, user: null, impersonator: null };
  const user = await findAuthUser(db, actor.userId, actor.impersonatorId);
  if (!user) return { authenticated: false, user: null, impersonator: null };
  return {
    authenticated: true,
    user: {
      id: user.id,
      username: user.username,
      first_name: user.first_name,
      last_name: user.last_name,
      company_id: user.company_id,
      two_factor_enabled: user.two_factor_enabled,
      two_factor_passed: actor.twoFactorPassed,
      password_expired: actor.passwordExpired,
    },
    impersonator:
      actor.impersonatorId !== null && user.impersonator_username !== null
        ? { id: actor.impersonatorId, username: user.impersonator_username }
        : null,
  };
}

/**
 * Ends the caller's current session (and, while impersonating, the administrator's session behind
 * it) and forgets both cookies.
 */
export async function endCurrentSessions(db: Queryable, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const actor = request.actor;
  if (actor?.sessionId) {
    const parent = actor.impersonatorId !== null ? await parentSessionOf(db, actor.sessionId) : null;
    await endSession(db, actor.sessionId);
    if (parent) await endSession(db, parent);
  }
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(IMPERSONATOR_COOKIE, { path: IMPERSONATOR_COOKIE_PATH });
}

export interface SignInUser {
  id: number;
  username: string;
  company_id: number;
  /** Whether two-factor is on: the new session then waits for the code. */
  otp_secret: string | null;
}

/**
 * Signs a user in whose identity has been proven (password, activation link, single sign-on):
 * ends the caller's previous session, starts a new one with a new id, resets the failure count,
 * audits the sign-in, and sets the session and anti-forgery cookies. Answers the new auth state.
 */
export async function startSession(
  deps: Pick<AppDeps, 'db' | 'config'>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: SignInUser,
  method: 'password' | 'activation' | 'sso',
): Promise<AuthState> {
  const { db, config } = deps;
  await endCurrentSessions(db, request, reply);
  const twoFactorPassed = user.otp_secret === null;
  const token = await db.transaction(async (tx) => {
    const created = await createSession(tx, user.id, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
      twoFactorPassed,
    });
    await recordLoginSuccess(tx, user.id);
    await recordAudit(tx, accountContext(user, request.ip), {
      action: 'login',
      objectType: 'user',
      objectId: user.id,
      objectRepr: user.username,
      companyId: user.company_id,
      after: { method, two_factor_pending: !twoFactorPassed },
    });
    return created;
  });
  reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(config.cookieSecure));
  // A new anti-forgery token with the new session: one planted before sign-in is worthless after it.
  issueCsrfCookie(reply, config.cookieSecure);
  const resolved = await resolveSession(db, token, { passwordMaxAgeDays: config.passwordMaxAgeDays });
  return authState(db, resolved?.actor ?? null);
}
