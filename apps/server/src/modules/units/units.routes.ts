import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { toUnit, unitList } from './units.repository';
import { UnitsService } from './units.service';

/** Units of a company, administered with the `companies` permissions. */
export async function registerUnits(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const units = new UnitsService(deps.db);
  const api = endpoints.units;
  registerList(app, api, unitList, { db: deps.db, publicUrl: deps.config.publicUrl });

  route(app, api.get, async ({ request, params }) => toUnit(await units.get(requireActor(request), params.id)));

  route(app, api.create, async ({ request, body }) =>
    toUnit(await units.create(requireActor(request), auditContextOf(request), body)),
  );

  const update = api.update;
  for (const spec of [api.replace, update]) {
    route(app, spec, async ({ request, params, body }) =>
      toUnit(await units.update(requireActor(request), auditContextOf(request), params.id, body)),
    );
  }

  route(app, api.remove, async ({ request, params }) => {
    await units.remove(requireActor(request), auditContextOf(request), params.id);
  });
}
