import { systemLogFiltersSchema, type SystemLog, type SystemLogFilters } from '@vigil/contract';
import type { FastifyRequest } from 'fastify';
import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { filter, type ListResource } from '../../list/list-engine';

/** Who made a change and from where; taken from the request. */
export interface AuditContext {
  userId: number | null;
  username: string | null;
  impersonatorId: number | null;
  ip: string | null;
}

export interface AuditEntry {
  action: string;
  objectType: string;
  objectId: string | number | null;
  objectRepr?: string | null;
  companyId: number;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Fields that never enter the audit log, whatever the object. */
const secretFields = new Set(['password', 'password_hash', 'token', 'token_hash', 'otp_secret', 'secret']);

function comparable(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** Fields whose value differs between `before` and `after`, with both values. */
export function changedFields(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (key === 'updated_at' || key === 'created_at') continue;
    const b = comparable(before?.[key] ?? null);
    const a = comparable(after?.[key] ?? null);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    changes[key] = secretFields.has(key) ? { before: '***', after: '***' } : { before: b, after: a };
  }
  return changes;
}

export function auditContextOf(request: FastifyRequest): AuditContext {
  return {
    userId: request.actor?.userId ?? null,
    username: request.actor?.username ?? null,
    impersonatorId: request.actor?.impersonatorId ?? null,
    ip: request.ip,
  };
}

/** Writes one audit record; call it inside the transaction that makes the change. */
export async function recordAudit(tx: Queryable, context: AuditContext, entry: AuditEntry): Promise<void> {
  const changes = changedFields(entry.before, entry.after);
  await tx.query(sql`
    INSERT INTO system_logs (company_id, user_id, username, impersonator_id, ip, action, object_type, object_id, object_repr, changes)
    VALUES (${entry.companyId}, ${context.userId}, ${context.username}, ${context.impersonatorId}, ${context.ip},
            ${entry.action}, ${entry.objectType}, ${entry.objectId === null ? null : String(entry.objectId)},
            ${entry.objectRepr ?? null}, ${JSON.stringify(changes)}::jsonb)`);
}

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

/** What each audit record written from a query's rows says: SQL over the rows of `from`. */
export interface AuditRowsSql {
  companyId: SqlFragment;
  action: SqlFragment;
  objectType: SqlFragment;
  objectId: SqlFragment;
  objectRepr: SqlFragment;
  /** A jsonb of field → {before, after}. */
  changes: SqlFragment;
  /** The rows, with any grouping: `upd GROUP BY company_id`. */
  from: SqlFragment;
}

/**
 * `INSERT INTO system_logs … SELECT … FROM …`: audit records written by the same statement as the
 * change they record, one per row of `rows.from` (a CTE of a one-statement bulk change). Who made
 * the change and from where is the context, the same for every record. The caller may append
 * `RETURNING …` to the fragment.
 */
export function auditRecordsFrom(context: AuditContext, rows: AuditRowsSql): SqlFragment {
  return sql`INSERT INTO system_logs (company_id, user_id, username, impersonator_id, ip, action, object_type, object_id,
                               object_repr, changes)
      SELECT ${rows.companyId}, ${context.userId}::int8, ${context.username}::text, ${context.impersonatorId}::int8,
             ${context.ip}::text, ${rows.action}, ${rows.objectType}, ${rows.objectId}, ${rows.objectRepr},
             ${rows.changes}
      FROM ${rows.from}`;
}

interface SystemLogRow {
  id: number;
  date_time: Date;
  user_id: number | null;
  username: string | null;
  impersonator_id: number | null;
  ip: string | null;
  action: string;
  object_type: string;
  object_id: string | null;
  object_repr: string | null;
  company_id: number;
  changes: SystemLog['changes'];
}

const strings = (value: string | string[]) => (Array.isArray(value) ? value : [value]);
const numbers = (value: number | number[]) => (Array.isArray(value) ? value : [value]);

/** The system log as a list resource, newest first by default. */
export const systemLogList: ListResource<SystemLogRow, SystemLogFilters, SystemLog> = {
  from: sql`system_logs l`,
  select: sql`l.id, l.date_time, l.user_id, l.username, l.impersonator_id, l.ip, l.action, l.object_type,
              l.object_id, l.object_repr, l.company_id, l.changes`,
  tenantColumn: sql`l.company_id`,
  idField: { expr: sql`l.id`, type: 'int8' },
  filtersSchema: systemLogFiltersSchema,
  filters: {
    search: filter.search(sql`l.action`, sql`l.object_type`, sql`l.object_repr`, sql`l.username`),
    action: (v) => filter.in<string>(sql`l.action`, 'text')(strings(v)),
    object_type: (v) => filter.in<string>(sql`l.object_type`, 'text')(strings(v)),
    object_id: (v) => filter.in<string>(sql`l.object_id`, 'text')(strings(v)),
    user_id: (v) => filter.in<number>(sql`l.user_id`, 'int8')(numbers(v)),
    company_id: (v) => filter.in<number>(sql`l.company_id`, 'int8')(numbers(v)),
    date_time_from: filter.gte<string>(sql`l.date_time`, 'timestamptz'),
    date_time_to: filter.lte<string>(sql`l.date_time`, 'timestamptz'),
  },
  orderings: {
    date_time: { expr: sql`l.date_time`, type: 'timestamptz' },
    action: { expr: sql`l.action`, type: 'text' },
    object_type: { expr: sql`l.object_type`, type: 'text' },
    username: { expr: sql`l.username`, type: 'text', nullable: true },
    id: { expr: sql`l.id`, type: 'int8' },
  },
  defaultOrdering: ['-date_time'],
  toItem: (row) => ({ ...row, date_time: row.date_time.toISOString() }),
};

/**
 * The system log narrowed to one user: `object` lists the changes made to the user, `actor` the
 * actions the user took.
 */
export function userTimelineList(
  kind: 'object' | 'actor',
  userId: number,
): ListResource<SystemLogRow, SystemLogFilters, SystemLog> {
  const condition =
    kind === 'object' ? sql`l.object_type = 'user' AND l.object_id = ${String(userId)}` : sql`l.user_id = ${userId}`;
  return { ...systemLogList, baseCondition: condition };
}
