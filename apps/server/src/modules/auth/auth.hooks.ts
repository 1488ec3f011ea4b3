import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../app';
import { HttpError } from '../../http/errors';
import { actorFromSession } from './sessions.repository';

export const SESSION_COOKIE = 'vigil_session';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrftoken';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

/**
 * Resolves who is calling (session cookie) before any handler runs, and refuses unsafe
 * requests whose X-CSRFToken does not match the csrf_token cookie.
 */
export function installAuthHooks(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const usesToken = /^Token\s/i.test(request.headers.authorization ?? '');
    if (unsafeMethods.has(request.method) && !usesToken) {
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !sameSecret(cookie, header)) {
        throw new HttpError(403, 'CSRF token missing or incorrect.', 'csrf_failed');
      }
    }
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.actor = await actorFromSession(deps.db, token);
  });
}
