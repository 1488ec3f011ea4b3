import type { AlertBulk, AlertComment, AlertUpdate } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope, seesAllCompanies, type TenantScope } from '../../http/tenancy';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { addTimeline, findIncident, findIncidentIn, refreshIncidents } from '../incidents/incidents.repository';
import { liveEvents, type LiveBus, type LiveEvent } from '../live/live.bus';
import { assignableCompanies, assignableInScope, bulkUpdateAlerts } from './alerts.bulk.repository';
import {
  auditedFields,
  findAlert,
  insertAlertComment,
  updateAlert,
  type AlertPatch,
  type AlertRow,
} from './alerts.repository';

// The alerts module is the one writer of alerts: other modules change them through these, inside
// their own transaction (incidents taking alerts in and out; the pipeline's grouping and matchers).
export { clearAlertsIncident, setAlertsIncident } from './alerts.repository';
export {
  applyMatchedChanges,
  linkAlertsToIncidents,
  type AlertIncidentLink,
  type MatchedAlertChange,
} from './alerts.pipeline.repository';

/**
 * The checks an alert change passes whoever makes it — a person (PATCH), a bulk action or a matcher
 * (when it is saved and again each time it runs). Each answers why the change cannot be made, or null.
 */
export const alertChangeRules = {
  /**
   * Alerts are given only to a user who works on the alert's company. `companies` are those of the
   * alerts the change may reach (one alert's, or every company a matcher may match: 'all').
   */
  async assignee(db: Queryable, userId: number, companies: TenantScope['companies']): Promise<string | null> {
    const reach = await assignableCompanies(db, userId);
    const works =
      reach !== null && (companies === 'all' ? seesAllCompanies(reach) : companies.every((id) => inScope(reach, id)));
    return works ? null : 'No such user can work on this alert.';
  },
  /** Alerts join only an incident of their own company (so the change may reach one company only). */
  async incident(db: Queryable, incidentId: number, companies: TenantScope['companies']): Promise<string | null> {
    const [companyId, ...others] = companies === 'all' ? [] : new Set(companies);
    if (companyId === undefined || others.length > 0) {
      return 'An incident gathers alerts of its own company only: this change would reach other companies too.';
    }
    return (await findIncidentIn(db, companyId, incidentId)) ? null : "No such incident in the alert's company.";
  },
};

/** Triage of alerts: each change in one transaction with its audit record, live updates after commit. */
export class AlertsService {
  constructor(
    private readonly db: Database,
    private readonly live: LiveBus,
  ) {}

  /** One alert in the caller's scope (another tenant's alert does not exist for the caller). */
  async get(actor: Actor, id: number): Promise<AlertRow> {
    const alert = await findAlert(this.db, actor.scope, id);
    if (!alert) throw notFound();
    return alert;
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: AlertUpdate): Promise<AlertRow> {
    const updated = await this.db.transaction(async (tx) => {
      const before = await findAlert(tx, actor.scope, id, true);
      if (!before) throw notFound();
      const patch: AlertPatch = { ...input };
      const status = input.status ?? before.status;
      const final = status === 'resolved' || status === 'closed';
      if (final) {
        const resolution = input.resolution !== undefined ? input.resolution : before.resolution;
        if (!resolution) throw ValidationError.field('resolution', 'Say how the alert was resolved.');
        patch.resolution = resolution;
      } else {
        if (input.resolution)
          throw ValidationError.field('resolution', 'Only resolved or closed alerts have a resolution.');
        patch.resolution = null;
      }
      if (input.assignee_id !== undefined && input.assignee_id !== null) {
        const refusal = await alertChangeRules.assignee(tx, input.assignee_id, [before.company_id]);
        if (refusal) throw ValidationError.field('assignee_id', refusal);
      }
      const after = await updateAlert(tx, before, patch);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'alert',
        objectId: id,
        objectRepr: after.title.slice(0, 200),
        companyId: after.company_id,
        before: auditedFields(before),
        after: auditedFields(after),
      });
      return after;
    });
    await this.live.publish(liveEvents('alert.updated', [updated]));
    return updated;
  }

  async comment(actor: Actor, audit: AuditContext, id: number, body: string): Promise<AlertComment> {
    const { created, alert } = await this.db.transaction(async (tx) => {
      const found = await findAlert(tx, actor.scope, id);
      if (!found) throw notFound();
      const comment = await insertAlertComment(tx, found, actor, body);
      await recordAudit(tx, audit, {
        action: 'comment',
        objectType: 'alert',
        objectId: id,
        objectRepr: found.title.slice(0, 200),
        companyId: found.company_id,
        after: { comment_id: comment.id },
      });
      return { created: comment, alert: found };
    });
    await this.live.publish(liveEvents('alert.updated', [alert]));
    return created;
  }

  /**
   * One bulk action over alerts in the caller's scope; answers how many changed. The bulk audit
   * records are written by the same statement as the change (one per company).
   */
  async bulk(actor: Actor, audit: AuditContext, request: AlertBulk): Promise<number> {
    const outcome = await this.db.transaction(async (tx) => {
      const action = request.action;
      let incident: { company_id: number; id: number } | null = null;
      let assigneeReach: TenantScope | null = null;
      if (action.action === 'assign') {
        if (action.assignee_id !== null) {
          if (!(await assignableInScope(tx, action.assignee_id, actor.scope)))
            throw ValidationError.field('action.assignee_id', 'No such user.');
          // The rule of `alertChangeRules.assignee` over the whole selection: only alerts of the
          // companies the user works on are given to it.
          assigneeReach = await assignableCompanies(tx, action.assignee_id);
        }
      } else if (action.action === 'set_status') {
        const final = action.status === 'resolved' || action.status === 'closed';
        if (final && !action.resolution)
          throw ValidationError.field('action.resolution', 'Say how the alerts were resolved.');
        if (!final && action.resolution)
          throw ValidationError.field('action.resolution', 'Only resolved or closed alerts have a resolution.');
      } else if (action.action === 'add_to_incident') {
        const found = await findIncident(tx, actor.scope, action.incident_id);
        if (!found) throw ValidationError.field('action.incident_id', 'No such incident.');
        incident = { company_id: found.company_id, id: found.id };
      }
      const changed = await bulkUpdateAlerts(tx, actor.scope, audit, request, { incident, assigneeReach });
      const updated = changed.reduce((sum, r) => sum + r.n, 0);
      const live: LiveEvent[] = changed.map((r) => ({
        type: 'alert.updated',
        company_id: r.company_id,
        ids: r.ids,
        count: r.n,
      }));
      if (incident && updated > 0) {
        await refreshIncidents(tx, [incident]);
        await addTimeline(tx, [
          {
            companyId: incident.company_id,
            incidentId: incident.id,
            kind: 'alerts_linked',
            userId: audit.userId,
            username: audit.username,
            data: { count: updated, alert_ids: changed.flatMap((r) => r.ids).slice(0, 500) },
          },
        ]);
        live.push(...liveEvents('incident.updated', [incident]));
      }
      return { updated, live };
    });
    await this.live.publish(outcome.live);
    return outcome.updated;
  }
}
