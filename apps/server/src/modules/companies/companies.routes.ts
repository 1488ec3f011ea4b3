import { companyCreateSchema, companySchema, companyUpdateSchema } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { forbidden, notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import {
  companyList,
  findCompany,
  findCompanyByName,
  insertCompany,
  toCompany,
  updateCompany,
} from './companies.repository';

/** Companies: the provider and its customers. Creating customers is the provider's business. */
export async function registerCompanies(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerListRoutes(app, companyList, {
    apiBase: '/api/companies/',
    basename: 'companies',
    db,
    publicUrl: deps.config.publicUrl,
  });

  app.get(
    '/api/companies/:id/',
    { config: { permission: { basename: 'companies', action: 'view' } } },
    async (request) => {
      const actor = requireActor(request);
      const company = await findCompany(db, actor.scope, pathId(request.params));
      if (!company) throw notFound();
      return companySchema.parse(toCompany(company));
    },
  );

  app.post(
    '/api/companies/',
    { config: { permission: { basename: 'companies', action: 'add' } } },
    async (request, reply) => {
      const actor = requireActor(request);
      // Only staff who see every company may add one: a customer never creates tenants.
      if (actor.scope.companies !== 'all')
        throw forbidden('Only provider staff with access to all companies can add companies.');
      const input = parseOrThrow(companyCreateSchema, request.body ?? {});
      const created = await db.transaction(async (tx) => {
        if (await findCompanyByName(tx, input.name)) throw conflictName(input.name);
        const row = await insertCompany(tx, { ...input, kind: 'customer' });
        await recordAudit(tx, auditContextOf(request), {
          action: 'create',
          objectType: 'company',
          objectId: row.id,
          objectRepr: row.name,
          companyId: row.id,
          after: toCompany(row),
        });
        return row;
      });
      reply.status(201);
      return toCompany(created);
    },
  );

  const update = async (request: FastifyRequest) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const patch = parseOrThrow(companyUpdateSchema, request.body ?? {});
    const updated = await db.transaction(async (tx) => {
      const before = await findCompany(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if (patch.is_active === false && before.kind === 'provider') {
        throw forbidden('The provider company cannot be deactivated.');
      }
      if (patch.name !== undefined) {
        const clash = await findCompanyByName(tx, patch.name);
        if (clash && clash.id !== id) throw conflictName(patch.name);
      }
      const after = await updateCompany(tx, id, patch);
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'company',
        objectId: id,
        objectRepr: after.name,
        companyId: id,
        before: toCompany(before),
        after: toCompany(after),
      });
      return after;
    });
    return toCompany(updated);
  };
  app.put('/api/companies/:id/', { config: { permission: { basename: 'companies', action: 'change' } } }, update);
  app.patch('/api/companies/:id/', { config: { permission: { basename: 'companies', action: 'change' } } }, update);
}

function conflictName(name: string) {
  return ValidationError.field('name', `A company named "${name}" already exists.`);
}
