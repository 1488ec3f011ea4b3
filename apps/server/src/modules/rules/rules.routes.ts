import { endpoints, ruleKinds, type RuleKind } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ModuleDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route, type EndpointOptions } from '../../http/endpoints';
import { HttpError } from '../../http/errors';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { hashIngestKey, resolveIngestKey, type IngestCaller } from '../ingest/tokens.repository';
import { testRule } from './rule-test';
import { RulesService } from './rules.service';
import { thresholdList, toThreshold } from './thresholds.repository';
import { ThresholdsService } from './thresholds.service';

/** Rule writes leave the caller's identity memory alone. */
const options: EndpointOptions = { config: { identityNeutral: true } };
/**
 * Largest import body the server reads. The import's own limits (5 MB a file, 20 MB in all) are
 * checked after reading, so a file over them gets a 400 that names it; bodies over this get 413.
 */
const IMPORT_BODY_BYTES = 64 * 1024 * 1024;

/** A rule test carries a rule text (5 MB) and an event (1 MB) or a file in base64 (10 MB). */
const TEST_BODY_BYTES = 24 * 1024 * 1024;

const bearer = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,200})\s*$/i;
const invalidKey = () =>
  new HttpError(401, 'The ingest key is missing, not valid, or has been revoked.', 'invalid_ingest_key');

/** The endpoints of one kind of rule: list, count, detail, diff, bulk switch, import. */
function registerKind(app: FastifyInstance, deps: ModuleDeps, rules: RulesService, kind: RuleKind): void {
  const api = endpoints.rules[kind];
  // Start-up checks the orderings against this one; each caller reads the list as its company sees it.
  const checked = rules.listFor(kind, { scope: { companies: [] }, companyId: 0 });
  registerList(app, api, checked, {
    db: deps.db,
    publicUrl: deps.config.publicUrl,
    forActor: (actor) => rules.listFor(kind, actor),
  });
  route(app, api.get, async ({ request, params }) => rules.get(kind, requireActor(request), params.id), options);
  route(
    app,
    api.diff,
    async ({ request, params, query }) => rules.diff(kind, requireActor(request), params.id, query.from, query.to),
    options,
  );
  route(
    app,
    api.remove,
    async ({ request, params }) => {
      await rules.remove(kind, requireActor(request), auditContextOf(request), params.id);
    },
    options,
  );
  route(app, api.test, async ({ body }) => testRule(kind, body), { ...options, bodyLimit: TEST_BODY_BYTES });
  route(
    app,
    api.bulk,
    async ({ request, body }) => rules.bulk(kind, requireActor(request), auditContextOf(request), body),
    options,
  );
  route(
    app,
    api.import,
    async ({ request, body }) => {
      const actor = requireActor(request);
      return rules.import(
        kind,
        { userId: actor.userId, companyId: actor.companyId, scope: actor.scope },
        auditContextOf(request),
        body,
      );
    },
    { ...options, bodyLimit: IMPORT_BODY_BYTES },
  );
}

/**
 * Detection rules under /api/rules/<kind>/ (Suricata, Sigma, YARA), the Suricata threshold.config
 * entries of each company, and the ruleset a sensor fetches with its ingest key.
 */
export async function registerRules(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const { db, config } = deps;
  const rules = new RulesService(db);
  for (const kind of ruleKinds) registerKind(app, deps, rules, kind);

  const thresholds = new ThresholdsService(db);
  const api = endpoints.rules.suricata;
  registerList(app, api.thresholds, thresholdList, { db, publicUrl: config.publicUrl });
  route(
    app,
    api.thresholds.create,
    async ({ request, body }) =>
      toThreshold(await thresholds.create(requireActor(request), auditContextOf(request), body)),
    options,
  );
  route(
    app,
    api.thresholds.update,
    async ({ request, params, body }) =>
      toThreshold(await thresholds.update(requireActor(request), auditContextOf(request), params.id, body)),
    options,
  );
  route(
    app,
    api.thresholds.remove,
    async ({ request, params }) => {
      await thresholds.remove(requireActor(request), auditContextOf(request), params.id);
    },
    options,
  );

  // A sensor fetches its company's ruleset with its ingest key, as it posts events.
  const keyCaller = async (request: FastifyRequest): Promise<IngestCaller> => {
    const key = bearer.exec(request.headers.authorization ?? '')?.[1];
    const caller = key
      ? await app.identityCache.remember(`ingest:${hashIngestKey(key)}`, () => resolveIngestKey(db, key))
      : null;
    if (!caller) throw invalidKey();
    return caller;
  };
  route(
    app,
    api.export,
    async ({ request, reply }) => {
      const caller = await keyCaller(request);
      const answer = await rules.suricataExport(caller.companyId);
      const etag = `"${answer.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      const asked = request.headers['if-none-match'];
      if (typeof asked === 'string' && asked.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
        return reply.status(304).send();
      }
      return answer;
    },
    { config: { identityNeutral: true, bearerKey: true } },
  );
}
