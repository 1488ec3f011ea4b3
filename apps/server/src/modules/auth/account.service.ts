import type { AuthState, OtpSecret, PasswordChange } from '@vigil/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { endUserSessions } from '../sessions/sessions.service';
import {
  activatePendingOtpSecret,
  clearApiToken,
  clearOtp,
  assertCanManage,
  pendingOtpSecret,
  setApiToken,
  setPassword,
  unlockUser,
} from '../users/users.service';
import { findUserById, findUserInScope, mayCreateApiToken, otpState, type LoginUserRow } from './auth.repository';
import { accountContext, authState, startSession } from './auth.service';
import { ipAllowed } from './ip-allow-list';
import { generateOtpSecret, otpauthUrl, verifyTotp } from './otp';
import { validatePasswordPolicy } from './password-policy';
import { hashPassword, verifyPassword } from './passwords';
import { hashToken, newToken } from './tokens';
import { findUsableUserToken, markUserTokenUsed } from './user-tokens';

/** API keys carry a recognisable prefix so secret scanners can spot a leaked one. */
export const API_TOKEN_PREFIX = 'vigil_';

const linkGone = () => notFound('This link is not valid, has expired or has already been used.');

/** Checks a one-time link token's shape: a token that cannot be one opens nothing (404). */
export function checkLinkToken(token: string): string {
  if (token.length < 1 || token.length > 200) throw linkGone();
  return token;
}

const userTarget = (user: { id: number; username: string; company_id: number }) => ({
  objectType: 'user',
  objectId: user.id,
  objectRepr: user.username,
  companyId: user.company_id,
});

const actorTarget = (actor: Actor) => ({
  objectType: 'user',
  objectId: actor.userId,
  objectRepr: actor.username,
  companyId: actor.companyId,
});

/** New passwords: the policy, and the two entries agreeing. Throws a 400 naming every field at fault. */
function checkNewPassword(
  input: { new_password: string; new_password_retry: string },
  rules: { username: string; oldPassword?: string; minLength: number },
  errors: Record<string, string[]> = {},
): void {
  const problems = validatePasswordPolicy(input.new_password, rules);
  if (problems.length > 0) errors.new_password = problems;
  if (input.new_password !== input.new_password_retry) {
    errors.new_password_retry = ['The two new passwords are not the same.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * Account security: one's own two-factor, password and API key, administrators resetting
 * another user's two-factor or lock-out, and the one-time activation (or password-reset) links.
 * Each change is one transaction with its audit record.
 */
export class AccountService {
  constructor(private readonly deps: Pick<AppDeps, 'db' | 'config'>) {}

  /**
   * The pending two-factor secret, to be confirmed by a code it produces: made by the first request,
   * the same one answered to every later request until it is confirmed (a GET that can be repeated,
   * prefetched or forged from another site without changing anything).
   */
  async generateOtpSecret(actor: Actor): Promise<OtpSecret> {
    const secret = await pendingOtpSecret(this.deps.db, actor.userId, generateOtpSecret());
    if (!secret) throw notFound();
    return { secret, otpauth_url: otpauthUrl(secret, actor.username, this.deps.config.providerName) };
  }

  /** Turns two-factor on with a code of the pending secret. */
  async enableOtp(actor: Actor, audit: AuditContext, code: string): Promise<void> {
    const { db } = this.deps;
    const state = await otpState(db, actor.userId);
    if (!state?.otp_pending_secret) {
      throw ValidationError.field('code', 'Generate a new secret first, then enter a code it produces.');
    }
    // The step is recorded, so the code that turned two-factor on cannot also sign in.
    const step = verifyTotp(state.otp_pending_secret, code);
    if (step === null) {
      throw ValidationError.field(
        'code',
        'The code is not correct. Check that the time on your device is right and try again.',
      );
    }
    await db.transaction(async (tx) => {
      await activatePendingOtpSecret(tx, actor.userId, step);
      await recordAudit(tx, audit, {
        action: 'enable_two_factor',
        ...actorTarget(actor),
        before: { two_factor_enabled: state.otp_secret !== null },
        after: { two_factor_enabled: true },
      });
    });
  }

  /** Turns one's own two-factor off; needs the password. */
  async disableOtp(actor: Actor, audit: AuditContext, password: string): Promise<void> {
    const { db } = this.deps;
    const user = await findUserById(db, actor.userId);
    if (!user || !(await verifyPassword(user.password_hash, password))) {
      throw ValidationError.field('password', 'The password is not correct.');
    }
    await db.transaction(async (tx) => {
      const wasEnabled = await clearOtp(tx, actor.userId);
      await recordAudit(tx, audit, {
        action: 'disable_two_factor',
        ...actorTarget(actor),
        before: { two_factor_enabled: wasEnabled },
        after: { two_factor_enabled: false },
      });
    });
  }

  /** Turns another user's two-factor off (only for an actor who holds all that user holds). */
  async resetOtp(actor: Actor, audit: AuditContext, userId: number): Promise<void> {
    const { db } = this.deps;
    const target = await findUserInScope(db, actor.scope, userId);
    if (!target) throw notFound();
    await assertCanManage(db, actor, target.id);
    await db.transaction(async (tx) => {
      const wasEnabled = await clearOtp(tx, target.id);
      await recordAudit(tx, audit, {
        action: 'reset_two_factor',
        ...userTarget(target),
        before: { two_factor_enabled: wasEnabled },
        after: { two_factor_enabled: false },
      });
    });
  }

  /**
   * Changes one's own password. Whoever else was signed in with the old password is signed out;
   * this browser stays. Answers how many other sessions ended.
   */
  async changePassword(actor: Actor, audit: AuditContext, input: PasswordChange): Promise<number> {
    const { db, config } = this.deps;
    const user = await findUserById(db, actor.userId);
    if (!user) throw notFound();
    const errors: Record<string, string[]> = {};
    if (!(await verifyPassword(user.password_hash, input.old_password))) {
      errors.old_password = ['The current password is not correct.'];
    }
    checkNewPassword(
      input,
      { username: user.username, oldPassword: input.old_password, minLength: config.passwordMinLength },
      errors,
    );
    const passwordHash = await hashPassword(input.new_password);
    return db.transaction(async (tx) => {
      await setPassword(tx, user.id, passwordHash);
      const count = await endUserSessions(tx, user.id, actor.sessionId);
      await recordAudit(tx, audit, {
        action: 'password_change',
        ...userTarget(user),
        after: { other_sessions_ended: count },
      });
      return count;
    });
  }

  /**
   * A new personal API key, replacing the previous one. A key outlives sessions and two-factor:
   * only a user granted it by name may make one.
   */
  async createApiToken(actor: Actor, audit: AuditContext): Promise<{ token: string; createdAt: Date }> {
    const { db } = this.deps;
    if (!(await mayCreateApiToken(db, actor.userId))) {
      throw forbidden(
        'Your account may not create API tokens. Ask an administrator to grant the "API tokens" privilege.',
      );
    }
    const token = `${API_TOKEN_PREFIX}${newToken()}`;
    const createdAt = await db.transaction(async (tx) => {
      const at = await setApiToken(tx, actor.userId, hashToken(token));
      await recordAudit(tx, audit, {
        action: 'create_token',
        ...actorTarget(actor),
        after: { token_creation_ts: at.toISOString() },
      });
      return at;
    });
    return { token, createdAt };
  }

  /** Revokes one's personal API key; audited when there was one. */
  async revokeApiToken(actor: Actor, audit: AuditContext): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const had = await clearApiToken(tx, actor.userId);
      if (!had) return;
      await recordAudit(tx, audit, { action: 'revoke_token', ...actorTarget(actor) });
    });
  }

  /** Lifts a user's lock-out after failed sign-ins. */
  async unlock(actor: Actor, audit: AuditContext, userId: number): Promise<void> {
    const { db } = this.deps;
    const target = await findUserInScope(db, actor.scope, userId);
    if (!target) throw notFound();
    await assertCanManage(db, actor, target.id);
    await db.transaction(async (tx) => {
      const wasLocked = await unlockUser(tx, target.id);
      await recordAudit(tx, audit, {
        action: 'unlock',
        ...userTarget(target),
        before: { locked: wasLocked },
        after: { locked: false },
      });
    });
  }

  /** Who an activation (or password-reset) link opens; 404 when it opens nothing. */
  async activationInfo(token: string): Promise<{ valid: true; username: string }> {
    const found = await findUsableUserToken(this.deps.db, checkLinkToken(token));
    if (!found) throw linkGone();
    return { valid: true, username: found.username };
  }

  /**
   * Sets the first (or a reset) password with a one-time link, uses the link up and ends the
   * user's sessions; then signs the user in by the usual rules (allow-list, two-factor).
   */
  async activate(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    input: { new_password: string; new_password_retry: string },
  ): Promise<AuthState> {
    const { db, config } = this.deps;
    const found = await findUsableUserToken(db, token);
    if (!found) throw linkGone();
    checkNewPassword(input, { username: found.username, minLength: config.passwordMinLength });
    const passwordHash = await hashPassword(input.new_password);
    await db.transaction(async (tx) => {
      // Locked and checked again: of two requests with one link, only the first uses it.
      const row = await findUsableUserToken(tx, token, true);
      if (!row) throw linkGone();
      await setPassword(tx, row.user_id, passwordHash);
      await markUserTokenUsed(tx, token);
      await endUserSessions(tx, row.user_id, null);
      await recordAudit(tx, accountContext({ id: row.user_id, username: row.username }, request.ip), {
        action: row.purpose === 'activation' ? 'activate' : 'password_reset',
        objectType: 'user',
        objectId: row.user_id,
        objectRepr: row.username,
        companyId: row.company_id,
      });
    });
    const user: LoginUserRow | null = await findUserById(db, found.user_id);
    if (!user || !ipAllowed(user.ip_whitelist, request.ip)) return authState(db, null);
    return startSession(this.deps, request, reply, user, 'activation');
  }
}
