import { listEndpoints, permission } from '../endpoint';
import { systemLogDefaultOrdering, systemLogFiltersSchema, systemLogOrderings, systemLogSchema } from '../system-logs';

/** The system log (audit records), read-only. */
export const auditEndpoints = {
  systemLogs: listEndpoints({
    base: '/api/system_logs/',
    tag: 'system_logs',
    noun: 'system log',
    item: systemLogSchema,
    filters: systemLogFiltersSchema,
    access: permission('system_logs', 'view'),
    orderings: systemLogOrderings,
    defaultOrdering: systemLogDefaultOrdering,
  }),
};
