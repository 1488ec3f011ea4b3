import { describe, expect, it } from 'vitest';
import type { GraphExpansion, GraphRoot } from '../api/graph';
import { countByKind, emptyModel, graphReducer, relationsOf, visibleElements } from './graph-model';

const root: GraphRoot = {
  root: 'alert:7',
  companyId: 3,
  around: { from: '2026-11-13T10:00:00.000Z', to: '2026-11-27T10:00:00.000Z' },
  truncated: false,
  nodes: [
    { id: 'alert:7', kind: 'alert', value: '7', label: '#7 Beacon', data: { severity: 'high' } },
    { id: 'ip:10.0.0.5', kind: 'ip', value: '10.0.0.5', label: '10.0.0.5', data: {} },
    { id: 'ip:203.0.113.9', kind: 'ip', value: '203.0.113.9', label: '203.0.113.9', data: {} },
  ],
  edges: [
    {
      id: 'observed|alert:7|ip:10.0.0.5',
      source: 'alert:7',
      target: 'ip:10.0.0.5',
      kind: 'observed',
      count: 1,
      firstSeen: null,
      lastSeen: null,
    },
    {
      id: 'flow|ip:10.0.0.5|ip:203.0.113.9',
      source: 'ip:10.0.0.5',
      target: 'ip:203.0.113.9',
      kind: 'flow',
      count: 4,
      firstSeen: null,
      lastSeen: null,
    },
  ],
};

const expansion: GraphExpansion = {
  node: 'ip:10.0.0.5',
  around: root.around,
  shown: 2,
  total: 9,
  truncated: true,
  nodes: [
    { id: 'ip:10.0.0.5', kind: 'ip', value: '10.0.0.5', label: '10.0.0.5', data: {} },
    { id: 'ip:203.0.113.9', kind: 'ip', value: '203.0.113.9', label: 'other label', data: { seen: true } },
    { id: 'domain:c2.example.org', kind: 'domain', value: 'c2.example.org', label: 'c2.example.org', data: {} },
  ],
  edges: [
    {
      id: 'flow|ip:10.0.0.5|ip:203.0.113.9',
      source: 'ip:10.0.0.5',
      target: 'ip:203.0.113.9',
      kind: 'flow',
      count: 6,
      firstSeen: null,
      lastSeen: null,
    },
    {
      id: 'dns|ip:10.0.0.5|domain:c2.example.org',
      source: 'ip:10.0.0.5',
      target: 'domain:c2.example.org',
      kind: 'dns',
      count: 2,
      firstSeen: null,
      lastSeen: null,
    },
  ],
};

describe('graph model', () => {
  it('loads a root answer and merges an expansion into it, noting what it found', () => {
    const loaded = graphReducer(emptyModel, { type: 'load', graph: root });
    expect(loaded.rootId).toBe('alert:7');
    expect(loaded.companyId).toBe(3);
    const expanded = graphReducer(loaded, { type: 'expand', answer: expansion });
    expect([...expanded.nodes.keys()].sort()).toEqual(
      ['alert:7', 'domain:c2.example.org', 'ip:10.0.0.5', 'ip:203.0.113.9'].sort(),
    );
    // A node already drawn keeps its label; its data gains what the expansion knew.
    expect(expanded.nodes.get('ip:203.0.113.9')).toMatchObject({ label: '203.0.113.9', data: { seen: true } });
    // The edge is replaced by the expansion's figure (its window may be wider).
    expect(expanded.edges.get('flow|ip:10.0.0.5|ip:203.0.113.9')?.count).toBe(6);
    expect(expanded.expansions.get('ip:10.0.0.5')).toEqual({ shown: 2, total: 9, truncated: true, added: 1 });
    expect(relationsOf([...expanded.edges.values()], 'ip:10.0.0.5')).toHaveLength(3);
  });

  it('hides a node with its edges, never the root, and shows them all again', () => {
    let model = graphReducer(emptyModel, { type: 'load', graph: root });
    model = graphReducer(model, { type: 'hide', id: 'ip:203.0.113.9' });
    model = graphReducer(model, { type: 'hide', id: 'alert:7' });
    const visible = visibleElements(model);
    expect(visible.nodes.map((n) => n.id).sort()).toEqual(['alert:7', 'ip:10.0.0.5']);
    expect(visible.edges.map((e) => e.kind)).toEqual(['observed']);
    expect(countByKind(visible.nodes)).toEqual({ alert: 1, ip: 1 });
    // Expanding a neighbour of a hidden node brings it back.
    const back = graphReducer(model, { type: 'expand', answer: expansion });
    expect(back.hidden.has('ip:203.0.113.9')).toBe(false);
    model = graphReducer(model, { type: 'showAll' });
    expect(visibleElements(model).nodes).toHaveLength(3);
  });

  it('starts over when another root is loaded', () => {
    let model = graphReducer(emptyModel, { type: 'load', graph: root });
    model = graphReducer(model, { type: 'expand', answer: expansion });
    model = graphReducer(model, { type: 'load', graph: { ...root, root: 'alert:8', nodes: [], edges: [] } });
    expect(model.nodes.size).toBe(0);
    expect(model.expansions.size).toBe(0);
  });
});
