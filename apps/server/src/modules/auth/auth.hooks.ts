import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app';
import { HttpError } from '../../http/errors';
import { ipAllowed } from './ip-allow-list';
import { resolveApiToken, resolveSession, type ResolvedCaller } from './sessions.repository';

export const SESSION_COOKIE = 'vigil_session';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrftoken';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const tokenScheme = /^Token(\s|$)/i;
const tokenCredentials = /^Token\s+([A-Za-z0-9._~-]{1,200})\s*$/i;

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Sets a fresh anti-forgery cookie (readable by the page, so it can echo it in X-CSRFToken). */
export function issueCsrfCookie(reply: FastifyReply, secure: boolean): string {
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(CSRF_COOKIE, token, { path: '/', sameSite: 'lax', httpOnly: false, secure });
  return token;
}

export const ipNotAllowed = () =>
  new HttpError(403, 'Your account cannot be used from this network address.', 'ip_not_allowed');
export const twoFactorRequired = () =>
  new HttpError(403, 'Enter the one-time code from your authenticator app first.', 'two_factor_required');
export const passwordExpired = () =>
  new HttpError(403, 'Your password has expired; choose a new one first.', 'password_expired');

/**
 * Before any /api/ handler runs:
 * 1. unsafe requests must carry an X-CSRFToken equal to the csrf_token cookie (403), unless they
 *    authenticate with an API key — then cookies are ignored entirely, so a key header cannot be
 *    used to slip a cookie session past the check;
 * 2. the caller is resolved from `Authorization: Token <key>` (401 when unknown or revoked) or the
 *    session cookie (an unknown, ended or expired session simply means "not signed in");
 * 3. the caller's IP allow-list is enforced (403 `ip_not_allowed`; public routes see an anonymous caller);
 * 4. until the session has passed two-factor, or while the password is expired, only public routes
 *    and those marked `reducedApp` answer (403 `two_factor_required` / `password_expired`).
 */
export function installAuthHooks(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const authorization = request.headers.authorization ?? '';
    const usesToken = tokenScheme.test(authorization);
    if (unsafeMethods.has(request.method) && !usesToken) {
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !sameSecret(cookie, header)) {
        throw new HttpError(403, 'CSRF token missing or incorrect.', 'csrf_failed');
      }
    }
    let caller: ResolvedCaller | null = null;
    if (usesToken) {
      const key = tokenCredentials.exec(authorization)?.[1];
      caller = key ? await resolveApiToken(db, key) : null;
      if (!caller) throw new HttpError(401, 'The API token is not valid or has been revoked.', 'invalid_token');
    } else {
      const session = request.cookies[SESSION_COOKIE];
      if (session) caller = await resolveSession(db, session, { passwordMaxAgeDays: config.passwordMaxAgeDays });
    }
    if (!caller) return;
    const route = request.routeOptions.config;
    if (!ipAllowed(caller.ipWhitelist, request.ip)) {
      if (route.public && !usesToken) return;
      throw ipNotAllowed();
    }
    request.actor = caller.actor;
    if (route.public || route.reducedApp || request.is404) return;
    if (!caller.actor.twoFactorPassed) throw twoFactorRequired();
    if (caller.actor.passwordExpired) throw passwordExpired();
  });
}
