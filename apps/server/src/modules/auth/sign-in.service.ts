import type { AuthState, Credentials } from '@vigil/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Actor } from '../../http/actor';
import { HttpError, notFound, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.service';
import { markTwoFactorPassed } from '../sessions/sessions.service';
import { claimOtpStep, recordLoginFailure } from '../users/users.service';
import { findLoginUser, findUserById, otpState, type LoginUserRow } from './auth.repository';
import { accountContext, authState, BAD_CREDENTIALS, endCurrentSessions, startSession } from './auth.service';
import { ipAllowed } from './ip-allow-list';
import { IP_FAILURE_WINDOW_MINUTES, recentIpFailures, recordIpFailure } from './lockout';
import { verifyTotp } from './otp';
import { verifyPassword } from './passwords';

/**
 * Signing in with a password, the one-time code step and signing out. Failures count toward the
 * account's lock-out and the network address's limit; every step is audited.
 */
export class SignInService {
  constructor(private readonly deps: Pick<AppDeps, 'db' | 'config'>) {}

  private tooManyAttempts() {
    return new HttpError(
      429,
      `Too many failed sign-in attempts from your network address. Try again in ${IP_FAILURE_WINDOW_MINUTES} minutes.`,
      'too_many_attempts',
    );
  }

  private async ipLimited(ip: string): Promise<boolean> {
    return (await recentIpFailures(this.deps.db, ip)) >= this.deps.config.loginIpMaxFailures;
  }

  /** One more failure against an account: counts toward its lock-out and the address's limit. */
  private async accountFailure(request: FastifyRequest, user: LoginUserRow, action: string): Promise<void> {
    const { db, config } = this.deps;
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
  }

  /** A sign-in refused for a reason other than the password; the caller still sees BAD_CREDENTIALS. */
  private async refusal(request: FastifyRequest, user: LoginUserRow, reason: 'locked' | 'ip_not_allowed') {
    await this.deps.db.transaction(async (tx) => {
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
  }

  /** `POST /api/auth/`: checks the password and the account, then starts a session. */
  async signIn(request: FastifyRequest, reply: FastifyReply, credentials: Credentials): Promise<AuthState> {
    const { db } = this.deps;
    if (await this.ipLimited(request.ip)) throw this.tooManyAttempts();
    const user = await findLoginUser(db, credentials.username);
    // Verified even for unknown or locked accounts, so the time taken tells nothing either.
    const valid = await verifyPassword(user?.password_hash ?? null, credentials.password);
    const refuse = () => ValidationError.field('non_field_errors', BAD_CREDENTIALS);
    if (!user) {
      await recordIpFailure(db, request.ip);
      throw refuse();
    }
    if (user.locked) {
      await this.refusal(request, user, 'locked');
      throw refuse();
    }
    if (!valid) {
      await this.accountFailure(request, user, 'login_failed');
      throw refuse();
    }
    if (!ipAllowed(user.ip_whitelist, request.ip)) {
      await this.refusal(request, user, 'ip_not_allowed');
      throw refuse();
    }
    return startSession(this.deps, request, reply, user, 'password');
  }

  /** `DELETE /api/auth/`: ends the current session(s) and forgets the cookies. */
  async signOut(request: FastifyRequest, reply: FastifyReply, actor: Actor): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await endCurrentSessions(tx, request, reply);
      await recordAudit(tx, auditContextOf(request), {
        action: 'logout',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: actor.companyId,
      });
    });
  }

  /** `POST /api/auth/otp/`: the one-time code of a session waiting for two-factor. */
  async passOtp(request: FastifyRequest, actor: Actor, code: string): Promise<AuthState> {
    const { db, config } = this.deps;
    if (actor.twoFactorPassed || !actor.sessionId) return authState(db, actor);
    const sessionId = actor.sessionId;
    if (await this.ipLimited(request.ip)) throw this.tooManyAttempts();
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
    const step = verifyTotp(state.otp_secret, code, { lastUsedStep: state.otp_last_step });
    // Claiming the step is what makes a code single-use, even for two requests racing with it.
    if (step === null || !(await claimOtpStep(db, user.id, step))) {
      await this.accountFailure(request, user, 'two_factor_failed');
      throw ValidationError.field('code', 'The code is not correct or has already been used.');
    }
    return passed();
  }
}
