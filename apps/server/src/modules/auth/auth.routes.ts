import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerAccount } from './account.routes';
import { CSRF_COOKIE, issueCsrfCookie } from './auth.hooks';
import { authState } from './auth.service';
import { ImpersonationService } from './impersonation.service';
import { SignInService } from './sign-in.service';

/** Sign-in, the one-time code step, sign-out and impersonation (`/api/auth/…`), plus account routes. */
export async function registerAuth(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const signIn = new SignInService(deps);
  const impersonation = new ImpersonationService(deps);
  const api = endpoints.auth;

  route(app, api.state, async ({ request, reply }) => {
    if (!request.cookies[CSRF_COOKIE]) issueCsrfCookie(reply, config.cookieSecure);
    return authState(db, request.actor);
  });

  route(app, api.signIn, async ({ request, reply, body }) => signIn.signIn(request, reply, body));

  route(app, api.signOut, async ({ request, reply }) => {
    await signIn.signOut(request, reply, requireActor(request));
    return { logout_url: '/login' };
  });

  route(app, api.otp, async ({ request, body }) => signIn.passOtp(request, requireActor(request), body.code));

  route(
    app,
    api.impersonate,
    async ({ request, reply, body }) => impersonation.start(request, reply, requireActor(request), body.user_id),
    // Who cannot act as anyone is told so before the body is looked at.
    { preHandler: async (request) => ImpersonationService.checkCanStart(request, requireActor(request)) },
  );

  route(app, api.endImpersonation, async ({ request, reply }) =>
    impersonation.end(request, reply, requireActor(request)),
  );

  await registerAccount(app, deps);
}
