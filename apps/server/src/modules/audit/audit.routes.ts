import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { registerList } from '../../list/list-routes';
import { systemLogList } from './audit.repository';

/** `system_logs`: the audit log, read-only. */
export async function registerAudit(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerList(app, endpoints.audit.systemLogs, systemLogList, { db: deps.db, publicUrl: deps.config.publicUrl });
}
