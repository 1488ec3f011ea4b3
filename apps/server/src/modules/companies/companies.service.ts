import type { CompanyCreate, CompanyUpdate } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { seesAllCompanies } from '../../http/tenancy';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import {
  findCompany,
  findCompanyByName,
  insertCompany,
  toCompany,
  updateCompany,
  type CompanyRow,
} from './companies.repository';

function conflictName(name: string) {
  return ValidationError.field('name', `A company named "${name}" already exists.`);
}

/** Companies: the provider and its customers. Each change is one transaction with its audit record. */
export class CompaniesService {
  constructor(private readonly db: Database) {}

  async get(actor: Actor, id: number): Promise<CompanyRow> {
    const company = await findCompany(this.db, actor.scope, id);
    if (!company) throw notFound();
    return company;
  }

  /**
   * Only staff who see every company may add one: a customer never creates tenants. Checked
   * before the input is read, so `readInput` runs only for such staff.
   */
  async create(actor: Actor, audit: AuditContext, readInput: () => CompanyCreate): Promise<CompanyRow> {
    if (!seesAllCompanies(actor.scope)) {
      throw forbidden('Only provider staff with access to all companies can add companies.');
    }
    const input = readInput();
    return this.db.transaction(async (tx) => {
      if (await findCompanyByName(tx, input.name)) throw conflictName(input.name);
      const row = await insertCompany(tx, { ...input, kind: 'customer' });
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'company',
        objectId: row.id,
        objectRepr: row.name,
        companyId: row.id,
        after: toCompany(row),
      });
      return row;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, patch: CompanyUpdate): Promise<CompanyRow> {
    return this.db.transaction(async (tx) => {
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
      await recordAudit(tx, audit, {
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
  }
}
