import type { IndicatorCreate, IndicatorImportAnswer, IndicatorScope, IndicatorUpdate } from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope, seesAllCompanies } from '../../http/tenancy';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { readIndicatorCsv } from './indicator-csv';
import type { IndicatorIndexService } from './indicator-index.service';
import { normaliseIndicatorValue } from './indicator-values';
import {
  deleteIndicators,
  exportIndicators,
  findIndicator,
  indicatorKeyTaken,
  insertIndicator,
  toIndexed,
  toIndicator,
  updateIndicator,
  upsertIndicators,
  type IndicatorRow,
  type IndicatorValues,
} from './indicators.repository';
import { enqueueRetroHunt } from './retro-hunt';

/** Ids listed in one aggregated audit record of a bulk delete. */
const MAX_AUDIT_IDS = 1000;

const keyTaken = () =>
  ValidationError.field('value', 'An indicator of this type and value exists already for this scope.');

/** Where a new indicator goes: its company and scope, checked against the caller's. */
function target(actor: Actor, companyId: number | undefined, allCompanies: boolean | undefined) {
  if (allCompanies) {
    if (!seesAllCompanies(actor.scope))
      throw forbidden('Only staff who see every company can make indicators for all companies.');
    return { companyId: actor.companyId, scope: 'all' as IndicatorScope };
  }
  const id = companyId ?? actor.companyId;
  if (!inScope(actor.scope, id)) throw ValidationError.field('company_id', 'No such company.');
  return { companyId: id, scope: 'company' as IndicatorScope };
}

function normalisedValue(type: IndicatorValues['type'], value: string): string {
  const result = normaliseIndicatorValue(type, value);
  if (!result.ok) throw ValidationError.field('value', result.reason);
  return result.value;
}

const isLiveAlert = (row: IndicatorRow) =>
  row.policy === 'alert' && (row.expires_at === null || row.expires_at.getTime() > Date.now());

/** Where an import goes, as the query string or the JSON body names it. */
export interface ImportTarget {
  company_id?: number | undefined;
  all_companies?: boolean | undefined;
}

/**
 * Policy indicators: each change in one transaction with its audit record. After commit the
 * in-memory matching index is updated (and other server processes told); new or changed alert
 * indicators are searched for in past events by a retro-hunt job queued in the same transaction.
 */
export class IndicatorsService {
  constructor(
    private readonly db: Database,
    private readonly index: IndicatorIndexService,
    /** Whether new alert indicators are searched for in past events. */
    private readonly retroHunt: boolean,
  ) {}

  async get(actor: Actor, id: number): Promise<IndicatorRow> {
    const row = await findIndicator(this.db, actor.scope, id);
    if (!row) throw notFound();
    return row;
  }

  /** Every indicator in the caller's scope, for the CSV export. */
  exportRows(actor: Actor): Promise<IndicatorRow[]> {
    return exportIndicators(this.db, actor.scope);
  }

  async create(actor: Actor, audit: AuditContext, input: IndicatorCreate): Promise<IndicatorRow> {
    const where = target(actor, input.company_id, input.all_companies);
    const values: IndicatorValues = {
      type: input.type,
      value: normalisedValue(input.type, input.value),
      policy: input.policy ?? 'alert',
      severity: input.severity ?? 'medium',
      expires_at: input.expires_at ?? null,
      tags: [...new Set(input.tags ?? [])],
      source: input.source ?? '',
      description: input.description ?? '',
    };
    const row = await this.db.transaction(async (tx) => {
      if (await indicatorKeyTaken(tx, where.companyId, where.scope, values.type, values.value)) throw keyTaken();
      const created = await insertIndicator(tx, where.companyId, where.scope, values);
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'indicator',
        objectId: created.id,
        objectRepr: `${created.type} ${created.value}`,
        companyId: created.company_id,
        after: { ...toIndicator(created) },
      });
      if (this.retroHunt && isLiveAlert(created)) await enqueueRetroHunt(tx, [Number(created.id)]);
      return created;
    });
    await this.index.changed({ upserted: [toIndexed(row)], removed: [] });
    return row;
  }

  async update(actor: Actor, audit: AuditContext, id: number, patch: IndicatorUpdate): Promise<IndicatorRow> {
    const row = await this.db.transaction(async (tx) => {
      const before = await findIndicator(tx, actor.scope, id, true);
      if (!before) throw notFound();
      const values: IndicatorValues = {
        type: before.type,
        value: patch.value === undefined ? before.value : normalisedValue(before.type, patch.value),
        policy: patch.policy ?? before.policy,
        severity: patch.severity ?? before.severity,
        expires_at: patch.expires_at === undefined ? (before.expires_at?.toISOString() ?? null) : patch.expires_at,
        tags: patch.tags ? [...new Set(patch.tags)] : before.tags,
        source: patch.source ?? before.source,
        description: patch.description ?? before.description,
      };
      if (
        values.value !== before.value &&
        (await indicatorKeyTaken(tx, before.company_id, before.scope, values.type, values.value, id))
      )
        throw keyTaken();
      const after = await updateIndicator(tx, before, values);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'indicator',
        objectId: id,
        objectRepr: `${after.type} ${after.value}`,
        companyId: after.company_id,
        before: { ...toIndicator(before) },
        after: { ...toIndicator(after) },
      });
      // A value or policy that starts alerting, or an expiry that brings it back, is hunted for.
      const wasLive = isLiveAlert(before);
      if (this.retroHunt && isLiveAlert(after) && (!wasLive || after.value !== before.value))
        await enqueueRetroHunt(tx, [id]);
      return after;
    });
    await this.index.changed({ upserted: [toIndexed(row)], removed: [] });
    return row;
  }

  /** Deletes the named indicators in the caller's scope (one audit record per company); answers how many. */
  async remove(actor: Actor, audit: AuditContext, ids: readonly number[]): Promise<number> {
    const removed = await this.db.transaction(async (tx) => {
      const rows = await deleteIndicators(tx, actor.scope, ids);
      const byCompany = new Map<number, IndicatorRow[]>();
      for (const row of rows) {
        const list = byCompany.get(Number(row.company_id));
        if (list) list.push(row);
        else byCompany.set(Number(row.company_id), [row]);
      }
      for (const [companyId, list] of byCompany) {
        const single = list.length === 1 ? list[0] : undefined;
        await recordAudit(tx, audit, {
          action: 'delete',
          objectType: 'indicator',
          objectId: single ? single.id : null,
          objectRepr: single ? `${single.type} ${single.value}` : `${list.length} indicators`,
          companyId,
          before: single
            ? { ...toIndicator(single) }
            : { ids: list.slice(0, MAX_AUDIT_IDS).map((r) => Number(r.id)), count: list.length },
        });
      }
      return rows.map((r) => Number(r.id));
    });
    if (removed.length > 0) await this.index.changed({ upserted: [], removed });
    return removed.length;
  }

  /** Creates or updates the indicators of a CSV text; rows that cannot be read are answered as rejected. */
  async import(actor: Actor, audit: AuditContext, csv: string, into: ImportTarget): Promise<IndicatorImportAnswer> {
    const where = target(actor, into.company_id, into.all_companies);
    const { rows, rejected } = readIndicatorCsv(csv);
    if (rows.length === 0) return { created: 0, updated: 0, rejected };
    const result = await this.db.transaction(async (tx) => {
      const done = await upsertIndicators(tx, where.companyId, where.scope, rows);
      await recordAudit(tx, audit, {
        action: 'import',
        objectType: 'indicator',
        objectId: null,
        objectRepr: `${done.created} created, ${done.updated} updated, ${rejected.length} rejected`,
        companyId: where.companyId,
        after: { scope: where.scope, created: done.created, updated: done.updated, rejected: rejected.length },
      });
      if (this.retroHunt && done.alertIds.length > 0) await enqueueRetroHunt(tx, done.alertIds);
      return done;
    });
    await this.index.changed({ upserted: result.indexed, removed: [] });
    return { created: result.created, updated: result.updated, rejected };
  }
}
