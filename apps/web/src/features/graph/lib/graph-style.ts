import type { GraphNodeKind } from '@vigil/contract';
import type { Palette } from '../../../lib/theme/tokens';
import { severityColor } from '../../triage/badges';

/** Cytoscape node shapes used by the graph (a subset of what cytoscape draws). */
export type NodeShape =
  | 'diamond'
  | 'star'
  | 'round-rectangle'
  | 'ellipse'
  | 'hexagon'
  | 'round-triangle'
  | 'tag'
  | 'octagon'
  | 'rectangle'
  | 'round-pentagon'
  | 'barrel'
  | 'rhomboid';

/** How each kind of node looks: its shape and which of the theme's 17 chart colours it takes. */
export const nodeKindLook: Record<GraphNodeKind, { shape: NodeShape; chart: number }> = {
  alert: { shape: 'diamond', chart: 3 },
  incident: { shape: 'star', chart: 4 },
  host: { shape: 'round-rectangle', chart: 0 },
  user: { shape: 'ellipse', chart: 1 },
  ip: { shape: 'hexagon', chart: 5 },
  domain: { shape: 'round-triangle', chart: 2 },
  url: { shape: 'tag', chart: 7 },
  hash: { shape: 'octagon', chart: 8 },
  file: { shape: 'rectangle', chart: 6 },
  process: { shape: 'round-pentagon', chart: 9 },
  mail: { shape: 'barrel', chart: 10 },
  email: { shape: 'rhomboid', chart: 12 },
};

/** The colour of a kind of node in a palette. */
export const nodeKindColor = (palette: Palette, kind: GraphNodeKind): string =>
  palette.chart[nodeKindLook[kind].chart % palette.chart.length] ?? palette.primary;

/** A style block as cytoscape takes it (the properties are cytoscape's CSS-like names). */
export interface GraphStyleBlock {
  selector: string;
  style: Record<string, string | number>;
}

/**
 * The cytoscape stylesheet over a theme's palette. Cytoscape paints on a canvas, so it needs
 * colour values rather than CSS variables; the page rebuilds it when the theme changes.
 * Labels disappear below a readable size when zoomed out (min-zoomed-font-size), and edges show
 * their label only while hovered.
 */
export function graphStylesheet(palette: Palette): GraphStyleBlock[] {
  const blocks: GraphStyleBlock[] = [
    {
      selector: 'node',
      style: {
        width: 26,
        height: 26,
        'border-width': 1.5,
        'border-color': palette.surface[0],
        label: 'data(label)',
        color: palette.text.high,
        'font-family': 'Inter Variable, Inter, Segoe UI, Roboto, sans-serif',
        'font-size': 10,
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-max-width': '140px',
        'text-wrap': 'ellipsis',
        'text-outline-color': palette.background,
        'text-outline-width': 2,
        'min-zoomed-font-size': 7,
        'overlay-opacity': 0,
      },
    },
    {
      selector: 'edge',
      style: {
        width: 'mapData(weight, 0, 1, 1, 4)',
        'line-color': palette.secondary,
        'line-opacity': 0.4,
        'target-arrow-shape': 'triangle',
        'target-arrow-color': palette.secondary,
        'arrow-scale': 0.7,
        'curve-style': 'haystack',
        'haystack-radius': 0,
        'font-size': 9,
        color: palette.text.high,
        'text-background-color': palette.surface[3],
        'text-background-opacity': 1,
        'text-background-padding': '2px',
        'text-background-shape': 'round-rectangle',
        'text-rotation': 'autorotate',
        'min-zoomed-font-size': 6,
        'overlay-opacity': 0,
      },
    },
    // Arrows need a curve style that draws them; haystack is kept for big graphs (it is the fastest).
    { selector: 'edge.directed', style: { 'curve-style': 'straight' } },
    {
      selector: 'edge.hover',
      style: { label: 'data(label)', 'line-color': palette.primary, 'line-opacity': 1, 'z-index': 10 },
    },
    { selector: 'edge.neighbour', style: { 'line-color': palette.primary, 'line-opacity': 0.9 } },
  ];
  for (const [kind, look] of Object.entries(nodeKindLook) as [GraphNodeKind, (typeof nodeKindLook)[GraphNodeKind]][]) {
    blocks.push({
      selector: `node[kind = "${kind}"]`,
      style: { shape: look.shape, 'background-color': nodeKindColor(palette, kind) },
    });
  }
  for (const [severity, colour] of Object.entries(severityColor)) {
    blocks.push({
      selector: `node[kind = "alert"][severity = "${severity}"], node[kind = "incident"][severity = "${severity}"]`,
      style: { 'border-color': palette.status[colour], 'border-width': 3 },
    });
  }
  blocks.push(
    { selector: 'node.root', style: { width: 40, height: 40, 'font-size': 12, 'font-weight': 600 } },
    { selector: 'node.expanded', style: { 'border-style': 'double', 'border-width': 4 } },
    {
      selector: 'node:selected',
      style: { 'border-color': palette.primary, 'border-width': 4, 'overlay-opacity': 0, 'z-index': 20 },
    },
    { selector: 'node.faded, edge.faded', style: { opacity: 0.25 } },
    {
      selector: 'core',
      style: {
        'selection-box-color': palette.primary,
        'selection-box-border-color': palette.primary,
        'selection-box-opacity': 0.15,
        'active-bg-color': palette.primary,
        'active-bg-opacity': 0.1,
        'outside-texture-bg-color': palette.background,
      },
    },
  );
  return blocks;
}

/** Room kept around a fitted graph, so the toolbar and figures over the canvas do not cover nodes. */
export const FIT_PADDING = 56;

/** Graphs above this many nodes skip the force layout (too slow) and skip arrowheads. */
export const LARGE_GRAPH = 400;

/** Distance between neighbouring nodes of the ring arrangement, in model pixels. */
const RING_SPACING = 46;

/**
 * Positions for a big graph in one pass: the busiest nodes in the middle, the others on rings
 * around them in order of degree, each ring as full as its circumference allows. Cytoscape's own
 * concentric layout with overlap avoidance took seconds at 3,000 nodes; this takes milliseconds.
 */
export function ringLayout(
  nodeIds: readonly string[],
  edges: readonly { source: string; target: string }[],
): Map<string, { x: number; y: number }> {
  const degree = new Map<string, number>(nodeIds.map((id) => [id, 0]));
  for (const e of edges) {
    if (degree.has(e.source)) degree.set(e.source, degree.get(e.source)! + 1);
    if (degree.has(e.target)) degree.set(e.target, degree.get(e.target)! + 1);
  }
  const order = [...nodeIds].sort((a, b) => degree.get(b)! - degree.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  const positions = new Map<string, { x: number; y: number }>();
  let placed = 0;
  let ring = 0;
  while (placed < order.length) {
    const radius = ring * RING_SPACING * 1.4;
    const capacity = ring === 0 ? 1 : Math.floor((2 * Math.PI * radius) / RING_SPACING);
    const count = Math.min(capacity, order.length - placed);
    for (let i = 0; i < count; i += 1) {
      const angle = (2 * Math.PI * i) / count + ring * 0.5;
      positions.set(order[placed + i]!, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    }
    placed += count;
    ring += 1;
  }
  return positions;
}

/**
 * Layout options: a force layout for small graphs; big ones are placed by `ringLayout` and shown
 * with the preset layout. Never animated.
 */
export function layoutOptions(nodeCount: number, randomize: boolean): Record<string, unknown> {
  if (nodeCount > LARGE_GRAPH) return { name: 'preset', animate: false, fit: true, padding: FIT_PADDING };
  return {
    name: 'cose',
    animate: false,
    fit: true,
    padding: FIT_PADDING,
    randomize,
    nodeDimensionsIncludeLabels: false,
    numIter: nodeCount > 150 ? 600 : 1200,
    idealEdgeLength: () => 90,
    nodeRepulsion: () => 9000,
    edgeElasticity: () => 80,
    gravity: 0.6,
    componentSpacing: 60,
  };
}
