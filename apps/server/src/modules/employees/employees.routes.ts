import { employeeImportJsonSchema, employeeImportTargetSchema, endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { registerCsvImport } from '../../http/csv-body';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { employeeList, findEmployee, toEmployee } from './employees.repository';
import { EmployeesService } from './employees.service';

/** Largest CSV import body: 100,000 rows of an Active Directory export fit. */
const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** Employees: the list, detail, changes, archive, CSV import, resolving accounts and addresses, activity. */
export async function registerEmployees(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const employees = new EmployeesService(deps.db);
  const api = endpoints.employees;
  registerList(app, api, employeeList, { db: deps.db, publicUrl: deps.config.publicUrl });

  route(app, api.resolve, async ({ request, query }) => {
    const found = await employees.resolve(requireActor(request), query);
    return { employee: found === null ? null : toEmployee(found) };
  });

  route(app, api.get, async ({ request, params }) => toEmployee(await employees.get(requireActor(request), params.id)));

  route(app, api.activity, async ({ request, params, query }) =>
    employees.activity(requireActor(request), params.id, query.limit ?? 20),
  );

  route(app, api.create, async ({ request, body }) =>
    toEmployee(await employees.create(requireActor(request), auditContextOf(request), body)),
  );

  // Another company's employee is a 404 before its body is checked.
  const exists = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) =>
      (await findEmployee(deps.db, requireActor(request).scope, id)) !== null,
  };
  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toEmployee(await employees.update(requireActor(request), auditContextOf(request), params.id, body)),
    exists,
  );

  route(app, api.archive, async ({ request, params }) =>
    toEmployee(await employees.setArchived(requireActor(request), auditContextOf(request), params.id, true)),
  );

  route(app, api.restore, async ({ request, params }) =>
    toEmployee(await employees.setArchived(requireActor(request), auditContextOf(request), params.id, false)),
  );

  // The import takes text/csv (company in the query string) or JSON {csv, company_id}.
  await registerCsvImport(
    app,
    api.import,
    { target: employeeImportTargetSchema, json: employeeImportJsonSchema },
    IMPORT_MAX_BYTES,
    (request, csv, into) => employees.import(requireActor(request), auditContextOf(request), csv, into),
  );
}
