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
import { tenantCondition } from '../../http/tenancy';
import { sameText } from '../../list/list-engine';
import { addMail, GraphBuilder } from './graph-builder';
import { mailsWithAttachments, observableKinds, type GraphAccess } from './graph.repository';

// Expansion: the neighbours of one node, each relation aggregated in SQL over the time window.

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
        grouped(ctx, E, 'user', sql`e.user_name`, 'logon', true, sameText(sql`e.host_name`, value)),
        grouped(ctx, E, 'process', sql`e.process_name`, 'ran', true, sameText(sql`e.host_name`, value)),
        grouped(
          ctx,
          E,
          'ip',
          ipText(sql`e.src_ip`),
          'has_address',
          true,
          sql`${sameText(sql`e.host_name`, value)} AND e.dest_ip IS NOT NULL`,
        ),
        grouped(
          ctx,
          E,
          'file',
          sql`e.file_path`,
          'wrote',
          true,
          sql`${sameText(sql`e.host_name`, value)} AND e.process_name IS NULL`,
        ),
      );
      break;
    case 'user':
      end(grouped(ctx, E, 'host', sql`e.host_name`, 'logon', false, sameText(sql`e.user_name`, value)));
      break;
    case 'process':
      end(
        grouped(ctx, E, 'host', sql`e.host_name`, 'ran', false, sameText(sql`e.process_name`, value)),
        grouped(ctx, E, 'process', sql`e.parent_name`, 'spawned', false, sameText(sql`e.process_name`, value)),
        grouped(ctx, E, 'process', sql`e.process_name`, 'spawned', true, sql`e.parent_name = ${value}`),
        grouped(ctx, E, 'hash', lowerText(sql`e.process_sha256`), 'hash', true, sameText(sql`e.process_name`, value)),
        grouped(ctx, E, 'file', sql`e.file_path`, 'wrote', true, sameText(sql`e.process_name`, value)),
        grouped(ctx, E, 'ip', ipText(sql`e.dest_ip`), 'connected', true, sameText(sql`e.process_name`, value)),
        grouped(ctx, E, 'domain', lowerText(sql`e.dns_question`), 'dns', true, sameText(sql`e.process_name`, value)),
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
