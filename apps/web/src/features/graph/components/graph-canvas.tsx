import cytoscape, { type Core, type ElementDefinition, type EventObject, type StylesheetJson } from 'cytoscape';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { GraphEdge, GraphNode } from '../api/graph';
import { FIT_PADDING, graphStylesheet, LARGE_GRAPH, layoutOptions, ringLayout } from '../lib/graph-style';
import type { Palette } from '../../../lib/theme/tokens';

/** What the toolbar can ask of the canvas. */
export interface GraphCanvasControls {
  fit(): void;
  zoomBy(factor: number): void;
  relayout(): void;
  /** Centres the view on a node. */
  focus(id: string): void;
}

export interface GraphCanvasProps {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  rootId: string | null;
  selectedId: string | null;
  expandedIds: ReadonlySet<string>;
  /** The node whose expansion brought the newest nodes: they are placed around it. */
  anchorId: string | null;
  palette: Palette;
  /** Text of an edge's hover label. */
  edgeLabel: (edge: GraphEdge) => string;
  onSelect: (id: string | null) => void;
  onExpand: (id: string) => void;
  label: string;
  controlsRef?: Ref<GraphCanvasControls>;
}

const weightOf = (count: number) => Math.min(1, Math.log10(count + 1) / 3);

function nodeElement(node: GraphNode, rootId: string | null): ElementDefinition {
  const severity = typeof node.data.severity === 'string' ? node.data.severity : '';
  return {
    group: 'nodes',
    data: { id: node.id, kind: node.kind, label: node.label, severity },
    classes: node.id === rootId ? 'root' : '',
  };
}

/** Positions around a point for nodes added by an expansion (rings of growing radius). */
function ringPositions(center: { x: number; y: number }, count: number): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  let ring = 0;
  let placed = 0;
  while (placed < count) {
    const radius = 110 + ring * 60;
    const capacity = Math.max(6, Math.floor((2 * Math.PI * radius) / 46));
    const inRing = Math.min(capacity, count - placed);
    for (let i = 0; i < inRing; i += 1) {
      const angle = (2 * Math.PI * i) / inRing + ring * 0.3;
      out.push({ x: center.x + radius * Math.cos(angle), y: center.y + radius * Math.sin(angle) });
    }
    placed += inRing;
    ring += 1;
  }
  return out;
}

/**
 * The cytoscape canvas. Elements are synchronised in one batch per change (added, removed,
 * relabelled) instead of rebuilding the graph; layouts never animate; big graphs use rings by
 * degree instead of the force layout, and keep a texture while panning.
 */
export function GraphCanvas(props: GraphCanvasProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const laidOutRoot = useRef<string | null>(null);
  const wasLarge = useRef(false);
  const markedExpanded = useRef<ReadonlySet<string>>(new Set());
  const latest = useRef(props);
  latest.current = props;

  // One cytoscape instance for the life of the page.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const cy = cytoscape({
      container,
      elements: [],
      style: graphStylesheet(latest.current.palette) as unknown as StylesheetJson,
      minZoom: 0.05,
      maxZoom: 4,
      textureOnViewport: true,
      hideEdgesOnViewport: true,
      boxSelectionEnabled: false,
      selectionType: 'single',
    });
    cyRef.current = cy;
    cy.on('tap', 'node', (event: EventObject) => latest.current.onSelect(event.target.id() as string));
    cy.on('tap', (event: EventObject) => {
      if (event.target === cy) latest.current.onSelect(null);
    });
    cy.on('dbltap', 'node', (event: EventObject) => latest.current.onExpand(event.target.id() as string));
    cy.on('mouseover', 'edge', (event: EventObject) => event.target.addClass('hover'));
    cy.on('mouseout', 'edge', (event: EventObject) => event.target.removeClass('hover'));
    cy.on('mouseover', 'node', (event: EventObject) => {
      event.target.connectedEdges().addClass('neighbour');
      container.style.cursor = 'pointer';
    });
    cy.on('mouseout', 'node', (event: EventObject) => {
      event.target.connectedEdges().removeClass('neighbour');
      container.style.cursor = '';
    });
    return () => {
      cy.destroy();
      cyRef.current = null;
    };
  }, []);

  // Re-style when the theme changes.
  useEffect(() => {
    cyRef.current?.style(graphStylesheet(props.palette) as unknown as StylesheetJson);
  }, [props.palette]);

  // Synchronise elements.
  const { nodes, edges, rootId, anchorId, edgeLabel } = props;
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const started = performance.now();
    const large = nodes.length > LARGE_GRAPH;
    const newRoot = laidOutRoot.current !== rootId;
    // Big graphs get their ring positions as they are added: no layout pass over thousands of nodes.
    const ring =
      newRoot && large
        ? ringLayout(
            nodes.map((n) => n.id),
            edges,
          )
        : null;
    const added: string[] = [];
    cy.batch(() => {
      // A new root starts from an empty canvas.
      if (newRoot) cy.elements().remove();
      const wanted = new Set<string>();
      const fresh: ElementDefinition[] = [];
      for (const node of nodes) {
        wanted.add(node.id);
        const existing = newRoot ? null : cy.getElementById(node.id);
        if (existing && existing.nonempty()) {
          if (existing.data('label') !== node.label) existing.data('label', node.label);
          continue;
        }
        const position = ring?.get(node.id);
        fresh.push(position ? { ...nodeElement(node, rootId), position } : nodeElement(node, rootId));
        added.push(node.id);
      }
      for (const edge of edges) {
        wanted.add(edge.id);
        const label = edgeLabel(edge);
        const existing = newRoot ? null : cy.getElementById(edge.id);
        if (existing && existing.nonempty()) {
          existing.data({ label, weight: weightOf(edge.count) });
          continue;
        }
        fresh.push({
          group: 'edges',
          data: { id: edge.id, source: edge.source, target: edge.target, label, weight: weightOf(edge.count) },
          classes: large ? '' : 'directed',
        });
      }
      if (!newRoot) {
        cy.elements()
          .filter((element) => !wanted.has(element.id()))
          .remove();
      }
      if (fresh.length > 0) cy.add(fresh);
      // Arrowheads only while the graph is small (crossing the line re-marks every edge once).
      if (!newRoot && large !== wasLarge.current) cy.edges().toggleClass('directed', !large);
    });
    wasLarge.current = large;
    if (nodes.length === 0) return;
    if (newRoot) {
      laidOutRoot.current = rootId;
      // Measured for bench/web-graph.ts: elements added, laid out and drawn once.
      const measure = () =>
        cy.one('render', () =>
          performance.measure('vigil-graph:first-layout', {
            start: started,
            end: performance.now(),
            detail: { nodes: nodes.length, edges: edges.length },
          }),
        );
      if (ring) {
        measure();
        cy.fit(undefined, FIT_PADDING);
        return;
      }
      const layout = cy.layout(layoutOptions(nodes.length, true) as unknown as cytoscape.LayoutOptions);
      layout.one('layoutstop', measure);
      layout.run();
      return;
    }
    if (added.length === 0) return;
    const anchor = anchorId ? cy.getElementById(anchorId) : null;
    const center = anchor && anchor.nonempty() ? anchor.position() : { x: 0, y: 0 };
    const positions = ringPositions(center, added.length);
    cy.batch(() => added.forEach((id, i) => cy.getElementById(id).position(positions[i]!)));
    if (!large) {
      cy.layout({ ...layoutOptions(nodes.length, false), fit: false } as unknown as cytoscape.LayoutOptions).run();
    }
  }, [nodes, edges, rootId, anchorId, edgeLabel]);

  // Selection and expanded marks follow the page's state.
  const { selectedId, expandedIds } = props;
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.batch(() => {
      const selected = cy.nodes(':selected');
      if (selected.length !== 1 || selected.first().id() !== selectedId) {
        selected.unselect();
        if (selectedId) cy.getElementById(selectedId).select();
      }
      // Only the nodes whose mark changed (a root graph of thousands is never walked whole).
      for (const id of markedExpanded.current) if (!expandedIds.has(id)) cy.getElementById(id).removeClass('expanded');
      for (const id of expandedIds) cy.getElementById(id).addClass('expanded');
    });
    markedExpanded.current = expandedIds;
  }, [selectedId, expandedIds, nodes]);

  useImperativeHandle(
    props.controlsRef,
    () => ({
      fit: () => cyRef.current?.fit(undefined, FIT_PADDING),
      zoomBy: (factor: number) => {
        const cy = cyRef.current;
        if (!cy) return;
        const level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), cy.zoom() * factor));
        cy.zoom({ level, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
      },
      relayout: () => {
        const cy = cyRef.current;
        if (!cy || cy.nodes().length === 0) return;
        if (cy.nodes().length > LARGE_GRAPH) {
          const positions = ringLayout(
            cy.nodes().map((n) => n.id()),
            cy.edges().map((e) => ({ source: e.source().id(), target: e.target().id() })),
          );
          cy.batch(() => cy.nodes().forEach((n) => void n.position(positions.get(n.id()) ?? { x: 0, y: 0 })));
        }
        cy.layout(layoutOptions(cy.nodes().length, true) as unknown as cytoscape.LayoutOptions).run();
      },
      focus: (id: string) => {
        const cy = cyRef.current;
        const node = cy?.getElementById(id);
        if (cy && node && node.nonempty()) cy.animate({ center: { eles: node }, duration: 200 });
      },
    }),
    [],
  );

  return <div ref={containerRef} className="vigil-graph__canvas" role="img" aria-label={props.label} />;
}
