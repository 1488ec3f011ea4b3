import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { currentMigration } from '../../db/migrate';
import { route } from '../../http/endpoints';

/** `GET /api/health/`: is the database reachable, and at which migration. Open to all, maintenance or not. */
export async function registerHealth(app: FastifyInstance, deps: AppDeps): Promise<void> {
  route(app, endpoints.health.get, async ({ reply }) => {
    let reachable = true;
    let migration: string | null = null;
    try {
      migration = await currentMigration(deps.db);
    } catch {
      reachable = false;
    }
    const status = reachable ? 'ok' : 'degraded';
    reply.status(reachable ? 200 : 503);
    return { status, database: { reachable, kind: deps.db.kind, migration }, version: deps.version } as const;
  });
}
