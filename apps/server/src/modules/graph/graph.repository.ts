import { graphNodeId, type GraphAnswer, type GraphNodeKind, type GraphWindow } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import {
  addEndpointEvent,
  addMail,
  addNetworkEvent,
  GraphBuilder,
  httpUrlOf,
  type EndpointRelationRow,
  type MailRelationRow,
  type NetworkRelationRow,
} from './graph-builder';

/** Alerts of one incident that one graph takes. */
export const MAX_ROOT_ALERTS = 500;
/** Linked events that one graph reads. */
export const MAX_ROOT_EVENTS = 3000;
/** Days either side of the root's activity that expansions look at by default. */
export const AROUND_DAYS = 7;
const DAY_MS = 86_400_000;

/** What the caller may see besides alerts: the events behind them and incidents. */
export interface GraphAccess {
  scope: TenantScope;
  network: boolean;
  endpoint: boolean;
  mail: boolean;
  incidents: boolean;
}

interface GraphAlertRow {
  id: number;
  company_id: number;
  title: string;
  severity: string;
  status: string;
  source: string;
  count: number;
  first_seen: Date;
  last_seen: Date;
  observables: { kind: string; value: string; role?: string }[];
  incident_id: number | null;
}

const alertColumns = sql`a.id, a.company_id, a.title, a.severity, a.status, a.source, a.count, a.first_seen,
  a.last_seen, a.observables, a.incident_id`;

interface IncidentNodeRow {
  id: number;
  company_id: number;
  title: string;
  severity: string;
  status: string;
}

/** Observable kinds of alerts and the graph node each becomes. */
export const observableKinds: Record<string, GraphNodeKind> = {
  ip: 'ip',
  host: 'host',
  user: 'user',
  hash: 'hash',
  domain: 'domain',
  url: 'url',
  email: 'email',
  file: 'file',
};

function alertData(a: GraphAlertRow): Record<string, unknown> {
  return {
    title: a.title,
    severity: a.severity,
    status: a.status,
    source: a.source,
    company_id: Number(a.company_id),
    count: Number(a.count),
    first_seen: a.first_seen.toISOString(),
    last_seen: a.last_seen.toISOString(),
  };
}

function incidentData(i: IncidentNodeRow): Record<string, unknown> {
  return { title: i.title, severity: i.severity, status: i.status, company_id: Number(i.company_id) };
}

/** An alert, its observables (`observed` edges) and its incident. */
function addAlert(g: GraphBuilder, a: GraphAlertRow, incidents: ReadonlyMap<number, IncidentNodeRow>): string {
  const alert = g.node('alert', a.id, `#${a.id} ${a.title}`.slice(0, 80), alertData(a)) as string;
  const httpHost = a.observables.find((o) => o.kind === 'domain' && o.role === 'http.hostname')?.value ?? null;
  for (const o of a.observables) {
    const kind = observableKinds[o.kind];
    if (!kind) continue;
    const value = kind === 'url' && o.role === 'http.url' ? httpUrlOf(httpHost, o.value) : o.value;
    g.edge('observed', alert, g.node(kind, value), Number(a.count), a.first_seen, a.last_seen);
  }
  const incident = a.incident_id === null ? undefined : incidents.get(Number(a.incident_id));
  if (incident) {
    const node = g.node(
      'incident',
      incident.id,
      `#${incident.id} ${incident.title}`.slice(0, 80),
      incidentData(incident),
    );
    g.edge('member_of', alert, node, 1, a.first_seen, a.last_seen);
  }
  return alert;
}

async function incidentsById(db: Queryable, companyId: number, ids: number[]): Promise<Map<number, IncidentNodeRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<IncidentNodeRow>(sql`
    SELECT i.id, i.company_id, i.title, i.severity, i.status FROM incidents i
    WHERE i.company_id = ${companyId} AND i.id = ANY(${ids}::int8[])`);
  return new Map(rows.map((r) => [Number(r.id), r]));
}

const networkColumns = sql`e.ts, host(e.src_ip) AS src_ip, host(e.dest_ip) AS dest_ip, e.dns_rrname, e.http_hostname,
  e.http_url, e.tls_sni, e.file_sha256`;
const endpointColumns = sql`e.ts, e.host_name, e.user_name, e.process_name, e.parent_name, e.process_sha256, e.file_path,
  e.file_sha256, host(e.src_ip) AS src_ip, host(e.dest_ip) AS dest_ip, e.dns_question`;

/** Mail messages with their attachments' hashes. */
export async function mailsWithAttachments(
  db: Queryable,
  companyId: number,
  where: SqlFragment,
): Promise<MailRelationRow[]> {
  const { rows } = await db.query<Omit<MailRelationRow, 'attachments'>>(sql`
    SELECT m.id, m.ts, m.subject, m.sender, m.recipients, m.urls FROM mail_messages m
    WHERE m.company_id = ${companyId} AND ${where}`);
  if (rows.length === 0) return [];
  const attachments = await db.query<{ mail_id: number; sha256: string; filename: string | null }>(sql`
    SELECT a.mail_id, a.sha256, a.filename FROM mail_attachments a
    WHERE a.company_id = ${companyId} AND a.mail_id = ANY(${rows.map((r) => Number(r.id))}::int8[])`);
  const byMail = new Map<number, { sha256: string; filename: string | null }[]>();
  for (const a of attachments.rows) {
    const list = byMail.get(Number(a.mail_id)) ?? [];
    list.push({ sha256: a.sha256, filename: a.filename });
    byMail.set(Number(a.mail_id), list);
  }
  return rows.map((r) => ({ ...r, id: Number(r.id), attachments: byMail.get(Number(r.id)) ?? [] }));
}

/** Adds the events linked to the alerts; answers whether more were linked than one graph reads. */
async function addLinkedEvents(
  db: Queryable,
  g: GraphBuilder,
  access: GraphAccess,
  companyId: number,
  alertIds: number[],
): Promise<boolean> {
  const kinds = [access.network && 'network', access.endpoint && 'endpoint', access.mail && 'mail'].filter(
    (k): k is string => typeof k === 'string',
  );
  if (alertIds.length === 0 || kinds.length === 0) return false;
  const { rows } = await db.query<{
    alert_id: number;
    event_kind: 'network' | 'endpoint' | 'mail';
    event_id: number;
    ts: Date;
  }>(sql`
    SELECT DISTINCT ON (event_kind, event_id) alert_id, event_kind, event_id, ts FROM alert_events
    WHERE company_id = ${companyId} AND alert_id = ANY(${alertIds}::int8[]) AND event_kind = ANY(${kinds}::text[])
    ORDER BY event_kind, event_id
    LIMIT ${MAX_ROOT_EVENTS + 1}`);
  const truncated = rows.length > MAX_ROOT_EVENTS;
  const refs = rows.slice(0, MAX_ROOT_EVENTS);
  const pick = (kind: string) => {
    const chosen = refs.filter((r) => r.event_kind === kind);
    return { ts: chosen.map((r) => r.ts.toISOString()), ids: chosen.map((r) => Number(r.event_id)) };
  };
  // Each ref carries ts, so the lookup reads only the partitions holding the events.
  const network = pick('network');
  if (network.ids.length > 0) {
    const events = await db.query<NetworkRelationRow>(sql`
      SELECT ${networkColumns} FROM network_events e
      JOIN unnest(${network.ts}::timestamptz[], ${network.ids}::int8[]) AS r(ts, id) ON e.ts = r.ts AND e.id = r.id
      WHERE e.company_id = ${companyId}`);
    for (const e of events.rows) addNetworkEvent(g, e);
  }
  const endpoint = pick('endpoint');
  if (endpoint.ids.length > 0) {
    const events = await db.query<EndpointRelationRow>(sql`
      SELECT ${endpointColumns} FROM endpoint_events e
      JOIN unnest(${endpoint.ts}::timestamptz[], ${endpoint.ids}::int8[]) AS r(ts, id) ON e.ts = r.ts AND e.id = r.id
      WHERE e.company_id = ${companyId}`);
    for (const e of events.rows) addEndpointEvent(g, e);
  }
  const mail = pick('mail');
  if (mail.ids.length > 0) {
    const byMail = new Map(
      refs.filter((r) => r.event_kind === 'mail').map((r) => [Number(r.event_id), Number(r.alert_id)]),
    );
    const messages = await mailsWithAttachments(db, companyId, sql`m.id = ANY(${mail.ids}::int8[])`);
    for (const m of messages) {
      const node = addMail(g, m);
      const alertId = byMail.get(m.id);
      if (alertId !== undefined) g.edge('observed', graphNodeId('alert', String(alertId)), node, 1, m.ts);
    }
  }
  return truncated;
}

/** The window expansions default to: the activity ± 7 days, at most GRAPH_EXPAND_MAX_DAYS long. */
export function windowAround(first: Date, last: Date, maxDays: number): GraphWindow {
  const to = last.getTime() + AROUND_DAYS * DAY_MS;
  const from = Math.max(first.getTime() - AROUND_DAYS * DAY_MS, to - maxDays * DAY_MS);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** The graph of one alert in scope, or null when the caller cannot see it. */
export async function alertGraph(
  db: Queryable,
  access: GraphAccess,
  id: number,
  maxDays: number,
): Promise<GraphAnswer | null> {
  const { rows } = await db.query<GraphAlertRow>(sql`
    SELECT ${alertColumns} FROM alerts a WHERE a.id = ${id} AND ${tenantCondition(access.scope, sql`a.company_id`)}`);
  const alert = rows[0];
  if (!alert) return null;
  const companyId = Number(alert.company_id);
  const g = new GraphBuilder();
  const incidents =
    access.incidents && alert.incident_id !== null
      ? await incidentsById(db, companyId, [Number(alert.incident_id)])
      : new Map<number, IncidentNodeRow>();
  const root = addAlert(g, alert, incidents);
  const truncated = await addLinkedEvents(db, g, access, companyId, [Number(alert.id)]);
  return {
    root,
    company_id: companyId,
    around: windowAround(alert.first_seen, alert.last_seen, maxDays),
    nodes: g.nodes(),
    edges: g.edges(),
    truncated,
  };
}

/** The graph of one incident in scope (its alerts and what they show), or null. */
export async function incidentGraph(
  db: Queryable,
  access: GraphAccess,
  id: number,
  maxDays: number,
): Promise<GraphAnswer | null> {
  const found = await db.query<IncidentNodeRow & { created_at: Date }>(sql`
    SELECT i.id, i.company_id, i.title, i.severity, i.status, i.created_at FROM incidents i
    WHERE i.id = ${id} AND ${tenantCondition(access.scope, sql`i.company_id`)}`);
  const incident = found.rows[0];
  if (!incident) return null;
  const companyId = Number(incident.company_id);
  const { rows } = await db.query<GraphAlertRow>(sql`
    SELECT ${alertColumns} FROM alerts a WHERE a.company_id = ${companyId} AND a.incident_id = ${incident.id}
    ORDER BY a.last_seen DESC, a.id DESC LIMIT ${MAX_ROOT_ALERTS + 1}`);
  const alerts = rows.slice(0, MAX_ROOT_ALERTS);
  const g = new GraphBuilder();
  const root = g.node(
    'incident',
    incident.id,
    `#${incident.id} ${incident.title}`.slice(0, 80),
    incidentData(incident),
  ) as string;
  const incidents = new Map([[Number(incident.id), incident]]);
  for (const a of alerts) addAlert(g, a, incidents);
  const eventsTruncated = await addLinkedEvents(
    db,
    g,
    access,
    companyId,
    alerts.map((a) => Number(a.id)),
  );
  const first = alerts.reduce((min, a) => (a.first_seen < min ? a.first_seen : min), incident.created_at);
  const last = alerts.reduce((max, a) => (a.last_seen > max ? a.last_seen : max), incident.created_at);
  return {
    root,
    company_id: companyId,
    around: windowAround(first, last, maxDays),
    nodes: g.nodes(),
    edges: g.edges(),
    truncated: rows.length > MAX_ROOT_ALERTS || eventsTruncated,
  };
}
