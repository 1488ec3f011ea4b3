import { endpoints, ssoLoginQuerySchema, type SsoErrorCode } from '@vigil/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { auditContextOf } from '../audit/audit.service';
import { issueCsrfCookie, SESSION_COOKIE } from '../auth/auth.hooks';
import { endCurrentSessions, sessionCookieOptions } from '../auth/auth.service';
import { LOGIN_STATE_SECONDS, SsoLoginService } from './sso-login.service';
import { CALLBACK_PATH, SsoService } from './sso.service';

/** Cookie that binds a sign-in in progress to the browser that started it (holds the state). */
export const SSO_STATE_COOKIE = 'vigil_sso_state';

/**
 * Single sign-on with OpenID Connect (authorization code flow with PKCE, state and nonce):
 * per-company provider settings, the sign-in redirect and callback, and the provider-side
 * password pages.
 */
export async function registerSso(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const sso = new SsoService(db, config);
  const logins = new SsoLoginService(db);
  const api = endpoints.sso;
  const stateCookie = { path: '/api/sso/', httpOnly: true, sameSite: 'lax' as const, secure: config.cookieSecure };

  /** The callback address registered at providers: PUBLIC_URL when set, else this request's host. */
  const callbackUrl = (request: FastifyRequest) =>
    `${config.publicUrl ?? `${request.protocol}://${request.host}`}${CALLBACK_PATH}`;

  // ── Settings ─────────────────────────────────────────────────────────────────────────────

  route(app, api.settings, async ({ request, params }) =>
    sso.settings(requireActor(request), params.id, callbackUrl(request)),
  );

  route(app, api.saveSettings, async ({ request, params, body }) =>
    sso.saveSettings(requireActor(request), auditContextOf(request), params.id, body, callbackUrl(request)),
  );

  route(app, api.removeSettings, async ({ request, params }) => {
    await sso.removeSettings(requireActor(request), auditContextOf(request), params.id);
  });

  // ── Before sign-in ───────────────────────────────────────────────────────────────────────

  route(app, api.providers, async ({ query }) => ({
    sso_authorize_url: await sso.authorizeUrlForLogin(query.username),
  }));

  /** Sends the browser to the login screen with a reason it can show. */
  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    code: SsoErrorCode,
    reason: string,
    error?: unknown,
  ) => {
    request.log.warn({ sso_error: code, reason, err: error }, 'single sign-on refused');
    reply.clearCookie(SSO_STATE_COOKIE, { path: stateCookie.path });
    reply.header('cache-control', 'no-store');
    return reply.redirect(`/login?sso_error=${code}`, 302);
  };

  // A query that does not fit is answered by a redirect to the login screen, not a 400: the
  // handlers read the query themselves.
  route(
    app,
    api.login,
    async ({ request, reply }) => {
      const query = ssoLoginQuerySchema.safeParse(request.query ?? {});
      if (!query.success) return refuse(request, reply, 'unavailable', 'bad login query');
      const started = await logins.start(query.data.company, query.data.next, callbackUrl(request));
      if (!started.ok) return refuse(request, reply, started.code, started.reason, started.error);
      reply.setCookie(SSO_STATE_COOKIE, started.state, { ...stateCookie, maxAge: LOGIN_STATE_SECONDS });
      reply.header('cache-control', 'no-store');
      return reply.redirect(started.url, 302);
    },
    { parseRequest: false },
  );

  route(
    app,
    api.callback,
    async ({ request, reply }) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : '';
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const outcome = await logins.finish(state, request.cookies[SSO_STATE_COOKIE] ?? '', search, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      if (!outcome.ok) return refuse(request, reply, outcome.code, outcome.reason, outcome.error);
      // A new session id at every sign-in: the previous one (and an impersonation under it) ends.
      await endCurrentSessions(db, request, reply);
      reply.clearCookie(SSO_STATE_COOKIE, { path: stateCookie.path });
      reply.setCookie(SESSION_COOKIE, outcome.token, sessionCookieOptions(config.cookieSecure));
      issueCsrfCookie(reply, config.cookieSecure);
      reply.header('cache-control', 'no-store');
      return reply.redirect(outcome.nextPath ?? '/', 302);
    },
    { parseRequest: false },
  );

  // ── Passwords live at the provider ───────────────────────────────────────────────────────

  route(app, api.passwordChange, async ({ request }) => ({
    url: await sso.passwordChangeUrl(requireActor(request)),
  }));

  route(app, api.passwordReset, async ({ request, params }) =>
    sso.resetPassword(requireActor(request), auditContextOf(request), params.id),
  );
}
