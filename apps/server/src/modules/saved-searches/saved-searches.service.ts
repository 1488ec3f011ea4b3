import type {
  SavedSearchCreate,
  SavedSearchRunAnswer,
  SavedSearchUpdate,
  SearchKind,
  SearchReport,
} from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope, scopeCompanyIds, seesAllCompanies } from '../../http/tenancy';
import { recordAudit, recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { checkedQuery, kindsRefused } from '../search/search.service';
import { requestSavedSearchRuns, type SavedSearchRuns } from './saved-search-runs';
import {
  deleteSavedSearch,
  dropBlindSubscribers,
  findSavedSearch,
  insertSavedSearch,
  replaceSubscribers,
  setSubscribed,
  subscriberStanding,
  updateSavedSearch,
  type SavedSearchRow,
  type SavedSearchValues,
  type SavedSearchViewer,
} from './saved-searches.repository';
import { findSearchReport, toSearchReport } from './search-reports.repository';

/** A saved search in the audit log: what it searches, who sees it and what it raises. */
const audited: AuditedKind<SavedSearchRow> = {
  objectType: 'saved_search',
  repr: (s) => s.name,
  snapshot: (s) => ({
    name: s.name,
    query: s.query,
    type: s.kinds,
    enabled: s.enabled,
    sharing: s.sharing,
    company_ids: s.company_ids.map(Number),
    interval_minutes: s.interval_minutes,
    alert: s.alert,
    subscriber_ids: s.subscriber_ids.map(Number),
  }),
};

const viewerOf = (actor: Actor): SavedSearchViewer => ({ userId: actor.userId, scope: actor.scope });

/** Whether the caller sees more than one company (provider staff), who alone may share with companies. */
const seesSeveral = (actor: Actor) => seesAllCompanies(actor.scope) || (scopeCompanyIds(actor.scope)?.length ?? 0) > 1;

/** Saved searches: each change in one transaction with its audit record; runs by hand. */
export class SavedSearchesService {
  constructor(
    private readonly db: Database,
    private readonly runs: SavedSearchRuns,
  ) {}

  /** Whether the caller sees the saved search (a path naming another's private one answers 404). */
  async exists(actor: Actor, id: number): Promise<boolean> {
    return (await findSavedSearch(this.db, viewerOf(actor), id)) !== null;
  }

  async get(actor: Actor, id: number): Promise<SavedSearchRow> {
    const found = await findSavedSearch(this.db, viewerOf(actor), id);
    if (!found) throw notFound();
    return found;
  }

  async create(actor: Actor, audit: AuditContext, input: SavedSearchCreate): Promise<SavedSearchRow> {
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', `No company with id ${companyId}.`);
    const values = this.checked(actor, {
      name: input.name,
      query: input.query,
      kinds: input.type,
      enabled: input.enabled,
      sharing: input.sharing,
      companyIds: input.company_ids,
      intervalMinutes: input.interval_minutes,
      alert: input.alert,
    });
    return this.db.transaction(async (tx) => {
      const id = await insertSavedSearch(tx, companyId, actor.userId, values);
      if (input.subscriber_ids.length > 0) await this.setSubscribers(tx, actor, id, input.subscriber_ids);
      const row = (await findSavedSearch(tx, null, id, null, viewerOf(actor)))!;
      await recordChange(tx, audit, audited, { after: row });
      if (row.enabled) await requestSavedSearchRuns(tx);
      return row;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: SavedSearchUpdate): Promise<SavedSearchRow> {
    return this.db.transaction(async (tx) => {
      const before = await this.changeable(tx, actor, id);
      const values = this.checked(actor, {
        name: input.name ?? before.name,
        query: input.query ?? before.query,
        kinds: input.type ?? before.kinds,
        enabled: input.enabled ?? before.enabled,
        sharing: input.sharing ?? before.sharing,
        companyIds:
          input.company_ids ?? (input.sharing === undefined || input.sharing === 'companies' ? before.company_ids : []),
        intervalMinutes: input.interval_minutes ?? before.interval_minutes,
        alert: input.alert === undefined ? before.alert : input.alert,
      });
      await updateSavedSearch(tx, before, values);
      if (input.subscriber_ids !== undefined) {
        await this.setSubscribers(tx, actor, id, input.subscriber_ids, before.subscriber_ids);
      }
      // Who no longer sees it (its sharing changed) is no longer a subscriber, kept or not.
      await dropBlindSubscribers(tx, id);
      const after = (await findSavedSearch(tx, null, id, null, viewerOf(actor)))!;
      await recordChange(tx, audit, audited, { before, after });
      if (after.enabled) await requestSavedSearchRuns(tx);
      return after;
    });
  }

  async remove(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.changeable(tx, actor, id);
      await deleteSavedSearch(tx, id);
      await recordChange(tx, audit, audited, { before });
    });
  }

  /**
   * The caller asks for (`on`) or stops the mail of the saved search's reports (asking needs
   * `search/reports: view`, checked by the route); a change is recorded, asking twice changes nothing.
   */
  async subscribe(actor: Actor, audit: AuditContext, id: number, on: boolean): Promise<SavedSearchRow> {
    return this.db.transaction(async (tx) => {
      const before = await findSavedSearch(tx, viewerOf(actor), id, 'update');
      if (!before) throw notFound();
      if (before.subscribed === on) return before;
      await setSubscribed(tx, id, actor.userId, on);
      const after = (await findSavedSearch(tx, null, id, null, viewerOf(actor)))!;
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  /** Runs an enabled saved search now, as its schedule would (400 when it is not enabled). */
  async runNow(actor: Actor, audit: AuditContext, id: number): Promise<SavedSearchRunAnswer> {
    const saved = await this.changeable(this.db, actor, id, false);
    if (!saved.enabled) throw ValidationError.field('enabled', 'Enable the saved search before running it.');
    const outcome = await this.runs.run(id, 'now', (tx, ran, done) =>
      recordAudit(tx, audit, {
        action: 'run',
        objectType: audited.objectType,
        objectId: ran.id,
        objectRepr: ran.name,
        companyId: Number(ran.company_id),
        after: { hits: done.hits, reports: done.reports, alerts: done.alerts },
      }),
    );
    if (!outcome) throw ValidationError.field('enabled', 'Enable the saved search before running it.');
    return { hits: outcome.hits, reports: outcome.reports, alerts: outcome.alerts };
  }

  async report(actor: Actor, id: number): Promise<SearchReport> {
    const found = await findSearchReport(this.db, actor.scope, id);
    if (!found) throw notFound();
    return toSearchReport(found);
  }

  /**
   * The saved search, held for a change, when the caller may change it: its owner, or someone whose
   * scope covers its company (the route has checked `search: change`). 404 when the caller does not
   * see it, 403 when they see it and may not change it.
   */
  private async changeable(db: Queryable, actor: Actor, id: number, lock = true): Promise<SavedSearchRow> {
    const found = await findSavedSearch(db, viewerOf(actor), id, lock ? 'update' : null);
    if (!found) throw notFound();
    const owner = found.owner_id !== null && Number(found.owner_id) === actor.userId;
    if (!owner && !inScope(actor.scope, Number(found.company_id))) {
      throw forbidden('Only its owner or someone who manages its company may change this saved search.');
    }
    return found;
  }

  /**
   * Makes these users the subscribers the caller sees. Those it adds must be users the caller sees,
   * active, who see the saved search as it now stands and may read search reports (400
   * `subscriber_ids` naming the others); those it keeps (`kept`, as the caller saw them) stay as they
   * are, so a change of the saved search is not refused for a subscriber deactivated since.
   */
  private async setSubscribers(
    tx: Queryable,
    actor: Actor,
    id: number,
    userIds: readonly number[],
    kept: readonly number[] = [],
  ): Promise<void> {
    const wanted = [...new Set(userIds.map(Number))];
    const keeping = new Set(kept.map(Number));
    const added = wanted.filter((userId) => !keeping.has(userId));
    const standing = await subscriberStanding(tx, id, added, actor.scope);
    const known = new Set(standing.map((user) => user.id));
    const problems: string[] = [];
    const unknown = added.filter((userId) => !known.has(userId));
    if (unknown.length > 0) problems.push(`No users with ids ${unknown.join(', ')}.`);
    const names = (refused: typeof standing) => refused.map((user) => user.username).join(', ');
    const archived = standing.filter((user) => user.archived);
    if (archived.length > 0) problems.push(`Deactivated users get no mail: ${names(archived)}.`);
    const blind = standing.filter((user) => !user.archived && !user.sees);
    if (blind.length > 0) problems.push(`These users do not see this saved search: ${names(blind)}.`);
    const unread = standing.filter((user) => !user.archived && user.sees && !user.reads_reports);
    if (unread.length > 0) problems.push(`These users may not read search reports: ${names(unread)}.`);
    if (problems.length > 0) throw new ValidationError({ subscriber_ids: problems });
    await replaceSubscribers(tx, id, wanted, actor.scope);
  }

  /** The values checked as a whole: the query, the kinds the caller may view, the sharing. */
  private checked(actor: Actor, values: SavedSearchValues): SavedSearchValues {
    checkedQuery(values.query, values.kinds);
    const refused = kindsRefused(actor, values.kinds as SearchKind[]);
    if (refused.length > 0) {
      throw ValidationError.field('type', `You may not view ${refused.join(', ')}, so you cannot search them.`);
    }
    if (values.sharing !== 'companies') return { ...values, companyIds: [] };
    if (!seesSeveral(actor)) {
      throw ValidationError.field('sharing', 'Only those who see several companies may share with companies.');
    }
    if (values.companyIds.length === 0)
      throw ValidationError.field('company_ids', 'Choose the companies to share with.');
    const outside = values.companyIds.filter((companyId) => !inScope(actor.scope, companyId));
    if (outside.length > 0) throw ValidationError.field('company_ids', `No companies with ids ${outside.join(', ')}.`);
    return { ...values, companyIds: [...new Set(values.companyIds.map(Number))] };
  }
}
