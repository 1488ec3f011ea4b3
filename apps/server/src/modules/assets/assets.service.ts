import type {
  AssetActivity,
  AssetLookupAnswer,
  AssetLookupQuery,
  AssetBulk,
  AssetBulkAnswer,
  AssetCreate,
  AssetImportAnswer,
  AssetMerge,
  AssetSplit,
  AssetUpdate,
  CompanyNetworks,
} from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope, type TenantScope } from '../../http/tenancy';
import { recordAudit, recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { assetActivity } from './asset-activity.repository';
import { readAssetCsv } from './asset-csv';
import { SightingMemory } from './sighting-memory';
import { lookupAssets, type AssetRefRow } from './asset-lookup.repository';
import {
  assetsByName,
  chosenAssets,
  bulkUpdateAssets,
  deleteAssets,
  employeeCompany,
  findAsset,
  findAssets,
  insertAsset,
  unitOfCompany,
  updateAsset,
  type AssetFields,
  type AssetRow,
} from './assets.repository';
import { lockCompanyAssets, movePins, pinValues, readNetworks, replaceNetworks } from './discovery.repository';
import { moveIpHosts, reassignIpHosts, resolveIpHost, upsertIpHosts, type IpHostRow } from './ip-hosts.repository';

/** Ids named in one audit record of a bulk change; the count says how many there were. */
const MAX_AUDITED_IDS = 1000;

/** An asset in the audit log: what a person sees of it. */
const audited: AuditedKind<AssetRow> = {
  objectType: 'asset',
  repr: (a) => a.name,
  snapshot: (a) => ({
    name: a.name,
    kind: a.kind,
    os_name: a.os_name,
    os_version: a.os_version,
    ips: a.ips,
    macs: a.macs,
    fqdn: a.fqdn,
    owner_employee_id: a.owner_employee_id,
    unit_id: a.unit_id,
    criticality: a.criticality,
    tags: a.tags,
    sources: a.sources,
    agent_id: a.agent_id,
    notes: a.notes,
    archived_at: a.archived_at ? a.archived_at.toISOString() : null,
  }),
};

const union = <T>(...lists: (readonly T[])[]) => [...new Set(lists.flat())];
const minDate = (dates: (Date | null)[]) => dates.reduce<Date | null>((m, d) => (d && (!m || d < m) ? d : m), null);
const maxDate = (dates: (Date | null)[]) => dates.reduce<Date | null>((m, d) => (d && (!m || d > m) ? d : m), null);

/** Claims of addresses a person wrote on an asset, from now. */
function manualClaims(assetId: number, ips: readonly string[], source: 'manual' | 'static', now: string) {
  return ips.map((ip) => ({ assetId, ip, mac: null, source, firstSeen: now, lastSeen: now }));
}

/** Assets of a company: each change in one transaction with its audit record. */
/** At most this many alerts and incidents on an asset's page. */
const ACTIVITY_LIMIT = 100;

export class AssetsService {
  constructor(
    private readonly db: Database,
    /** Discovery's memory of what is stored (the pipeline's); a new one when absent. */
    private readonly sightings: SightingMemory = new SightingMemory(),
  ) {}

  /** Discovery's memory of what is stored no longer holds once a person changes the estate. */
  private forgetSightings(): void {
    this.sightings.clear();
  }

  private companyOf(actor: Actor, companyId: number | undefined): number {
    const company = companyId ?? actor.companyId;
    if (!inScope(actor.scope, company)) throw ValidationError.field('company_id', `No company with id ${company}.`);
    return company;
  }

  private async checkUnit(tx: Queryable, companyId: number, unitId: number | null | undefined) {
    if (unitId !== null && unitId !== undefined && !(await unitOfCompany(tx, companyId, unitId))) {
      throw ValidationError.field('unit_id', `The company has no unit with id ${unitId}.`);
    }
  }

  /** An owner is an employee of the asset's company (an id of another company reads as no employee). */
  private async checkOwner(tx: Queryable, companyId: number, employeeId: number | null | undefined) {
    if (employeeId !== null && employeeId !== undefined && (await employeeCompany(tx, employeeId)) !== companyId) {
      throw ValidationError.field('owner_employee_id', `The company has no employee with id ${employeeId}.`);
    }
  }

  async get(actor: Actor, id: number): Promise<AssetRow> {
    const asset = await findAsset(this.db, actor.scope, id);
    if (!asset) throw notFound();
    return asset;
  }

  /** Open alerts and incidents, recent events, IP history, software and risk of an asset. */
  async activity(actor: Actor, id: number): Promise<AssetActivity> {
    return assetActivity(this.db, await this.get(actor, id), ACTIVITY_LIMIT);
  }

  async exists(scope: TenantScope, id: number): Promise<boolean> {
    return (await findAsset(this.db, scope, id)) !== null;
  }

  async create(actor: Actor, audit: AuditContext, input: AssetCreate): Promise<AssetRow> {
    this.forgetSightings();
    const companyId = this.companyOf(actor, input.company_id);
    return this.db.transaction(async (tx) => {
      await this.checkUnit(tx, companyId, input.unit_id);
      await this.checkOwner(tx, companyId, input.owner_employee_id);
      const fields: AssetFields = {
        name: input.name,
        kind: input.kind ?? 'other',
        os_name: input.os_name ?? '',
        os_version: input.os_version ?? '',
        ips: union(input.ips ?? []),
        macs: union(input.macs ?? []),
        fqdn: input.fqdn ?? '',
        owner_employee_id: input.owner_employee_id ?? null,
        unit_id: input.unit_id ?? null,
        criticality: input.criticality ?? 'medium',
        tags: union(input.tags ?? []),
        agent_id: input.agent_id ?? '',
        notes: input.notes ?? '',
        sources: ['manual'],
      };
      await lockCompanyAssets(tx, companyId);
      const id = await insertAsset(tx, companyId, fields);
      await upsertIpHosts(tx, companyId, manualClaims(id, fields.ips, 'manual', new Date().toISOString()));
      const row = (await findAsset(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { after: row });
      return row;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: AssetUpdate): Promise<AssetRow> {
    this.forgetSightings();
    return this.db.transaction(async (tx) => {
      const before = await findAsset(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await this.checkUnit(tx, before.company_id, input.unit_id);
      await this.checkOwner(tx, before.company_id, input.owner_employee_id);
      const change = {
        ...input,
        ...(input.ips ? { ips: union(input.ips) } : {}),
        ...(input.macs ? { macs: union(input.macs) } : {}),
        ...(input.tags ? { tags: union(input.tags) } : {}),
      };
      await updateAsset(tx, id, change);
      if (change.ips) {
        const added = change.ips.filter((ip) => !before.ips.includes(ip));
        await upsertIpHosts(tx, before.company_id, manualClaims(id, added, 'manual', new Date().toISOString()));
      }
      const after = (await findAsset(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  /**
   * One change to the assets chosen by ids or by the list's filters, in one transaction; one audit record
   * per company. An owner must be an employee of every chosen asset's company.
   */
  async bulk(actor: Actor, audit: AuditContext, body: AssetBulk): Promise<AssetBulkAnswer> {
    this.forgetSightings();
    return this.db.transaction(async (tx) => {
      const targets = await chosenAssets(tx, actor.scope, body);
      if (targets.length === 0) return { matched: 0, changed: 0 };
      if (body.owner_employee_id !== undefined && body.owner_employee_id !== null) {
        const company = await employeeCompany(tx, body.owner_employee_id);
        const others = targets.filter((t) => t.company_id !== company).length;
        if (company === null || !inScope(actor.scope, company)) {
          throw ValidationError.field('owner_employee_id', `No employee with id ${body.owner_employee_id}.`);
        }
        if (others > 0) {
          throw ValidationError.field(
            'owner_employee_id',
            `The employee belongs to another company than ${others} of the chosen assets.`,
          );
        }
      }
      const changed = await bulkUpdateAssets(
        tx,
        targets.map((t) => t.id),
        body,
      );
      const companies = new Map<number, number[]>();
      for (const row of changed) companies.set(row.company_id, [...(companies.get(row.company_id) ?? []), row.id]);
      const { ids: _ids, filters, ...change } = body;
      for (const [companyId, ids] of companies) {
        await recordAudit(tx, audit, {
          action: 'update',
          objectType: 'asset',
          objectId: ids.length === 1 ? ids[0]! : null,
          objectRepr: `${ids.length} asset(s) changed`,
          companyId,
          after: { ...change, assets: ids.slice(0, MAX_AUDITED_IDS), ...(filters ? { filters } : {}) },
        });
      }
      return { matched: targets.length, changed: changed.length };
    });
  }

  async setArchived(actor: Actor, audit: AuditContext, id: number, archived: boolean): Promise<AssetRow> {
    this.forgetSightings();
    return this.db.transaction(async (tx) => {
      const before = await findAsset(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if ((before.archived_at !== null) === archived) return before;
      await updateAsset(tx, id, { archived });
      const after = (await findAsset(tx, actor.scope, id))!;
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  /** Moves the assets of `ids` into `into`: addresses, sources, tags, IP history and pins; deletes them. */
  async merge(actor: Actor, audit: AuditContext, input: AssetMerge): Promise<AssetRow> {
    this.forgetSightings();
    const others = [...new Set(input.ids)].filter((id) => id !== input.into);
    if (others.length === 0)
      throw ValidationError.field('ids', 'Name at least one asset other than the one merged into.');
    return this.db.transaction(async (tx) => {
      const target = await findAsset(tx, actor.scope, input.into);
      if (!target) throw ValidationError.field('into', `No asset with id ${input.into}.`);
      await lockCompanyAssets(tx, target.company_id);
      const rows = await findAssets(tx, actor.scope, [input.into, ...others]);
      const into = rows.find((r) => r.id === input.into)!;
      const merged = rows.filter((r) => r.id !== input.into);
      const missing = others.filter((id) => !merged.some((r) => r.id === id));
      if (missing.length > 0) throw ValidationError.field('ids', `No asset with id ${missing.join(', ')}.`);
      if (merged.some((r) => r.company_id !== into.company_id)) {
        throw ValidationError.field('ids', 'Assets of different companies cannot be merged.');
      }
      const all = [into, ...merged];
      const firstOf = <K extends keyof AssetRow>(k: K, empty: AssetRow[K]) =>
        all.map((r) => r[k]).find((v) => v !== empty) ?? empty;
      await updateAsset(tx, into.id, {
        ips: union(...all.map((r) => r.ips)),
        macs: union(...all.map((r) => r.macs)),
        tags: union(...all.map((r) => r.tags)),
        sources: union(...all.map((r) => r.sources)),
        os_name: firstOf('os_name', ''),
        os_version: into.os_name !== '' ? into.os_version : (all.find((r) => r.os_name !== '')?.os_version ?? ''),
        fqdn: firstOf('fqdn', ''),
        agent_id: firstOf('agent_id', ''),
        owner_employee_id: firstOf('owner_employee_id', null),
        unit_id: firstOf('unit_id', null),
        seen: { first: minDate(all.map((r) => r.first_seen)), last: maxDate(all.map((r) => r.last_seen)) },
      });
      const ids = merged.map((r) => r.id);
      await moveIpHosts(tx, ids, into.id);
      await movePins(tx, ids, into.id);
      await deleteAssets(tx, ids);
      const after = (await findAsset(tx, actor.scope, into.id))!;
      for (const gone of merged) await recordChange(tx, audit, audited, { before: gone });
      await recordAudit(tx, audit, {
        action: 'merge',
        objectType: 'asset',
        objectId: into.id,
        objectRepr: after.name,
        companyId: after.company_id,
        before: { merged: merged.map((r) => ({ id: r.id, name: r.name })), ...audited.snapshot(into) },
        after: audited.snapshot(after),
      });
      return after;
    });
  }

  /** Takes addresses and sources out of an asset into a new one, and pins them there for discovery. */
  async split(
    actor: Actor,
    audit: AuditContext,
    id: number,
    input: AssetSplit,
  ): Promise<{ from: AssetRow; created: AssetRow }> {
    this.forgetSightings();
    const ips = union(input.ips ?? []);
    const macs = union(input.macs ?? []);
    const sources = union(input.sources ?? []);
    if (ips.length + macs.length + sources.length === 0) {
      throw ValidationError.field('non_field_errors', 'Name at least one address or source to take out.');
    }
    return this.db.transaction(async (tx) => {
      const found = await findAsset(tx, actor.scope, id);
      if (!found) throw notFound();
      await lockCompanyAssets(tx, found.company_id);
      const before = (await findAsset(tx, actor.scope, id, true))!;
      const errors: Record<string, string[]> = {};
      const absent = (list: string[], held: string[]) => list.filter((v) => !held.includes(v));
      if (absent(ips, before.ips).length > 0)
        errors.ips = [`The asset does not hold ${absent(ips, before.ips).join(', ')}.`];
      if (absent(macs, before.macs).length > 0)
        errors.macs = [`The asset does not have ${absent(macs, before.macs).join(', ')}.`];
      if (absent(sources, before.sources).length > 0) {
        errors.sources = [`The asset is not reported by ${absent(sources, before.sources).join(', ')}.`];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const newId = await insertAsset(tx, before.company_id, {
        name: input.name,
        kind: before.kind,
        os_name: '',
        os_version: '',
        ips,
        macs,
        fqdn: '',
        owner_employee_id: null,
        unit_id: before.unit_id,
        criticality: before.criticality,
        tags: [],
        agent_id: '',
        notes: '',
        sources,
      });
      await updateAsset(tx, newId, { seen: { first: before.first_seen, last: before.last_seen } });
      await updateAsset(tx, id, {
        ips: before.ips.filter((ip) => !ips.includes(ip)),
        macs: before.macs.filter((m) => !macs.includes(m)),
        sources: before.sources.filter((s) => !sources.includes(s)),
      });
      await reassignIpHosts(tx, id, newId, ips);
      await pinValues(tx, before.company_id, newId, [
        ...ips.map((value) => ({ kind: 'ip' as const, value })),
        ...macs.map((value) => ({ kind: 'mac' as const, value })),
        ...sources.map((value) => ({ kind: 'source' as const, value })),
      ]);
      const from = (await findAsset(tx, actor.scope, id))!;
      const created = (await findAsset(tx, actor.scope, newId))!;
      await recordChange(tx, audit, audited, { after: created });
      await recordChange(tx, audit, audited, { before, after: from });
      return { from, created };
    });
  }

  /** Imports a CSV: a row naming an asset of the company (case aside) updates it, others are created. */
  async import(
    actor: Actor,
    audit: AuditContext,
    text: string,
    target: { company_id?: number },
  ): Promise<AssetImportAnswer> {
    this.forgetSightings();
    const companyId = this.companyOf(actor, target.company_id);
    const { rows, rejected } = readAssetCsv(text);
    if (rows.length === 0) return { created: 0, updated: 0, rejected };
    return this.db.transaction(async (tx) => {
      await lockCompanyAssets(tx, companyId);
      const existing = new Map(
        (
          await assetsByName(
            tx,
            companyId,
            rows.map((r) => r.name.toLowerCase()),
          )
        ).map((a) => [a.name.toLowerCase(), a]),
      );
      const now = new Date().toISOString();
      let created = 0;
      let updated = 0;
      for (const row of rows) {
        const before = existing.get(row.name.toLowerCase());
        if (before) {
          const { name: _name, ...change } = row;
          const ips = change.ips ? union(before.ips, change.ips) : undefined;
          const macs = change.macs ? union(before.macs, change.macs) : undefined;
          await updateAsset(tx, before.id, {
            ...change,
            ...(ips ? { ips } : {}),
            ...(macs ? { macs } : {}),
            sources: union(before.sources, ['import']),
          });
          await upsertIpHosts(
            tx,
            companyId,
            manualClaims(
              before.id,
              (change.ips ?? []).filter((ip) => !before.ips.includes(ip)),
              'static',
              now,
            ),
          );
          updated += 1;
        } else {
          const id = await insertAsset(tx, companyId, {
            name: row.name,
            kind: row.kind ?? 'other',
            os_name: row.os_name ?? '',
            os_version: row.os_version ?? '',
            ips: row.ips ?? [],
            macs: row.macs ?? [],
            fqdn: row.fqdn ?? '',
            owner_employee_id: null,
            unit_id: null,
            criticality: row.criticality ?? 'medium',
            tags: row.tags ?? [],
            agent_id: row.agent_id ?? '',
            notes: row.notes ?? '',
            sources: ['import'],
          });
          await upsertIpHosts(tx, companyId, manualClaims(id, row.ips ?? [], 'static', now));
          created += 1;
        }
      }
      await recordAudit(tx, audit, {
        action: 'import',
        objectType: 'asset',
        objectId: null,
        objectRepr: `${created} created, ${updated} updated`,
        companyId,
        after: { created, updated, rejected: rejected.length },
      });
      return { created, updated, rejected };
    });
  }

  async networks(actor: Actor, companyId: number | undefined): Promise<CompanyNetworks> {
    const company = companyId ?? actor.companyId;
    if (!inScope(actor.scope, company)) throw notFound();
    return { company_id: company, cidrs: await readNetworks(this.db, company) };
  }

  async setNetworks(
    actor: Actor,
    audit: AuditContext,
    input: { company_id?: number; cidrs: string[] },
  ): Promise<CompanyNetworks> {
    const company = this.companyOf(actor, input.company_id);
    return this.db.transaction(async (tx) => {
      const before = await readNetworks(tx, company);
      await replaceNetworks(tx, company, input.cidrs);
      const after = await readNetworks(tx, company);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'company_networks',
        objectId: company,
        objectRepr: 'Internal networks',
        companyId: company,
        before: { cidrs: before },
        after: { cidrs: after },
      });
      return { company_id: company, cidrs: after };
    });
  }

  /** The assets addresses and host names of one company in scope were at a moment. */
  async lookup(actor: Actor, query: AssetLookupQuery): Promise<AssetLookupAnswer> {
    if (!inScope(actor.scope, query.company_id)) throw ValidationError.field('company_id', 'No such company.');
    const at = query.at ?? new Date().toISOString();
    const found = await lookupAssets(this.db, query.company_id, at, query.ip ?? [], query.host ?? []);
    const ref = (r: AssetRefRow) => ({ id: r.id, name: r.name, kind: r.kind, criticality: r.criticality });
    return {
      found: [
        ...found.ips.map((r) => ({ value: r.value, kind: 'ip' as const, asset: ref(r) })),
        ...found.hosts.map((r) => ({ value: r.value, kind: 'host' as const, asset: ref(r) })),
      ],
    };
  }

  /** The asset that held an address at a moment, in the caller's scope. */
  async resolve(
    actor: Actor,
    query: { ip: string; at?: string; company_id?: number },
  ): Promise<{ asset: AssetRow | null; ipHost: IpHostRow | null }> {
    const at = query.at ?? new Date().toISOString();
    const ipHost = await resolveIpHost(this.db, actor.scope, query.company_id ?? null, query.ip, at);
    if (!ipHost) return { asset: null, ipHost: null };
    return { asset: await findAsset(this.db, actor.scope, Number(ipHost.asset_id)), ipHost };
  }
}
