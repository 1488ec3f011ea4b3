import { endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor, type Actor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { auditContextOf } from '../audit/audit.service';
import { sendAppShell, wantsPage } from '../web/web.routes';
import { AccountService, checkLinkToken } from './account.service';
import { authState, notWhileImpersonating } from './auth.service';

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

/** Refuses someone acting as the caller before the body is looked at. */
const selfOnlyFirst = { preHandler: async (request: FastifyRequest) => void selfOnly(request) };

/**
 * Account security under /api/users/ (two-factor, password change, API key, unlock) and the
 * one-time activation links under /api/activate/.
 */
export async function registerAccount(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const account = new AccountService(deps);
  const api = endpoints.auth;

  // ——— Two-factor ———

  route(app, api.generateOtpSecret, async ({ request, reply }) => {
    const secret = await account.generateOtpSecret(selfOnly(request));
    noStore(reply);
    return secret;
  });

  route(
    app,
    api.saveOtpSecret,
    async ({ request, body }) => {
      await account.enableOtp(selfOnly(request), auditContextOf(request), body.code);
      return { two_factor_enabled: true };
    },
    selfOnlyFirst,
  );

  route(
    app,
    api.disableOtp,
    async ({ request, body }) => {
      await account.disableOtp(selfOnly(request), auditContextOf(request), body.password);
      return { two_factor_enabled: false };
    },
    selfOnlyFirst,
  );

  route(app, api.resetOtp, async ({ request, params }) => {
    await account.resetOtp(requireActor(request), auditContextOf(request), params.id);
    return { two_factor_enabled: false };
  });

  // ——— Password ———

  route(
    app,
    api.changePassword,
    async ({ request, body }) => {
      const actor = selfOnly(request);
      const ended = await account.changePassword(actor, auditContextOf(request), body);
      request.log.info({ userId: actor.userId, otherSessionsEnded: ended }, 'password changed');
      return authState(db, { ...actor, passwordExpired: false });
    },
    selfOnlyFirst,
  );

  // ——— API token ———

  route(app, api.createApiToken, async ({ request, reply }) => {
    const { token, createdAt } = await account.createApiToken(selfOnly(request), auditContextOf(request));
    noStore(reply);
    return { token, token_creation_ts: createdAt.toISOString() };
  });

  route(app, api.revokeApiToken, async ({ request }) => {
    await account.revokeApiToken(selfOnly(request), auditContextOf(request));
    return { token_creation_ts: null };
  });

  // ——— Lock-out ———

  route(app, api.unlock, async ({ request, params }) => {
    await account.unlock(requireActor(request), auditContextOf(request), params.id);
    return { locked: false };
  });

  // ——— Activation and password-reset links ———

  route(app, api.activationInfo, async ({ request, reply, params }) => {
    // The link in the activation mail opens the console's activation screen, which then asks here.
    if (wantsPage(request)) return sendAppShell(reply, config.webDistDir);
    noStore(reply);
    reply.header('referrer-policy', 'no-referrer');
    return account.activationInfo(params.token);
  });

  route(
    app,
    api.activate,
    async ({ request, reply, params, body }) => account.activate(request, reply, params.token, body),
    // A token that cannot be one is a 404 before the body is looked at.
    { preHandler: async (request) => void checkLinkToken((request.params as { token: string }).token) },
  );
}
