import {
  activationInfoSchema,
  activationSchema,
  apiTokenSchema,
  authStateSchema,
  otpCodeSchema,
  otpDisableSchema,
  otpSecretSchema,
  passwordChangeSchema,
  twoFactorStatusSchema,
} from '@vigil/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { sendAppShell, wantsPage } from '../web/web.routes';
import { requireActor, type Actor } from '../../http/actor';
import { sql } from '../../db/sql';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import {
  activatePendingOtpSecret,
  clearApiToken,
  clearOtp,
  findUserById,
  findUserInScope,
  otpState,
  setApiToken,
  setPassword,
  setPendingOtpSecret,
} from './auth.repository';
import { accountContext, authState, notWhileImpersonating, startSession } from './auth.service';
import { ipAllowed } from './ip-allow-list';
import { unlockUser } from './lockout';
import { generateOtpSecret, otpauthUrl, verifyTotp } from './otp';
import { validatePasswordPolicy } from './password-policy';
import { hashPassword, verifyPassword } from './passwords';
import { endUserSessions, hashToken, newToken } from './sessions.repository';
import { findUsableUserToken, markUserTokenUsed } from './user-tokens';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const tokenParams = z.object({ token: z.string().min(1).max(200) });

/** API keys carry a recognisable prefix so secret scanners can spot a leaked one. */
export const API_TOKEN_PREFIX = 'vigil_';

/** Answers that carry a secret must not be kept by any cache. */
function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}

/** The caller's own credentials may only be changed by the caller, not by someone acting as them. */
function selfOnly(request: FastifyRequest): Actor {
  const actor = requireActor(request);
  if (actor.impersonatorId !== null) throw notWhileImpersonating();
  return actor;
}

/**
 * Account security under /api/users/ (two-factor, password change, API key, unlock) and the
 * one-time activation links under /api/activate/.
 */
export async function registerAccount(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;

  /** A path id that is not a number names nothing: 404, as for any missing object. */
  const pathId = (params: unknown) => {
    const parsed = idParams.safeParse(params);
    if (!parsed.success) throw notFound();
    return parsed.data.id;
  };

  // ——— Two-factor ———

  app.get(
    '/api/users/otp/secret/generate/',
    { schema: { response: { 200: otpSecretSchema } } },
    async (request, reply) => {
      const actor = selfOnly(request);
      const secret = generateOtpSecret();
      await setPendingOtpSecret(db, actor.userId, secret);
      noStore(reply);
      return { secret, otpauth_url: otpauthUrl(secret, actor.username, config.providerName) };
    },
  );

  app.post('/api/users/otp/secret/save/', { schema: { response: { 200: twoFactorStatusSchema } } }, async (request) => {
    const actor = selfOnly(request);
    const input = parseOrThrow(otpCodeSchema, request.body ?? {});
    const state = await otpState(db, actor.userId);
    if (!state?.otp_pending_secret) {
      throw ValidationError.field('code', 'Generate a new secret first, then enter a code it produces.');
    }
    // The step is recorded, so the code that turned two-factor on cannot also sign in.
    const step = verifyTotp(state.otp_pending_secret, input.code);
    if (step === null) {
      throw ValidationError.field(
        'code',
        'The code is not correct. Check that the time on your device is right and try again.',
      );
    }
    await db.transaction(async (tx) => {
      await activatePendingOtpSecret(tx, actor.userId, step);
      await recordAudit(tx, auditContextOf(request), {
        action: 'enable_two_factor',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: actor.companyId,
        before: { two_factor_enabled: state.otp_secret !== null },
        after: { two_factor_enabled: true },
      });
    });
    return { two_factor_enabled: true };
  });

  app.delete(
    '/api/users/otp/secret/delete/',
    { schema: { response: { 200: twoFactorStatusSchema } } },
    async (request) => {
      const actor = selfOnly(request);
      const input = parseOrThrow(otpDisableSchema, request.body ?? {});
      const user = await findUserById(db, actor.userId);
      if (!user || !(await verifyPassword(user.password_hash, input.password))) {
        throw ValidationError.field('password', 'The password is not correct.');
      }
      await db.transaction(async (tx) => {
        const wasEnabled = await clearOtp(tx, actor.userId);
        await recordAudit(tx, auditContextOf(request), {
          action: 'disable_two_factor',
          objectType: 'user',
          objectId: actor.userId,
          objectRepr: actor.username,
          companyId: actor.companyId,
          before: { two_factor_enabled: wasEnabled },
          after: { two_factor_enabled: false },
        });
      });
      return { two_factor_enabled: false };
    },
  );

  app.delete(
    '/api/users/otp/:id/reset/',
    {
      config: { permission: { basename: 'users', action: 'reset_two_factor' } },
      schema: { response: { 200: twoFactorStatusSchema } },
    },
    async (request) => {
      const actor = requireActor(request);
      const target = await findUserInScope(db, actor.scope, pathId(request.params));
      if (!target) throw notFound();
      if (target.is_superuser && !actor.isSuperuser) {
        throw forbidden("Only a superuser can reset a superuser's two-factor authentication.");
      }
      await db.transaction(async (tx) => {
        const wasEnabled = await clearOtp(tx, target.id);
        await recordAudit(tx, auditContextOf(request), {
          action: 'reset_two_factor',
          objectType: 'user',
          objectId: target.id,
          objectRepr: target.username,
          companyId: target.company_id,
          before: { two_factor_enabled: wasEnabled },
          after: { two_factor_enabled: false },
        });
      });
      return { two_factor_enabled: false };
    },
  );

  // ——— Password ———

  app.post(
    '/api/users/password/change/',
    { config: { reducedApp: true }, schema: { response: { 200: authStateSchema } } },
    async (request) => {
      const actor = selfOnly(request);
      const input = parseOrThrow(passwordChangeSchema, request.body ?? {});
      const user = await findUserById(db, actor.userId);
      if (!user) throw notFound();
      const errors: Record<string, string[]> = {};
      if (!(await verifyPassword(user.password_hash, input.old_password))) {
        errors.old_password = ['The current password is not correct.'];
      }
      const problems = validatePasswordPolicy(input.new_password, {
        username: user.username,
        oldPassword: input.old_password,
        minLength: config.passwordMinLength,
      });
      if (problems.length > 0) errors.new_password = problems;
      if (input.new_password !== input.new_password_retry) {
        errors.new_password_retry = ['The two new passwords are not the same.'];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const passwordHash = await hashPassword(input.new_password);
      const ended = await db.transaction(async (tx) => {
        await setPassword(tx, user.id, passwordHash);
        // Whoever else was signed in with the old password is signed out; this browser stays.
        const count = await endUserSessions(tx, user.id, actor.sessionId);
        await recordAudit(tx, auditContextOf(request), {
          action: 'password_change',
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
          after: { other_sessions_ended: count },
        });
        return count;
      });
      request.log.info({ userId: user.id, otherSessionsEnded: ended }, 'password changed');
      return authState(db, { ...actor, passwordExpired: false });
    },
  );

  // ——— API token ———

  app.post('/api/users/me/token/', { schema: { response: { 200: apiTokenSchema } } }, async (request, reply) => {
    const actor = selfOnly(request);
    // A personal API key outlives sessions and two-factor: only a user granted it by name may make one.
    const { rows } = await db.query<{ allowed: boolean }>(sql`
      SELECT (is_superuser OR coalesce((privileged_settings ->> 'api_tokens')::boolean, false)) AS allowed
      FROM users WHERE id = ${actor.userId}`);
    if (rows[0]?.allowed !== true) {
      throw forbidden(
        'Your account may not create API tokens. Ask an administrator to grant the "API tokens" privilege.',
      );
    }
    const token = `${API_TOKEN_PREFIX}${newToken()}`;
    const createdAt = await db.transaction(async (tx) => {
      const at = await setApiToken(tx, actor.userId, hashToken(token));
      await recordAudit(tx, auditContextOf(request), {
        action: 'create_token',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: actor.companyId,
        after: { token_creation_ts: at.toISOString() },
      });
      return at;
    });
    noStore(reply);
    return { token, token_creation_ts: createdAt.toISOString() };
  });

  app.delete(
    '/api/users/me/token/',
    { schema: { response: { 200: z.object({ token_creation_ts: z.null() }) } } },
    async (request) => {
      const actor = selfOnly(request);
      await db.transaction(async (tx) => {
        const had = await clearApiToken(tx, actor.userId);
        if (!had) return;
        await recordAudit(tx, auditContextOf(request), {
          action: 'revoke_token',
          objectType: 'user',
          objectId: actor.userId,
          objectRepr: actor.username,
          companyId: actor.companyId,
        });
      });
      return { token_creation_ts: null };
    },
  );

  // ——— Lock-out ———

  app.post(
    '/api/users/:id/unlock/',
    {
      config: { permission: { basename: 'users', action: 'change' } },
      schema: { response: { 200: z.object({ locked: z.boolean() }) } },
    },
    async (request) => {
      const actor = requireActor(request);
      const target = await findUserInScope(db, actor.scope, pathId(request.params));
      if (!target) throw notFound();
      await db.transaction(async (tx) => {
        const wasLocked = await unlockUser(tx, target.id);
        await recordAudit(tx, auditContextOf(request), {
          action: 'unlock',
          objectType: 'user',
          objectId: target.id,
          objectRepr: target.username,
          companyId: target.company_id,
          before: { locked: wasLocked },
          after: { locked: false },
        });
      });
      return { locked: false };
    },
  );

  // ——— Activation and password-reset links ———

  const linkToken = (request: FastifyRequest) => {
    const parsed = tokenParams.safeParse(request.params);
    if (!parsed.success) throw notFound('This link is not valid, has expired or has already been used.');
    return parsed.data.token;
  };
  const linkGone = () => notFound('This link is not valid, has expired or has already been used.');

  app.get(
    '/api/activate/:token/',
    { config: { public: true, reducedApp: true }, schema: { response: { 200: activationInfoSchema } } },
    async (request, reply) => {
      // The link in the activation mail opens the console's activation screen, which then asks here.
      if (wantsPage(request)) return sendAppShell(reply, config.webDistDir);
      const found = await findUsableUserToken(db, linkToken(request));
      noStore(reply);
      reply.header('referrer-policy', 'no-referrer');
      if (!found) throw linkGone();
      return { valid: true, username: found.username };
    },
  );

  app.post(
    '/api/activate/:token/',
    { config: { public: true, reducedApp: true }, schema: { response: { 200: authStateSchema } } },
    async (request, reply) => {
      const token = linkToken(request);
      const input = parseOrThrow(activationSchema, request.body ?? {});
      const found = await findUsableUserToken(db, token);
      if (!found) throw linkGone();
      const errors: Record<string, string[]> = {};
      const problems = validatePasswordPolicy(input.new_password, {
        username: found.username,
        minLength: config.passwordMinLength,
      });
      if (problems.length > 0) errors.new_password = problems;
      if (input.new_password !== input.new_password_retry) {
        errors.new_password_retry = ['The two new passwords are not the same.'];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
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
      const user = await findUserById(db, found.user_id);
      // The new password is set; signing in follows the usual rules (allow-list, two-factor).
      if (!user || !ipAllowed(user.ip_whitelist, request.ip)) return authState(db, null);
      return startSession(deps, request, reply, user, 'activation');
    },
  );
}
