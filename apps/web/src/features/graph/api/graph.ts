import type {
  GraphAnswer,
  GraphEdge as GraphEdgeWire,
  GraphExpandAnswer,
  GraphNode as GraphNodeWire,
  GraphNodeKind,
} from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import { call, type Camelize } from '../../../lib/http';
import {
  alertUrl,
  endpointEventsUrl,
  filesUrl,
  graphUrl,
  incidentUrl,
  mailMessageUrl,
  mailUrl,
  networkEventsUrl,
} from '../../triage/pivots';

export type GraphRoot = Camelize<GraphAnswer>;
export type GraphExpansion = Camelize<GraphExpandAnswer>;
export type GraphNode = Camelize<GraphNodeWire>;
export type GraphEdge = Camelize<GraphEdgeWire>;

/** What the graph is about: an alert or an incident. */
export type RootRef = { kind: 'alert' | 'incident'; id: number };

export const graphKeys = {
  root: (root: RootRef) => ['graph', root.kind, root.id] as const,
  search: (kind: RootRef['kind'], text: string) => ['graph', 'search', kind, text] as const,
};

export const fetchGraph = (root: RootRef, signal?: AbortSignal) =>
  call(endpoints.graph.get, { query: root.kind === 'alert' ? { alert: root.id } : { incident: root.id }, signal });

export const expandGraphNode = (request: {
  node: { kind: GraphNodeKind; value: string };
  around?: { from: string; to: string };
  limit?: number;
  companyId?: number;
}) => call(endpoints.graph.expand, { body: request });

/** One alert or incident offered by the picker. */
export interface RootChoice {
  id: number;
  title: string;
  severity: string;
}

/** Alerts or incidents whose id or title matches what the analyst typed (most recent first, 20 at most). */
export async function searchRoots(kind: RootRef['kind'], text: string, signal?: AbortSignal): Promise<RootChoice[]> {
  const api = kind === 'alert' ? endpoints.alerts : endpoints.incidents;
  const trimmed = text.trim().replace(/^#/, '');
  const byId: Promise<RootChoice[]> = /^\d{1,15}$/.test(trimmed)
    ? call(api.get, { params: { id: Number(trimmed) }, signal, notifyErrors: false })
        .then((found) => [found])
        .catch(() => [])
    : Promise.resolve([]);
  const byText: Promise<RootChoice[]> = call(api.list, {
    query: { pageSize: 20 },
    body: trimmed ? { search: trimmed } : {},
    signal,
  }).then((page) => page.results);
  const [exact, listed] = await Promise.all([byId, byText]);
  const seen = new Set<number>();
  return [...exact, ...listed]
    .filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)))
    .map((item) => ({ id: item.id, title: item.title, severity: item.severity }));
}

/** Where a node leads in the rest of the console, or null. */
export function nodePivot(kind: GraphNodeKind, value: string): string | null {
  switch (kind) {
    case 'ip':
      return networkEventsUrl({ ip: value });
    case 'domain':
    case 'url':
      return networkEventsUrl({ search: value });
    case 'host':
      return endpointEventsUrl({ host_name: value });
    case 'user':
      return endpointEventsUrl({ user_name: value });
    case 'process':
    case 'file':
      return endpointEventsUrl({ search: value });
    case 'hash':
      return /^[0-9a-f]{64}$/.test(value) ? filesUrl({ sha256: value }) : endpointEventsUrl({ hash: value });
    case 'email':
      return mailUrl({ search: value });
    case 'mail':
      return mailMessageUrl(Number(value));
    case 'alert':
      return alertUrl(Number(value));
    case 'incident':
      return incidentUrl(Number(value));
    default:
      return null;
  }
}

/** The graph page of an alert or incident node (to make it the root). */
export const regraphUrl = (kind: GraphNodeKind, value: string): string | null =>
  kind === 'alert'
    ? graphUrl({ alert: Number(value) })
    : kind === 'incident'
      ? graphUrl({ incident: Number(value) })
      : null;
