import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppDeps, AppServices, ModuleDeps } from './app-deps';
import type { Database } from './db/database';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from './http/answer-serializer';
import { installPermissionGuard, type GuardedRoute } from './http/actor';
import { installErrorHandling } from './http/errors';
import { registerAlerts } from './modules/alerts/alerts.routes';
import { raiseAlerts } from './modules/alerts/raise-alerts';
import { registerApiDocs } from './modules/api-docs/api-docs.routes';
import { registerAudit } from './modules/audit/audit.routes';
import { installAuthHooks } from './modules/auth/auth.hooks';
import { registerAuth } from './modules/auth/auth.routes';
import { secretSafeSerializers, withSecretsRedacted } from './modules/auth/log-redaction';
import { registerCompanies } from './modules/companies/companies.routes';
import { registerEvents } from './modules/events/events.routes';
import { registerGraph } from './modules/graph/graph.routes';
import { registerHealth } from './modules/health/health.routes';
import { groupNewAlerts } from './modules/incidents/grouping';
import { registerIncidents } from './modules/incidents/incidents.routes';
import { indicatorStage } from './modules/indicators/indicator-detections';
import type { IndicatorIndexSource } from './modules/indicators/indicator-index';
import { IndicatorIndexService } from './modules/indicators/indicator-index.service';
import { registerIndicators } from './modules/indicators/indicators.routes';
import { registerIngest } from './modules/ingest/ingest.routes';
import { installMaintenance } from './modules/maintenance/maintenance.guard';
import { registerJobs } from './modules/jobs/jobs.module';
import type { LiveEvent } from './modules/live/live.bus';
import { registerLive } from './modules/live/live.routes';
import { registerMail } from './modules/mail/mail.routes';
import { applyMatchers } from './modules/matchers/apply-matchers';
import { registerMatchers } from './modules/matchers/matchers.routes';
import { assetDiscoveryStep } from './modules/assets/asset-discovery';
import { SightingMemory } from './modules/assets/sighting-memory';
import { createDetectionPipeline, type DetectionPipeline } from './modules/pipeline/pipeline';
import { SigmaStage } from './modules/rules/sigma-stage';
import { SuricataRuleStage } from './modules/rules/suricata-rule-stage';
import { registerRoles } from './modules/roles/roles.routes';
import { registerRules } from './modules/rules/rules.routes';
import { registerSearch } from './modules/search/search.routes';
import { registerSavedSearches } from './modules/saved-searches/saved-searches.routes';
import { registerYaraScan } from './modules/rules/yara/yara-scan.routes';
import { registerSessions } from './modules/sessions/sessions.routes';
import { registerSso } from './modules/sso/sso.routes';
import { registerUnits } from './modules/units/units.routes';
import { registerAssets } from './modules/assets/assets.routes';
import { registerEmployees } from './modules/employees/employees.routes';
import { registerSoftware } from './modules/software/software.routes';
import { recordSoftwareOfBatch } from './modules/software/software.service';
import { registerMe } from './modules/users/me.routes';
import { registerUsers } from './modules/users/users.routes';
import { installSecurityHeaders } from './modules/web/security-headers';
import { registerWeb } from './modules/web/web.routes';
import { registerWidgets } from './modules/widgets/widgets.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api/ route with the permission it needs (filled as routes register). */
    guardedRoutes: GuardedRoute[];
    /** The detection pipeline every alert of this app is raised through. */
    pipeline: DetectionPipeline;
    /** This app's in-memory index of live policy indicators. */
    indicatorIndex: IndicatorIndexService;
    /** What asset discovery in this app last found stored (cleared by changes to assets by hand). */
    assetSightings: SightingMemory;
  }
}

/**
 * The detection pipeline, wired: store → detect → raise → group → match → publish. The detection
 * stages run in the order of this list; adding an engine (Sigma, YARA) is one more entry in it.
 */
export function buildDetectionPipeline(parts: {
  db: Database;
  indicators: IndicatorIndexSource;
  /** ALERT_DEDUP_WINDOW_MINUTES. */
  dedupWindowMinutes: number;
  publish: (live: LiveEvent[]) => Promise<void>;
  /** The Sigma stage (buildServices makes it to load the rules at start); a new one when absent. */
  sigma?: SigmaStage;
  /** ASSET_DISCOVERY (on when absent). */
  assetDiscovery?: boolean;
  /** Discovery's memory of what is stored; a new one when absent. */
  sightings?: SightingMemory;
}): DetectionPipeline {
  return createDetectionPipeline({
    db: parts.db,
    // Each stage object holds its own compiled rules and threshold counters, made here once per app.
    inventorySteps: parts.assetDiscovery === false ? [] : [assetDiscoveryStep(parts.sightings ?? new SightingMemory())],
    detectionStages: [new SuricataRuleStage(), parts.sigma ?? new SigmaStage(), indicatorStage(parts.indicators)],
    raise: (tx, detections) => raiseAlerts(tx, detections, { dedupWindowMinutes: parts.dedupWindowMinutes }),
    software: recordSoftwareOfBatch,
    group: groupNewAlerts,
    match: applyMatchers,
    publish: parts.publish,
  });
}

/** Domain modules, each one `register` function; adding a module is one line here. */
const modules: ((app: FastifyInstance, deps: ModuleDeps) => Promise<void>)[] = [
  registerHealth,
  registerApiDocs,
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
  registerAssets,
  registerEmployees,
  registerSoftware,
  registerSessions,
  registerIngest,
  registerEvents,
  registerLive,
  registerAlerts,
  registerIncidents,
  registerMatchers,
  registerIndicators,
  registerRules,
  registerWidgets,
  registerGraph,
  registerSearch,
  registerSavedSearches,
  registerYaraScan,
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
  app.setSerializerCompiler(answerSerializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installSecurityHeaders(app);
  installErrorHandling(app);
  await app.register(fastifyCookie);
  // Maintenance answers 423 before anyone is looked up.
  installMaintenance(app, deps);
  installAuthHooks(app, deps);
  app.decorate('guardedRoutes', installPermissionGuard(app));
  const services = await buildServices(app, deps);
  const moduleDeps: ModuleDeps = { ...deps, ...services };
  for (const register of modules) await register(app, moduleDeps);
  await registerWeb(app, moduleDeps);
  return app;
}

/** The services made once per app and passed to the modules that need them (never module globals). */
async function buildServices(app: FastifyInstance, deps: AppDeps): Promise<AppServices> {
  const indicatorIndex = new IndicatorIndexService(deps.db, (error) =>
    app.log.warn({ err: error }, 'indicator index rebuild failed'),
  );
  await indicatorIndex.start();
  app.addHook('onClose', async () => {
    await indicatorIndex.stop();
  });
  const sigma = new SigmaStage({
    onCompileError: (rule, reason) =>
      app.log.warn(
        { rule },
        `Sigma rule ${rule.id} revision ${rule.revision} does not compile and is left out: ${reason}`,
      ),
  });
  // The enabled Sigma rules are compiled while the server starts listening, a few at a time, so that
  // requests are answered meanwhile; a batch that comes first waits for them (and a failure here is
  // retried by that batch).
  void sigma
    .prepare(deps.db)
    .catch((error: unknown) => app.log.warn({ err: error }, 'Sigma rules not loaded at start'));
  const sightings = new SightingMemory();
  const pipeline = buildDetectionPipeline({
    db: deps.db,
    indicators: indicatorIndex,
    dedupWindowMinutes: deps.config.alertDedupWindowMinutes,
    assetDiscovery: deps.config.assetDiscovery,
    sightings,
    sigma,
    // The live bus is made by the live module (registered later); it is read when a batch has committed.
    publish: (live) =>
      app.live.publish(live).catch((error: unknown) => app.log.warn({ err: error }, 'live update failed')),
  });
  app.decorate('indicatorIndex', indicatorIndex);
  app.decorate('pipeline', pipeline);
  app.decorate('assetSightings', sightings);
  return { indicatorIndex, pipeline };
}
