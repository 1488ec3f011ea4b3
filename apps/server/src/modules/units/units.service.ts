import type { UnitCreate, UnitUpdate } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { deleteUnit, findUnit, insertUnit, unitNameTaken, updateUnit, type UnitRow } from './units.repository';

/** A unit in the audit log: its name and description. */
const audited: AuditedKind<UnitRow> = {
  objectType: 'unit',
  repr: (u) => u.name,
  snapshot: (u) => ({ name: u.name, description: u.description }),
};

const nameTaken = (name: string) => ValidationError.field('name', `This company already has a unit named "${name}".`);

/** Units of a company: each change in one transaction with its audit record. */
export class UnitsService {
  constructor(private readonly db: Database) {}

  async get(actor: Actor, id: number): Promise<UnitRow> {
    const unit = await findUnit(this.db, actor.scope, id);
    if (!unit) throw notFound();
    return unit;
  }

  async create(actor: Actor, audit: AuditContext, input: UnitCreate): Promise<UnitRow> {
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', `No company with id ${companyId}.`);
    return this.db.transaction(async (tx) => {
      if (await unitNameTaken(tx, companyId, input.name, null)) throw nameTaken(input.name);
      const id = await insertUnit(tx, { companyId, name: input.name, description: input.description ?? '' });
      const row = (await findUnit(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { after: row });
      return row;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: UnitUpdate): Promise<UnitRow> {
    return this.db.transaction(async (tx) => {
      const before = await findUnit(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if (input.name !== undefined && (await unitNameTaken(tx, before.company_id, input.name, id))) {
        throw nameTaken(input.name);
      }
      await updateUnit(tx, id, input);
      const after = (await findUnit(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  async remove(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const unit = await findUnit(tx, actor.scope, id, true);
      if (!unit) throw notFound();
      await deleteUnit(tx, id);
      await recordChange(tx, audit, audited, { before: unit });
    });
  }
}
