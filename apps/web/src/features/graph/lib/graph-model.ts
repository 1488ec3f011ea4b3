import type { GraphNodeKind } from '@vigil/contract';
import type { GraphEdge, GraphExpansion, GraphNode, GraphRoot } from '../api/graph';

/** What one expansion found: answered relations, how many exist, whether some were left out. */
export interface ExpansionNote {
  shown: number;
  total: number;
  truncated: boolean;
  /** Neighbours this expansion added to the graph (not already there). */
  added: number;
}

/** The graph on screen: what the server answered, merged over expansions, minus what the analyst hid. */
export interface GraphModel {
  rootId: string | null;
  companyId: number | null;
  around: { from: string; to: string } | null;
  nodes: ReadonlyMap<string, GraphNode>;
  edges: ReadonlyMap<string, GraphEdge>;
  hidden: ReadonlySet<string>;
  expansions: ReadonlyMap<string, ExpansionNote>;
  /** Whether the root answer itself was cut (an incident with very many alerts or events). */
  truncated: boolean;
}

export const emptyModel: GraphModel = {
  rootId: null,
  companyId: null,
  around: null,
  nodes: new Map(),
  edges: new Map(),
  hidden: new Set(),
  expansions: new Map(),
  truncated: false,
};

export type GraphAction =
  | { type: 'load'; graph: GraphRoot }
  | { type: 'expand'; answer: GraphExpansion }
  | { type: 'hide'; id: string }
  | { type: 'showAll' };

function mergeNode(existing: GraphNode | undefined, incoming: GraphNode): GraphNode {
  if (!existing) return incoming;
  // The first label stays (the root answer names alerts and mail better than a bare expansion does).
  return { ...existing, data: { ...incoming.data, ...existing.data } };
}

/** The reducer behind the graph page. */
export function graphReducer(model: GraphModel, action: GraphAction): GraphModel {
  switch (action.type) {
    case 'load': {
      const g = action.graph;
      return {
        rootId: g.root,
        companyId: g.companyId,
        around: g.around,
        nodes: new Map(g.nodes.map((n) => [n.id, n])),
        edges: new Map(g.edges.map((e) => [e.id, e])),
        hidden: new Set(),
        expansions: new Map(),
        truncated: g.truncated,
      };
    }
    case 'expand': {
      const a = action.answer;
      const nodes = new Map(model.nodes);
      const hidden = new Set(model.hidden);
      let added = 0;
      for (const node of a.nodes) {
        if (!nodes.has(node.id)) added += 1;
        nodes.set(node.id, mergeNode(nodes.get(node.id), node));
        // Expanding brings a hidden neighbour back: the analyst asked to see what is around.
        hidden.delete(node.id);
      }
      const edges = new Map(model.edges);
      for (const edge of a.edges) edges.set(edge.id, edge);
      const expansions = new Map(model.expansions);
      expansions.set(a.node, { shown: a.shown, total: a.total, truncated: a.truncated, added });
      return { ...model, nodes, edges, hidden, expansions };
    }
    case 'hide': {
      if (action.id === model.rootId) return model;
      const hidden = new Set(model.hidden);
      hidden.add(action.id);
      return { ...model, hidden };
    }
    case 'showAll':
      return model.hidden.size === 0 ? model : { ...model, hidden: new Set() };
  }
}

/** The nodes and edges to draw: hidden nodes and the edges touching them are left out. */
export function visibleElements(model: GraphModel): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes = [...model.nodes.values()].filter((n) => !model.hidden.has(n.id));
  const edges = [...model.edges.values()].filter((e) => !model.hidden.has(e.source) && !model.hidden.has(e.target));
  return { nodes, edges };
}

/** Relations of one node among the visible edges. */
export function relationsOf(edges: readonly GraphEdge[], id: string): GraphEdge[] {
  return edges.filter((e) => e.source === id || e.target === id);
}

/** How many nodes of each kind are drawn (for the legend). */
export function countByKind(nodes: readonly GraphNode[]): Partial<Record<GraphNodeKind, number>> {
  const counts: Partial<Record<GraphNodeKind, number>> = {};
  for (const n of nodes) counts[n.kind] = (counts[n.kind] ?? 0) + 1;
  return counts;
}
