import { authStateSchema, credentialsSchema, impersonateSchema, otpCodeSchema } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { forbidden, HttpError, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { registerAccount } from './account.routes';
import {
  claimOtpStep,
  findLoginUser,
  findUserById,
  findUserInScope,
  otpState,
  type LoginUserRow,
} from './auth.repository';
import { CSRF_COOKIE, issueCsrfCookie, SESSION_COOKIE } from './auth.hooks';
import {
  accountContext,
  authState,
  BAD_CREDENTIALS,
  endCurrentSessions,
  IMPERSONATOR_COOKIE,
  IMPERSONATOR_COOKIE_PATH,
  sessionCookieOptions,
  startSession,
} from './auth.service';
import { ipAllowed } from './ip-allow-list';
import { IP_FAILURE_WINDOW_MINUTES, recentIpFailures, recordIpFailure, recordLoginFailure } from './lockout';
import { verifyTotp } from './otp';
import { verifyPassword } from './passwords';
import {
  createSession,
  endSession,
  hashToken,
  markTwoFactorPassed,
  parentSessionOf,
  resolveSession,
} from './sessions.repository';

const answers = { response: { 200: authStateSchema } };

/** Sign-in, the one-time code step, sign-out and impersonation (`/api/auth/…`), plus account routes. */
export async function registerAuth(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;

  const tooManyAttempts = () =>
    new HttpError(
      429,
      `Too many failed sign-in attempts from your network address. Try again in ${IP_FAILURE_WINDOW_MINUTES} minutes.`,
      'too_many_attempts',
    );
  const ipLimited = async (ip: string) => (await recentIpFailures(db, ip)) >= config.loginIpMaxFailures;

  /** One more failure against an account: counts toward its lock-out and the address's limit. */
  const accountFailure = async (request: FastifyRequest, user: LoginUserRow, action: string) => {
    const { lockedNow } = await db.transaction(async (tx) => {
      await recordIpFailure(tx, request.ip);
      const result = await recordLoginFailure(tx, user.id, config.loginMaxFailures, config.loginLockoutMinutes);
      const target = { objectType: 'user', objectId: user.id, objectRepr: user.username, companyId: user.company_id };
      await recordAudit(tx, accountContext(user, request.ip), { action, ...target });
      if (result.lockedNow) {
        await recordAudit(tx, accountContext(user, request.ip), {
          action: 'lock',
          ...target,
          after: { locked_minutes: config.loginLockoutMinutes, failures: config.loginMaxFailures },
        });
      }
      return result;
    });
    if (lockedNow) {
      request.log.warn(
        { userId: user.id, minutes: config.loginLockoutMinutes },
        'account locked after repeated failed sign-ins',
      );
    }
  };

  /** A sign-in refused for a reason other than the password; the caller still sees BAD_CREDENTIALS. */
  const refusal = async (request: FastifyRequest, user: LoginUserRow, reason: 'locked' | 'ip_not_allowed') => {
    await db.transaction(async (tx) => {
      if (reason === 'locked') await recordIpFailure(tx, request.ip);
      await recordAudit(tx, accountContext(user, request.ip), {
        action: 'login_refused',
        objectType: 'user',
        objectId: user.id,
        objectRepr: user.username,
        companyId: user.company_id,
        after: { reason },
      });
    });
    request.log.warn({ userId: user.id, reason }, 'sign-in refused');
  };

  app.get('/api/auth/', { config: { public: true, reducedApp: true }, schema: answers }, async (request, reply) => {
    if (!request.cookies[CSRF_COOKIE]) issueCsrfCookie(reply, config.cookieSecure);
    return authState(db, request.actor);
  });

  app.post('/api/auth/', { config: { public: true, reducedApp: true }, schema: answers }, async (request, reply) => {
    const credentials = parseOrThrow(credentialsSchema, request.body ?? {});
    if (await ipLimited(request.ip)) throw tooManyAttempts();
    const user = await findLoginUser(db, credentials.username);
    // Verified even for unknown or locked accounts, so the time taken tells nothing either.
    const valid = await verifyPassword(user?.password_hash ?? null, credentials.password);
    const refuse = () => ValidationError.field('non_field_errors', BAD_CREDENTIALS);
    if (!user) {
      await recordIpFailure(db, request.ip);
      throw refuse();
    }
    if (user.locked) {
      await refusal(request, user, 'locked');
      throw refuse();
    }
    if (!valid) {
      await accountFailure(request, user, 'login_failed');
      throw refuse();
    }
    if (!ipAllowed(user.ip_whitelist, request.ip)) {
      await refusal(request, user, 'ip_not_allowed');
      throw refuse();
    }
    return startSession(deps, request, reply, user, 'password');
  });

  app.delete('/api/auth/', { config: { reducedApp: true } }, async (request, reply) => {
    const actor = requireActor(request);
    await db.transaction(async (tx) => {
      await endCurrentSessions(tx, request, reply);
      await recordAudit(tx, auditContextOf(request), {
        action: 'logout',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: actor.companyId,
      });
    });
    return { logout_url: '/login' };
  });

  app.post('/api/auth/otp/', { config: { reducedApp: true }, schema: answers }, async (request) => {
    const actor = requireActor(request);
    const input = parseOrThrow(otpCodeSchema, request.body ?? {});
    if (actor.twoFactorPassed || !actor.sessionId) return authState(db, actor);
    const sessionId = actor.sessionId;
    if (await ipLimited(request.ip)) throw tooManyAttempts();
    const user = await findUserById(db, actor.userId);
    const state = await otpState(db, actor.userId);
    if (!user || !state) throw notFound();
    const passed = async () => {
      await db.transaction(async (tx) => {
        await markTwoFactorPassed(tx, sessionId);
        await recordAudit(tx, accountContext(user, request.ip), {
          action: 'two_factor_passed',
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
        });
      });
      return authState(db, { ...actor, twoFactorPassed: true });
    };
    // Two-factor was reset by an administrator after this session began: nothing left to check.
    if (!state.otp_secret) return passed();
    if (user.locked) {
      throw ValidationError.field(
        'code',
        `Too many wrong codes: the account is locked for up to ${config.loginLockoutMinutes} minutes.`,
      );
    }
    const step = verifyTotp(state.otp_secret, input.code, { lastUsedStep: state.otp_last_step });
    // Claiming the step is what makes a code single-use, even for two requests racing with it.
    if (step === null || !(await claimOtpStep(db, user.id, step))) {
      await accountFailure(request, user, 'two_factor_failed');
      throw ValidationError.field('code', 'The code is not correct or has already been used.');
    }
    return passed();
  });

  app.post(
    '/api/auth/impersonate/',
    { config: { permission: { basename: 'users', action: 'impersonate' } }, schema: answers },
    async (request, reply) => {
      const actor = requireActor(request);
      const adminToken = request.cookies[SESSION_COOKIE];
      if (actor.via !== 'session' || !actor.sessionId || !adminToken) {
        throw ValidationError.field('non_field_errors', 'Acting as another user needs a signed-in browser session.');
      }
      if (actor.impersonatorId !== null) {
        throw ValidationError.field(
          'non_field_errors',
          'You are already acting as another user; return to your own account first.',
        );
      }
      const input = parseOrThrow(impersonateSchema, request.body ?? {});
      const target = await findUserInScope(db, actor.scope, input.user_id);
      if (!target) throw notFound();
      if (target.id === actor.userId) throw ValidationError.field('user_id', 'You cannot act as yourself.');
      if (target.is_superuser && !actor.isSuperuser) throw forbidden('Only a superuser can act as a superuser.');
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
    },
  );

  app.delete('/api/auth/impersonate/', { config: { reducedApp: true }, schema: answers }, async (request, reply) => {
    const actor = requireActor(request);
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
    // Back to the administrator's own session, if the browser still holds it and it is still alive.
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
  });

  await registerAccount(app, deps);
}
