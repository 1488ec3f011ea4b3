import {
  matcherActionSchema,
  matcherConditionsSchema,
  type MatcherAction,
  type MatcherConditions,
} from '@vigil/contract';
import { z } from 'zod';
import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition } from '../../http/tenancy';
import { alertChangeRules, applyMatchedChanges } from '../alerts/alerts.service';
import { recordSystemAudits, type SystemAuditEntry } from '../audit/audit.service';
import { addTimeline, refreshIncidents } from '../incidents/incidents.repository';
import { enqueueJob } from '../jobs/jobs.queue';
import { liveEvents, type LiveEvent } from '../live/live.bus';
import { enqueueMail } from '../mail/mail.queue';
import { severityScore, type NewAlert } from '../pipeline/detections';

/** The job kind that POSTs a matcher's webhook. */
export const WEBHOOK_JOB_KIND = 'webhook';

interface MatcherRow {
  id: number;
  company_id: number;
  name: string;
  all_companies: boolean;
  conditions: unknown;
  actions: unknown;
}

interface LoadedMatcher {
  id: number;
  company_id: number;
  name: string;
  all_companies: boolean;
  conditions: MatcherConditions;
  actions: MatcherAction[];
}

const actionsSchema = z.array(matcherActionSchema);

/** Which alerts a matcher may change: those of its company, or of every company (or some) when it is for all. */
export interface MatcherScope {
  companyId: number;
  all_companies: boolean;
  conditions: MatcherConditions;
}

/** The companies whose alerts a matcher may change ('all': every company). */
export function companiesMatched(m: MatcherScope): readonly number[] | 'all' {
  if (!m.all_companies) return [m.companyId];
  return m.conditions.company_id ?? 'all';
}

/** Whether a new alert meets every condition of a matcher. */
export function matches(
  m: Pick<LoadedMatcher, 'company_id' | 'all_companies' | 'conditions'>,
  alert: NewAlert,
): boolean {
  const c = m.conditions;
  if (m.all_companies) {
    if (c.company_id && !c.company_id.includes(alert.company_id)) return false;
  } else if (m.company_id !== alert.company_id) return false;
  if (c.severity_at_least && alert.score < severityScore[c.severity_at_least]) return false;
  if (c.source && !c.source.includes(alert.source)) return false;
  const d = alert.detection;
  if (c.rule_id && !(d.type === 'rule' && c.rule_id.includes(d.ruleId))) return false;
  if (c.indicator_type && !(d.type === 'indicator' && c.indicator_type.includes(d.indicatorType))) return false;
  if (c.title_contains && !alert.title.toLowerCase().includes(c.title_contains.toLowerCase())) return false;
  if (c.observable_kind && !alert.observables.some((o) => c.observable_kind?.includes(o.kind))) return false;
  if (c.observable_value) {
    const wanted = new Set(c.observable_value.map((v) => v.toLowerCase()));
    if (!alert.observables.some((o) => wanted.has(o.value.toLowerCase()))) return false;
  }
  return true;
}

interface AlertChange {
  alert: NewAlert;
  severity?: NewAlert['severity'];
  assignee?: number;
  tags: string[];
  close?: boolean;
  incident?: number;
}

/**
 * Runs enabled matchers over the new alerts of a batch inside its transaction. Actions on the
 * alert (severity, assignee, tag, incident, close as benign) are applied with one UPDATE for the
 * batch; mail and webhooks are queued as jobs that run after commit (so a slow or failing webhook
 * never holds up ingest, and the job queue retries it). An action the rules of alert changes refuse
 * for this alert (a user who does not work on its company, an incident of another company) is not
 * done. Every action is recorded as a committed action with the alert it came from — applied,
 * queued, or skipped with the reason — and alert changes are audited as system changes.
 */
export async function applyMatchers(tx: Queryable, alerts: readonly NewAlert[]): Promise<{ live: LiveEvent[] }> {
  if (alerts.length === 0) return { live: [] };
  const companies = [...new Set(alerts.map((a) => a.company_id))];
  const { rows } = await tx.query<MatcherRow>(sql`
    SELECT id, company_id, name, all_companies, conditions, actions FROM matchers
    WHERE enabled AND (${tenantCondition({ companies }, sql`company_id`)} OR all_companies)
    ORDER BY position, id`);
  const matchers: LoadedMatcher[] = [];
  for (const row of rows) {
    const conditions = matcherConditionsSchema.safeParse(row.conditions);
    const actions = actionsSchema.safeParse(row.actions);
    if (conditions.success && actions.success) {
      matchers.push({ ...row, conditions: conditions.data, actions: actions.data });
    }
  }
  if (matchers.length === 0) return { live: [] };

  const committed: unknown[][] = [];
  const changes = new Map<number, AlertChange>();
  // The rules of every alert change, checked again as the matcher runs (users and incidents move
  // after a matcher is saved), once per user or incident and company in a batch.
  const refusals = new Map<string, string | null>();
  const refusalOf = async (key: string, check: () => Promise<string | null>) => {
    if (!refusals.has(key)) refusals.set(key, await check());
    return refusals.get(key) ?? null;
  };
  for (const alert of alerts) {
    for (const m of matchers) {
      if (!matches(m, alert)) continue;
      for (const action of m.actions) {
        const { type, ...params } = action;
        const companies = [alert.company_id];
        const refusal =
          action.type === 'assign'
            ? await refusalOf(`assign:${action.assignee_id}:${alert.company_id}`, () =>
                alertChangeRules.assignee(tx, action.assignee_id, companies),
              )
            : action.type === 'add_to_incident'
              ? await refusalOf(`incident:${action.incident_id}:${alert.company_id}`, () =>
                  alertChangeRules.incident(tx, action.incident_id, companies),
                )
              : null;
        if (refusal) {
          // Not done, and the committed actions say so and why.
          committed.push([alert.company_id, m.id, alert.id, type, params, 'skipped', null, refusal]);
          continue;
        }
        let jobId: number | null = null;
        if (action.type === 'notify_email' || action.type === 'notify_webhook') {
          jobId =
            action.type === 'notify_email'
              ? await enqueueMail(tx, {
                  to: action.to,
                  subject: `[Vigil] ${alert.severity.toUpperCase()} alert: ${alert.title}`.slice(0, 200),
                  text: `Matcher "${m.name}" matched alert #${alert.id} (${alert.severity}, ${alert.source}):\n\n${alert.title}\n`,
                })
              : await enqueueJob(tx, WEBHOOK_JOB_KIND, {
                  url: action.url,
                  body: {
                    event: 'alert.matched',
                    matcher: { id: m.id, name: m.name },
                    alert: {
                      id: alert.id,
                      company_id: alert.company_id,
                      title: alert.title,
                      severity: alert.severity,
                      source: alert.source,
                      observables: alert.observables.map((o) => ({ kind: o.kind, value: o.value })),
                    },
                  },
                });
        } else {
          const change = changes.get(alert.id) ?? { alert, tags: [] };
          if (action.type === 'set_severity') change.severity = action.severity;
          if (action.type === 'assign') change.assignee = action.assignee_id;
          if (action.type === 'add_tag' && !change.tags.includes(action.tag)) change.tags.push(action.tag);
          if (action.type === 'close_as_benign') change.close = true;
          if (action.type === 'add_to_incident') change.incident = action.incident_id;
          changes.set(alert.id, change);
        }
        committed.push([
          alert.company_id,
          m.id,
          alert.id,
          type,
          params,
          jobId === null ? 'applied' : 'queued',
          jobId,
          null,
        ]);
      }
    }
  }

  const live: LiveEvent[] = [];
  const list = [...changes.values()];
  if (list.length > 0) {
    const changed = await applyMatchedChanges(
      tx,
      list.map((c) => ({
        company_id: c.alert.company_id,
        id: c.alert.id,
        severity: c.severity,
        assignee: c.assignee,
        tags: c.tags,
        close: c.close,
        incident: c.incident,
      })),
    );
    const audits: SystemAuditEntry[] = changed.map((row) => ({
      companyId: row.company_id,
      action: 'matcher',
      objectType: 'alert',
      objectId: row.id,
      objectRepr: null,
      changes: Object.fromEntries(
        Object.entries({
          severity: row.severity,
          status: row.status,
          assignee_id: row.assignee_id,
          tags: row.tags,
          incident_id: row.incident_id,
        }).map(([k, v]) => [k, { before: null, after: v }]),
      ),
    }));
    await recordSystemAudits(tx, audits);
    const linked = changed.filter((r) => r.incident_id !== null && r.incident_id !== r.old_incident);
    const incidents = [
      ...new Map(
        linked.map((r) => [
          `${r.company_id}:${r.incident_id}`,
          { company_id: r.company_id, id: r.incident_id as number },
        ]),
      ).values(),
    ];
    await refreshIncidents(tx, incidents);
    await addTimeline(
      tx,
      linked.map((r) => ({
        companyId: r.company_id,
        incidentId: r.incident_id as number,
        kind: 'alert_linked',
        userId: null,
        username: 'system',
        data: { alert_id: r.id, by: 'matcher' },
      })),
    );
    live.push(...liveEvents('incident.updated', incidents));
  }
  if (committed.length > 0) {
    await bulkInsert(
      tx,
      'matcher_actions',
      [
        { name: 'company_id', type: 'int8' },
        { name: 'matcher_id', type: 'int8' },
        { name: 'alert_id', type: 'int8' },
        { name: 'action', type: 'text' },
        { name: 'params', type: 'jsonb' },
        { name: 'outcome', type: 'text' },
        { name: 'job_id', type: 'int8' },
        { name: 'reason', type: 'text' },
      ],
      committed,
    );
  }
  return { live };
}
