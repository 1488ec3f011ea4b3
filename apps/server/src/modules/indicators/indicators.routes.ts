import {
  indicatorBulkDeleteSchema,
  indicatorCreateSchema,
  indicatorImportAnswerSchema,
  indicatorImportJsonSchema,
  indicatorImportTargetSchema,
  indicatorSchema,
  indicatorUpdateSchema,
  type IndicatorScope,
} from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ModuleDeps } from '../../app-deps';
import type { Actor } from '../../http/actor';
import { requireActor } from '../../http/actor';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { inScope } from '../../http/tenancy';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { readIndicatorCsv, writeIndicatorCsv } from './indicator-csv';
import { normaliseIndicatorValue } from './indicator-values';
import {
  deleteIndicators,
  exportIndicators,
  findIndicator,
  indicatorKeyTaken,
  indicatorList,
  insertIndicator,
  toIndexed,
  toIndicator,
  updateIndicator,
  upsertIndicators,
  type IndicatorRow,
  type IndicatorValues,
} from './indicators.repository';
import { enqueueRetroHunt, RETRO_HUNT_JOB, retroHuntJobHandler } from './retro-hunt';

const BASENAME = 'indicators';
const perm = (action: string) => ({ config: { permission: { basename: BASENAME, action }, identityNeutral: true } });
/** Largest CSV import body (100,000 rows with descriptions fit comfortably). */
const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
/** Ids listed in one aggregated audit record of a bulk delete. */
const MAX_AUDIT_IDS = 1000;

/** Where a new indicator goes: its company and scope, checked against the caller's. */
function target(actor: Actor, companyId: number | undefined, allCompanies: boolean | undefined) {
  if (allCompanies) {
    if (actor.scope.companies !== 'all')
      throw forbidden('Only staff who see every company can make indicators for all companies.');
    return { companyId: actor.companyId, scope: 'all' as IndicatorScope };
  }
  const id = companyId ?? actor.companyId;
  if (!inScope(actor.scope, id)) throw ValidationError.field('company_id', 'No such company.');
  return { companyId: id, scope: 'company' as IndicatorScope };
}

function normalisedValue(type: IndicatorValues['type'], value: string): string {
  const result = normaliseIndicatorValue(type, value);
  if (!result.ok) throw ValidationError.field('value', result.reason);
  return result.value;
}

const isLiveAlert = (row: IndicatorRow) =>
  row.policy === 'alert' && (row.expires_at === null || row.expires_at.getTime() > Date.now());

/**
 * Policy indicators: CRUD, bulk delete, CSV import and export under /api/indicators/. Every
 * committed write rebuilds the in-memory matching index (and tells other server processes), and
 * new or changed alert indicators are searched for in past events by a retro-hunt job.
 */
export async function registerIndicators(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const { db, config, indicatorIndex: index, pipeline } = deps;
  const retroHunt = config.retroHuntDays > 0;
  app.jobs.register(
    RETRO_HUNT_JOB,
    retroHuntJobHandler({
      db,
      days: config.retroHuntDays,
      indexes: index,
      pipeline,
    }),
  );

  registerListRoutes(app, indicatorList, {
    apiBase: '/api/indicators/',
    basename: BASENAME,
    db,
    publicUrl: config.publicUrl,
  });
  const audit = (request: FastifyRequest) => auditContextOf(request);

  app.get('/api/indicators/export/', perm('export'), async (request, reply) => {
    const actor = requireActor(request);
    const rows = await exportIndicators(db, actor.scope);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="indicators.csv"');
    return writeIndicatorCsv(rows);
  });

  app.get(
    '/api/indicators/:id/',
    { ...perm('view'), schema: { response: { 200: indicatorSchema } } },
    async (request) => {
      const actor = requireActor(request);
      const row = await findIndicator(db, actor.scope, pathId(request.params));
      if (!row) throw notFound();
      return toIndicator(row);
    },
  );

  app.post(
    '/api/indicators/',
    { ...perm('add'), schema: { response: { 201: indicatorSchema } } },
    async (request, reply) => {
      const actor = requireActor(request);
      const input = parseOrThrow(indicatorCreateSchema, request.body ?? {});
      const where = target(actor, input.company_id, input.all_companies);
      const values: IndicatorValues = {
        type: input.type,
        value: normalisedValue(input.type, input.value),
        policy: input.policy ?? 'alert',
        severity: input.severity ?? 'medium',
        expires_at: input.expires_at ?? null,
        tags: [...new Set(input.tags ?? [])],
        source: input.source ?? '',
        description: input.description ?? '',
      };
      const row = await db.transaction(async (tx) => {
        if (await indicatorKeyTaken(tx, where.companyId, where.scope, values.type, values.value))
          throw ValidationError.field('value', 'An indicator of this type and value exists already for this scope.');
        const created = await insertIndicator(tx, where.companyId, where.scope, values);
        await recordAudit(tx, audit(request), {
          action: 'create',
          objectType: 'indicator',
          objectId: created.id,
          objectRepr: `${created.type} ${created.value}`,
          companyId: created.company_id,
          after: { ...toIndicator(created) },
        });
        if (retroHunt && isLiveAlert(created)) await enqueueRetroHunt(tx, [Number(created.id)]);
        return created;
      });
      await index.changed({ upserted: [toIndexed(row)], removed: [] });
      reply.status(201);
      return toIndicator(row);
    },
  );

  app.patch(
    '/api/indicators/:id/',
    { ...perm('change'), schema: { response: { 200: indicatorSchema } } },
    async (request) => {
      const actor = requireActor(request);
      const id = pathId(request.params);
      const patch = parseOrThrow(indicatorUpdateSchema, request.body ?? {});
      const row = await db.transaction(async (tx) => {
        const before = await findIndicator(tx, actor.scope, id, true);
        if (!before) throw notFound();
        const values: IndicatorValues = {
          type: before.type,
          value: patch.value === undefined ? before.value : normalisedValue(before.type, patch.value),
          policy: patch.policy ?? before.policy,
          severity: patch.severity ?? before.severity,
          expires_at: patch.expires_at === undefined ? (before.expires_at?.toISOString() ?? null) : patch.expires_at,
          tags: patch.tags ? [...new Set(patch.tags)] : before.tags,
          source: patch.source ?? before.source,
          description: patch.description ?? before.description,
        };
        if (
          values.value !== before.value &&
          (await indicatorKeyTaken(tx, before.company_id, before.scope, values.type, values.value, id))
        )
          throw ValidationError.field('value', 'An indicator of this type and value exists already for this scope.');
        const after = await updateIndicator(tx, before, values);
        await recordAudit(tx, audit(request), {
          action: 'update',
          objectType: 'indicator',
          objectId: id,
          objectRepr: `${after.type} ${after.value}`,
          companyId: after.company_id,
          before: { ...toIndicator(before) },
          after: { ...toIndicator(after) },
        });
        // A value or policy that starts alerting, or an expiry that brings it back, is hunted for.
        const wasLive = isLiveAlert(before);
        if (retroHunt && isLiveAlert(after) && (!wasLive || after.value !== before.value))
          await enqueueRetroHunt(tx, [id]);
        return after;
      });
      await index.changed({ upserted: [toIndexed(row)], removed: [] });
      return toIndicator(row);
    },
  );

  const removeMany = async (request: FastifyRequest, ids: readonly number[]) => {
    const actor = requireActor(request);
    const removed = await db.transaction(async (tx) => {
      const rows = await deleteIndicators(tx, actor.scope, ids);
      const byCompany = new Map<number, IndicatorRow[]>();
      for (const row of rows) {
        const list = byCompany.get(Number(row.company_id));
        if (list) list.push(row);
        else byCompany.set(Number(row.company_id), [row]);
      }
      for (const [companyId, list] of byCompany) {
        const single = list.length === 1 ? list[0] : undefined;
        await recordAudit(tx, audit(request), {
          action: 'delete',
          objectType: 'indicator',
          objectId: single ? single.id : null,
          objectRepr: single ? `${single.type} ${single.value}` : `${list.length} indicators`,
          companyId,
          before: single
            ? { ...toIndicator(single) }
            : { ids: list.slice(0, MAX_AUDIT_IDS).map((r) => Number(r.id)), count: list.length },
        });
      }
      return rows.map((r) => Number(r.id));
    });
    if (removed.length > 0) await index.changed({ upserted: [], removed });
    return removed.length;
  };

  app.delete('/api/indicators/:id/', perm('delete'), async (request, reply) => {
    const removed = await removeMany(request, [pathId(request.params)]);
    if (removed === 0) throw notFound();
    reply.status(204);
    return null;
  });

  app.post('/api/indicators/bulk_delete/', perm('delete'), async (request) => {
    const { ids } = parseOrThrow(indicatorBulkDeleteSchema, request.body ?? {});
    return { deleted: await removeMany(request, [...new Set(ids)]) };
  });

  // The import takes text/csv (target in the query string) or JSON {csv, company_id, all_companies}.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      ['text/csv', 'text/plain'],
      { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES },
      (_r, body, done) => done(null, body),
    );
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES },
      (_r, body, done) => {
        try {
          done(null, JSON.parse(String(body)) as unknown);
        } catch {
          done(ValidationError.field('non_field_errors', 'The body is not valid JSON.'), undefined);
        }
      },
    );
    scope.post(
      '/api/indicators/import/',
      { ...perm('import'), bodyLimit: IMPORT_MAX_BYTES, schema: { response: { 200: indicatorImportAnswerSchema } } },
      async (request) => {
        const actor = requireActor(request);
        let csv: string;
        let where;
        if (typeof request.body === 'string') {
          const q = parseOrThrow(indicatorImportTargetSchema, request.query ?? {});
          csv = request.body;
          where = target(actor, q.company_id, q.all_companies);
        } else {
          const input = parseOrThrow(indicatorImportJsonSchema, request.body ?? {});
          csv = input.csv;
          where = target(actor, input.company_id, input.all_companies);
        }
        const { rows, rejected } = readIndicatorCsv(csv);
        if (rows.length === 0) return { created: 0, updated: 0, rejected };
        const result = await db.transaction(async (tx) => {
          const done = await upsertIndicators(tx, where.companyId, where.scope, rows);
          await recordAudit(tx, audit(request), {
            action: 'import',
            objectType: 'indicator',
            objectId: null,
            objectRepr: `${done.created} created, ${done.updated} updated, ${rejected.length} rejected`,
            companyId: where.companyId,
            after: { scope: where.scope, created: done.created, updated: done.updated, rejected: rejected.length },
          });
          if (retroHunt && done.alertIds.length > 0) await enqueueRetroHunt(tx, done.alertIds);
          return done;
        });
        await index.changed({ upserted: result.indexed, removed: [] });
        return { created: result.created, updated: result.updated, rejected };
      },
    );
  });
}
