import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { registerListRoutes } from '../../list/list-routes';
import { systemLogList } from './audit.repository';

/** `system_logs`: the audit log, read-only. */
export async function registerAudit(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerListRoutes(app, systemLogList, {
    apiBase: '/api/system_logs/',
    basename: 'system_logs',
    db: deps.db,
    publicUrl: deps.config.publicUrl,
  });
}
