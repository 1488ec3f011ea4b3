import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { halfSignedInRefusal } from '../../http/actor';
import { HttpError } from '../../http/errors';
import { ipAllowed } from './ip-allow-list';
import { IdentityCache } from './identity-cache';
import { resolveApiToken, resolveSession, type ResolvedCaller } from './callers.repository';
import { revocationEpochOf } from './revocation.repository';
import { hashToken } from './tokens';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who-is-calling, remembered briefly; revoked in every process by every write request (see IdentityCache). */
    identityCache: IdentityCache;
  }
  interface FastifyContextConfig {
    /** A write that cannot change who anyone is or may do (event ingest): it keeps the identity cache. */
    identityNeutral?: boolean;
    /**
     * The route checks its own `Authorization: Bearer <key>` (event ingest from sensors) and
     * ignores cookies entirely, so no anti-forgery check and no session lookup apply to it.
     */
    bearerKey?: boolean;
  }
}

export const SESSION_COOKIE = 'vigil_session';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrftoken';
/** The second anti-forgery pair: the same secret under the cookie and header names some clients expect. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const tokenScheme = /^Token(\s|$)/i;
const tokenCredentials = /^Token\s+([A-Za-z0-9._~-]{1,200})\s*$/i;

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function setAntiForgeryCookies(reply: FastifyReply, token: string, secure: boolean, which: 'both' | 'xsrf'): void {
  const options = { path: '/', sameSite: 'lax', httpOnly: false, secure } as const;
  if (which === 'both') reply.setCookie(CSRF_COOKIE, token, options);
  reply.setCookie(XSRF_COOKIE, token, options);
}

/**
 * Sets a fresh anti-forgery secret in two cookies readable by the page, `csrf_token` and
 * `XSRF-TOKEN` (same value), so it can echo it in X-CSRFToken or X-XSRF-TOKEN.
 */
export function issueCsrfCookie(reply: FastifyReply, secure: boolean): string {
  const token = randomBytes(24).toString('base64url');
  setAntiForgeryCookies(reply, token, secure, 'both');
  return token;
}

type Cookies = Record<string, string | undefined>;
type Headers = Record<string, string | string[] | undefined>;

/**
 * The anti-forgery check of an unsafe request: at least one pair (X-CSRFToken = csrf_token cookie,
 * or X-XSRF-TOKEN = XSRF-TOKEN cookie) matches, and no anti-forgery header sent disagrees with its cookie.
 */
export function antiForgeryPasses(cookies: Cookies, headers: Headers): boolean {
  let matched = false;
  for (const [cookieName, headerName] of [
    [CSRF_COOKIE, CSRF_HEADER],
    [XSRF_COOKIE, XSRF_HEADER],
  ] as const) {
    const header = headers[headerName];
    if (header === undefined) continue;
    const cookie = cookies[cookieName];
    if (!cookie || typeof header !== 'string' || !sameSecret(cookie, header)) return false;
    matched = true;
  }
  return matched;
}

export const ipNotAllowed = () =>
  new HttpError(403, 'Your account cannot be used from this network address.', 'ip_not_allowed');

/**
 * Before any /api/ handler runs:
 * 1. unsafe requests must carry an X-CSRFToken equal to the csrf_token cookie or an X-XSRF-TOKEN
 *    equal to the XSRF-TOKEN cookie, and no anti-forgery header that differs from its cookie (403), unless they
 *    authenticate with an API key — then cookies are ignored entirely, so a key header cannot be
 *    used to slip a cookie session past the check;
 * 2. the caller is resolved from `Authorization: Token <key>` (401 when unknown or revoked) or the
 *    session cookie (an unknown, ended or expired session simply means "not signed in");
 * 3. the caller's IP allow-list is enforced (403 `ip_not_allowed`; public routes see an anonymous caller);
 * 4. a half-signed-in session (before its one-time code, or with its password expired) reaches only
 *    the routes of the reduced app (`halfSignedInRefusal`: 403 `two_factor_required` /
 *    `password_expired`); on public routes outside it the caller counts as not signed in.
 */
export function installAuthHooks(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  const cache = new IdentityCache(config.authCacheSeconds * 1000, undefined, undefined, revocationEpochOf(db));
  app.decorate('identityCache', cache);
  app.decorateRequest('actor', null);

  /** The caller behind a credential, from the cache when it was resolved a moment ago. */
  const cached = (key: string, resolve: () => Promise<ResolvedCaller | null>) => cache.remember(key, resolve);

  // Any write may end sessions, revoke tokens or keys, or change users, roles or companies: it
  // revokes what every server process remembers (see IdentityCache). This runs after the change is
  // committed and before the answer leaves, so no process accepts what the answer says is revoked.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!unsafeMethods.has(request.method) || !request.url.startsWith('/api/')) return payload;
    if (request.routeOptions.config?.identityNeutral) return payload;
    try {
      await cache.revoke();
    } catch (error) {
      // Only the other processes may lag then, and no longer than the cache's lifetime.
      request.log.error({ err: error }, 'could not tell the other server processes to forget cached identities');
    }
    return payload;
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    if (request.routeOptions.config?.bearerKey) return;
    const authorization = request.headers.authorization ?? '';
    const usesToken = tokenScheme.test(authorization);
    if (!usesToken) {
      // A browser that got its csrf_token before XSRF-TOKEN existed gets the second cookie now.
      const secret = request.cookies[CSRF_COOKIE];
      if (secret && request.cookies[XSRF_COOKIE] !== secret)
        setAntiForgeryCookies(reply, secret, config.cookieSecure, 'xsrf');
    }
    if (unsafeMethods.has(request.method) && !usesToken && !antiForgeryPasses(request.cookies, request.headers)) {
      throw new HttpError(403, 'CSRF token missing or incorrect.', 'csrf_failed');
    }
    let caller: ResolvedCaller | null = null;
    if (usesToken) {
      const key = tokenCredentials.exec(authorization)?.[1];
      caller = key ? await cached(`token:${hashToken(key)}`, () => resolveApiToken(db, key)) : null;
      if (!caller) throw new HttpError(401, 'The API token is not valid or has been revoked.', 'invalid_token');
    } else {
      const session = request.cookies[SESSION_COOKIE];
      if (session) {
        caller = await cached(`session:${hashToken(session)}`, () =>
          resolveSession(db, session, { passwordMaxAgeDays: config.passwordMaxAgeDays }),
        );
      }
    }
    if (!caller) return;
    const route = request.routeOptions.config;
    if (!ipAllowed(caller.ipWhitelist, request.ip)) {
      if (route.public && !usesToken) return;
      throw ipNotAllowed();
    }
    const refusal = halfSignedInRefusal(caller.actor, route.reducedApp);
    if (refusal) {
      // A public route answers anyone, so a half-signed-in session gets what a stranger gets.
      if (route.public || request.is404) return;
      throw refusal;
    }
    request.actor = caller.actor;
  });
}
