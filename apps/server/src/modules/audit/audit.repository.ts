import { systemLogFiltersSchema, type SystemLog, type SystemLogFilters } from '@vigil/contract';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
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
