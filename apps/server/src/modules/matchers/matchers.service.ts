import type { MatcherAction, MatcherCreate, MatcherUpdate } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope, seesAllCompanies } from '../../http/tenancy';
import { alertChangeRules } from '../alerts/alerts.service';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { companiesMatched, type MatcherScope } from './apply-matchers';
import {
  deleteMatcher,
  findMatcher,
  insertMatcher,
  toMatcher,
  updateMatcher,
  type MatcherRow,
  type MatcherValues,
} from './matchers.repository';
import { isPrivateLiteralUrl } from './network-guard';

const allCompaniesForbidden = () => forbidden('Only staff who see every company can make a matcher for all companies.');

/** Matchers: each change in one transaction with its audit record. */
export class MatchersService {
  constructor(
    private readonly db: Database,
    /** Webhooks may call loopback, private and link-local addresses (tests, closed networks). */
    private readonly allowPrivateAddresses: boolean,
  ) {}

  /** A webhook written as a refused address is refused now rather than failing later in the job. */
  private checkWebhooks(actions: readonly { type: string; url?: string }[]): void {
    if (this.allowPrivateAddresses) return;
    actions.forEach((action, index) => {
      if (action.type === 'notify_webhook' && action.url !== undefined && isPrivateLiteralUrl(action.url)) {
        throw ValidationError.field(
          `actions.${index}.url`,
          'Webhooks may not call loopback, private or link-local addresses.',
        );
      }
    });
  }

  /**
   * The actions that change alerts pass the rules every alert change passes (`alertChangeRules`),
   * over every company whose alerts the matcher may change: a user who works on them, an incident of
   * that one company. Refused here with field errors rather than doing something else when it runs.
   */
  private async checkAlertActions(tx: Queryable, matcher: MatcherScope, actions: readonly MatcherAction[]) {
    const companies = companiesMatched(matcher);
    const errors: Record<string, string[]> = {};
    for (const [index, action] of actions.entries()) {
      if (action.type === 'assign') {
        const refusal = await alertChangeRules.assignee(tx, action.assignee_id, companies);
        if (refusal) errors[`actions.${index}.assignee_id`] = [refusal];
      } else if (action.type === 'add_to_incident') {
        const refusal = await alertChangeRules.incident(tx, action.incident_id, companies);
        if (refusal) errors[`actions.${index}.incident_id`] = [refusal];
      }
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }

  async get(actor: Actor, id: number): Promise<MatcherRow> {
    const row = await findMatcher(this.db, actor.scope, id);
    if (!row) throw notFound();
    return row;
  }

  async create(actor: Actor, audit: AuditContext, input: MatcherCreate): Promise<MatcherRow> {
    this.checkWebhooks(input.actions);
    const companyId = input.company_id ?? actor.companyId;
    if (!inScope(actor.scope, companyId)) throw ValidationError.field('company_id', 'No such company.');
    if (input.all_companies && !seesAllCompanies(actor.scope)) throw allCompaniesForbidden();
    const values: MatcherValues = {
      name: input.name,
      enabled: input.enabled ?? true,
      all_companies: input.all_companies ?? false,
      position: input.position ?? 0,
      conditions: input.conditions,
      actions: input.actions,
    };
    return this.db.transaction(async (tx) => {
      await this.checkAlertActions(tx, { companyId, ...values }, values.actions);
      const created = await insertMatcher(tx, companyId, values);
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'matcher',
        objectId: created.id,
        objectRepr: created.name,
        companyId,
        after: values as unknown as Record<string, unknown>,
      });
      return created;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, patch: MatcherUpdate): Promise<MatcherRow> {
    return this.db.transaction(async (tx) => {
      const before = await findMatcher(tx, actor.scope, id, true);
      if (!before) throw notFound();
      if (patch.actions) this.checkWebhooks(patch.actions);
      if (patch.all_companies && !seesAllCompanies(actor.scope)) throw allCompaniesForbidden();
      const values: MatcherValues = {
        name: patch.name ?? before.name,
        enabled: patch.enabled ?? before.enabled,
        all_companies: patch.all_companies ?? before.all_companies,
        position: patch.position ?? before.position,
        conditions: patch.conditions ?? before.conditions,
        actions: patch.actions ?? before.actions,
      };
      // Checked again on every change: users and incidents may have moved since the last one.
      await this.checkAlertActions(tx, { companyId: before.company_id, ...values }, values.actions);
      const after = await updateMatcher(tx, before, values);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'matcher',
        objectId: id,
        objectRepr: after.name,
        companyId: after.company_id,
        before: { ...toMatcher(before) },
        after: { ...toMatcher(after) },
      });
      return after;
    });
  }

  async remove(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await findMatcher(tx, actor.scope, id, true);
      if (!before) throw notFound();
      await deleteMatcher(tx, before);
      await recordAudit(tx, audit, {
        action: 'delete',
        objectType: 'matcher',
        objectId: id,
        objectRepr: before.name,
        companyId: before.company_id,
        before: { ...toMatcher(before) },
      });
    });
  }
}
