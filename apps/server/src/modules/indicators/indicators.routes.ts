import { endpoints, indicatorImportJsonSchema, indicatorImportTargetSchema } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { registerCsvImport } from '../../http/csv-body';
import { route, type EndpointOptions } from '../../http/endpoints';
import { notFound } from '../../http/errors';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { writeIndicatorCsv } from './indicator-csv';
import { indicatorList, toIndicator } from './indicators.repository';
import { IndicatorsService } from './indicators.service';
import { RETRO_HUNT_JOB, retroHuntJobHandler } from './retro-hunt';

/** Indicator writes leave the caller's identity memory alone. */
const options: EndpointOptions = { config: { identityNeutral: true } };
/** Largest CSV import body (100,000 rows with descriptions fit comfortably). */
const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

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

  const api = endpoints.indicators;
  const indicators = new IndicatorsService(db, index, retroHunt);
  registerList(app, api, indicatorList, { db, publicUrl: config.publicUrl });

  route(
    app,
    api.export,
    async ({ request, reply }) => {
      const rows = await indicators.exportRows(requireActor(request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="indicators.csv"')
        .send(writeIndicatorCsv(rows));
    },
    options,
  );

  route(
    app,
    api.get,
    async ({ request, params }) => toIndicator(await indicators.get(requireActor(request), params.id)),
    options,
  );

  route(
    app,
    api.create,
    async ({ request, body }) =>
      toIndicator(await indicators.create(requireActor(request), auditContextOf(request), body)),
    options,
  );

  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toIndicator(await indicators.update(requireActor(request), auditContextOf(request), params.id, body)),
    options,
  );

  route(
    app,
    api.remove,
    async ({ request, params }) => {
      const removed = await indicators.remove(requireActor(request), auditContextOf(request), [params.id]);
      if (removed === 0) throw notFound();
    },
    options,
  );

  route(
    app,
    api.bulkDelete,
    async ({ request, body }) => ({
      deleted: await indicators.remove(requireActor(request), auditContextOf(request), [...new Set(body.ids)]),
    }),
    options,
  );

  // The import takes text/csv (target in the query string) or JSON {csv, company_id, all_companies}.
  await registerCsvImport(
    app,
    api.import,
    { target: indicatorImportTargetSchema, json: indicatorImportJsonSchema },
    IMPORT_MAX_BYTES,
    (request, csv, into) => indicators.import(requireActor(request), auditContextOf(request), csv, into),
    options,
  );
}
