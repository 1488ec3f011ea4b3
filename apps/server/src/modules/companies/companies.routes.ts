import { companyCreateSchema, endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { parseOrThrow } from '../../http/errors';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { companyList, toCompany } from './companies.repository';
import { CompaniesService } from './companies.service';

/** Companies: the provider and its customers. Creating customers is the provider's business. */
export async function registerCompanies(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const companies = new CompaniesService(deps.db);
  const api = endpoints.companies;
  registerList(app, api, companyList, { db: deps.db, publicUrl: deps.config.publicUrl });

  route(app, api.get, async ({ request, params }) => toCompany(await companies.get(requireActor(request), params.id)));

  // A caller who may not add companies is refused before its body is read (403, not 400).
  route(
    app,
    api.create,
    async ({ request }) => {
      const readInput = () => parseOrThrow(companyCreateSchema, request.body ?? {});
      return toCompany(await companies.create(requireActor(request), auditContextOf(request), readInput));
    },
    { parseRequest: false },
  );

  for (const spec of [api.replace, api.update]) {
    route(app, spec, async ({ request, params, body }) =>
      toCompany(await companies.update(requireActor(request), auditContextOf(request), params.id, body)),
    );
  }
}
