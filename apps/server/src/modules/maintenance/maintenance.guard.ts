import { MAINTENANCE_RETRY_AFTER_SECONDS, type MaintenanceErrorBody } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/database';
import { MAINTENANCE_CHANNEL, readMaintenance, type Maintenance } from './maintenance.repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's view of the maintenance state (see MaintenanceWatcher). */
    maintenance: MaintenanceWatcher;
  }
  interface FastifyContextConfig {
    /** Answers even while the system is in maintenance (the health check). */
    maintenanceOpen?: boolean;
  }
}

/** How often a process reads the maintenance state by itself, besides hearing of changes through NOTIFY. */
export const MAINTENANCE_POLL_MS = 2000;

/** The 423 answer while the system is being updated. */
export function maintenanceBody(maintenance: Maintenance): MaintenanceErrorBody {
  return {
    detail:
      maintenance.reason === 'migration'
        ? 'Vigil is being updated (the database is being migrated). Try again in a few moments.'
        : 'Vigil is in maintenance. Try again in a few moments.',
    code: 'maintenance',
    maintenance: {
      reason: maintenance.reason,
      since: maintenance.since ? maintenance.since.toISOString() : null,
      retry_after: MAINTENANCE_RETRY_AFTER_SECONDS,
    },
  };
}

/**
 * Answers 423 with the maintenance body to every /api/ request while `current()` says so, before any
 * other hook (no session lookup, no anti-forgery check), except routes marked `maintenanceOpen`.
 * Everything outside /api/ (the console's files) is served as usual.
 */
export function installMaintenanceGuard(app: FastifyInstance, current: () => Maintenance | null): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/') && request.url !== '/api') return;
    if (request.routeOptions.config?.maintenanceOpen) return;
    const maintenance = current();
    if (!maintenance) return;
    return reply
      .status(423)
      .header('retry-after', String(MAINTENANCE_RETRY_AFTER_SECONDS))
      .header('cache-control', 'no-store')
      .send(maintenanceBody(maintenance));
  });
}

/**
 * Keeps this process's copy of the stored maintenance state: read at start, again whenever a
 * process announces a change through NOTIFY (PostgreSQL server), and every MAINTENANCE_POLL_MS in
 * any case (a missed notification, or a change made while this process could not listen).
 */
export class MaintenanceWatcher {
  private state: Maintenance | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  current(): Maintenance | null {
    return this.state;
  }

  /** Reads the stored state now (one read at a time; callers during a read wait for it). */
  async refresh(): Promise<void> {
    this.reading ??= readMaintenance(this.db)
      .then((state) => {
        this.state = state;
      })
      .catch(this.onError)
      .finally(() => {
        this.reading = null;
      });
    await this.reading;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.stopListening = await this.db.listen(MAINTENANCE_CHANNEL, () => void this.refresh());
    this.timer = setInterval(() => void this.refresh(), MAINTENANCE_POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.stopListening?.();
    this.stopListening = null;
    await this.reading;
  }
}

/** The application's maintenance guard, fed by the stored state. Install before the auth hooks. */
export function installMaintenance(app: FastifyInstance, deps: AppDeps): void {
  const watcher = new MaintenanceWatcher(deps.db, (error) =>
    app.log.warn({ err: error }, 'the maintenance state could not be read'),
  );
  app.decorate('maintenance', watcher);
  installMaintenanceGuard(app, () => watcher.current());
  app.addHook('onReady', async () => {
    await watcher.start();
  });
  app.addHook('onClose', async () => {
    await watcher.stop();
  });
}
