import { healthSchema } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { currentMigration } from '../../db/migrate';

/** `GET /api/health/`: is the database reachable, and at which migration. Open to all, maintenance or not. */
export async function registerHealth(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(
    '/api/health/',
    { config: { public: true, maintenanceOpen: true }, schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
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
    },
  );
}
