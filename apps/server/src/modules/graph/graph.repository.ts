import {
  graphNodeId,
  type GraphAnswer,
  type GraphEdgeKind,
  type GraphExpandAnswer,
  type GraphNodeKind,
  type GraphWindow,
} from '@vigil/contract';
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

const observableKinds: Record<string, GraphNodeKind> = {
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
async function mailsWithAttachments(db: Queryable, companyId: number, where: SqlFragment): Promise<MailRelationRow[]> {
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

// ---------------------------------------------------------------------------------------------
// Expansion: the neighbours of one node, each relation aggregated in SQL over the time window.
// ---------------------------------------------------------------------------------------------

/** One relation of the expanded node to a neighbour. */
interface NeighbourRow {
  nkind: GraphNodeKind;
  nvalue: string;
  ekind: GraphEdgeKind;
  /** true: expanded node → neighbour; false: neighbour → expanded node. */
  outgoing: boolean;
  cnt: number;
  first_seen: Date | null;
  last_seen: Date | null;
  nlabel: string | null;
  ndata: Record<string, unknown> | null;
  total: number;
}

interface ExpandContext {
  access: GraphAccess;
  /** Tenant condition on `e.company_id` (scope and, when given, the one company). */
  company: (column: SqlFragment) => SqlFragment;
  from: string;
  to: string;
}

/**
 * A relation read from one event table, grouped by the neighbour: `neighbour` is the SQL value
 * of the neighbour, `match` the condition on the expanded node.
 */
function grouped(
  ctx: ExpandContext,
  table: 'network_events' | 'endpoint_events',
  nkind: GraphNodeKind,
  neighbour: SqlFragment,
  ekind: GraphEdgeKind,
  outgoing: boolean,
  match: SqlFragment,
): SqlFragment {
  return sql`
    SELECT ${nkind}::text AS nkind, ${neighbour} AS nvalue, ${ekind}::text AS ekind, ${outgoing}::boolean AS outgoing,
      count(*) AS cnt, min(e.ts) AS first_seen, max(e.ts) AS last_seen, NULL::text AS nlabel, NULL::jsonb AS ndata
    FROM ${sql.ident(table)} e
    WHERE ${ctx.company(sql`e.company_id`)} AND e.ts >= ${ctx.from}::timestamptz AND e.ts <= ${ctx.to}::timestamptz
      AND ${match} AND ${neighbour} IS NOT NULL AND ${neighbour} <> ''
    GROUP BY 2`;
}

/** Alerts in the window that carry the observable. */
function alertsWith(ctx: ExpandContext, kind: string, value: string): SqlFragment {
  const containing = JSON.stringify([{ kind, value }]);
  return sql`
    SELECT 'alert'::text AS nkind, a.id::text AS nvalue, 'observed'::text AS ekind, false AS outgoing,
      a.count AS cnt, a.first_seen, a.last_seen, ('#' || a.id || ' ' || left(a.title, 70)) AS nlabel,
      jsonb_build_object('title', a.title, 'severity', a.severity, 'status', a.status, 'source', a.source,
        'company_id', a.company_id, 'count', a.count, 'first_seen', a.first_seen, 'last_seen', a.last_seen) AS ndata
    FROM alerts a
    WHERE ${ctx.company(sql`a.company_id`)} AND a.last_seen >= ${ctx.from}::timestamptz
      AND a.first_seen <= ${ctx.to}::timestamptz AND a.observables @> ${containing}::jsonb`;
}

/** Mail messages found by a condition on `m`, as neighbours. */
function mailsWhere(ctx: ExpandContext, ekind: GraphEdgeKind, match: SqlFragment): SqlFragment {
  return sql`
    SELECT 'mail'::text AS nkind, m.id::text AS nvalue, ${ekind}::text AS ekind, false AS outgoing,
      1::int8 AS cnt, m.ts AS first_seen, m.ts AS last_seen, left(m.subject, 80) AS nlabel,
      jsonb_build_object('subject', m.subject, 'sender', m.sender, 'ts', m.ts) AS ndata
    FROM mail_messages m
    WHERE ${ctx.company(sql`m.company_id`)} AND m.ts >= ${ctx.from}::timestamptz AND m.ts <= ${ctx.to}::timestamptz
      AND ${match}`;
}

const lowerText = (column: SqlFragment) => sql`lower(${column})`;
const ipText = (column: SqlFragment) => sql`host(${column})`;

/** The relation queries that find the neighbours of a node of each kind. */
function neighbourQueries(ctx: ExpandContext, kind: GraphNodeKind, value: string): SqlFragment[] {
  const { access } = ctx;
  const parts: SqlFragment[] = [];
  const net = (...q: SqlFragment[]) => access.network && parts.push(...q);
  const end = (...q: SqlFragment[]) => access.endpoint && parts.push(...q);
  const mail = (...q: SqlFragment[]) => access.mail && parts.push(...q);
  const N = 'network_events' as const;
  const E = 'endpoint_events' as const;
  switch (kind) {
    case 'ip': {
      const ip = sql`${value}::inet`;
      net(
        grouped(ctx, N, 'ip', ipText(sql`e.dest_ip`), 'flow', true, sql`e.src_ip = ${ip}`),
        grouped(ctx, N, 'ip', ipText(sql`e.src_ip`), 'flow', false, sql`e.dest_ip = ${ip}`),
        grouped(ctx, N, 'domain', lowerText(sql`e.dns_rrname`), 'dns', true, sql`e.src_ip = ${ip}`),
        grouped(ctx, N, 'domain', lowerText(sql`e.http_hostname`), 'http', true, sql`e.src_ip = ${ip}`),
        grouped(ctx, N, 'domain', lowerText(sql`e.tls_sni`), 'tls', true, sql`e.src_ip = ${ip}`),
        grouped(ctx, N, 'url', networkUrl, 'requested', true, sql`e.src_ip = ${ip}`),
        grouped(ctx, N, 'hash', lowerText(sql`e.file_sha256`), 'transferred', true, sql`e.src_ip = ${ip}`),
      );
      end(
        grouped(
          ctx,
          E,
          'process',
          sql`coalesce(e.process_name, e.host_name)`,
          'connected',
          false,
          sql`e.dest_ip = ${ip}`,
        ),
        grouped(
          ctx,
          E,
          'host',
          sql`e.host_name`,
          'has_address',
          false,
          sql`e.src_ip = ${ip} AND e.dest_ip IS NOT NULL`,
        ),
      );
      break;
    }
    case 'domain': {
      const d = value.toLowerCase();
      net(
        grouped(ctx, N, 'ip', ipText(sql`e.src_ip`), 'dns', false, sql`lower(e.dns_rrname) = ${d}`),
        grouped(ctx, N, 'ip', ipText(sql`e.src_ip`), 'http', false, sql`lower(e.http_hostname) = ${d}`),
        grouped(ctx, N, 'ip', ipText(sql`e.src_ip`), 'tls', false, sql`lower(e.tls_sni) = ${d}`),
      );
      end(
        grouped(
          ctx,
          E,
          'process',
          sql`coalesce(e.process_name, e.host_name)`,
          'dns',
          false,
          sql`lower(e.dns_question) = ${d}`,
        ),
      );
      break;
    }
    case 'url':
      net(grouped(ctx, N, 'ip', ipText(sql`e.src_ip`), 'requested', false, sql`${networkUrl} = ${value}`));
      mail(mailsWhere(ctx, 'link', sql`${value} = ANY(m.urls)`));
      break;
    case 'hash': {
      const h = value.toLowerCase();
      net(grouped(ctx, N, 'ip', ipText(sql`e.src_ip`), 'transferred', false, sql`e.file_sha256 = ${h}`));
      end(
        grouped(ctx, E, 'process', sql`e.process_name`, 'hash', false, sql`e.process_sha256 = ${h}`),
        grouped(ctx, E, 'file', sql`e.file_path`, 'hash', false, sql`e.file_sha256 = ${h}`),
      );
      mail(
        mailsWhere(
          ctx,
          'attachment',
          sql`EXISTS (SELECT 1 FROM mail_attachments t WHERE t.company_id = m.company_id AND t.sha256 = ${h}
            AND t.mail_id = m.id)`,
        ),
      );
      break;
    }
    case 'host':
      end(
        grouped(ctx, E, 'user', sql`e.user_name`, 'logon', true, sql`e.host_name = ${value}`),
        grouped(ctx, E, 'process', sql`e.process_name`, 'ran', true, sql`e.host_name = ${value}`),
        grouped(
          ctx,
          E,
          'ip',
          ipText(sql`e.src_ip`),
          'has_address',
          true,
          sql`e.host_name = ${value} AND e.dest_ip IS NOT NULL`,
        ),
        grouped(
          ctx,
          E,
          'file',
          sql`e.file_path`,
          'wrote',
          true,
          sql`e.host_name = ${value} AND e.process_name IS NULL`,
        ),
      );
      break;
    case 'user':
      end(grouped(ctx, E, 'host', sql`e.host_name`, 'logon', false, sql`e.user_name = ${value}`));
      break;
    case 'process':
      end(
        grouped(ctx, E, 'host', sql`e.host_name`, 'ran', false, sql`e.process_name = ${value}`),
        grouped(ctx, E, 'process', sql`e.parent_name`, 'spawned', false, sql`e.process_name = ${value}`),
        grouped(ctx, E, 'process', sql`e.process_name`, 'spawned', true, sql`e.parent_name = ${value}`),
        grouped(ctx, E, 'hash', lowerText(sql`e.process_sha256`), 'hash', true, sql`e.process_name = ${value}`),
        grouped(ctx, E, 'file', sql`e.file_path`, 'wrote', true, sql`e.process_name = ${value}`),
        grouped(ctx, E, 'ip', ipText(sql`e.dest_ip`), 'connected', true, sql`e.process_name = ${value}`),
        grouped(ctx, E, 'domain', lowerText(sql`e.dns_question`), 'dns', true, sql`e.process_name = ${value}`),
      );
      break;
    case 'file':
      end(
        grouped(
          ctx,
          E,
          'process',
          sql`coalesce(e.process_name, e.host_name)`,
          'wrote',
          false,
          sql`e.file_path = ${value}`,
        ),
        grouped(ctx, E, 'hash', lowerText(sql`e.file_sha256`), 'hash', true, sql`e.file_path = ${value}`),
      );
      break;
    case 'email': {
      const address = value.toLowerCase();
      mail(
        mailsWhere(ctx, 'sender', sql`lower(m.sender) = ${address}`),
        mailsWhere(ctx, 'recipient', sql`${address} = ANY(m.recipients)`),
      );
      break;
    }
    default:
      break;
  }
  const observable = Object.entries(observableKinds).find(([, k]) => k === kind)?.[0];
  if (observable) parts.push(alertsWith(ctx, observable, value));
  return parts;
}

/** The URL of an HTTP request as graph nodes name it (absolute when the host is known). */
const networkUrl = sql`CASE WHEN left(e.http_url, 1) = '/' AND e.http_hostname IS NOT NULL
  THEN 'http://' || lower(e.http_hostname) || e.http_url ELSE e.http_url END`;

/** The neighbours of a mail message: its sender, recipients, links and attachments (one lookup by id). */
async function expandMail(db: Queryable, ctx: ExpandContext, id: number, g: GraphBuilder): Promise<void> {
  if (!ctx.access.mail) return;
  const found = await db.query<{ company_id: number }>(sql`
    SELECT m.company_id FROM mail_messages m WHERE m.id = ${id} AND ${ctx.company(sql`m.company_id`)}`);
  const company = found.rows[0];
  if (!company) return;
  for (const m of await mailsWithAttachments(db, Number(company.company_id), sql`m.id = ${id}`)) addMail(g, m);
}

/** The graph of an alert or incident used as a neighbour list (expanding one of them). */
export type RootLoader = (kind: 'alert' | 'incident', id: number) => Promise<GraphAnswer | null>;

export interface ExpandInput {
  kind: GraphNodeKind;
  value: string;
  from: string;
  to: string;
  limit: number;
  companyId: number | undefined;
}

/** The neighbours of one node in the window, the `limit` most frequent relations first. */
export async function expandNode(
  db: Queryable,
  access: GraphAccess,
  input: ExpandInput,
  loadRoot: RootLoader,
): Promise<GraphExpandAnswer | null> {
  const { kind, value, limit } = input;
  const self = graphNodeId(kind, value);
  const around = { from: input.from, to: input.to };
  const ctx: ExpandContext = {
    access,
    from: input.from,
    to: input.to,
    company: (column) =>
      input.companyId === undefined
        ? tenantCondition(access.scope, column)
        : sql.and([tenantCondition(access.scope, column), sql`${column} = ${input.companyId}::int8`]),
  };
  if (kind === 'alert' || kind === 'incident') {
    const graph = await loadRoot(kind, Number(value));
    if (!graph) return null;
    if (input.companyId !== undefined && graph.company_id !== input.companyId) return null;
    return cutToLimit(self, around, graph.nodes, graph.edges, limit);
  }
  const g = new GraphBuilder();
  g.node(kind, value);
  if (kind === 'mail') {
    await expandMail(db, ctx, Number(value), g);
    const id = graphNodeId('mail', value);
    return cutToLimit(id, around, g.nodes(), g.edges(), limit);
  }
  const parts = neighbourQueries(ctx, kind, value);
  if (parts.length === 0)
    return { node: self, around, nodes: g.nodes(), edges: [], shown: 0, total: 0, truncated: false };
  const { rows } = await db.query<NeighbourRow>(sql`
    SELECT u.*, count(*) OVER () AS total FROM (${sql.join(parts, ' UNION ALL ')}) u
    ORDER BY u.cnt DESC, u.last_seen DESC NULLS LAST, u.nkind, u.nvalue
    LIMIT ${limit}`);
  const total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  for (const r of rows) {
    const other = g.node(r.nkind, r.nvalue, r.nlabel, r.ndata ?? {});
    const [source, target] = r.outgoing ? [self, other] : [other, self];
    g.edge(r.ekind, source, target, Number(r.cnt), r.first_seen, r.last_seen);
  }
  return {
    node: self,
    around,
    nodes: g.nodes(),
    edges: g.edges(),
    shown: rows.length,
    total,
    truncated: total > rows.length,
  };
}

/** Keeps the expanded node and its first `limit` neighbours of a prebuilt graph. */
function cutToLimit(
  self: string,
  around: GraphWindow,
  nodes: GraphExpandAnswer['nodes'],
  edges: GraphExpandAnswer['edges'],
  limit: number,
): GraphExpandAnswer {
  const others = nodes.filter((n) => n.id !== self);
  const kept = new Set([self, ...others.slice(0, limit).map((n) => n.id)]);
  return {
    node: self,
    around,
    nodes: nodes.filter((n) => kept.has(n.id)),
    edges: edges.filter((e) => kept.has(e.source) && kept.has(e.target)),
    shown: Math.min(others.length, limit),
    total: others.length,
    truncated: others.length > limit,
  };
}
