import { matcherCreateSchema, matcherUpdateSchema } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { inScope } from '../../http/tenancy';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { WEBHOOK_JOB_KIND } from './apply-matchers';
import {
  committedActionList,
  deleteMatcher,
  findMatcher,
  insertMatcher,
  matcherList,
  toMatcher,
  updateMatcher,
  type MatcherValues,
} from './matchers.repository';
import { isPrivateLiteralUrl } from './network-guard';
import { webhookJobHandler } from './webhook';

const perm = (action: string) => ({ config: { permission: { basename: 'matchers', action } } });

/** Matchers ("committed actions"): conditions over new alerts → actions, and the actions they took. */
export async function registerMatchers(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  app.jobs.register(
    WEBHOOK_JOB_KIND,
    webhookJobHandler({
      timeoutMs: deps.config.webhookTimeoutMs,
      allowPrivateAddresses: deps.config.webhookAllowPrivateAddresses,
    }),
  );
  registerListRoutes(app, matcherList, {
    apiBase: '/api/matchers/',
    basename: 'matchers',
    db,
    publicUrl: deps.config.publicUrl,
  });
  registerListRoutes(app, committedActionList, {
    apiBase: '/api/matchers/actions/',
    basename: 'matchers',
    db,
    publicUrl: deps.config.publicUrl,
  });

  const audit = (request: FastifyRequest) => auditContextOf(request);
  /** A webhook written as a refused address is refused now rather than failing later in the job. */
  const checkWebhooks = (actions: readonly { type: string; url?: string }[]) => {
    if (deps.config.webhookAllowPrivateAddresses) return;
    actions.forEach((action, index) => {
      if (action.type === 'notify_webhook' && action.url !== undefined && isPrivateLiteralUrl(action.url)) {
        throw ValidationError.field(
          `actions.${index}.url`,
          'Webhooks may not call loopback, private or link-local addresses.',
        );
      }
    });
  };

  app.get('/api/matchers/:id/', perm('view'), async (request) => {
    const actor = requireActor(request);
    const row = await findMatcher(db, actor.scope, pathId(request.params));
    if (!row) throw notFound();
    return toMatcher(row);
  });

  app.post('/api/matchers/', perm('add'), async (request, reply) => {
    const actor = requireActor(request);
    const input = parseOrThrow(matcherCreateSchema, request.body ?? {});
    checkWebhooks(input.actions);
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', 'No such company.');
    if (input.all_companies && actor.scope.companies !== 'all')
      throw forbidden('Only staff who see every company can make a matcher for all companies.');
    const values: MatcherValues = {
      name: input.name,
      enabled: input.enabled ?? true,
      all_companies: input.all_companies ?? false,
      position: input.position ?? 0,
      conditions: input.conditions,
      actions: input.actions,
    };
    const row = await db.transaction(async (tx) => {
      const created = await insertMatcher(tx, companyId, values);
      await recordAudit(tx, audit(request), {
        action: 'create',
        objectType: 'matcher',
        objectId: created.id,
        objectRepr: created.name,
        companyId,
        after: values as unknown as Record<string, unknown>,
      });
      return created;
    });
    reply.status(201);
    return toMatcher(row);
  });

  app.patch('/api/matchers/:id/', perm('change'), async (request) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const row = await db.transaction(async (tx) => {
      const before = await findMatcher(tx, actor.scope, id, true);
      if (!before) throw notFound();
      const patch = parseOrThrow(matcherUpdateSchema, request.body ?? {});
      if (patch.actions) checkWebhooks(patch.actions);
      if (patch.all_companies && actor.scope.companies !== 'all')
        throw forbidden('Only staff who see every company can make a matcher for all companies.');
      const values: MatcherValues = {
        name: patch.name ?? before.name,
        enabled: patch.enabled ?? before.enabled,
        all_companies: patch.all_companies ?? before.all_companies,
        position: patch.position ?? before.position,
        conditions: patch.conditions ?? before.conditions,
        actions: patch.actions ?? before.actions,
      };
      const after = await updateMatcher(tx, before, values);
      await recordAudit(tx, audit(request), {
        action: 'update',
        objectType: 'matcher',
        objectId: id,
        objectRepr: after.name,
        companyId: after.company_id,
        before: { ...toMatcher(before) },
        after: { ...toMatcher(after) },
      });
      return after;
    });
    return toMatcher(row);
  });

  app.delete('/api/matchers/:id/', perm('delete'), async (request, reply) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    await db.transaction(async (tx) => {
      const before = await findMatcher(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await deleteMatcher(tx, before);
      await recordAudit(tx, audit(request), {
        action: 'delete',
        objectType: 'matcher',
        objectId: id,
        objectRepr: before.name,
        companyId: before.company_id,
        before: { ...toMatcher(before) },
      });
    });
    reply.status(204);
    return null;
  });
}
