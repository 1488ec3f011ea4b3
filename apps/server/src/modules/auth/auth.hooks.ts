import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { sql } from '../../db/sql';
import { halfSignedInRefusal } from '../../http/actor';
import { HttpError } from '../../http/errors';
import { ipAllowed } from './ip-allow-list';
import { IdentityCache } from './identity-cache';
import { hashToken, resolveApiToken, resolveSession, type ResolvedCaller } from './sessions.repository';

/** NOTIFY channel on which server processes tell each other to forget cached identities. */
export const IDENTITY_CHANNEL = 'vigil_identity';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who-is-calling, remembered briefly; cleared by every write request (see IdentityCache). */
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
  const cache = new IdentityCache(config.authCacheSeconds * 1000);
  // Names this app's own notices, which come back to its listener too: it has forgotten already,
  // and forgetting again when a notice arrives late would drop what was cached since.
  const ownNotice = randomBytes(12).toString('hex');
  app.decorate('identityCache', cache);
  app.decorateRequest('actor', null);

  /** The caller behind a credential, from the cache when it was resolved a moment ago. */
  async function cached(key: string, resolve: () => Promise<ResolvedCaller | null>): Promise<ResolvedCaller | null> {
    const hit = cache.get<ResolvedCaller | null>(key);
    if (hit !== undefined) return hit;
    const mark = cache.mark();
    const caller = await resolve();
    cache.set(key, caller, mark);
    return caller;
  }

  // Any write may change sessions, users, roles or companies: forget every cached identity here
  // at once, and tell the other server processes to do the same.
  // This runs before the answer leaves, so the caller's next request already sees the change.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!unsafeMethods.has(request.method) || !request.url.startsWith('/api/')) return payload;
    if (request.routeOptions.config?.identityNeutral) return payload;
    cache.invalidate();
    if (cache.enabled && db.kind === 'server') {
      await db.query(sql`SELECT pg_notify(${IDENTITY_CHANNEL}, ${ownNotice})`).catch(() => undefined);
    }
    return payload;
  });
  let stopListening: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    if (cache.enabled)
      stopListening = await db.listen(IDENTITY_CHANNEL, (payload) => {
        if (payload !== ownNotice) cache.invalidate();
      });
  });
  app.addHook('onClose', async () => {
    await stopListening?.();
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
