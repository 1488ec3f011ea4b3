import { graphNodeKinds } from '@vigil/contract/client';
import { describe, expect, it } from 'vitest';
import { palettes } from '../../../lib/theme/tokens';
import { nodePivot } from '../api/graph';
import { graphStylesheet, LARGE_GRAPH, layoutOptions, nodeKindColor, nodeKindLook, ringLayout } from './graph-style';

describe('graph style', () => {
  it('gives every kind of node its own shape and colour, from the theme chart colours', () => {
    const shapes = new Set(graphNodeKinds.map((k) => nodeKindLook[k].shape));
    expect(shapes.size).toBe(graphNodeKinds.length);
    for (const theme of ['light', 'dark'] as const) {
      const colours = graphNodeKinds.map((k) => nodeKindColor(palettes[theme], k));
      expect(new Set(colours).size).toBe(graphNodeKinds.length);
      for (const colour of colours) expect(palettes[theme].chart).toContain(colour);
    }
  });

  it('builds the stylesheet from the palette of the theme, so both themes differ', () => {
    const light = graphStylesheet(palettes.light);
    const dark = graphStylesheet(palettes.dark);
    const node = (sheet: typeof light) => sheet.find((b) => b.selector === 'node')!.style;
    expect(node(light).color).toBe(palettes.light.text.high);
    expect(node(dark).color).toBe(palettes.dark.text.high);
    expect(node(light)['min-zoomed-font-size']).toBeGreaterThan(0);
    for (const kind of graphNodeKinds) {
      expect(light.some((b) => b.selector === `node[kind = "${kind}"]`)).toBe(true);
    }
    // No CSS variables: cytoscape paints on a canvas and cannot resolve them.
    expect(JSON.stringify(dark)).not.toContain('var(');
  });

  it('lays small graphs out by force and big ones in rings, never animated', () => {
    expect(layoutOptions(50, true)).toMatchObject({ name: 'cose', animate: false, randomize: true });
    expect(layoutOptions(LARGE_GRAPH + 1, true)).toMatchObject({ name: 'preset', animate: false });
  });

  it('places every node of a big graph once, the busiest in the middle, without two on one spot', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `ip:10.0.${i >> 8}.${i & 255}`);
    // ids[0] is tied to every node, ids[1] to fifty more: they are the busiest two.
    const edges = [
      ...ids.slice(1).map((id) => ({ source: ids[0]!, target: id })),
      ...ids.slice(2, 52).map((id) => ({ source: ids[1]!, target: id })),
    ];
    const positions = ringLayout(ids, edges);
    expect(positions.size).toBe(ids.length);
    const spots = new Set([...positions.values()].map((p) => `${Math.round(p.x)},${Math.round(p.y)}`));
    expect(spots.size).toBe(ids.length);
    // ids[0] has the most relations: it sits in the centre.
    expect(positions.get(ids[0]!)).toEqual({ x: 0, y: 0 });
    const distance = (id: string) => Math.hypot(positions.get(id)!.x, positions.get(id)!.y);
    expect(distance(ids[1]!)).toBeLessThan(distance(ids[2999]!));
  });

  it('pivots each kind of node to the page that lists its events', () => {
    expect(nodePivot('ip', '10.0.0.5')).toBe('/investigation/network?ip=10.0.0.5');
    expect(nodePivot('host', 'WS-01')).toBe('/investigation/endpoint-events?host_name=WS-01');
    expect(nodePivot('hash', 'a'.repeat(64))).toBe(`/investigation/files?sha256=${'a'.repeat(64)}`);
    expect(nodePivot('hash', 'b'.repeat(32))).toBe(`/investigation/endpoint-events?hash=${'b'.repeat(32)}`);
    expect(nodePivot('alert', '17')).toBe('/alerts/17');
    expect(nodePivot('incident', '3')).toBe('/incidents/3');
    expect(nodePivot('mail', '9')).toBe('/investigation/emails/9');
  });
});
