import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { installPermissionGuard, type GuardedRoute } from './http/actor';
import { installErrorHandling } from './http/errors';
import { registerAlerts } from './modules/alerts/alerts.routes';
import { registerAudit } from './modules/audit/audit.routes';
import { installAuthHooks } from './modules/auth/auth.hooks';
import { registerAuth } from './modules/auth/auth.routes';
import { secretSafeSerializers, withSecretsRedacted } from './modules/auth/log-redaction';
import { registerCompanies } from './modules/companies/companies.routes';
import { registerEvents } from './modules/events/events.routes';
import { registerGraph } from './modules/graph/graph.routes';
import { registerHealth } from './modules/health/health.routes';
import { registerIncidents } from './modules/incidents/incidents.routes';
import { registerIndicators } from './modules/indicators/indicators.routes';
import { registerIngest } from './modules/ingest/ingest.routes';
import { installMaintenance } from './modules/maintenance/maintenance.guard';
import { registerJobs } from './modules/jobs/jobs.module';
import { registerLive } from './modules/live/live.routes';
import { registerMail } from './modules/mail/mail.routes';
import { registerMatchers } from './modules/matchers/matchers.routes';
import { registerRoles } from './modules/roles/roles.routes';
import { registerSessions } from './modules/sessions/sessions.routes';
import { registerSso } from './modules/sso/sso.routes';
import { registerUnits } from './modules/units/units.routes';
import { registerMe } from './modules/users/me.routes';
import { registerUsers } from './modules/users/users.routes';
import { registerWeb } from './modules/web/web.routes';
import { registerWidgets } from './modules/widgets/widgets.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/ route with the permission it needs (filled as routes register). */
    guardedRoutes: GuardedRoute[];
  }
}

/** Domain modules, each one `register` function; adding a module is one line here. */
const modules: ((app: FastifyInstance, deps: AppDeps) => Promise<void>)[] = [
  registerHealth,
  registerAuth,
  registerCompanies,
  registerAudit,
  registerJobs,
  registerMail,
  registerSso,
  registerMe,
  registerUsers,
  registerRoles,
  registerUnits,
  registerSessions,
  registerIngest,
  registerEvents,
  registerLive,
  registerAlerts,
  registerIncidents,
  registerMatchers,
  registerIndicators,
  registerWidgets,
  registerGraph,
];

const requestIdPattern = /^[A-Za-z0-9._-]{1,100}$/;

/** The composition root: builds the HTTP application from its dependencies. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withSecretsRedacted(deps.logger) ?? {
      level: deps.config.logLevel,
      serializers: secretSafeSerializers,
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          'req.headers["x-csrftoken"]',
          'req.headers["x-xsrf-token"]',
          'res.headers["set-cookie"]',
        ],
        censor: '***',
      },
    },
    // Keep a caller's request id when it sends a sane one, else make one; echo it back.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    forceCloseConnections: 'idle',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  await app.register(fastifyCookie);
  // Maintenance answers 423 before anyone is looked up.
  installMaintenance(app, deps);
  installAuthHooks(app, deps);
  app.decorate('guardedRoutes', installPermissionGuard(app));
  for (const register of modules) await register(app, deps);
  await registerWeb(app, deps);
  return app;
}
