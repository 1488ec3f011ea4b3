import { createHash } from 'node:crypto';
import { certificateSerialKey, type EndpointEvent, type NetworkEvent } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { bulkInsert, type BulkColumn } from '../../db/bulk';
import {
  arrayLiteral,
  copyEscape,
  copyJson,
  copyNumber,
  copyText,
  copyWritten,
  CopyWriter,
  JsonText,
} from '../../db/copy';
import { sql } from '../../db/sql';
import { packOriginal } from './mail-original';
import type { ParsedMailMessage } from './parsers';
import { requestYaraScan } from '../rules/yara/yara-scan.service';
import { recordSightings } from './sightings';

/** Event tables partitioned by month on `ts`. */
export const eventTables = ['network_events', 'endpoint_events', 'mail_messages', 'mail_attachments'] as const;
export type EventTable = (typeof eventTables)[number];

/** Months further back than this, or ahead of now by more than one month, go to the DEFAULT partition. */
const PARTITION_WINDOW_MONTHS_BACK = 24;

const knownPartitions = new Set<string>();

/** First instant (UTC) of the month of an ISO timestamp, as `YYYY-MM-01T00:00:00.000Z`. */
export function monthOf(ts: string): string {
  return `${ts.slice(0, 7)}-01T00:00:00.000Z`;
}

/**
 * Makes sure the monthly partitions for these timestamps exist, each in its own short
 * transaction before the batch's (DDL there would hold locks for the whole batch). Months far
 * from now stay in the DEFAULT partition, so junk dates cannot make thousands of partitions.
 */
export async function ensurePartitions(db: Database, table: EventTable, timestamps: Iterable<string>): Promise<void> {
  const now = new Date();
  const earliest = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - PARTITION_WINDOW_MONTHS_BACK, 1);
  const latest = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const months = new Set<string>();
  let previous = '';
  for (const ts of timestamps) {
    // A batch's events are mostly of one month: look each month up once.
    if (previous !== '' && ts.startsWith(previous)) continue;
    previous = ts.slice(0, 7);
    const month = monthOf(ts);
    const at = Date.parse(month);
    if (!Number.isFinite(at) || at < earliest || at > latest) continue;
    if (!knownPartitions.has(`${table}:${month}`)) months.add(month);
  }
  for (const month of months) {
    const key = `${table}:${month}`;
    // Batches of this process arriving together for a new month wait for one creation.
    let making = partitionsInMaking.get(key);
    if (!making) {
      making = db
        .transaction((tx) => tx.query(sql`SELECT vigil_ensure_month_partition(${table}, ${month}::timestamptz)`))
        .then(() => {
          knownPartitions.add(key);
        })
        .finally(() => partitionsInMaking.delete(key));
      partitionsInMaking.set(key, making);
    }
    await making;
  }
}

const partitionsInMaking = new Map<string, Promise<void>>();

/** Forgets which partitions exist (after retention dropped some). */
export function forgetPartitions(): void {
  knownPartitions.clear();
}

/** `count` fresh ids from a table's sequence, so stored events know their ids before insert. */
async function nextIds(tx: Queryable, table: EventTable, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await tx.query<{ id: number }>(
    sql`SELECT nextval(${`${table}_id_seq`}::regclass)::int8 AS id FROM generate_series(1, ${count}::int4)`,
  );
  return rows.map((r) => Number(r.id));
}

export interface StoredRef<T> {
  id: number;
  ts: string;
  event: T;
}

const networkColumns: BulkColumn[] = [
  { name: 'company_id', type: 'int8' },
  { name: 'ts', type: 'timestamptz' },
  { name: 'id', type: 'int8' },
  { name: 'batch_id', type: 'int8' },
  { name: 'event_type', type: 'text' },
  { name: 'src_ip', type: 'inet' },
  { name: 'src_port', type: 'int4' },
  { name: 'dest_ip', type: 'inet' },
  { name: 'dest_port', type: 'int4' },
  { name: 'proto', type: 'text' },
  { name: 'app_proto', type: 'text' },
  { name: 'flow_id', type: 'text' },
  { name: 'community_id', type: 'text' },
  { name: 'sensor', type: 'text' },
  { name: 'severity', type: 'text' },
  { name: 'signature_id', type: 'int8' },
  { name: 'signature', type: 'text' },
  { name: 'category', type: 'text' },
  { name: 'dns_rrname', type: 'text' },
  { name: 'http_hostname', type: 'text' },
  { name: 'http_url', type: 'text' },
  { name: 'tls_sni', type: 'text' },
  { name: 'file_sha256', type: 'text' },
  { name: 'event', type: 'json' },
  { name: 'raw', type: 'json' },
  // Filterable fields of the application-layer groups (migration network_protocol_fields).
  { name: 'file_stored', type: 'bool' },
  { name: 'tls_serial', type: 'text' },
  { name: 'ssh_client_software', type: 'text' },
  { name: 'ssh_server_software', type: 'text' },
  { name: 'dhcp_mac', type: 'text' },
  { name: 'dhcp_hostname', type: 'text' },
  { name: 'dhcp_assigned_ip', type: 'inet' },
  { name: 'smtp_mail_from', type: 'text' },
  { name: 'smtp_rcpt_to', type: 'text[]' },
];

/** A bool column in COPY text format, or `\N` for NULL. */
function copyBool(value: boolean | null | undefined): string {
  return value === null || value === undefined ? '\\N' : value ? 't' : 'f';
}

/** The columns of the application-layer groups (after `raw`), in the order of `networkColumns`. */
function protocolValues(e: NetworkEvent): unknown[] {
  return [
    e.fileinfo?.stored ?? null,
    certificateSerialKey(e.tls?.serial ?? null),
    e.ssh?.client?.software_version ?? null,
    e.ssh?.server?.software_version ?? null,
    e.dhcp?.client_mac ?? null,
    e.dhcp?.hostname ?? null,
    e.dhcp?.assigned_ip ?? null,
    e.smtp?.mail_from ?? null,
    e.smtp && e.smtp.rcpt_to.length > 0 ? e.smtp.rcpt_to : null,
  ];
}

function withoutRaw<T extends { raw: unknown }>(event: T): Omit<T, 'raw'> {
  const { raw: _raw, ...rest } = event;
  return rest;
}

/** The record as it arrived: its line's own text when given, else the parsed object. */
function rawOf(event: { raw: unknown }, text: string | undefined): unknown {
  return text === undefined ? event.raw : new JsonText(text);
}

/**
 * The normalised event as JSON, without `raw` (stored in its own column). `raw` is hidden for
 * the call rather than copied out of a new object: this runs for every ingested event.
 */
function eventJson(event: { raw: unknown }): string {
  const raw = event.raw;
  event.raw = undefined;
  try {
    return JSON.stringify(event);
  } finally {
    event.raw = raw;
  }
}

/** The record as it arrived, as JSON text: its line's own text when given. */
function rawJson(event: { raw: unknown }, text: string | undefined): string {
  return text ?? JSON.stringify(event.raw);
}

/** The nine application-layer columns of an event that has none of their groups. */
const NO_PROTOCOL_VALUES = '\t\\N'.repeat(9);

/** `networkColumns`' names, in order: the columns of `writeNetworkRow`. */
export const networkColumnNames = networkColumns.map((c) => c.name);

/**
 * Writes a network event as one row of COPY text, column for column as `networkRow` (and in the
 * same order), straight from the event: ingest encodes every event it stores.
 */
export function writeNetworkRow(
  out: CopyWriter,
  companyId: number,
  batchId: number,
  id: number,
  e: NetworkEvent,
  /** The line the event was read from, stored as `raw`; else `e.raw` is serialised. */
  text?: string,
): void {
  const alert = e.alert;
  out.write(
    `${companyId}\t${copyEscape(e.timestamp)}\t${id}\t${batchId}\t${copyEscape(e.event_type)}\t${copyText(e.src_ip)}\t${copyNumber(e.src_port)}\t${copyText(e.dest_ip)}\t${copyNumber(e.dest_port)}\t${copyText(e.proto)}\t${copyText(e.app_proto)}\t${copyText(e.flow_id)}\t${copyText(e.community_id)}\t${copyText(e.host)}\t${copyText(e.severity)}\t${copyNumber(alert?.signature_id)}\t${copyText(alert?.signature)}\t${copyText(alert?.category)}\t${copyText(e.dns?.rrname)}\t${copyText(e.http?.hostname)}\t${copyText(e.http?.url)}\t${copyText(e.tls?.sni)}\t${copyText(e.fileinfo?.sha256)}\t`,
  );
  out
    .write(copyJson(eventJson(e)))
    .write('\t')
    .write(copyJson(rawJson(e, text)));
  // Most events carry none of the application-layer groups: their nine columns are NULL.
  if (e.fileinfo === null && e.tls === null && e.ssh === null && e.dhcp === null && e.smtp === null) {
    out.write(NO_PROTOCOL_VALUES);
  } else {
    const { fileinfo, ssh, dhcp, smtp } = e;
    out.write(
      `\t${copyBool(fileinfo?.stored)}\t${copyText(certificateSerialKey(e.tls?.serial ?? null))}\t${copyText(ssh?.client?.software_version)}\t${copyText(ssh?.server?.software_version)}\t${copyText(dhcp?.client_mac)}\t${copyText(dhcp?.hostname)}\t${copyText(dhcp?.assigned_ip)}\t${copyText(smtp?.mail_from)}\t${smtp && smtp.rcpt_to.length > 0 ? copyEscape(arrayLiteral(smtp.rcpt_to)) : '\\N'}`,
    );
  }
  out.endRow();
}

/** The row of a network event in column order of `networkColumns`. */
export function networkRow(companyId: number, batchId: number, id: number, e: NetworkEvent, text?: string): unknown[] {
  return [
    companyId,
    e.timestamp,
    id,
    batchId,
    e.event_type,
    e.src_ip,
    e.src_port,
    e.dest_ip,
    e.dest_port,
    e.proto,
    e.app_proto,
    e.flow_id,
    e.community_id,
    e.host,
    e.severity,
    e.alert?.signature_id ?? null,
    e.alert?.signature ?? null,
    e.alert?.category ?? null,
    e.dns?.rrname ?? null,
    e.http?.hostname ?? null,
    e.http?.url ?? null,
    e.tls?.sni ?? null,
    e.fileinfo?.sha256 ?? null,
    withoutRaw(e),
    rawOf(e, text),
    ...protocolValues(e),
  ];
}

export { networkColumns };

/** Stores network events with one bulk statement per chunk; answers them with their ids. */
export async function storeNetworkEvents(
  tx: Queryable,
  companyId: number,
  batchId: number,
  events: readonly NetworkEvent[],
  /** Ids already taken from the table's sequence, one per event; taken here when absent. */
  preallocated?: readonly number[],
  /** The lines the events were read from, one per event, stored as `raw`. */
  texts?: readonly string[],
): Promise<StoredRef<NetworkEvent>[]> {
  const ids =
    preallocated && preallocated.length === events.length
      ? preallocated
      : await nextIds(tx, 'network_events', events.length);
  const out = new CopyWriter(events.length * 1536);
  for (let i = 0; i < events.length; i++) writeNetworkRow(out, companyId, batchId, ids[i]!, events[i]!, texts?.[i]);
  await copyWritten(tx, 'network_events', networkColumnNames, out);
  return events.map((event, i) => ({ id: ids[i]!, ts: event.timestamp, event }));
}

const endpointColumns: BulkColumn[] = [
  { name: 'company_id', type: 'int8' },
  { name: 'ts', type: 'timestamptz' },
  { name: 'id', type: 'int8' },
  { name: 'batch_id', type: 'int8' },
  { name: 'source_format', type: 'text' },
  { name: 'host_name', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'event_code', type: 'text' },
  { name: 'outcome', type: 'text' },
  { name: 'process_name', type: 'text' },
  { name: 'process_pid', type: 'int8' },
  { name: 'command_line', type: 'text' },
  { name: 'parent_name', type: 'text' },
  { name: 'process_sha256', type: 'text' },
  { name: 'user_name', type: 'text' },
  { name: 'file_path', type: 'text' },
  { name: 'file_sha256', type: 'text' },
  { name: 'src_ip', type: 'inet' },
  { name: 'dest_ip', type: 'inet' },
  { name: 'dest_port', type: 'int4' },
  { name: 'registry_path', type: 'text' },
  { name: 'dns_question', type: 'text' },
  { name: 'target_process_name', type: 'text' },
  { name: 'granted_access', type: 'text' },
  { name: 'original_file_name', type: 'text' },
  { name: 'integrity_level', type: 'text' },
  { name: 'logon_id', type: 'text' },
  { name: 'event', type: 'json' },
  { name: 'raw', type: 'json' },
];

/** The PE OriginalFileName a row is found by: the process's, else the loaded file's. */
const originalFileName = (e: EndpointEvent) => e.process?.original_file_name ?? e.file?.original_file_name ?? null;

export function endpointRow(
  companyId: number,
  batchId: number,
  id: number,
  e: EndpointEvent,
  text?: string,
): unknown[] {
  return [
    companyId,
    e.timestamp,
    id,
    batchId,
    e.source_format,
    e.host.name,
    e.event.action,
    e.event.code,
    e.event.outcome,
    e.process?.name ?? null,
    e.process?.pid ?? null,
    e.process?.command_line ?? null,
    e.process?.parent?.name ?? null,
    e.process?.hash.sha256 ?? null,
    e.user?.name ?? null,
    e.file?.path ?? null,
    e.file?.hash.sha256 ?? null,
    e.network?.src_ip ?? null,
    e.network?.dest_ip ?? null,
    e.network?.dest_port ?? null,
    e.registry?.path ?? null,
    e.dns?.question ?? null,
    e.target_process?.name ?? null,
    e.target_process?.granted_access ?? null,
    originalFileName(e),
    e.process?.integrity_level ?? null,
    e.user?.logon_id ?? null,
    withoutRaw(e),
    rawOf(e, text),
  ];
}

export { endpointColumns };

/** `endpointColumns`' names, in order: the columns of `writeEndpointRow`. */
export const endpointColumnNames = endpointColumns.map((c) => c.name);

/** Writes an endpoint event as one row of COPY text, column for column as `endpointRow`. */
export function writeEndpointRow(
  out: CopyWriter,
  companyId: number,
  batchId: number,
  id: number,
  e: EndpointEvent,
  /** The line the event was read from, stored as `raw`; else `e.raw` is serialised. */
  text?: string,
): void {
  const { process, file, network } = e;
  out.write(
    `${companyId}\t${copyEscape(e.timestamp)}\t${id}\t${batchId}\t${copyEscape(e.source_format)}\t${copyText(e.host.name)}\t${copyText(e.event.action)}\t${copyText(e.event.code)}\t${copyText(e.event.outcome)}\t${copyText(process?.name)}\t${copyNumber(process?.pid)}\t${copyText(process?.command_line)}\t${copyText(process?.parent?.name)}\t${copyText(process?.hash.sha256)}\t${copyText(e.user?.name)}\t${copyText(file?.path)}\t${copyText(file?.hash.sha256)}\t${copyText(network?.src_ip)}\t${copyText(network?.dest_ip)}\t${copyNumber(network?.dest_port)}\t${copyText(e.registry?.path)}\t${copyText(e.dns?.question)}\t${copyText(e.target_process?.name)}\t${copyText(e.target_process?.granted_access)}\t${copyText(originalFileName(e))}\t${copyText(process?.integrity_level)}\t${copyText(e.user?.logon_id)}\t`,
  );
  out
    .write(copyJson(eventJson(e)))
    .write('\t')
    .write(copyJson(rawJson(e, text)));
  out.endRow();
}

export async function storeEndpointEvents(
  tx: Queryable,
  companyId: number,
  batchId: number,
  events: readonly EndpointEvent[],
  /** Ids already taken from the table's sequence, one per event; taken here when absent. */
  preallocated?: readonly number[],
  /** The lines the events were read from, one per event, stored as `raw`. */
  texts?: readonly string[],
): Promise<StoredRef<EndpointEvent>[]> {
  const ids =
    preallocated && preallocated.length === events.length
      ? preallocated
      : await nextIds(tx, 'endpoint_events', events.length);
  const out = new CopyWriter(events.length * 1536);
  for (let i = 0; i < events.length; i++) writeEndpointRow(out, companyId, batchId, ids[i]!, events[i]!, texts?.[i]);
  await copyWritten(tx, 'endpoint_events', endpointColumnNames, out);
  return events.map((event, i) => ({ id: ids[i]!, ts: event.timestamp, event }));
}

const mailColumns: BulkColumn[] = [
  { name: 'company_id', type: 'int8' },
  { name: 'ts', type: 'timestamptz' },
  { name: 'id', type: 'int8' },
  { name: 'batch_id', type: 'int8' },
  { name: 'message_id', type: 'text' },
  { name: 'sent_at', type: 'timestamptz' },
  { name: 'sender', type: 'text' },
  { name: 'sender_name', type: 'text' },
  { name: 'recipients', type: 'text[]' },
  { name: 'subject', type: 'text' },
  { name: 'spf', type: 'text' },
  { name: 'dkim', type: 'text' },
  { name: 'dmarc', type: 'text' },
  { name: 'urls', type: 'text[]' },
  { name: 'attachment_count', type: 'int4' },
  { name: 'size', type: 'int8' },
  { name: 'event', type: 'jsonb' },
  { name: 'original_sha256', type: 'text' },
];

const attachmentColumns: BulkColumn[] = [
  { name: 'company_id', type: 'int8' },
  { name: 'ts', type: 'timestamptz' },
  { name: 'id', type: 'int8' },
  { name: 'mail_id', type: 'int8' },
  { name: 'filename', type: 'text' },
  { name: 'content_type', type: 'text' },
  { name: 'size', type: 'int8' },
  { name: 'md5', type: 'text' },
  { name: 'sha1', type: 'text' },
  { name: 'sha256', type: 'text' },
  { name: 'detected_type', type: 'text' },
  { name: 'inline', type: 'bool' },
];

/** A stored mail message: the MailMessage (attachments without bytes) with its and its attachments' ids. */
export interface StoredMail {
  id: number;
  ts: string;
  attachmentIds: number[];
}

/**
 * Stores one message, its attachments' metadata, and their bytes in the warehouse (once per
 * SHA-256 whoever sent them) with a sighting for the company.
 */
export async function storeMail(
  tx: Queryable,
  companyId: number,
  batchId: number,
  ts: string,
  message: ParsedMailMessage,
): Promise<StoredMail> {
  const [id] = await nextIds(tx, 'mail_messages', 1);
  const recipients = [...message.to, ...message.cc].flatMap((a) => (a.address === null ? [] : [a.address]));
  const { original, ...rest } = message;
  const event = { ...rest, attachments: message.attachments.map(({ content: _content, ...meta }) => meta) };
  const originalSha256 = await storeOriginal(tx, ts, original);
  await bulkInsert(tx, 'mail_messages', mailColumns, [
    [
      companyId,
      ts,
      id,
      batchId,
      message.message_id,
      message.date,
      message.from?.address ?? null,
      message.from?.name ?? null,
      recipients,
      message.subject,
      message.headers.spf,
      message.headers.dkim,
      message.headers.dmarc,
      message.urls,
      message.attachments.length,
      message.size,
      event,
      originalSha256,
    ],
  ]);
  const attachmentIds = await nextIds(tx, 'mail_attachments', message.attachments.length);
  await bulkInsert(
    tx,
    'mail_attachments',
    attachmentColumns,
    message.attachments.map((a, i) => [
      companyId,
      ts,
      attachmentIds[i],
      id,
      a.filename,
      a.content_type,
      a.size,
      a.md5,
      a.sha1,
      a.sha256,
      a.detected_type,
      a.inline,
    ]),
  );
  await storeInWarehouse(
    tx,
    companyId,
    ts,
    message.attachments.map((a) => ({ ...a, eventKind: 'mail' as const, eventId: id! })),
  );
  return { id: id!, ts, attachmentIds };
}

/**
 * Keeps a message's original bytes, gzip-compressed, once per SHA-256: bytes already held are
 * neither compressed nor sent again. Answers the hash the message names them by.
 */
async function storeOriginal(tx: Queryable, ts: string, original: Buffer): Promise<string> {
  const sha256 = createHash('sha256').update(original).digest('hex');
  const { rows } = await tx.query(sql`SELECT 1 FROM mail_originals WHERE sha256 = ${sha256}`);
  if (rows.length === 0) {
    const packed = await packOriginal(original);
    await tx.query(sql`
      INSERT INTO mail_originals (sha256, size, content, first_seen)
      VALUES (${sha256}, ${original.length}, decode(${packed.toString('base64')}, 'base64'), ${ts}::timestamptz)
      ON CONFLICT (sha256) DO NOTHING`);
  }
  return sha256;
}

export interface WarehouseInput {
  sha256: string;
  md5: string;
  sha1: string;
  size: number;
  detected_type: string;
  filename: string | null;
  content: Buffer;
  eventKind: 'mail' | 'network' | 'endpoint';
  eventId: number;
}

/** Whether the company has no sighting yet of one of these files (folded or still queued). */
async function unseenByCompany(tx: Queryable, companyId: number, hashes: readonly string[]): Promise<boolean> {
  const { rows } = await tx.query<{ n: string | number }>(sql`
    SELECT count(*) AS n FROM warehouse_hashes WHERE company_id = ${companyId} AND sha256 = ANY(${[...hashes]}::text[])`);
  return Number(rows[0]!.n) < hashes.length;
}

/**
 * Puts file bytes in the warehouse, each SHA-256 once: bytes already held are not sent again,
 * only their last sighting moves. Then counts the company's sightings of each hash.
 */
export async function storeInWarehouse(
  tx: Queryable,
  companyId: number,
  ts: string,
  files: readonly WarehouseInput[],
): Promise<void> {
  if (files.length === 0) return;
  const unique = new Map<string, WarehouseInput>();
  for (const file of files) if (!unique.has(file.sha256)) unique.set(file.sha256, file);
  const hashes = [...unique.keys()];
  const { rows } = await tx.query<{ sha256: string }>(
    sql`SELECT sha256 FROM warehouse_files WHERE sha256 = ANY(${hashes}::text[])`,
  );
  const held = new Set(rows.map((r) => r.sha256));
  const fresh = [...unique.values()].filter((f) => !held.has(f.sha256));
  // New bytes are scanned with the YARA rules by a background job: one statement, none if queued.
  // So are bytes held already that this company has not seen (its matches may be new to it).
  if (fresh.length > 0 || (held.size > 0 && (await unseenByCompany(tx, companyId, [...held]))))
    await requestYaraScan(tx);
  for (const file of fresh) {
    await tx.query(sql`
      INSERT INTO warehouse_files (sha256, md5, sha1, size, detected_type, content, first_seen, last_seen)
      VALUES (${file.sha256}, ${file.md5}, ${file.sha1}, ${file.size}, ${file.detected_type},
              decode(${file.content.toString('hex')}, 'hex'), ${ts}::timestamptz, ${ts}::timestamptz)
      ON CONFLICT (sha256) DO NOTHING`);
  }
  if (held.size > 0) {
    await tx.query(sql`
      UPDATE warehouse_files SET last_seen = greatest(last_seen, ${ts}::timestamptz)
      WHERE sha256 = ANY(${[...held]}::text[])`);
  }
  await recordSightings(
    tx,
    companyId,
    files.map((file) => ({ ...file, ts })),
  );
}
