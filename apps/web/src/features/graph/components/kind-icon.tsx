import type { GraphNodeKind } from '@vigil/contract';
import { useVigilTheme } from '../../../lib/theme';
import { nodeKindColor, nodeKindLook, type NodeShape } from '../lib/graph-style';

/** The outline of each cytoscape shape in a 16×16 box, for the legend and lists. */
const outlines: Record<NodeShape, string> = {
  diamond: 'M8 1 L15 8 L8 15 L1 8 Z',
  star: 'M8 1 L9.9 5.6 L15 6 L11.1 9.3 L12.3 14.5 L8 11.7 L3.7 14.5 L4.9 9.3 L1 6 L6.1 5.6 Z',
  'round-rectangle': 'M4 2 H12 Q14 2 14 4 V12 Q14 14 12 14 H4 Q2 14 2 12 V4 Q2 2 4 2 Z',
  ellipse: 'M8 2 A6 6 0 1 1 7.99 2 Z',
  hexagon: 'M4.5 2 H11.5 L15 8 L11.5 14 H4.5 L1 8 Z',
  'round-triangle': 'M8 2 Q8.6 2 9 2.7 L14.6 12.6 Q15 14 13.6 14 H2.4 Q1 14 1.4 12.6 L7 2.7 Q7.4 2 8 2 Z',
  tag: 'M1 3 H11 L15 8 L11 13 H1 Z',
  octagon: 'M5 1 H11 L15 5 V11 L11 15 H5 L1 11 V5 Z',
  rectangle: 'M2 3 H14 V13 H2 Z',
  'round-pentagon': 'M8 1.5 L14.8 6.4 L12.2 14.5 H3.8 L1.2 6.4 Z',
  barrel: 'M3 2 H13 Q15.5 8 13 14 H3 Q0.5 8 3 2 Z',
  rhomboid: 'M4.5 2 H15 L11.5 14 H1 Z',
};

/** A node kind's shape in its colour, as the graph draws it. */
export function KindIcon({ kind, size = 16 }: { kind: GraphNodeKind; size?: number }) {
  const { palette } = useVigilTheme();
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" className="vigil-graph__kind-icon">
      <path d={outlines[nodeKindLook[kind].shape]} fill={nodeKindColor(palette, kind)} />
    </svg>
  );
}
