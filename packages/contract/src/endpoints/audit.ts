import { listEndpoints, permission } from '../endpoint';
import { systemLogFiltersSchema, systemLogSchema } from '../system-logs';

/** The system log (audit records), read-only. */
export const auditEndpoints = {
  systemLogs: listEndpoints({
    base: '/api/system_logs/',
    tag: 'system_logs',
    noun: 'system log',
    item: systemLogSchema,
    filters: systemLogFiltersSchema,
    access: permission('system_logs', 'view'),
    orderings: ['date_time', 'action', 'object_type', 'username', 'id'],
    defaultOrdering: ['-date_time'],
  }),
};
