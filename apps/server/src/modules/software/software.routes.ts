import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { installList, productList, toProduct, toVersion, versionList } from './software.repository';
import { SoftwareService } from './software.service';

/** The software catalogue: products, versions and the hosts of a version, filled by endpoint ingest. */
export async function registerSoftware(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const software = new SoftwareService(deps.db);
  const api = endpoints.software;
  const options = { db: deps.db, publicUrl: deps.config.publicUrl };
  registerList(app, api, productList, options);
  registerList(app, api.versions, versionList, options);
  registerList(app, api.versions.installs, installList, options);

  route(app, api.get, async ({ request, params }) =>
    toProduct(await software.product(requireActor(request), params.id)),
  );
  route(app, api.versions.get, async ({ request, params }) =>
    toVersion(await software.version(requireActor(request), params.id)),
  );
}
