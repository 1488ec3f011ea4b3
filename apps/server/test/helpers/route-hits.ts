import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * Records which /api/ routes the API tests call, when `VIGIL_ROUTE_HITS_DIR` is set (the API test
 * script sets it for a whole run and then checks that every declared route was called at least once).
 * Each test app writes the routes it serves and the ones it answered, one file per app.
 */
export function recordRouteHits(app: FastifyInstance): () => void {
  const dir = process.env.VIGIL_ROUTE_HITS_DIR;
  if (!dir) return () => undefined;
  const hits = new Set<string>();
  app.addHook('onResponse', async (request) => {
    const url = request.routeOptions.url;
    if (url?.startsWith('/api/')) hits.add(`${request.method} ${url}`);
  });
  return () => {
    fs.mkdirSync(dir, { recursive: true });
    const served = app.guardedRoutes.filter((r) => r.declared).map((r) => `${r.method} ${r.url}`);
    const file = path.join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
    const all = app.guardedRoutes.map((r) => `${r.method} ${r.url}`);
    fs.writeFileSync(file, JSON.stringify({ served, all, hits: [...hits] }));
  };
}
