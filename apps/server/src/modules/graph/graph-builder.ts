import { graphNodeId, type GraphEdge, type GraphEdgeKind, type GraphNode, type GraphNodeKind } from '@vigil/contract';

/** Hashes, domains and mail addresses compare without case; the rest as written. */
export function normaliseValue(kind: GraphNodeKind, value: string): string {
  const trimmed = value.trim();
  if (kind === 'hash' || kind === 'domain' || kind === 'email') return trimmed.toLowerCase();
  return trimmed;
}

/** A short label for a node: hashes and long URLs are cut, file paths show their name. */
export function labelOf(kind: GraphNodeKind, value: string): string {
  if (kind === 'hash') return value.length > 16 ? `${value.slice(0, 12)}…` : value;
  if (kind === 'file') {
    const name = value.split(/[\\/]/).pop() ?? value;
    return name.length > 0 ? name : value;
  }
  if (kind === 'alert' || kind === 'incident' || kind === 'mail') return `#${value}`;
  return value.length > 60 ? `${value.slice(0, 57)}…` : value;
}

/** Which algorithm a lower-case hex digest is, by its length. */
export function hashAlgorithm(value: string): string | null {
  if (/^[0-9a-f]{32}$/.test(value)) return 'md5';
  if (/^[0-9a-f]{40}$/.test(value)) return 'sha1';
  if (/^[0-9a-f]{64}$/.test(value)) return 'sha256';
  return null;
}

interface EdgeAccumulator {
  kind: GraphEdgeKind;
  source: string;
  target: string;
  count: number;
  first: number | null;
  last: number | null;
}

const time = (value: Date | string | null | undefined): number | null => {
  if (value === null || value === undefined) return null;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
};

/**
 * Collects nodes and edges: the same entity or relation added twice is kept once, its counts
 * summed and its first/last seen widened.
 */
export class GraphBuilder {
  private readonly nodeMap = new Map<string, GraphNode>();
  private readonly edgeMap = new Map<string, EdgeAccumulator>();

  /** Adds (or enriches) a node and answers its id; empty values give null. */
  node(
    kind: GraphNodeKind,
    raw: string | number | null | undefined,
    label?: string | null,
    data: Record<string, unknown> = {},
  ): string | null {
    if (raw === null || raw === undefined) return null;
    const value = normaliseValue(kind, String(raw));
    if (value === '') return null;
    const id = graphNodeId(kind, value);
    const existing = this.nodeMap.get(id);
    if (existing) {
      Object.assign(existing.data, data);
      if (label) existing.label = label;
    } else {
      const extra = kind === 'hash' ? { algorithm: hashAlgorithm(value) } : {};
      this.nodeMap.set(id, { id, kind, value, label: label || labelOf(kind, value), data: { ...extra, ...data } });
    }
    return id;
  }

  has(id: string): boolean {
    return this.nodeMap.has(id);
  }

  /** Adds a relation seen `count` times between first and last; ignored when an end is missing or both are one. */
  edge(
    kind: GraphEdgeKind,
    source: string | null,
    target: string | null,
    count = 1,
    first?: Date | string | null,
    last?: Date | string | null,
  ): void {
    if (!source || !target || source === target) return;
    const id = `${kind}|${source}|${target}`;
    const f = time(first);
    const l = time(last ?? first);
    const existing = this.edgeMap.get(id);
    if (!existing) {
      this.edgeMap.set(id, { kind, source, target, count, first: f, last: l });
      return;
    }
    existing.count += count;
    if (f !== null) existing.first = existing.first === null ? f : Math.min(existing.first, f);
    if (l !== null) existing.last = existing.last === null ? l : Math.max(existing.last, l);
  }

  get nodeCount(): number {
    return this.nodeMap.size;
  }

  get edgeCount(): number {
    return this.edgeMap.size;
  }

  nodes(): GraphNode[] {
    return [...this.nodeMap.values()];
  }

  edges(): GraphEdge[] {
    return [...this.edgeMap.entries()].map(([id, e]) => ({
      id,
      source: e.source,
      target: e.target,
      kind: e.kind,
      count: e.count,
      first_seen: e.first === null ? null : new Date(e.first).toISOString(),
      last_seen: e.last === null ? null : new Date(e.last).toISOString(),
    }));
  }
}

/** Rows of network_events the graph reads. */
export interface NetworkRelationRow {
  ts: Date;
  src_ip: string | null;
  dest_ip: string | null;
  dns_rrname: string | null;
  http_hostname: string | null;
  http_url: string | null;
  tls_sni: string | null;
  file_sha256: string | null;
}

/** An HTTP request's URL: absolute when the event gave only the path and the host is known. */
export function httpUrlOf(hostname: string | null, url: string | null): string | null {
  if (!url) return null;
  if (url.startsWith('/') && hostname) return `http://${hostname.toLowerCase()}${url}`;
  return url;
}

/** The relations one network event shows: the flow, names the client asked for, a file it received. */
export function addNetworkEvent(g: GraphBuilder, e: NetworkRelationRow): void {
  const src = g.node('ip', e.src_ip);
  const dest = g.node('ip', e.dest_ip);
  g.edge('flow', src, dest, 1, e.ts);
  g.edge('dns', src, g.node('domain', e.dns_rrname), 1, e.ts);
  g.edge('http', src, g.node('domain', e.http_hostname), 1, e.ts);
  g.edge('tls', src, g.node('domain', e.tls_sni), 1, e.ts);
  g.edge('requested', src, g.node('url', httpUrlOf(e.http_hostname, e.http_url)), 1, e.ts);
  g.edge('transferred', src, g.node('hash', e.file_sha256), 1, e.ts);
}

/** Rows of endpoint_events the graph reads. */
export interface EndpointRelationRow {
  ts: Date;
  host_name: string | null;
  user_name: string | null;
  process_name: string | null;
  parent_name: string | null;
  process_sha256: string | null;
  file_path: string | null;
  file_sha256: string | null;
  src_ip: string | null;
  dest_ip: string | null;
  dns_question: string | null;
}

/** The relations one endpoint event shows: who was on the host, what ran, what it wrote and reached. */
export function addEndpointEvent(g: GraphBuilder, e: EndpointRelationRow): void {
  const host = g.node('host', e.host_name);
  const process = g.node('process', e.process_name);
  g.edge('logon', host, g.node('user', e.user_name), 1, e.ts);
  g.edge('ran', host, process, 1, e.ts);
  g.edge('spawned', g.node('process', e.parent_name), process, 1, e.ts);
  g.edge('hash', process, g.node('hash', e.process_sha256), 1, e.ts);
  const file = g.node('file', e.file_path);
  g.edge('wrote', process ?? host, file, 1, e.ts);
  g.edge('hash', file, g.node('hash', e.file_sha256), 1, e.ts);
  if (e.dest_ip) {
    g.edge('connected', process ?? host, g.node('ip', e.dest_ip), 1, e.ts);
    g.edge('has_address', host, g.node('ip', e.src_ip), 1, e.ts);
  }
  g.edge('dns', process ?? host, g.node('domain', e.dns_question), 1, e.ts);
}

/** A stored mail message and the hashes of its attachments. */
export interface MailRelationRow {
  id: number;
  ts: Date;
  subject: string | null;
  sender: string | null;
  recipients: string[];
  urls: string[];
  attachments: { sha256: string; filename: string | null }[];
}

/** The relations one mail message shows: sender, recipients, links and attachments. */
export function addMail(g: GraphBuilder, m: MailRelationRow): string | null {
  const mail = g.node('mail', m.id, m.subject ? m.subject.slice(0, 80) : null, {
    subject: m.subject,
    sender: m.sender,
    ts: m.ts.toISOString(),
  });
  g.edge('sender', mail, g.node('email', m.sender), 1, m.ts);
  for (const r of m.recipients) g.edge('recipient', mail, g.node('email', r), 1, m.ts);
  for (const u of m.urls) g.edge('link', mail, g.node('url', u), 1, m.ts);
  for (const a of m.attachments)
    g.edge('attachment', mail, g.node('hash', a.sha256, null, { filename: a.filename }), 1, m.ts);
  return mail;
}
