import Fastify, { type FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { currentMigration } from '../../db/migrate';
import { installSecurityHeaders } from '../web/security-headers';
import { registerWeb } from '../web/web.routes';
import { installMaintenanceGuard } from './maintenance.guard';

/** A small server that holds the port while the real one cannot answer yet. */
export interface MigrationGate {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on the server's address from the moment the database is open until the application is
 * built, so that a request made while the database is migrated (and the application assembled)
 * gets an answer rather than a refused connection: 423 with the maintenance body for /api/, the
 * console's files as usual (the console then shows its system-update page and retries), and a
 * health check that says the server is not ready (503, without touching the database, which an
 * embedded database could only answer after the migration).
 */
export async function openMigrationGate(deps: Pick<AppDeps, 'db' | 'config' | 'version'>): Promise<MigrationGate> {
  const { config, db, version } = deps;
  const gate: FastifyInstance = Fastify({
    logger: { level: config.logLevel },
    forceCloseConnections: 'idle',
  });
  const since = new Date();
  // Read before migrating: afterwards the embedded database is busy until the migration ends.
  const migration = await currentMigration(db).catch(() => null);
  installSecurityHeaders(gate);
  installMaintenanceGuard(gate, () => ({ reason: 'migration', since }));
  gate.get('/api/health/', { config: { maintenanceOpen: true } }, async (_request, reply) => {
    reply.status(503).header('retry-after', '5');
    return { status: 'degraded', database: { reachable: true, kind: db.kind, migration }, version };
  });
  await registerWeb(gate, { db, config, version });
  await gate.listen({ port: config.port, host: config.host });
  const address = gate.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return { port, close: () => gate.close() };
}
