import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ssoLoginQuerySchema,
  ssoPasswordChangeAnswerSchema,
  ssoPasswordResetAnswerSchema,
  ssoProvidersAnswerSchema,
  ssoProvidersQuerySchema,
  ssoSettingsSchema,
  ssoSettingsUpdateSchema,
  type SsoErrorCode,
  type SsoSettings,
} from '@vigil/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { issueCsrfCookie, SESSION_COOKIE } from '../auth/auth.hooks';
import { endCurrentSessions } from '../auth/auth.service';
import { recordLoginSuccess } from '../auth/lockout';
import { createSession, SESSION_ABSOLUTE_SECONDS } from '../auth/sessions.repository';
import { finishAuthorization, isAuthorizationResponseError, OidcProviders, startAuthorization } from './sso.oidc';
import {
  companyOfLogin,
  deleteSettings,
  endUserSessions,
  findCompanyInScope,
  findEnabledSettings,
  findSettings,
  findUserInScope,
  insertLoginState,
  saveSettings,
  takeLoginState,
  unlinkCompanyUsers,
  unlinkUser,
  type SsoSettingsRow,
} from './sso.repository';
import {
  CALLBACK_PATH,
  LOGIN_PATH,
  loginUrlFor,
  mergeSettings,
  passwordChangeUrlOf,
  resolveSsoUser,
  safeNextPath,
  toSsoSettings,
} from './sso.service';

/** Cookie that binds a sign-in in progress to the browser that started it (holds the state). */
export const SSO_STATE_COOKIE = 'vigil_sso_state';
/** How long a sign-in may stay at the provider before its state is forgotten. */
const LOGIN_STATE_SECONDS = 10 * 60;

const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/** Path ids that are not numbers name nothing: 404, as for any missing object. */
function parseId(params: unknown): number {
  const parsed = idParams.safeParse(params);
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The settings fields an audit record shows: everything an administrator sets, but the secret. */
function auditView(settings: SsoSettings | null): Record<string, unknown> | null {
  if (!settings?.configured) return null;
  return {
    enabled: settings.enabled,
    issuer: settings.issuer,
    client_id: settings.client_id,
    client_secret_set: settings.client_secret_set,
    scopes: settings.scopes,
    jit_create: settings.jit_create,
    default_role_id: settings.default_role_id,
    password_change_url: settings.password_change_url,
  };
}

/**
 * Single sign-on with OpenID Connect (authorization code flow with PKCE, state and nonce):
 * per-company provider settings, the sign-in redirect and callback, and the provider-side
 * password pages.
 */
export async function registerSso(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const providers = new OidcProviders();
  const sessionCookie = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.cookieSecure };
  const stateCookie = { ...sessionCookie, path: '/api/sso/' };

  /** The callback address registered at providers: PUBLIC_URL when set, else this request's host. */
  const callbackUrl = (request: FastifyRequest) =>
    `${config.publicUrl ?? `${request.protocol}://${request.host}`}${CALLBACK_PATH}`;

  // ── Settings ─────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/companies/:id/sso/',
    { config: { permission: { basename: 'companies', action: 'view' } } },
    async (request) => {
      const actor = requireActor(request);
      const id = parseId(request.params);
      if (!(await findCompanyInScope(db, actor.scope, id))) throw notFound();
      return ssoSettingsSchema.parse(toSsoSettings(id, await findSettings(db, id), callbackUrl(request)));
    },
  );

  app.put(
    '/api/companies/:id/sso/',
    { config: { permission: { basename: 'companies', action: 'change' } } },
    async (request) => {
      const actor = requireActor(request);
      const id = parseId(request.params);
      const update = parseOrThrow(ssoSettingsUpdateSchema, request.body ?? {});
      const saved = await db.transaction(async (tx) => {
        const company = await findCompanyInScope(tx, actor.scope, id, true);
        if (!company) throw notFound();
        const before = await findSettings(tx, id, true);
        const values = await mergeSettings(tx, id, before, update);
        const after = await saveSettings(tx, id, values);
        // Subjects are only unique per issuer: with a new provider, users map by e-mail again.
        const unlinked = before && before.issuer !== after.issuer ? await unlinkCompanyUsers(tx, id) : 0;
        await recordAudit(tx, auditContextOf(request), {
          action: before ? 'update' : 'create',
          objectType: 'company_sso',
          objectId: id,
          objectRepr: company.name,
          companyId: id,
          before: auditView(before && toSsoSettings(id, before, '')),
          after: {
            ...auditView(toSsoSettings(id, after, '')),
            ...(update.client_secret !== undefined ? { client_secret_changed: true } : {}),
            ...(unlinked > 0 ? { users_unlinked: unlinked } : {}),
          },
        });
        return after;
      });
      return ssoSettingsSchema.parse(toSsoSettings(id, saved, callbackUrl(request)));
    },
  );

  app.delete(
    '/api/companies/:id/sso/',
    { config: { permission: { basename: 'companies', action: 'change' } } },
    async (request, reply) => {
      const actor = requireActor(request);
      const id = parseId(request.params);
      await db.transaction(async (tx) => {
        const company = await findCompanyInScope(tx, actor.scope, id, true);
        if (!company) throw notFound();
        const before = await findSettings(tx, id, true);
        if (!before) throw notFound('This company has no single sign-on settings.');
        await deleteSettings(tx, id);
        await unlinkCompanyUsers(tx, id);
        await recordAudit(tx, auditContextOf(request), {
          action: 'delete',
          objectType: 'company_sso',
          objectId: id,
          objectRepr: company.name,
          companyId: id,
          before: auditView(toSsoSettings(id, before, '')),
        });
      });
      return reply.status(204).send();
    },
  );

  // ── Before sign-in ───────────────────────────────────────────────────────────────────────

  /**
   * Whether the login screen should offer single sign-on for what the person typed. Unknown
   * users, archived users and users of companies without SSO all get null alike.
   */
  app.get('/api/sso/providers/', { config: { public: true, reducedApp: true } }, async (request) => {
    const { username } = parseOrThrow(ssoProvidersQuerySchema, request.query ?? {});
    const companyId = await companyOfLogin(db, username);
    const enabled = companyId !== null && (await findEnabledSettings(db, companyId)) !== null;
    return ssoProvidersAnswerSchema.parse({
      sso_authorize_url: enabled && companyId !== null ? loginUrlFor(config, companyId) : null,
    });
  });

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

  /** Starts a sign-in at a company's provider: PKCE, state and nonce kept server-side. */
  app.get(LOGIN_PATH, { config: { public: true, reducedApp: true } }, async (request, reply) => {
    const query = ssoLoginQuerySchema.safeParse(request.query ?? {});
    if (!query.success) return refuse(request, reply, 'unavailable', 'bad login query');
    const settings = await findEnabledSettings(db, query.data.company);
    if (!settings) return refuse(request, reply, 'unavailable', 'company has no enabled single sign-on');
    let start;
    try {
      const configuration = await providers.configuration(settings);
      const redirectUri = callbackUrl(request);
      start = await startAuthorization(configuration, redirectUri, settings.scopes);
      await insertLoginState(
        db,
        sha256(start.state),
        {
          company_id: settings.company_id,
          code_verifier: start.codeVerifier,
          nonce: start.nonce,
          redirect_uri: redirectUri,
          next_path: safeNextPath(query.data.next),
        },
        LOGIN_STATE_SECONDS,
      );
    } catch (error) {
      return refuse(request, reply, 'unavailable', `provider ${settings.issuer} could not be used`, error);
    }
    reply.setCookie(SSO_STATE_COOKIE, start.state, { ...stateCookie, maxAge: LOGIN_STATE_SECONDS });
    reply.header('cache-control', 'no-store');
    return reply.redirect(start.url.href, 302);
  });

  /**
   * The provider's answer: checks that the state belongs to a sign-in this browser started, lets
   * openid-client exchange the code and validate the ID token, maps the identity to a user of the
   * same company, and signs that user in as the password sign-in does.
   */
  app.get(CALLBACK_PATH, { config: { public: true, reducedApp: true } }, async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const state = typeof query.state === 'string' ? query.state : '';
    const cookie = request.cookies[SSO_STATE_COOKIE] ?? '';
    if (!state || !cookie || !sameSecret(state, cookie)) {
      return refuse(request, reply, 'invalid_state', 'state does not match this browser');
    }
    const pending = await takeLoginState(db, sha256(state));
    if (!pending) return refuse(request, reply, 'invalid_state', 'unknown or expired state');
    const settings: SsoSettingsRow | null = await findEnabledSettings(db, pending.company_id);
    if (!settings) return refuse(request, reply, 'unavailable', 'single sign-on was disabled meanwhile');

    let claims;
    try {
      const configuration = await providers.configuration(settings);
      const answer = new URL(pending.redirect_uri);
      answer.search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      claims = await finishAuthorization(configuration, answer, {
        state,
        nonce: pending.nonce,
        codeVerifier: pending.code_verifier,
      });
    } catch (error) {
      if (isAuthorizationResponseError(error)) {
        const code = error.error === 'access_denied' ? 'denied' : 'provider_error';
        return refuse(request, reply, code, `provider answered ${error.error}`);
      }
      return refuse(request, reply, 'provider_error', 'code exchange or ID token refused', error);
    }

    let outcome;
    try {
      outcome = await db.transaction(async (tx) => {
        const resolved = await resolveSsoUser(tx, settings, claims);
        if (!resolved.ok) return resolved;
        const { user } = resolved;
        const who = { userId: user.id, username: user.username, impersonatorId: null, ip: request.ip };
        if (resolved.created) {
          await recordAudit(tx, who, {
            action: 'create',
            objectType: 'user',
            objectId: user.id,
            objectRepr: user.username,
            companyId: user.company_id,
            after: {
              username: user.username,
              email: user.email,
              via: 'sso',
              default_role_id: settings.default_role_id,
            },
          });
        }
        // The provider did the strong authentication, so the session counts as two-factor passed.
        const token = await createSession(tx, user.id, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
          twoFactorPassed: true,
        });
        await recordLoginSuccess(tx, user.id);
        await recordAudit(tx, who, {
          action: 'login',
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
          after: { via: 'sso', issuer: settings.issuer, ...(resolved.linked ? { sso_linked: true } : {}) },
        });
        return { ok: true as const, token };
      });
    } catch (error) {
      return refuse(request, reply, 'server_error', 'signing the user in failed', error);
    }
    if (!outcome.ok) return refuse(request, reply, outcome.error, outcome.reason);

    // A new session id at every sign-in: the previous one (and an impersonation under it) ends.
    await endCurrentSessions(db, request, reply);
    reply.clearCookie(SSO_STATE_COOKIE, { path: stateCookie.path });
    reply.setCookie(SESSION_COOKIE, outcome.token, { ...sessionCookie, maxAge: SESSION_ABSOLUTE_SECONDS });
    issueCsrfCookie(reply, config.cookieSecure);
    reply.header('cache-control', 'no-store');
    return reply.redirect(pending.next_path ?? '/', 302);
  });

  // ── Passwords live at the provider ───────────────────────────────────────────────────────

  /** The provider page where the signed-in user changes its password (the console redirects there). */
  app.post('/api/users/sso/password/change/', { config: { reducedApp: true } }, async (request) => {
    const actor = requireActor(request);
    const settings = await findEnabledSettings(db, actor.companyId);
    if (!settings) throw ValidationError.field('non_field_errors', 'Your company does not use single sign-on.');
    return ssoPasswordChangeAnswerSchema.parse({ url: passwordChangeUrlOf(settings) });
  });

  /**
   * "Reset SSO password" of another user. Vigil holds no provider password, so it does what is in
   * its power and the administrator resets the password at the provider:
   * - the link between the user and its provider identity (`sso_subject`) is removed, so the next
   *   SSO sign-in maps the user by e-mail again (an identity re-created at the provider works);
   * - every open session of the user ends, so whoever held them must sign in again;
   * - the action is audited. The answer carries the provider's password page.
   */
  app.post(
    '/api/users/:id/sso/password/reset/',
    { config: { permission: { basename: 'users', action: 'reset_sso_password' } } },
    async (request) => {
      const actor = requireActor(request);
      const id = parseId(request.params);
      const result = await db.transaction(async (tx) => {
        const user = await findUserInScope(tx, actor.scope, id);
        if (!user) throw notFound();
        const settings = await findSettings(tx, user.company_id);
        if (!settings) {
          throw ValidationError.field('non_field_errors', "This user's company does not use single sign-on.");
        }
        const unlinked = await unlinkUser(tx, user.id);
        const sessionsEnded = await endUserSessions(tx, user.id);
        await recordAudit(tx, auditContextOf(request), {
          action: 'reset_sso_password',
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
          before: { sso_linked: user.sso_subject !== null },
          after: { sso_linked: false, sessions_ended: sessionsEnded },
        });
        return { username: user.username, unlinked, sessionsEnded, url: passwordChangeUrlOf(settings) };
      });
      return ssoPasswordResetAnswerSchema.parse({
        sessions_ended: result.sessionsEnded,
        unlinked: result.unlinked,
        url: result.url,
        messages: [
          {
            title: 'Single sign-on reset',
            message: `${result.username} was signed out and will be matched by e-mail at the next single sign-on. Reset the password at the provider.`,
            type: 'success',
          },
        ],
      });
    },
  );
}
