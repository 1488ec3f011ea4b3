import type { SystemLog as SystemLogWire } from '@vigil/contract';
import { endpoints } from '@vigil/contract/client';
import type { Camelize } from '../../../lib/http';
import { defineList } from '../../../lib/list';

export type SystemLog = Camelize<SystemLogWire>;

/** The system log over the list engine: filters and ordering as `POST /api/system_logs/check/` takes them. */
export const systemLogList = defineList(endpoints.audit.systemLogs.list, {
  pageSizes: [25, 50, 100, 200],
  defaultPageSize: 50,
  omit: ['objectId', 'companyId'],
});
