import {
  certificateSerialKey,
  endpointEventFiltersSchema,
  mailAttachmentFiltersSchema,
  mailMessageFiltersSchema,
  networkEventFiltersSchema,
  warehouseFileFiltersSchema,
  warehouseHashFiltersSchema,
  type EndpointEventFilters,
  type MailAttachmentFilters,
  type MailAttachmentItem,
  type MailListItem,
  type MailMessage,
  type MailMessageFilters,
  type NetworkEventFilters,
  type StoredEventItem,
  type WarehouseFile,
  type WarehouseFileFilters,
  type WarehouseHash,
  type WarehouseHashFilters,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { containsText, filter, sameText, type ListResource, type OrderingField } from '../../list/list-engine';
import type { IndicatorIndex, IndicatorIndexSource } from '../indicators/indicator-index';
import { mailObserved, verdictOf } from './investigation';
import { hasDoubleExtension } from '../ingest/parsers/file-type';

const iso = (value: Date | string) => new Date(value).toISOString();
const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Address or CIDR block: `column <<= ANY(…)` (an address alone is its own /32 or /128). */
const ipFilter = (column: SqlFragment) => (value: string | string[]) => {
  const values = list(value);
  return values.length === 0 ? null : sql`${column} <<= ANY(${values}::inet[])`;
};
const ipEither = (a: SqlFragment, b: SqlFragment) => (value: string | string[]) => {
  const values = list(value);
  return values.length === 0 ? null : sql`(${a} <<= ANY(${values}::inet[]) OR ${b} <<= ANY(${values}::inet[]))`;
};
const contains = (column: SqlFragment) => (value: string) => filter.search(column)(value);
/** Equal to any of the values as written, through the column's lower-case index (see sameText). */
const exactText = (column: SqlFragment) => (value: string | string[]) => {
  const values = list(value);
  return values.length === 0 ? null : sameText(column, values);
};
/** Equal to any of the values whatever the case (Windows names: `lsass.exe`, `LSASS.EXE`). */
const anyCase = (column: SqlFragment) => (value: string | string[]) => {
  const values = list(value).map((v) => v.toLowerCase());
  return values.length === 0 ? null : sql`lower(${column}) = ANY(${values}::text[])`;
};
/** A MAC address as the parser stores it: lower case, colon-separated. */
const macKey = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^0-9a-f]/g, '')
    .replace(/(..)(?!$)/g, '$1:');

/** Filters every time-partitioned event resource shares. */
function timeFilters(alias: string) {
  const col = (name: string) => sql.raw(`${alias}.${name}`);
  return {
    ts_from: filter.gte<string>(col('ts'), 'timestamptz'),
    ts_to: filter.lte<string>(col('ts'), 'timestamptz'),
    company_id: filter.in<number>(col('company_id'), 'int8'),
    batch_id: filter.in<number>(col('batch_id'), 'int8'),
  };
}

function timeOrderings(alias: string): Record<string, OrderingField> {
  return {
    ts: { expr: sql.raw(`${alias}.ts`), type: 'timestamptz' },
    id: { expr: sql.raw(`${alias}.id`), type: 'int8' },
  };
}

export interface StoredEventRow {
  id: number;
  company_id: number;
  ts: Date;
  batch_id: number;
  event: Record<string, unknown>;
  raw?: Record<string, unknown>;
}

export function toStoredEvent(row: StoredEventRow): StoredEventItem {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    ts: iso(row.ts),
    batch_id: Number(row.batch_id),
    event: row.event,
    ...(row.raw === undefined ? {} : { raw: row.raw }),
  };
}

export const networkEventList: ListResource<StoredEventRow, NetworkEventFilters, StoredEventItem> = {
  from: sql`network_events e`,
  select: sql`e.id, e.company_id, e.ts, e.batch_id, e.event`,
  tenantColumn: sql`e.company_id`,
  idField: { expr: sql`e.id`, type: 'int8' },
  filtersSchema: networkEventFiltersSchema,
  filters: {
    ...timeFilters('e'),
    search: filter.search(sql`e.signature`, sql`e.http_hostname`, sql`e.dns_rrname`, sql`e.tls_sni`, sql`e.http_url`),
    event_type: filter.in(sql`e.event_type`, 'text'),
    src_ip: ipFilter(sql`e.src_ip`),
    dest_ip: ipFilter(sql`e.dest_ip`),
    ip: ipEither(sql`e.src_ip`, sql`e.dest_ip`),
    src_port: filter.in(sql`e.src_port`, 'int4'),
    dest_port: filter.in(sql`e.dest_port`, 'int4'),
    proto: filter.in(sql`e.proto`, 'text'),
    app_proto: filter.in(sql`e.app_proto`, 'text'),
    signature_id: filter.in(sql`e.signature_id`, 'int8'),
    severity: filter.in(sql`e.severity`, 'text'),
    sensor: filter.in(sql`e.sensor`, 'text'),
    community_id: filter.eq(sql`e.community_id`),
    dns_rrname: contains(sql`e.dns_rrname`),
    http_hostname: contains(sql`e.http_hostname`),
    tls_sni: contains(sql`e.tls_sni`),
    file_sha256: filter.eq(sql`e.file_sha256`),
    file_stored: (value) => sql`e.file_stored = ${value}`,
    tls_serial: (value) => sql`e.tls_serial = ${certificateSerialKey(value)}`,
    ssh_software: filter.search(sql`e.ssh_client_software`, sql`e.ssh_server_software`),
    dhcp_mac: (value) => sql`e.dhcp_mac = ANY(${list(value).map(macKey)}::text[])`,
    dhcp_hostname: contains(sql`e.dhcp_hostname`),
    dhcp_assigned_ip: ipFilter(sql`e.dhcp_assigned_ip`),
    smtp_address: (value) =>
      sql.or([
        filter.search(sql`e.smtp_mail_from`)(value),
        sql`EXISTS (SELECT 1 FROM unnest(e.smtp_rcpt_to) r WHERE ${containsText(sql`r`, value)})`,
      ]),
  },
  orderings: timeOrderings('e'),
  defaultOrdering: ['-ts'],
  toItem: toStoredEvent,
};

export const endpointEventList: ListResource<StoredEventRow, EndpointEventFilters, StoredEventItem> = {
  from: sql`endpoint_events e`,
  select: sql`e.id, e.company_id, e.ts, e.batch_id, e.event`,
  tenantColumn: sql`e.company_id`,
  idField: { expr: sql`e.id`, type: 'int8' },
  filtersSchema: endpointEventFiltersSchema,
  filters: {
    ...timeFilters('e'),
    search: filter.search(
      sql`e.host_name`,
      sql`e.process_name`,
      sql`e.command_line`,
      sql`e.user_name`,
      sql`e.file_path`,
    ),
    source_format: filter.in(sql`e.source_format`, 'text'),
    host_name: exactText(sql`e.host_name`),
    action: filter.in(sql`e.action`, 'text'),
    event_code: filter.in(sql`e.event_code`, 'text'),
    outcome: filter.in(sql`e.outcome`, 'text'),
    process_name: exactText(sql`e.process_name`),
    parent_name: filter.in(sql`e.parent_name`, 'text'),
    user_name: exactText(sql`e.user_name`),
    hash: (value) => sql`(e.process_sha256 = ${value} OR e.file_sha256 = ${value}
      OR e.event #>> '{process,hash,md5}' = ${value} OR e.event #>> '{process,hash,sha1}' = ${value}
      OR e.event #>> '{file,hash,md5}' = ${value} OR e.event #>> '{file,hash,sha1}' = ${value})`,
    src_ip: ipFilter(sql`e.src_ip`),
    dest_ip: ipFilter(sql`e.dest_ip`),
    dest_port: filter.in(sql`e.dest_port`, 'int4'),
    registry_path: contains(sql`e.registry_path`),
    dns_question: contains(sql`e.dns_question`),
    target_process_name: anyCase(sql`e.target_process_name`),
    granted_access: filter.in(sql`e.granted_access`, 'text'),
    original_file_name: anyCase(sql`e.original_file_name`),
    integrity_level: anyCase(sql`e.integrity_level`),
    logon_id: filter.in(sql`e.logon_id`, 'text'),
  },
  orderings: timeOrderings('e'),
  defaultOrdering: ['-ts'],
  toItem: toStoredEvent,
};

/** The mail list; its items carry what the indicators of `indexes` say of them. */
export const mailMessageList = (
  indexes: IndicatorIndexSource,
): ListResource<StoredEventRow, MailMessageFilters, MailListItem> => ({
  from: sql`mail_messages e`,
  // Bodies and the full header list only on the detail page.
  select: sql`e.id, e.company_id, e.ts, e.batch_id, e.event - 'text' - 'html' - 'header_lines' AS event`,
  tenantColumn: sql`e.company_id`,
  idField: { expr: sql`e.id`, type: 'int8' },
  filtersSchema: mailMessageFiltersSchema,
  filters: {
    ...timeFilters('e'),
    search: (value) =>
      sql.or([
        filter.search(sql`e.subject`, sql`e.sender`)(value),
        sql`EXISTS (SELECT 1 FROM unnest(e.recipients) r WHERE ${containsText(sql`r`, value)})`,
      ]),
    sender: contains(sql`e.sender`),
    recipient: (value) => sql`EXISTS (SELECT 1 FROM unnest(e.recipients) r WHERE ${containsText(sql`r`, value)})`,
    subject: contains(sql`e.subject`),
    spf: filter.in(sql`e.spf`, 'text'),
    dkim: filter.in(sql`e.dkim`, 'text'),
    dmarc: filter.in(sql`e.dmarc`, 'text'),
    has_attachments: (value) => (value ? sql`e.attachment_count > 0` : sql`e.attachment_count = 0`),
    url: (value) => sql`EXISTS (SELECT 1 FROM unnest(e.urls) u WHERE ${containsText(sql`u`, value)})`,
  },
  orderings: timeOrderings('e'),
  defaultOrdering: ['-ts'],
  // With what the indicators say of its sender, URLs and attachments (an in-memory lookup per value).
  toItem: (row) => ({
    ...toStoredEvent(row),
    verdict: verdictOf(indexes.current(), Number(row.company_id), mailObserved(row.event as Partial<MailMessage>)),
  }),
});

export interface MailAttachmentRow {
  id: number;
  company_id: number;
  ts: Date;
  mail_id: number;
  filename: string | null;
  content_type: string;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  detected_type: string;
  inline: boolean;
}

export function toMailAttachment(row: MailAttachmentRow): MailAttachmentItem {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    ts: iso(row.ts),
    mail_id: Number(row.mail_id),
    filename: row.filename,
    content_type: row.content_type,
    size: Number(row.size),
    md5: row.md5,
    sha1: row.sha1,
    sha256: row.sha256,
    detected_type: row.detected_type,
    inline: row.inline,
    double_extension: hasDoubleExtension(row.filename),
  };
}

export const mailAttachmentList: ListResource<MailAttachmentRow, MailAttachmentFilters, MailAttachmentItem> = {
  from: sql`mail_attachments a`,
  select: sql`a.id, a.company_id, a.ts, a.mail_id, a.filename, a.content_type, a.size, a.md5, a.sha1, a.sha256, a.detected_type, a.inline`,
  tenantColumn: sql`a.company_id`,
  idField: { expr: sql`a.id`, type: 'int8' },
  filtersSchema: mailAttachmentFiltersSchema,
  filters: {
    ts_from: filter.gte<string>(sql`a.ts`, 'timestamptz'),
    ts_to: filter.lte<string>(sql`a.ts`, 'timestamptz'),
    company_id: filter.in<number>(sql`a.company_id`, 'int8'),
    batch_id: (value) =>
      sql`a.mail_id IN (SELECT m.id FROM mail_messages m WHERE m.company_id = a.company_id AND m.batch_id = ANY(${list(value)}::int8[]))`,
    search: filter.search(sql`a.filename`, sql`a.content_type`),
    mail_id: filter.in(sql`a.mail_id`, 'int8'),
    hash: (value) => sql`(a.sha256 = ${value} OR a.md5 = ${value} OR a.sha1 = ${value})`,
    detected_type: filter.in(sql`a.detected_type`, 'text'),
    filename: contains(sql`a.filename`),
  },
  orderings: { ...timeOrderings('a'), size: { expr: sql`a.size`, type: 'int8' } },
  defaultOrdering: ['-ts'],
  toItem: toMailAttachment,
};

export interface WarehouseRow {
  id: number;
  company_id: number;
  sha256: string;
  md5: string | null;
  sha1: string | null;
  size: number | null;
  detected_type: string | null;
  filename: string | null;
  sources: string[];
  sightings: number;
  last_event_kind: string | null;
  last_event_id: number | null;
  stored: boolean;
  first_seen: Date;
  last_seen: Date;
}

export function toWarehouseFile(row: WarehouseRow): WarehouseFile {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    sha256: row.sha256,
    md5: row.md5 ?? '',
    sha1: row.sha1 ?? '',
    size: Number(row.size ?? 0),
    detected_type: row.detected_type ?? 'unknown',
    filename: row.filename,
    sightings: Number(row.sightings),
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
  };
}

export function toWarehouseHash(row: WarehouseRow, index: IndicatorIndex): WarehouseHash {
  const verdict = verdictOf(index, Number(row.company_id), [
    { kind: 'sha256', value: row.sha256 },
    { kind: 'md5', value: row.md5 },
    { kind: 'sha1', value: row.sha1 },
  ]).verdict;
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    sha256: row.sha256,
    md5: row.md5,
    sha1: row.sha1,
    filename: row.filename,
    sources: row.sources,
    sightings: Number(row.sightings),
    last_event_kind: row.last_event_kind,
    last_event_id: row.last_event_id === null ? null : Number(row.last_event_id),
    stored: row.stored,
    size: row.size === null ? null : Number(row.size),
    detected_type: row.detected_type,
    verdict,
    first_seen: iso(row.first_seen),
    last_seen: iso(row.last_seen),
  };
}

const warehouseSelect = sql`h.id, h.company_id, h.sha256, coalesce(f.md5, h.md5) AS md5, coalesce(f.sha1, h.sha1) AS sha1,
  f.size, f.detected_type, h.filename, h.sources, h.sightings, h.last_event_kind, h.last_event_id,
  f.id IS NOT NULL AS stored, h.first_seen, h.last_seen`;

const seenOrderings: Record<string, OrderingField> = {
  last_seen: { expr: sql`h.last_seen`, type: 'timestamptz' },
  first_seen: { expr: sql`h.first_seen`, type: 'timestamptz' },
  sightings: { expr: sql`h.sightings`, type: 'int8' },
  id: { expr: sql`h.id`, type: 'int8' },
};

/** Files in the warehouse as each company sees them: one row per company that holds the file. */
export const warehouseFileList: ListResource<WarehouseRow, WarehouseFileFilters, WarehouseFile> = {
  from: sql`warehouse_hashes h JOIN warehouse_files f ON f.sha256 = h.sha256`,
  select: warehouseSelect,
  tenantColumn: sql`h.company_id`,
  idField: { expr: sql`h.id`, type: 'int8' },
  filtersSchema: warehouseFileFiltersSchema,
  filters: {
    company_id: filter.in(sql`h.company_id`, 'int8'),
    search: filter.search(sql`h.filename`, sql`h.sha256`),
    hash: (value) => sql`(f.sha256 = ${value} OR f.md5 = ${value} OR f.sha1 = ${value})`,
    detected_type: filter.in(sql`f.detected_type`, 'text'),
    size_min: filter.gte(sql`f.size`, 'int8'),
    size_max: filter.lte(sql`f.size`, 'int8'),
    last_seen_from: filter.gte(sql`h.last_seen`, 'timestamptz'),
    last_seen_to: filter.lte(sql`h.last_seen`, 'timestamptz'),
  },
  orderings: { ...seenOrderings, size: { expr: sql`f.size`, type: 'int8' } },
  defaultOrdering: ['-last_seen'],
  toItem: toWarehouseFile,
};

/** A live alert indicator of the company (or of all companies) names the hash, and no ignore indicator does. */
const hashIndicator = (policy: 'alert' | 'ignore') => sql`EXISTS (
  SELECT 1 FROM indicators i
  WHERE i.policy = ${policy} AND (i.expires_at IS NULL OR i.expires_at > now())
    AND (i.scope = 'all' OR i.company_id = h.company_id)
    AND ((i.type = 'sha256' AND i.value = h.sha256) OR (i.type = 'md5' AND i.value = coalesce(f.md5, h.md5))
      OR (i.type = 'sha1' AND i.value = coalesce(f.sha1, h.sha1))))`;
const hashIndicated = sql`(${hashIndicator('alert')} AND NOT ${hashIndicator('ignore')})`;

/** Which company saw which hash, where and how often (with or without the bytes). */
/** Which company saw which hash, with the verdicts of `indexes`. */
export const warehouseHashList = (
  indexes: IndicatorIndexSource,
): ListResource<WarehouseRow, WarehouseHashFilters, WarehouseHash> => ({
  from: sql`warehouse_hashes h LEFT JOIN warehouse_files f ON f.sha256 = h.sha256`,
  select: warehouseSelect,
  tenantColumn: sql`h.company_id`,
  idField: { expr: sql`h.id`, type: 'int8' },
  filtersSchema: warehouseHashFiltersSchema,
  filters: {
    company_id: filter.in(sql`h.company_id`, 'int8'),
    search: filter.search(sql`h.filename`, sql`h.sha256`),
    hash: (value) => sql`(h.sha256 = ${value} OR h.md5 = ${value} OR h.sha1 = ${value})`,
    source: (value) => sql`h.sources && ${list(value)}::text[]`,
    detected_type: filter.in(sql`f.detected_type`, 'text'),
    verdict: (value) => (value === 'malicious' ? hashIndicated : sql`NOT ${hashIndicated}`),
    last_seen_from: filter.gte(sql`h.last_seen`, 'timestamptz'),
    last_seen_to: filter.lte(sql`h.last_seen`, 'timestamptz'),
  },
  orderings: seenOrderings,
  defaultOrdering: ['-last_seen'],
  toItem: (row) => toWarehouseHash(row, indexes.current()),
});

// ---------------------------------------------------------------------------------------------
// Single records
// ---------------------------------------------------------------------------------------------

/**
 * An event time narrows a lookup to one partition; without it the id alone finds the row (ids come
 * from a sequence). Lists give times in milliseconds while events keep microseconds, so the time
 * matches to the millisecond.
 */
function eventTime(ts: string | undefined): SqlFragment {
  return ts === undefined
    ? sql`TRUE`
    : sql`e.ts >= date_trunc('milliseconds', ${ts}::timestamptz)
          AND e.ts < date_trunc('milliseconds', ${ts}::timestamptz) + interval '1 millisecond'`;
}

/** A network or endpoint event with the record as it arrived, in the caller's scope. */
export async function findStoredEvent(
  db: Queryable,
  table: 'network_events' | 'endpoint_events',
  scope: TenantScope,
  id: number,
  ts: string | undefined,
): Promise<StoredEventRow | null> {
  const { rows } = await db.query<StoredEventRow>(
    sql`SELECT e.id, e.company_id, e.ts, e.batch_id, e.event, e.raw FROM ${sql.ident(table)} e
        WHERE e.id = ${id} AND ${eventTime(ts)} AND ${tenantCondition(scope, sql`e.company_id`)}`,
  );
  return rows[0] ?? null;
}

/** A mail message (bodies included) in the caller's scope. */
/** A stored mail message with its kept original's hash and size (null when none was kept). */
export interface MailMessageRow extends StoredEventRow {
  original_sha256: string | null;
  original_size: number | null;
}

export async function findMailMessage(
  db: Queryable,
  scope: TenantScope,
  id: number,
  ts: string | undefined,
): Promise<MailMessageRow | null> {
  const { rows } = await db.query<MailMessageRow>(
    sql`SELECT e.id, e.company_id, e.ts, e.batch_id, e.event, o.sha256 AS original_sha256, o.size AS original_size
        FROM mail_messages e LEFT JOIN mail_originals o ON o.sha256 = e.original_sha256
        WHERE e.id = ${id} AND ${eventTime(ts)} AND ${tenantCondition(scope, sql`e.company_id`)}`,
  );
  return rows[0] ?? null;
}

/** The kept original (gzip) of a mail message in the caller's scope; null when not found or not kept. */
export async function findMailOriginal(
  db: Queryable,
  scope: TenantScope,
  id: number,
  ts: string | undefined,
): Promise<{ content: Uint8Array; size: number } | null> {
  const { rows } = await db.query<{ content: Uint8Array; size: number }>(
    sql`SELECT o.content, o.size FROM mail_messages e JOIN mail_originals o ON o.sha256 = e.original_sha256
        WHERE e.id = ${id} AND ${eventTime(ts)} AND ${tenantCondition(scope, sql`e.company_id`)}`,
  );
  return rows[0] ?? null;
}

const attachmentColumns = sql`a.id, a.company_id, a.ts, a.mail_id, a.filename, a.content_type, a.size, a.md5,
  a.sha1, a.sha256, a.detected_type, a.inline`;

/** The attachments of a mail message (found first), each with whether the warehouse holds its bytes. */
export async function mailAttachmentsOf(
  db: Queryable,
  message: StoredEventRow,
): Promise<Array<MailAttachmentRow & { stored: boolean }>> {
  const { rows } = await db.query<MailAttachmentRow & { stored: boolean }>(
    sql`SELECT ${attachmentColumns}, EXISTS (SELECT 1 FROM warehouse_files f WHERE f.sha256 = a.sha256) AS stored
        FROM mail_attachments a
        WHERE a.company_id = ${message.company_id} AND a.mail_id = ${message.id} AND a.ts = ${message.ts}
        ORDER BY a.id`,
  );
  return rows;
}

export async function findMailAttachment(
  db: Queryable,
  scope: TenantScope,
  id: number,
): Promise<MailAttachmentRow | null> {
  const { rows } = await db.query<MailAttachmentRow>(
    sql`SELECT ${attachmentColumns} FROM mail_attachments a
        WHERE a.id = ${id} AND ${tenantCondition(scope, sql`a.company_id`)}`,
  );
  return rows[0] ?? null;
}

/** A company's sighting of a hash by its id; `stored` keeps only files whose bytes the warehouse holds. */
export async function findWarehouseRow(
  db: Queryable,
  scope: TenantScope,
  id: number,
  stored: boolean,
): Promise<WarehouseRow | null> {
  const { rows } = await db.query<WarehouseRow>(
    sql`SELECT ${warehouseSelect} FROM warehouse_hashes h
        ${stored ? sql`JOIN` : sql`LEFT JOIN`} warehouse_files f ON f.sha256 = h.sha256
        WHERE h.id = ${id} AND ${tenantCondition(scope, sql`h.company_id`)}`,
  );
  return rows[0] ?? null;
}

/** The bytes of a file, when one of the caller's companies has seen its hash. */
export async function findFileContent(
  db: Queryable,
  scope: TenantScope,
  sha256: string,
): Promise<{ content: Uint8Array; detected_type: string } | null> {
  const { rows } = await db.query<{ content: Uint8Array; detected_type: string }>(sql`
    SELECT f.content, f.detected_type FROM warehouse_files f
    WHERE f.sha256 = ${sha256}
      AND EXISTS (SELECT 1 FROM warehouse_hashes h
                  WHERE h.sha256 = f.sha256 AND ${tenantCondition(scope, sql`h.company_id`)})`);
  return rows[0] ?? null;
}
