import type { Queryable } from '../../db/database';
import { recordAudit, type AuditContext } from './audit.repository';

// The audit module is the one writer of the system log: other modules write their records through
// these, inside the transaction that makes the change.
export {
  auditContextOf,
  auditRecordsFrom,
  recordAudit,
  recordSystemAudits,
  SYSTEM_USERNAME,
  type AuditContext,
  type AuditEntry,
  type AuditRowsSql,
  type SystemAuditEntry,
} from './audit.repository';

/** How one kind of object appears in the audit log. */
export interface AuditedKind<R extends { id: number; company_id: number }> {
  /** `object_type` of its records: 'unit', 'role', 'widget'. */
  objectType: string;
  /** `object_repr`: how a person recognises the object (of the row after an update). */
  repr(row: R): string;
  /** The fields a record shows before and after a change (never a secret). */
  snapshot(row: R): Record<string, unknown>;
  /** What a deletion records, when it is less than the snapshot. */
  deleted?(row: R): Record<string, unknown>;
}

/** One change of an object: created (after only), changed (both) or deleted (before only). */
export type AuditedChange<R> =
  { before: R; after: R } | { before: R; after?: undefined } | { before?: undefined; after: R };

/**
 * Writes the audit record of creating, changing or deleting one object of a kind: action
 * 'create', 'update' or 'delete', the object's id, name and company (as it is after a change),
 * and the snapshot before and after. Call it inside the transaction that makes the change.
 */
export async function recordChange<R extends { id: number; company_id: number }>(
  tx: Queryable,
  context: AuditContext,
  kind: AuditedKind<R>,
  change: AuditedChange<R>,
): Promise<void> {
  const { before, after } = change;
  // AuditedChange gives at least one of the two.
  const row = after ?? (before as R);
  const action = before === undefined ? 'create' : after === undefined ? 'delete' : 'update';
  await recordAudit(tx, context, {
    action,
    objectType: kind.objectType,
    objectId: row.id,
    objectRepr: kind.repr(row),
    companyId: row.company_id,
    ...(before === undefined
      ? {}
      : { before: action === 'delete' && kind.deleted ? kind.deleted(before) : kind.snapshot(before) }),
    ...(after === undefined ? {} : { after: kind.snapshot(after) }),
  });
}
