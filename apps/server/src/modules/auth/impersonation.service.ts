import type { AuthState } from '@vigil/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.service';
import { assertCanManage } from '../users/users.service';
import { SESSION_COOKIE } from './auth.hooks';
import { findUserInScope } from './auth.repository';
import { authState, IMPERSONATOR_COOKIE, IMPERSONATOR_COOKIE_PATH, sessionCookieOptions } from './auth.service';
import { ipAllowed } from './ip-allow-list';
import { createSession, endSession } from '../sessions/sessions.service';
import { parentSessionOf, resolveSession } from './callers.repository';
import { hashToken } from './tokens';

/**
 * Acting as another user: a new session of the target, tied to the administrator's own session,
 * which the browser keeps aside (in a cookie sent only to the way back) and resumes afterwards.
 */
export class ImpersonationService {
  constructor(private readonly deps: Pick<AppDeps, 'db' | 'config'>) {}

  /**
   * Refuses before anything else a caller who cannot start acting as someone: not in a browser
   * session, or already acting as another user.
   */
  static checkCanStart(request: FastifyRequest, actor: Actor): void {
    if (actor.via !== 'session' || !actor.sessionId || !request.cookies[SESSION_COOKIE]) {
      throw ValidationError.field('non_field_errors', 'Acting as another user needs a signed-in browser session.');
    }
    if (actor.impersonatorId !== null) {
      throw ValidationError.field(
        'non_field_errors',
        'You are already acting as another user; return to your own account first.',
      );
    }
  }

  /** `POST /api/auth/impersonate/`: starts acting as a user in the caller's scope. */
  async start(request: FastifyRequest, reply: FastifyReply, actor: Actor, userId: number): Promise<AuthState> {
    const { db, config } = this.deps;
    ImpersonationService.checkCanStart(request, actor);
    const adminToken = request.cookies[SESSION_COOKIE]!;
    const target = await findUserInScope(db, actor.scope, userId);
    if (!target) throw notFound();
    if (target.id === actor.userId) throw ValidationError.field('user_id', 'You cannot act as yourself.');
    // Acting as a user is every change to it at once: the same rule as changing it.
    await assertCanManage(db, actor, target.id);
    const token = await db.transaction(async (tx) => {
      const created = await createSession(tx, target.id, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        impersonatorId: actor.userId,
        parentSessionId: actor.sessionId,
        twoFactorPassed: true,
      });
      // Written as the target acting through the administrator: both users are on the record.
      await recordAudit(
        tx,
        { userId: target.id, username: target.username, impersonatorId: actor.userId, ip: request.ip },
        {
          action: 'impersonate',
          objectType: 'user',
          objectId: target.id,
          objectRepr: target.username,
          companyId: target.company_id,
          after: { impersonator: actor.username },
        },
      );
      return created;
    });
    request.log.info({ impersonatorId: actor.userId, userId: target.id }, 'impersonation started');
    const cookieOptions = sessionCookieOptions(config.cookieSecure);
    reply.setCookie(IMPERSONATOR_COOKIE, adminToken, { ...cookieOptions, path: IMPERSONATOR_COOKIE_PATH });
    reply.setCookie(SESSION_COOKIE, token, cookieOptions);
    const resolved = await resolveSession(db, token, { passwordMaxAgeDays: config.passwordMaxAgeDays });
    return authState(db, resolved?.actor ?? null);
  }

  /**
   * `DELETE /api/auth/impersonate/`: ends the impersonation session and resumes the
   * administrator's own one, if the browser still holds it and it is still alive (signs out otherwise).
   */
  async end(request: FastifyRequest, reply: FastifyReply, actor: Actor): Promise<AuthState> {
    const { db, config } = this.deps;
    if (actor.impersonatorId === null || !actor.sessionId) {
      throw ValidationError.field('non_field_errors', 'You are not acting as another user.');
    }
    const sessionId = actor.sessionId;
    const parent = await parentSessionOf(db, sessionId);
    await db.transaction(async (tx) => {
      await endSession(tx, sessionId);
      await recordAudit(tx, auditContextOf(request), {
        action: 'impersonate_end',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: actor.companyId,
      });
    });
    reply.clearCookie(IMPERSONATOR_COOKIE, { path: IMPERSONATOR_COOKIE_PATH });
    const adminToken = request.cookies[IMPERSONATOR_COOKIE];
    const admin =
      adminToken && parent && hashToken(adminToken) === parent
        ? await resolveSession(db, adminToken, { passwordMaxAgeDays: config.passwordMaxAgeDays })
        : null;
    if (!admin || admin.actor.userId !== actor.impersonatorId || !ipAllowed(admin.ipWhitelist, request.ip)) {
      if (parent) await endSession(db, parent);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return authState(db, null);
    }
    reply.setCookie(SESSION_COOKIE, adminToken!, sessionCookieOptions(config.cookieSecure));
    return authState(db, admin.actor);
  }
}
