import {
  canIncidentTransition,
  incidentTransitions,
  type Incident,
  type IncidentCreate,
  type IncidentDetail,
  type IncidentGrouping,
  type IncidentTask,
  type IncidentUpdate,
  type TaskCreate,
  type TaskUpdate,
} from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { assignable } from '../alerts/alerts.bulk.repository';
import { alertsForIncident, countAlertsInCompany } from '../alerts/alerts.repository';
import { clearAlertsIncident, setAlertsIncident } from '../alerts/alerts.service';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { findCompany } from '../companies/companies.repository';
import { liveEvents, type LiveBus } from '../live/live.bus';
import {
  addTimeline,
  findGrouping,
  findIncident,
  findTask,
  incidentDetail,
  insertIncident,
  insertTask,
  refreshIncidents,
  saveGrouping,
  updateIncident,
  updateTask,
  type IncidentRow,
  type TimelineEntry,
} from './incidents.repository';

type IncidentKey = { company_id: number; id: number };

const acknowledgedStatuses: readonly Incident['status'][] = ['investigating', 'contained', 'resolved', 'closed'];

/** Grouping of a company that never set it: off, by host, one hour. */
const defaultGrouping: IncidentGrouping = { enabled: false, by_host: true, by_user: false, window_minutes: 60 };

const cannotWork = () => ValidationError.field('assignee_id', 'No such user can work on this incident.');

/** One timeline entry per alert, of the given kind, by the actor. */
function alertEntries(actor: Actor, incident: IncidentKey, kind: string, ids: readonly number[]): TimelineEntry[] {
  return ids.map((alertId) => ({
    companyId: incident.company_id,
    incidentId: incident.id,
    kind,
    userId: actor.userId,
    username: actor.username,
    data: { alert_id: alertId },
  }));
}

/** Links alerts (of the incident's company) to an incident; answers the ids linked. */
async function linkAlerts(tx: Queryable, actor: Actor, incident: IncidentKey, ids: readonly number[]) {
  const linked = await setAlertsIncident(tx, incident, ids);
  await refreshIncidents(tx, [incident]);
  await addTimeline(tx, alertEntries(actor, incident, 'alert_linked', linked));
  return linked;
}

/** Unlinks alerts from an incident; answers the ids unlinked. */
async function unlinkAlerts(tx: Queryable, actor: Actor, incident: IncidentKey, ids: readonly number[]) {
  const unlinked = await clearAlertsIncident(tx, incident, ids);
  await refreshIncidents(tx, [incident]);
  await addTimeline(tx, alertEntries(actor, incident, 'alert_unlinked', unlinked));
  return unlinked;
}

/** What an incident's audit record keeps of it. */
const audited = (r: IncidentRow) => ({
  title: r.title,
  description: r.description,
  severity: r.severity,
  status: r.status,
  assignee_id: r.assignee_id,
  alert_count: Number(r.alert_count),
});

/** Incidents: each change in one transaction with its timeline and audit record, live updates after commit. */
export class IncidentsService {
  constructor(
    private readonly db: Database,
    private readonly live: LiveBus,
  ) {}

  private async load(tx: Queryable, actor: Actor, id: number, lock = false): Promise<IncidentRow> {
    const row = await findIncident(tx, actor.scope, id, lock);
    if (!row) throw notFound();
    return row;
  }

  async get(actor: Actor, id: number): Promise<IncidentDetail> {
    return incidentDetail(this.db, await this.load(this.db, actor, id));
  }

  async create(actor: Actor, audit: AuditContext, input: IncidentCreate): Promise<IncidentDetail> {
    const created = await this.db.transaction(async (tx) => {
      const alerts = await alertsForIncident(tx, actor.scope, input.alert_ids);
      if (alerts.length !== new Set(input.alert_ids).size)
        throw ValidationError.field('alert_ids', 'Some of these alerts do not exist.');
      const companies = new Set(alerts.map((a) => a.company_id));
      if (companies.size !== 1) throw ValidationError.field('alert_ids', 'An incident gathers alerts of one company.');
      const companyId = [...companies][0] as number;
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, companyId))) throw cannotWork();
      const id = await insertIncident(tx, companyId, {
        title: input.title,
        description: input.description ?? '',
        severity: input.severity ?? 'info',
        assignee_id: input.assignee_id ?? null,
      });
      await addTimeline(tx, [
        { companyId, incidentId: id, kind: 'created', userId: actor.userId, username: actor.username },
      ]);
      await linkAlerts(tx, actor, { company_id: companyId, id }, input.alert_ids);
      const row = await this.load(tx, actor, id);
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'incident',
        objectId: id,
        objectRepr: row.title,
        companyId,
        after: { title: row.title, severity: row.severity, status: row.status, alert_ids: input.alert_ids },
      });
      return row;
    });
    await this.live.publish([
      ...liveEvents('incident.created', [created]),
      ...liveEvents(
        'alert.updated',
        input.alert_ids.map((id) => ({ id, company_id: created.company_id })),
      ),
    ]);
    return incidentDetail(this.db, created);
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: IncidentUpdate): Promise<IncidentRow> {
    const after = await this.db.transaction(async (tx) => {
      const before = await this.load(tx, actor, id, true);
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, before.company_id))) throw cannotWork();
      const status = input.status ?? before.status;
      if (!canIncidentTransition(before.status, status)) {
        const allowed = incidentTransitions[before.status].join(', ');
        throw ValidationError.field('status', `An incident that is ${before.status} can move to: ${allowed}.`);
      }
      if (input.summary !== undefined && status === before.status)
        throw ValidationError.field('summary', 'A summary goes with a change of status.');
      const overlap = input.add_alert_ids?.filter((alertId) => input.remove_alert_ids?.includes(alertId)) ?? [];
      if (overlap.length > 0)
        throw ValidationError.field('remove_alert_ids', 'An alert cannot be linked and unlinked at once.');
      await updateIncident(tx, before, {
        title: input.title ?? before.title,
        description: input.description ?? before.description,
        severity: input.severity ?? before.severity,
        status,
        assignee_id: input.assignee_id !== undefined ? input.assignee_id : before.assignee_id,
        acknowledge: before.acknowledged_at === null && acknowledgedStatuses.includes(status),
        resolve: (status === 'resolved' || status === 'closed') && before.resolved_at === null,
        reopen: status !== 'resolved' && status !== 'closed',
      });
      const who = { companyId: before.company_id, incidentId: id, userId: actor.userId, username: actor.username };
      const entries: TimelineEntry[] = [];
      if (status !== before.status)
        entries.push({
          ...who,
          kind: 'status',
          body: input.summary ?? '',
          data: { before: before.status, after: status },
        });
      if (input.assignee_id !== undefined && input.assignee_id !== before.assignee_id)
        entries.push({ ...who, kind: 'assignment', data: { before: before.assignee_id, after: input.assignee_id } });
      if (input.severity && input.severity !== before.severity)
        entries.push({ ...who, kind: 'severity', data: { before: before.severity, after: input.severity } });
      await addTimeline(tx, entries);
      let linked: number[] = [];
      let unlinked: number[] = [];
      if (input.add_alert_ids?.length) {
        const known = await countAlertsInCompany(tx, before.company_id, input.add_alert_ids);
        if (known !== new Set(input.add_alert_ids).size)
          throw ValidationError.field('add_alert_ids', 'Some of these alerts do not exist in this company.');
        linked = await linkAlerts(tx, actor, before, input.add_alert_ids);
      }
      if (input.remove_alert_ids?.length) unlinked = await unlinkAlerts(tx, actor, before, input.remove_alert_ids);
      const row = await this.load(tx, actor, id);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'incident',
        objectId: id,
        objectRepr: row.title,
        companyId: row.company_id,
        before: audited(before),
        after: {
          ...audited(row),
          ...(linked.length ? { linked_alert_ids: linked } : {}),
          ...(unlinked.length ? { unlinked_alert_ids: unlinked } : {}),
        },
      });
      return { row, changedAlerts: [...linked, ...unlinked] };
    });
    await this.live.publish([
      ...liveEvents('incident.updated', [after.row]),
      ...liveEvents(
        'alert.updated',
        after.changedAlerts.map((alertId) => ({ id: alertId, company_id: after.row.company_id })),
      ),
    ]);
    return after.row;
  }

  async comment(actor: Actor, audit: AuditContext, id: number, body: string): Promise<IncidentDetail> {
    const incident = await this.db.transaction(async (tx) => {
      const row = await this.load(tx, actor, id);
      await addTimeline(tx, [
        {
          companyId: row.company_id,
          incidentId: id,
          kind: 'comment',
          userId: actor.userId,
          username: actor.username,
          body,
        },
      ]);
      await recordAudit(tx, audit, {
        action: 'comment',
        objectType: 'incident',
        objectId: id,
        objectRepr: row.title,
        companyId: row.company_id,
        after: { comment: body.slice(0, 200) },
      });
      return row;
    });
    await this.live.publish(liveEvents('incident.updated', [incident]));
    return incidentDetail(this.db, incident);
  }

  /** One task of an incident in the caller's scope. */
  async task(actor: Actor, id: number, taskId: number): Promise<IncidentTask> {
    const task = await findTask(this.db, await this.load(this.db, actor, id), taskId);
    if (!task) throw notFound();
    return task;
  }

  async addTask(actor: Actor, audit: AuditContext, id: number, input: TaskCreate): Promise<IncidentTask> {
    return this.db.transaction(async (tx) => {
      const row = await this.load(tx, actor, id);
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, row.company_id))) throw cannotWork();
      const created = await insertTask(tx, row, input);
      await addTimeline(tx, [
        {
          companyId: row.company_id,
          incidentId: id,
          kind: 'task',
          userId: actor.userId,
          username: actor.username,
          data: { task_id: created.id, title: created.title },
        },
      ]);
      await recordAudit(tx, audit, {
        action: 'create',
        objectType: 'incident_task',
        objectId: created.id,
        objectRepr: created.title,
        companyId: row.company_id,
        after: { ...created },
      });
      return created;
    });
  }

  async updateTask(
    actor: Actor,
    audit: AuditContext,
    id: number,
    taskId: number,
    input: TaskUpdate,
  ): Promise<IncidentTask> {
    return this.db.transaction(async (tx) => {
      const row = await this.load(tx, actor, id);
      const before = await findTask(tx, row, taskId);
      if (!before) throw notFound();
      if (input.assignee_id && !(await assignable(tx, input.assignee_id, row.company_id))) throw cannotWork();
      const after = await updateTask(tx, row, before, input);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'incident_task',
        objectId: taskId,
        objectRepr: after.title,
        companyId: row.company_id,
        before: { ...before },
        after: { ...after },
      });
      return after;
    });
  }

  /** Grouping rules of one company in the caller's scope. */
  async grouping(actor: Actor, companyId: number): Promise<IncidentGrouping> {
    if (!(await findCompany(this.db, actor.scope, companyId))) throw notFound();
    return (await findGrouping(this.db, companyId)) ?? defaultGrouping;
  }

  async setGrouping(
    actor: Actor,
    audit: AuditContext,
    companyId: number,
    input: IncidentGrouping,
  ): Promise<IncidentGrouping> {
    return this.db.transaction(async (tx) => {
      if (!(await findCompany(tx, actor.scope, companyId))) throw notFound();
      const before = await findGrouping(tx, companyId);
      await saveGrouping(tx, companyId, input);
      await recordAudit(tx, audit, {
        action: 'update',
        objectType: 'incident_grouping',
        objectId: companyId,
        objectRepr: null,
        companyId,
        before,
        after: input,
      });
      return input;
    });
  }
}
