import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';

/** Username shown in the audit log for changes the pipeline made by itself. */
export const SYSTEM_USERNAME = 'system';

export interface SystemAuditEntry {
  companyId: number;
  action: string;
  objectType: string;
  objectId: number | null;
  objectRepr: string | null;
  /** Field → {before, after}, already in the audit log's shape. */
  changes: Record<string, { before: unknown; after: unknown }>;
}

/**
 * Writes many audit records of system changes (no user: the pipeline, a matcher) with one
 * statement per few thousand rows, in the caller's transaction.
 */
export async function recordSystemAudits(tx: Queryable, entries: readonly SystemAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await bulkInsert(
    tx,
    'system_logs',
    [
      { name: 'company_id', type: 'int8' },
      { name: 'username', type: 'text' },
      { name: 'action', type: 'text' },
      { name: 'object_type', type: 'text' },
      { name: 'object_id', type: 'text' },
      { name: 'object_repr', type: 'text' },
      { name: 'changes', type: 'jsonb' },
    ],
    entries.map((e) => [
      e.companyId,
      SYSTEM_USERNAME,
      e.action,
      e.objectType,
      e.objectId === null ? null : String(e.objectId),
      e.objectRepr,
      e.changes,
    ]),
  );
}
