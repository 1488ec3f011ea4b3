import type { SystemLog as SystemLogWire } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import type { Camelize } from '../../../lib/http';
import type { ListDefinition } from '../../../lib/list';

export type SystemLog = Camelize<SystemLogWire>;

/** The system log over the list engine: filters and ordering as `POST /api/system_logs/check/` takes them. */
export const systemLogList = {
  basename: 'system_logs',
  endpoint: endpoints.audit.systemLogs.list,
  filters: {
    search: 'string',
    action: 'strings',
    objectType: 'strings',
    userId: 'numbers',
    dateTimeFrom: 'string',
    dateTimeTo: 'string',
  },
  orderable: ['date_time', 'username', 'action', 'object_type', 'id'],
  defaultOrdering: '-date_time',
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
} as const satisfies ListDefinition<Record<string, 'string' | 'strings' | 'numbers'>>;
