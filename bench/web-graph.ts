/**
 * Graph page figures: the time from handing a graph of 3,000 nodes and 6,000 edges to the canvas
 * (the element batch) to its first drawn layout, in headless Chromium, on the built console (run `npm run build` first) served by a
 * real server started by the e2e harness. The graph answer is synthetic (the page's request for
 * /api/graph/ is answered by the bench), so the figure is the browser's work alone: React state,
 * the cytoscape batch, the layout chosen for a graph that size, and the first paint. It also checks
 * that the canvas really drew something and the accessible node table is there.
 *
 *   npx tsx bench/web-graph.ts
 *   BENCH_GRAPH_NODES=5000 BENCH_GRAPH_EDGES=10000 BENCH_GRAPH_RUNS=5 npx tsx bench/web-graph.ts
 *   BENCH_WEB_DIST=/tmp/dist npx tsx bench/web-graph.ts   # a console built elsewhere (vite build --outDir)
 */
import type { GraphAnswer, GraphEdge, GraphNode, GraphNodeKind } from '@vigil/contract';
import { ADMIN_PASSWORD, ADMIN_USERNAME, launchBrowser, startServer } from '../e2e/harness';
import { signInInPage } from '../e2e/helpers';

const NODES = Number(process.env.BENCH_GRAPH_NODES ?? 3000);
const EDGES = Number(process.env.BENCH_GRAPH_EDGES ?? 6000);
const RUNS = Number(process.env.BENCH_GRAPH_RUNS ?? 3);

/** A small deterministic generator, so every run draws the same graph. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const kinds: GraphNodeKind[] = ['ip', 'ip', 'ip', 'domain', 'host', 'user', 'hash', 'process', 'url', 'file'];

/** An alert at the centre, entities of every kind around it, each tied to an earlier one, plus random relations. */
export function syntheticGraph(nodeCount: number, edgeCount: number): GraphAnswer {
  const next = random(42);
  const nodes: GraphNode[] = [
    { id: 'alert:1', kind: 'alert', value: '1', label: '#1 ET MALWARE beacon', data: { severity: 'high' } },
  ];
  for (let i = 1; i < nodeCount; i += 1) {
    const kind = kinds[i % kinds.length]!;
    const value = kind === 'ip' ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `${kind}-${i}`;
    nodes.push({ id: `${kind}:${value}`, kind, value, label: value, data: {} });
  }
  const edges = new Map<string, GraphEdge>();
  const add = (source: string, target: string) => {
    const id = `flow|${source}|${target}`;
    if (source === target || edges.has(id)) return;
    edges.set(id, {
      id,
      source,
      target,
      kind: 'flow',
      count: 1 + Math.floor(next() * 50),
      first_seen: null,
      last_seen: null,
    });
  };
  for (let i = 1; i < nodeCount; i += 1) add(nodes[Math.floor(next() * i)]!.id, nodes[i]!.id);
  while (edges.size < edgeCount)
    add(nodes[Math.floor(next() * nodeCount)]!.id, nodes[Math.floor(next() * nodeCount)]!.id);
  return {
    root: 'alert:1',
    company_id: 1,
    around: { from: '2026-11-13T00:00:00.000Z', to: '2026-11-27T00:00:00.000Z' },
    nodes,
    edges: [...edges.values()],
    truncated: false,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const graph = syntheticGraph(NODES, EDGES);
  const body = JSON.stringify(graph);
  const server = await startServer(
    process.env.BENCH_WEB_DIST ? { env: { WEB_DIST_DIR: process.env.BENCH_WEB_DIST } } : {},
  );
  const browser = await launchBrowser();
  const layouts: number[] = [];
  const fromNavigation: number[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.route(
        (url) => url.pathname === '/api/graph/',
        (route) => route.fulfill({ status: 200, contentType: 'application/json', body }),
      );
      await page.goto(`${server.url}/login`);
      await signInInPage(page, ADMIN_USERNAME, ADMIN_PASSWORD);
      await page.goto(`${server.url}/graph?alert=1`);
      await page.waitForFunction(() => performance.getEntriesByName('vigil-graph:first-layout').length > 0, null, {
        timeout: 300_000,
      });
      const figures = await page.evaluate(() => {
        const entry = performance.getEntriesByName('vigil-graph:first-layout')[0] as PerformanceMeasure;
        // Pixels the node layer painted: proof that the canvas drew the graph, not just sized itself.
        let painted = 0;
        for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>('.vigil-graph__canvas canvas'))) {
          const context = canvas.getContext('2d');
          if (!context || canvas.width === 0) continue;
          const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 3; i < data.length; i += 16) if (data[i]! > 0) painted += 1;
        }
        return {
          layoutMs: entry.duration,
          fromNavigationMs: entry.startTime + entry.duration,
          detail: entry.detail as { nodes: number; edges: number },
          painted,
          stats: document.querySelector('[data-testid="graph-stats"]')?.textContent ?? '',
          rows: document.querySelectorAll('[data-testid="graph-node-list"] tbody tr').length,
        };
      });
      if (figures.detail.nodes !== NODES || figures.detail.edges !== graph.edges.length)
        throw new Error(`The page drew ${JSON.stringify(figures.detail)}, not the ${NODES} nodes it was given.`);
      if (figures.painted === 0) throw new Error('The graph canvas painted nothing.');
      if (figures.rows === 0) throw new Error('The accessible node table is empty.');
      layouts.push(figures.layoutMs);
      fromNavigation.push(figures.fromNavigationMs);
      console.log(
        `run ${run + 1}: ${figures.stats}; first layout drawn ${figures.layoutMs.toFixed(0)} ms after the answer ` +
          `(${figures.fromNavigationMs.toFixed(0)} ms from navigation), ${figures.painted} painted samples, ` +
          `${figures.rows} table rows`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(
    `graph of ${NODES} nodes / ${graph.edges.length} edges: first layout ${median(layouts).toFixed(0)} ms ` +
      `(median of ${RUNS}), ${median(fromNavigation).toFixed(0)} ms from navigation`,
  );
}

await main();
