import type {
  EmployeeActivity,
  EmployeeCreate,
  EmployeeImportAnswer,
  EmployeeImportRejection,
  EmployeeUpdate,
} from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { recordAudit, recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { employeeActivity } from './employees-activity.repository';
import { commonName, readEmployeeCsv, type EmployeeImportRow } from './employee-csv';
import {
  employeeInCompany,
  findEmployee,
  insertEmployee,
  reportsTo,
  resolveEmployeeByAccount,
  resolveEmployeeByEmail,
  setEmployeeArchived,
  unitInCompany,
  updateEmployee,
  type EmployeeRow,
} from './employees.repository';
import { findManagers, setManagers, unitIdsByName, upsertEmployeeChunk } from './employees-import.repository';

// Other modules link account names and addresses to employees through these (reads, any transaction).
export { employeeIdsByKeys, resolveEmployeeByAccount, resolveEmployeeByEmail } from './employees.repository';

/** An employee in the audit log: who they are and how they are reached. */
const audited: AuditedKind<EmployeeRow> = {
  objectType: 'employee',
  repr: (e) => e.full_name,
  snapshot: (e) => ({
    full_name: e.full_name,
    emails: e.emails,
    accounts: e.accounts,
    department: e.department,
    title: e.title,
    manager_id: e.manager_id === null ? null : Number(e.manager_id),
    phone: e.phone,
    unit_id: e.unit_id === null ? null : Number(e.unit_id),
    archived: e.archived_at !== null,
  }),
};

/** Rows written per transaction by an import; between two, other requests get their turn. */
const IMPORT_CHUNK = 5000;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const unique = (values: readonly string[] | undefined) => (values === undefined ? undefined : [...new Set(values)]);

/** Employees of a company: each change in one transaction with its audit record. */
export class EmployeesService {
  constructor(private readonly db: Database) {}

  async get(actor: Actor, id: number): Promise<EmployeeRow> {
    const employee = await findEmployee(this.db, actor.scope, id);
    if (!employee) throw notFound();
    return employee;
  }

  /** The employee's alerts, malicious mail and sign-ins (the newest `limit` of each). */
  async activity(actor: Actor, id: number, limit: number): Promise<EmployeeActivity> {
    return employeeActivity(this.db, await this.get(actor, id), limit);
  }

  /** The company a request names, or the caller's own; one outside the caller's scope is refused. */
  companyOf(actor: Actor, companyId: number | undefined): number {
    const company = companyId ?? actor.companyId;
    if (!inScope(actor.scope, company)) throw ValidationError.field('company_id', `No company with id ${company}.`);
    return company;
  }

  /** The employee an account or address names in a company, or null. */
  async resolve(
    actor: Actor,
    query: { account?: string | undefined; email?: string | undefined; company_id?: number | undefined },
  ): Promise<EmployeeRow | null> {
    const companyId = this.companyOf(actor, query.company_id);
    let id: number | null = null;
    if (query.account !== undefined) {
      const slash = query.account.lastIndexOf('\\');
      id =
        slash > 0
          ? await resolveEmployeeByAccount(
              this.db,
              companyId,
              query.account.slice(slash + 1),
              query.account.slice(0, slash),
            )
          : await resolveEmployeeByAccount(this.db, companyId, query.account, null);
    } else if (query.email !== undefined) {
      id = await resolveEmployeeByEmail(this.db, companyId, query.email);
    }
    return id === null ? null : findEmployee(this.db, actor.scope, id);
  }

  private async checkLinks(
    tx: Queryable,
    companyId: number,
    selfId: number | null,
    input: { manager_id?: number | null | undefined; unit_id?: number | null | undefined },
  ): Promise<void> {
    const manager = input.manager_id;
    if (manager !== undefined && manager !== null) {
      if (manager === selfId) throw ValidationError.field('manager_id', 'An employee cannot be their own manager.');
      if (!(await employeeInCompany(tx, companyId, manager))) {
        throw ValidationError.field('manager_id', `No employee with id ${manager} in this company.`);
      }
      if (selfId !== null && (await reportsTo(tx, manager, selfId))) {
        throw ValidationError.field('manager_id', 'That employee reports to this one: the chain would go round.');
      }
    }
    const unit = input.unit_id;
    if (unit !== undefined && unit !== null && !(await unitInCompany(tx, companyId, unit))) {
      throw ValidationError.field('unit_id', `No unit with id ${unit} in this company.`);
    }
  }

  async create(actor: Actor, audit: AuditContext, input: EmployeeCreate): Promise<EmployeeRow> {
    const companyId = this.companyOf(actor, input.company_id);
    return this.db.transaction(async (tx) => {
      await this.checkLinks(tx, companyId, null, input);
      const id = await insertEmployee(tx, companyId, {
        full_name: input.full_name,
        emails: unique(input.emails) ?? [],
        accounts: unique(input.accounts) ?? [],
        department: input.department ?? '',
        title: input.title ?? '',
        manager_id: input.manager_id ?? null,
        phone: input.phone ?? '',
        unit_id: input.unit_id ?? null,
      });
      const row = (await findEmployee(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { after: row });
      return row;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: EmployeeUpdate): Promise<EmployeeRow> {
    return this.db.transaction(async (tx) => {
      const before = await findEmployee(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await this.checkLinks(tx, Number(before.company_id), id, input);
      await updateEmployee(tx, id, {
        ...input,
        ...(input.emails === undefined ? {} : { emails: unique(input.emails) }),
        ...(input.accounts === undefined ? {} : { accounts: unique(input.accounts) }),
      });
      const after = (await findEmployee(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  /** Archives an employee (archive) or brings one back (restore); already so is no change. */
  async setArchived(actor: Actor, audit: AuditContext, id: number, archived: boolean): Promise<EmployeeRow> {
    return this.db.transaction(async (tx) => {
      const before = await findEmployee(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if ((before.archived_at !== null) === archived) return before;
      await setEmployeeArchived(tx, id, archived);
      const after = (await findEmployee(tx, actor.scope, id))!;
      await recordAudit(tx, audit, {
        action: archived ? 'archive' : 'restore',
        objectType: audited.objectType,
        objectId: id,
        objectRepr: after.full_name,
        companyId: Number(after.company_id),
        before: { archived: !archived },
        after: { archived },
      });
      return after;
    });
  }

  /**
   * Imports a CSV of employees into a company: read and checked with turns of the event loop
   * between slices, then written 5,000 rows per transaction (each with its audit record), then
   * the managers linked. Rows that cannot be read or name an unknown unit are answered rejected.
   */
  async import(actor: Actor, audit: AuditContext, csv: string, into: { company_id?: number | undefined }) {
    const companyId = this.companyOf(actor, into.company_id);
    const { rows: read, rejected } = await readEmployeeCsv(csv);
    const units = await unitIdsByName(this.db, companyId);
    const rows: (EmployeeImportRow & { unit_id: number | null })[] = [];
    for (const row of read) {
      const unitId = row.unit === '' ? null : (units.get(row.unit.toLowerCase()) ?? undefined);
      if (unitId === undefined) {
        rejected.push({
          row: row.line,
          field: 'unit',
          reason: `This company has no unit named ${JSON.stringify(row.unit)}.`,
        });
      } else rows.push({ ...row, unit_id: unitId });
    }
    rejected.sort((a, b) => a.row - b.row);
    const ids: number[] = [];
    let created = 0;
    let updated = 0;
    for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
      const chunk = rows.slice(start, start + IMPORT_CHUNK);
      const done = await this.db.transaction(async (tx) => {
        const written = await upsertEmployeeChunk(tx, companyId, chunk);
        const made = written.filter((w) => w.created).length;
        await recordAudit(tx, audit, {
          action: 'import',
          objectType: audited.objectType,
          objectId: null,
          objectRepr: `${made} created, ${written.length - made} updated (lines ${chunk[0]!.line}–${chunk.at(-1)!.line})`,
          companyId,
          after: {
            created: made,
            updated: written.length - made,
            first_line: chunk[0]!.line,
            last_line: chunk.at(-1)!.line,
          },
        });
        return written;
      });
      for (const w of done) {
        ids.push(w.id);
        if (w.created) created += 1;
        else updated += 1;
      }
      await turn();
    }
    const managersLinked = await this.linkManagers(audit, companyId, rows, ids, rejected);
    return { created, updated, managers_linked: managersLinked, rejected } satisfies EmployeeImportAnswer;
  }

  /** Resolves each row's Manager within the file first, then among the company's employees, and sets it. */
  private async linkManagers(
    audit: AuditContext,
    companyId: number,
    rows: readonly EmployeeImportRow[],
    ids: readonly number[],
    rejected: EmployeeImportRejection[],
  ): Promise<number> {
    const byDn = new Map<string, number>();
    const byName = new Map<string, number | null>();
    const byKey = new Map<string, number>();
    rows.forEach((row, i) => {
      const id = ids[i]!;
      if (row.distinguished_name) byDn.set(row.distinguished_name.toLowerCase(), id);
      const name = row.full_name.toLowerCase();
      // A name two rows share names nobody for certain.
      byName.set(name, byName.has(name) && byName.get(name) !== id ? null : id);
      for (const e of row.emails) byKey.set(e, id);
      for (const a of row.accounts) byKey.set(a, id);
    });
    const links: { id: number; manager: number }[] = [];
    const wanted: {
      key: number;
      dn: string | null;
      name: string | null;
      email: string | null;
      account: string | null;
    }[] = [];
    rows.forEach((row, i) => {
      const cell = row.manager;
      if (cell === '') return;
      const dn = /^\s*CN=/i.test(cell) ? cell : null;
      const name = dn !== null ? commonName(dn) : cell.includes('@') || cell.includes('\\') ? null : cell;
      const key = cell.toLowerCase();
      const inFile =
        (dn !== null ? byDn.get(dn.toLowerCase()) : undefined) ??
        (name !== null ? (byName.get(name.toLowerCase()) ?? undefined) : undefined) ??
        byKey.get(key);
      if (inFile !== undefined) links.push({ id: ids[i]!, manager: inFile });
      else
        wanted.push({
          key: i,
          dn,
          name,
          email: key.includes('@') ? key : null,
          account: dn === null ? key : null,
        });
    });
    const found = await findManagers(this.db, companyId, wanted);
    for (const w of wanted) {
      const manager = found.get(w.key);
      if (manager !== undefined) links.push({ id: ids[w.key]!, manager });
      else {
        const row = rows[w.key]!;
        rejected.push({
          row: row.line,
          field: 'manager',
          reason: `Imported without a manager: no employee of the file or the company is ${JSON.stringify(row.manager.slice(0, 200))}.`,
        });
      }
    }
    rejected.sort((a, b) => a.row - b.row);
    const own = links.filter((l) => l.id !== l.manager);
    for (let start = 0; start < own.length; start += IMPORT_CHUNK) {
      const chunk = own.slice(start, start + IMPORT_CHUNK);
      await this.db.transaction(async (tx) => {
        const changed = await setManagers(tx, companyId, chunk);
        if (changed > 0) {
          await recordAudit(tx, audit, {
            action: 'import',
            objectType: audited.objectType,
            objectId: null,
            objectRepr: `${changed} managers set`,
            companyId,
            after: { managers_set: changed },
          });
        }
      });
      await turn();
    }
    return own.length;
  }
}
