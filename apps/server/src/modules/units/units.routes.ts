import { unitCreateSchema, unitUpdateSchema } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { sql } from '../../db/sql';
import { requireActor } from '../../http/actor';
import { notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { inScope } from '../../http/tenancy';
import { registerListRoutes } from '../../list/list-routes';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { findUnit, toUnit, unitList, unitNameTaken } from './units.repository';

const snapshot = (u: { name: string; description: string }) => ({ name: u.name, description: u.description });

/** Units of a company, administered with the `companies` permissions. */
export async function registerUnits(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  registerListRoutes(app, unitList, {
    apiBase: '/api/units/',
    basename: 'companies',
    db,
    publicUrl: deps.config.publicUrl,
  });

  app.get('/api/units/:id/', { config: { permission: { basename: 'companies', action: 'view' } } }, async (request) => {
    const unit = await findUnit(db, requireActor(request).scope, pathId(request.params));
    if (!unit) throw notFound();
    return toUnit(unit);
  });

  app.post(
    '/api/units/',
    { config: { permission: { basename: 'companies', action: 'change' } } },
    async (request, reply) => {
      const actor = requireActor(request);
      const input = parseOrThrow(unitCreateSchema, request.body ?? {});
      const companyId = input.company_id ?? actor.companyId;
      if (!inScope(actor.scope, companyId))
        throw ValidationError.field('company_id', `No company with id ${companyId}.`);
      const unit = await db.transaction(async (tx) => {
        if (await unitNameTaken(tx, companyId, input.name, null)) {
          throw ValidationError.field('name', `This company already has a unit named "${input.name}".`);
        }
        const { rows } = await tx.query<{ id: number }>(sql`
        INSERT INTO units (company_id, name, description) VALUES (${companyId}, ${input.name}, ${input.description ?? ''})
        RETURNING id`);
        const row = (await findUnit(tx, actor.scope, rows[0]!.id))!;
        await recordAudit(tx, auditContextOf(request), {
          action: 'create',
          objectType: 'unit',
          objectId: row.id,
          objectRepr: row.name,
          companyId,
          after: snapshot(row),
        });
        return row;
      });
      reply.status(201);
      return toUnit(unit);
    },
  );

  const update = async (request: FastifyRequest) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const input = parseOrThrow(unitUpdateSchema, request.body ?? {});
    const unit = await db.transaction(async (tx) => {
      const before = await findUnit(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if (input.name !== undefined && (await unitNameTaken(tx, before.company_id, input.name, id))) {
        throw ValidationError.field('name', `This company already has a unit named "${input.name}".`);
      }
      const sets = [sql`updated_at = now()`];
      if (input.name !== undefined) sets.push(sql`name = ${input.name}`);
      if (input.description !== undefined) sets.push(sql`description = ${input.description}`);
      await tx.query(sql`UPDATE units SET ${sql.join(sets)} WHERE id = ${id}`);
      const after = (await findUnit(tx, actor.scope, id))!;
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'unit',
        objectId: id,
        objectRepr: after.name,
        companyId: after.company_id,
        before: snapshot(before),
        after: snapshot(after),
      });
      return after;
    });
    return toUnit(unit);
  };
  const change = { config: { permission: { basename: 'companies', action: 'change' } } };
  app.put('/api/units/:id/', change, update);
  app.patch('/api/units/:id/', change, update);

  app.delete('/api/units/:id/', change, async (request, reply) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    await db.transaction(async (tx) => {
      const unit = await findUnit(tx, actor.scope, id, true);
      if (!unit) throw notFound();
      await tx.query(sql`DELETE FROM units WHERE id = ${id}`);
      await recordAudit(tx, auditContextOf(request), {
        action: 'delete',
        objectType: 'unit',
        objectId: id,
        objectRepr: unit.name,
        companyId: unit.company_id,
        before: snapshot(unit),
      });
    });
    reply.status(204);
  });
}
