import { assetImportJsonSchema, assetImportTargetSchema, endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { registerCsvImport } from '../../http/csv-body';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { assetList, toAsset } from './assets.repository';
import { AssetsService } from './assets.service';
import { ipHostList, toIpHost } from './ip-hosts.repository';

/** Largest CSV import body (100,000 rows with notes fit). */
const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** Assets, their IP history and the company's internal networks, under /api/assets/. */
export async function registerAssets(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const assets = new AssetsService(db, app.assetSightings);
  const api = endpoints.assets;
  registerList(app, api, assetList, { db, publicUrl: deps.config.publicUrl });
  registerList(app, api.ipHosts, ipHostList, { db, publicUrl: deps.config.publicUrl });
  /** A path naming no asset the caller can see answers 404 before the body is checked. */
  const assetFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) => assets.exists(requireActor(request).scope, id),
  };

  route(app, api.ipHosts.resolve, async ({ request, query }) => {
    const { asset, ipHost } = await assets.resolve(requireActor(request), query);
    return { asset: asset ? toAsset(asset) : null, ip_host: ipHost ? toIpHost(ipHost) : null };
  });

  route(app, api.networks, async ({ request, query }) => assets.networks(requireActor(request), query.company_id));
  route(app, api.setNetworks, async ({ request, body }) =>
    assets.setNetworks(requireActor(request), auditContextOf(request), body),
  );

  route(app, api.get, async ({ request, params }) => toAsset(await assets.get(requireActor(request), params.id)));
  route(app, api.activity, async ({ request, params }) => assets.activity(requireActor(request), params.id));
  route(app, api.create, async ({ request, body }) =>
    toAsset(await assets.create(requireActor(request), auditContextOf(request), body)),
  );
  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toAsset(await assets.update(requireActor(request), auditContextOf(request), params.id, body)),
    assetFirst,
  );
  route(app, api.archive, async ({ request, params }) =>
    toAsset(await assets.setArchived(requireActor(request), auditContextOf(request), params.id, true)),
  );
  route(app, api.unarchive, async ({ request, params }) =>
    toAsset(await assets.setArchived(requireActor(request), auditContextOf(request), params.id, false)),
  );
  route(app, api.lookup, async ({ request, query }) => assets.lookup(requireActor(request), query));
  route(app, api.bulk, async ({ request, body }) => assets.bulk(requireActor(request), auditContextOf(request), body));
  route(app, api.merge, async ({ request, body }) =>
    toAsset(await assets.merge(requireActor(request), auditContextOf(request), body)),
  );
  route(
    app,
    api.split,
    async ({ request, params, body }) => {
      const { from, created } = await assets.split(requireActor(request), auditContextOf(request), params.id, body);
      return { from: toAsset(from), created: toAsset(created) };
    },
    assetFirst,
  );

  // The import takes text/csv (company in the query string) or JSON {csv, company_id}.
  await registerCsvImport(
    app,
    api.import,
    { target: assetImportTargetSchema, json: assetImportJsonSchema },
    IMPORT_MAX_BYTES,
    (request, csv, into) => assets.import(requireActor(request), auditContextOf(request), csv, into),
  );
}
