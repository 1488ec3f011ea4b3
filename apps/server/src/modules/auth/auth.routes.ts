import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { sql } from '../../db/sql';
import { requireActor } from '../../http/actor';
import { parseOrThrow, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { CSRF_COOKIE, issueCsrfCookie, SESSION_COOKIE } from './auth.hooks';
import { verifyPassword } from './passwords';
import { createSession, endSession, SESSION_ABSOLUTE_SECONDS } from './sessions.repository';

const credentialsSchema = z.object({
  username: z
    .string({ message: 'Enter your username or e-mail.' })
    .trim()
    .min(1, 'Enter your username or e-mail.')
    .max(254),
  password: z.string({ message: 'Enter your password.' }).min(1, 'Enter your password.').max(200),
});

interface AuthUserRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  company_id: number;
  password_hash: string | null;
  password_must_change: boolean;
}

export async function registerAuth(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.cookieSecure };

  async function authState(userId: number | null, twoFactorPassed: boolean) {
    if (userId === null) return { authenticated: false, user: null };
    const { rows } = await db.query<AuthUserRow>(
      sql`SELECT id, username, first_name, last_name, company_id, password_hash, password_must_change
          FROM users WHERE id = ${userId}`,
    );
    const user = rows[0];
    if (!user) return { authenticated: false, user: null };
    return {
      authenticated: true,
      user: {
        id: user.id,
        username: user.username,
        first_name: user.first_name,
        last_name: user.last_name,
        company_id: user.company_id,
        two_factor_passed: twoFactorPassed,
        password_expired: user.password_must_change,
      },
    };
  }

  app.get('/api/auth/', { config: { public: true, reducedApp: true } }, async (request, reply) => {
    if (!request.cookies[CSRF_COOKIE]) issueCsrfCookie(reply, config.cookieSecure);
    return authState(request.actor?.userId ?? null, request.actor?.twoFactorPassed ?? false);
  });

  app.post('/api/auth/', { config: { public: true, reducedApp: true } }, async (request, reply) => {
    const credentials = parseOrThrow(credentialsSchema, request.body ?? {});
    const { rows } = await db.query<AuthUserRow>(sql`
      SELECT id, username, first_name, last_name, company_id, password_hash, password_must_change
      FROM users
      WHERE (lower(username) = lower(${credentials.username}) OR lower(email) = lower(${credentials.username}))
        AND archived_at IS NULL
      ORDER BY (lower(username) = lower(${credentials.username})) DESC
      LIMIT 1`);
    const user = rows[0] ?? null;
    const valid = await verifyPassword(user?.password_hash ?? null, credentials.password);
    if (!user || !valid) {
      throw ValidationError.field('non_field_errors', 'The username or password is not correct.');
    }
    // A new session id at every sign-in; the previous one (if any) ends.
    if (request.actor?.sessionId) await endSession(db, request.actor.sessionId);
    const token = await db.transaction(async (tx) => {
      const created = await createSession(tx, user.id, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        twoFactorPassed: true,
      });
      await recordAudit(
        tx,
        { userId: user.id, username: user.username, impersonatorId: null, ip: request.ip },
        {
          action: 'login',
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
        },
      );
      return created;
    });
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: SESSION_ABSOLUTE_SECONDS });
    issueCsrfCookie(reply, config.cookieSecure);
    return authState(user.id, true);
  });

  app.delete('/api/auth/', { config: { reducedApp: true } }, async (request, reply) => {
    const actor = requireActor(request);
    await db.transaction(async (tx) => {
      if (actor.sessionId) await endSession(tx, actor.sessionId);
      await recordAudit(tx, auditContextOf(request), {
        action: 'logout',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: actor.companyId,
      });
    });
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { logout_url: '/login' };
  });
}
