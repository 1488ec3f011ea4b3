import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { tenantCondition } from '../../http/tenancy';
import { linkAlertsToIncidents, type AlertIncidentLink } from '../alerts/alerts.service';
import { recordSystemAudits } from '../audit/audit.service';
import { liveEvents, type LiveEvent } from '../live/live.bus';
import type { NewAlert } from '../pipeline/detections';
import { addTimeline, refreshIncidents } from './incidents.repository';

interface GroupingRow {
  company_id: number;
  by_host: boolean;
  by_user: boolean;
  window_minutes: number;
}

/** The grouping key of an alert under a company's rule: its first host, else its first user. */
export function groupKeyOf(alert: Pick<NewAlert, 'observables'>, rule: Pick<GroupingRow, 'by_host' | 'by_user'>) {
  const pick = (kind: string) =>
    alert.observables
      .find((o) => o.kind === kind)
      ?.value.trim()
      .toLowerCase();
  const host = rule.by_host ? pick('host') : undefined;
  if (host) return `host:${host}`;
  const user = rule.by_user ? pick('user') : undefined;
  if (user) return `user:${user}`;
  return null;
}

/**
 * Grouping rules, applied to the new alerts of a batch inside its transaction: an alert whose
 * company groups by host (or user) joins the open incident with the same key that was active
 * within the company's window, or a new incident made for that key. A few statements per batch.
 */
export async function groupNewAlerts(tx: Queryable, alerts: readonly NewAlert[]): Promise<{ live: LiveEvent[] }> {
  if (alerts.length === 0) return { live: [] };
  const companies = [...new Set(alerts.map((a) => a.company_id))];
  const rules = await tx.query<GroupingRow>(sql`
    SELECT company_id, by_host, by_user, window_minutes FROM incident_grouping
    WHERE enabled AND ${tenantCondition({ companies }, sql`company_id`)}`);
  if (rules.rows.length === 0) return { live: [] };
  const ruleOf = new Map(rules.rows.map((r) => [Number(r.company_id), r]));

  const keyed = new Map<string, { company_id: number; key: string; window: number; alerts: NewAlert[] }>();
  for (const alert of alerts) {
    const rule = ruleOf.get(alert.company_id);
    if (!rule) continue;
    const key = groupKeyOf(alert, rule);
    if (!key) continue;
    const id = `${alert.company_id}\u0000${key}`;
    const entry = keyed.get(id) ?? { company_id: alert.company_id, key, window: rule.window_minutes, alerts: [] };
    entry.alerts.push(alert);
    keyed.set(id, entry);
  }
  const groups = [...keyed.values()];
  if (groups.length === 0) return { live: [] };

  const existing = await tx.query<{ company_id: number; key: string; id: number }>(sql`
    SELECT DISTINCT ON (k.company_id, k.key) k.company_id, k.key, i.id
    FROM unnest(${groups.map((g) => g.company_id)}::int8[], ${groups.map((g) => g.key)}::text[],
                ${groups.map((g) => g.window)}::int4[]) AS k(company_id, key, win)
    JOIN incidents i ON i.company_id = k.company_id AND i.group_key = k.key
     AND i.status IN ('open', 'investigating', 'contained')
     AND i.updated_at >= now() - make_interval(mins => k.win)
    ORDER BY k.company_id, k.key, i.updated_at DESC`);
  const incidentOf = new Map(existing.rows.map((r) => [`${r.company_id}\u0000${r.key}`, Number(r.id)]));
  const missing = groups.filter((g) => !incidentOf.has(`${g.company_id}\u0000${g.key}`));
  const createdIncidents: { company_id: number; id: number }[] = [];
  if (missing.length > 0) {
    const titles = missing.map((g) => {
      const [kind, ...rest] = g.key.split(':');
      return `Activity of ${kind === 'host' ? 'host' : 'user'} ${rest.join(':')}`.slice(0, 300);
    });
    const severities = missing.map((g) => g.alerts.reduce((best, a) => (a.score > best.score ? a : best)).severity);
    const inserted = await tx.query<{ company_id: number; id: number; group_key: string }>(sql`
      INSERT INTO incidents (company_id, title, severity, group_key)
      SELECT * FROM unnest(${missing.map((g) => g.company_id)}::int8[], ${titles}::text[], ${severities}::text[],
                           ${missing.map((g) => g.key)}::text[])
      RETURNING company_id, id, group_key`);
    for (const row of inserted.rows) {
      incidentOf.set(`${row.company_id}\u0000${row.group_key}`, Number(row.id));
      createdIncidents.push({ company_id: Number(row.company_id), id: Number(row.id) });
    }
  }

  const links: AlertIncidentLink[] = [];
  for (const g of groups) {
    const incident = incidentOf.get(`${g.company_id}\u0000${g.key}`) as number;
    for (const a of g.alerts) links.push({ company_id: g.company_id, alert: a.id, incident });
  }
  await linkAlertsToIncidents(tx, links);
  const touched = [
    ...new Map(
      links.map((l) => [`${l.company_id}:${l.incident}`, { company_id: l.company_id, id: l.incident }]),
    ).values(),
  ];
  await refreshIncidents(tx, touched);
  await addTimeline(tx, [
    ...createdIncidents.map((i) => ({
      companyId: i.company_id,
      incidentId: i.id,
      kind: 'created',
      userId: null,
      username: 'system',
      data: { by: 'grouping rule' },
    })),
    ...links.map((l) => ({
      companyId: l.company_id,
      incidentId: l.incident,
      kind: 'alert_linked',
      userId: null,
      username: 'system',
      data: { alert_id: l.alert },
    })),
  ]);
  await recordSystemAudits(tx, [
    ...createdIncidents.map((i) => ({
      companyId: i.company_id,
      action: 'create',
      objectType: 'incident',
      objectId: i.id,
      objectRepr: 'grouping rule',
      changes: { status: { before: null, after: 'open' } },
    })),
    ...links.map((l) => ({
      companyId: l.company_id,
      action: 'group',
      objectType: 'alert',
      objectId: l.alert,
      objectRepr: null,
      changes: { incident_id: { before: null, after: l.incident } },
    })),
  ]);
  const createdSet = new Set(createdIncidents.map((i) => `${i.company_id}:${i.id}`));
  return {
    live: [
      ...liveEvents('incident.created', createdIncidents),
      ...liveEvents(
        'incident.updated',
        touched.filter((t) => !createdSet.has(`${t.company_id}:${t.id}`)),
      ),
    ],
  };
}
