import {
  FILE_SIGHTINGS_LIMIT,
  PROCESS_TREE_LIMIT,
  type FileDetail,
  type IndicatorVerdict,
  type MailDetail,
  type MailMessage,
  type ProcessTree,
  type ProcessTreeRequest,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';
import { sameText } from '../../list/list-engine';
import type { IndicatorIndex } from '../indicators/indicator-index';
import { parseAuthenticationHeader, summariseAuthentication } from '../ingest/parsers/authentication-results';
import { toMailAttachment, type MailAttachmentRow, type MailMessageRow } from './events.repository';
import { buildProcessTree, verdictOf, worstVerdict, type Observed, type ProcessEventRow } from './investigation';

const iso = (value: Date | string) => new Date(value).toISOString();

/** A mail message with its authentication results, URLs and attachments, each with what the indicators say. */
export function mailDetail(
  row: MailMessageRow,
  attachments: ReadonlyArray<MailAttachmentRow & { stored: boolean }>,
  index: IndicatorIndex,
): MailDetail {
  const companyId = Number(row.company_id);
  const message = row.event as unknown as MailMessage;
  const headers: Partial<MailMessage['headers']> = message.headers ?? {};
  const parsedHeaders = (headers.authentication_results ?? []).map(parseAuthenticationHeader);
  // The summary is read from the breakdown it is shown with; Received-SPF only stands in for SPF.
  const receivedSpf =
    (message.header_lines ?? []).find((h) => h.name.toLowerCase() === 'received-spf')?.value ??
    (parsedHeaders.some((h) => h.results.some((r) => r.method === 'spf')) ? null : (headers.spf ?? null));
  const urlsOf = new Map((message.attachments ?? []).map((a) => [a.sha256, a.urls ?? []]));
  const urls = (message.urls ?? []).map((url) => {
    let host: string | null = null;
    try {
      host = new URL(url).hostname || null;
    } catch {
      host = null;
    }
    return { url, host, verdict: verdictOf(index, companyId, [{ kind: 'url', value: url }]) };
  });
  const files = attachments.map((a) => ({
    ...toMailAttachment(a),
    stored: a.stored,
    urls: urlsOf.get(a.sha256) ?? [],
    verdict: verdictOf(index, companyId, [
      { kind: 'sha256', value: a.sha256 },
      { kind: 'md5', value: a.md5 },
      { kind: 'sha1', value: a.sha1 },
      { kind: 'filename', value: a.filename },
    ]),
  }));
  const senders: Observed[] = [
    { kind: 'email', value: message.from?.address },
    ...(message.reply_to ?? []).map((r): Observed => ({ kind: 'email', value: r.address })),
  ];
  const verdict = worstVerdict([
    verdictOf(index, companyId, senders),
    ...urls.map((u) => u.verdict),
    ...files.map((f) => f.verdict),
  ]);
  return {
    id: Number(row.id),
    company_id: companyId,
    ts: iso(row.ts),
    batch_id: Number(row.batch_id),
    event: row.event,
    raw: row.event,
    authentication: { ...summariseAuthentication(parsedHeaders, receivedSpf), headers: parsedHeaders },
    original: row.original_sha256 === null ? null : { sha256: row.original_sha256, size: Number(row.original_size) },
    urls,
    attachments: files,
    verdict,
  };
}

interface HashRow {
  company_id: number;
  company_name: string;
  md5: string | null;
  sha1: string | null;
  filename: string | null;
  sources: string[];
  sightings: number;
  first_seen: Date;
  last_seen: Date;
}

/** Everything the caller's companies know of a SHA-256; null when none of them saw it. */
export async function fileDetail(
  db: Queryable,
  sha256: string,
  scope: TenantScope,
  index: IndicatorIndex,
): Promise<FileDetail | null> {
  const hashes = await db.query<HashRow>(sql`
    SELECT h.company_id, c.name AS company_name, h.md5, h.sha1, h.filename, h.sources, h.sightings, h.first_seen, h.last_seen
    FROM warehouse_hashes h JOIN companies c ON c.id = h.company_id
    WHERE h.sha256 = ${sha256} AND ${tenantCondition(scope, sql`h.company_id`)}
    ORDER BY h.last_seen DESC, h.company_id`);
  if (hashes.rows.length === 0) return null;
  const companyIds = hashes.rows.map((r) => Number(r.company_id));
  // Only the companies that saw it (all of them in the caller's scope) can hold events naming it.
  const seenBy: TenantScope = { companies: companyIds };
  const inCompanies = (column: SqlFragment) => tenantCondition(seenBy, column);
  const [file, mails, endpoint, network] = await Promise.all([
    db.query<{ md5: string; sha1: string; size: number; detected_type: string }>(
      sql`SELECT md5, sha1, size, detected_type FROM warehouse_files WHERE sha256 = ${sha256}`,
    ),
    db.query<{
      id: number;
      company_id: number;
      ts: Date;
      subject: string | null;
      sender: string | null;
      filename: string | null;
    }>(sql`
      SELECT m.id, m.company_id, m.ts, m.subject, m.sender, a.filename
      FROM mail_attachments a
      JOIN mail_messages m ON m.company_id = a.company_id AND m.ts = a.ts AND m.id = a.mail_id
      WHERE a.sha256 = ${sha256} AND ${inCompanies(sql`a.company_id`)}
      ORDER BY a.ts DESC, a.id DESC LIMIT ${FILE_SIGHTINGS_LIMIT}`),
    db.query<{
      id: number;
      company_id: number;
      ts: Date;
      host_name: string | null;
      action: string | null;
      process_name: string | null;
      file_path: string | null;
      user_name: string | null;
    }>(sql`
      SELECT e.id, e.company_id, e.ts, e.host_name, e.action, e.process_name, e.file_path, e.user_name
      FROM endpoint_events e
      WHERE (e.process_sha256 = ${sha256} OR e.file_sha256 = ${sha256}) AND ${inCompanies(sql`e.company_id`)}
      ORDER BY e.ts DESC, e.id DESC LIMIT ${FILE_SIGHTINGS_LIMIT}`),
    db.query<{
      id: number;
      company_id: number;
      ts: Date;
      src_ip: string | null;
      dest_ip: string | null;
      app_proto: string | null;
      filename: string | null;
    }>(sql`
      SELECT e.id, e.company_id, e.ts, host(e.src_ip) AS src_ip, host(e.dest_ip) AS dest_ip, e.app_proto,
             e.event #>> '{fileinfo,filename}' AS filename
      FROM network_events e
      WHERE e.file_sha256 = ${sha256} AND ${inCompanies(sql`e.company_id`)}
      ORDER BY e.ts DESC, e.id DESC LIMIT ${FILE_SIGHTINGS_LIMIT}`),
  ]);
  const stored = file.rows[0];
  const latest = hashes.rows[0]!;
  const md5 = stored?.md5 ?? hashes.rows.find((r) => r.md5)?.md5 ?? null;
  const sha1 = stored?.sha1 ?? hashes.rows.find((r) => r.sha1)?.sha1 ?? null;
  const verdicts: IndicatorVerdict[] = companyIds.map((companyId) =>
    verdictOf(index, companyId, [
      { kind: 'sha256', value: sha256 },
      { kind: 'md5', value: md5 },
      { kind: 'sha1', value: sha1 },
    ]),
  );
  return {
    sha256,
    md5,
    sha1,
    size: stored ? Number(stored.size) : null,
    detected_type: stored?.detected_type ?? null,
    filename: latest.filename ?? hashes.rows.find((r) => r.filename)?.filename ?? null,
    stored: stored !== undefined,
    first_seen: iso(new Date(Math.min(...hashes.rows.map((r) => new Date(r.first_seen).getTime())))),
    last_seen: iso(latest.last_seen),
    sightings: hashes.rows.reduce((sum, r) => sum + Number(r.sightings), 0),
    verdict: worstVerdict(verdicts),
    companies: hashes.rows.map((r) => ({
      company_id: Number(r.company_id),
      company_name: r.company_name,
      filename: r.filename,
      sources: r.sources,
      sightings: Number(r.sightings),
      first_seen: iso(r.first_seen),
      last_seen: iso(r.last_seen),
    })),
    mails: mails.rows.map((r) => ({
      id: Number(r.id),
      company_id: Number(r.company_id),
      ts: iso(r.ts),
      subject: r.subject,
      sender: r.sender,
      filename: r.filename,
    })),
    endpoint_events: endpoint.rows.map((r) => ({
      id: Number(r.id),
      company_id: Number(r.company_id),
      ts: iso(r.ts),
      host_name: r.host_name,
      action: r.action,
      process_name: r.process_name,
      file_path: r.file_path,
      user_name: r.user_name,
    })),
    network_events: network.rows.map((r) => ({
      id: Number(r.id),
      company_id: Number(r.company_id),
      ts: iso(r.ts),
      src_ip: r.src_ip,
      dest_ip: r.dest_ip,
      app_proto: r.app_proto,
      filename: r.filename,
    })),
  };
}

/** Events read for one tree at most: a busy host's window beyond this is reported as truncated. */
const PROCESS_EVENTS_READ = 50_000;

interface ProcessSqlRow extends Omit<ProcessEventRow, 'ts' | 'id' | 'company_id' | 'pid' | 'parent_pid'> {
  id: string | number;
  company_id: string | number;
  ts: Date | string;
  pid: string | number | null;
  parent_pid: string | null;
}

const toInt = (value: string | number | null): number | null => {
  if (value === null) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
};

/** The processes of one host in a time window, linked parent → child (see buildProcessTree). */
export async function processTree(db: Queryable, input: ProcessTreeRequest, scope: TenantScope): Promise<ProcessTree> {
  const company = input.company_id === undefined ? sql`TRUE` : sql`e.company_id = ${input.company_id}::int8`;
  const { rows } = await db.query<ProcessSqlRow>(sql`
    SELECT e.id, e.company_id, e.ts, e.action, e.process_pid AS pid,
           e.event #>> '{process,entity_id}' AS entity_id,
           e.event #>> '{process,parent,pid}' AS parent_pid,
           coalesce(e.event #>> '{process,parent,entity_id}',
                    e.raw #>> '{process,parent,entity_id}', e.raw ->> 'process.parent.entity_id',
                    e.event #>> '{event_data,ParentProcessGuid}') AS parent_entity_id,
           e.process_name AS name, e.event #>> '{process,executable}' AS executable, e.command_line,
           e.parent_name, coalesce(e.event #>> '{process,user}', e.user_name) AS "user",
           e.event #>> '{process,hash,md5}' AS md5, e.event #>> '{process,hash,sha1}' AS sha1,
           e.process_sha256 AS sha256
    FROM endpoint_events e
    WHERE ${sameText(sql`e.host_name`, input.host_name)} AND e.ts >= ${input.from}::timestamptz AND e.ts <= ${input.to}::timestamptz
      AND (e.process_pid IS NOT NULL OR e.event #>> '{process,entity_id}' IS NOT NULL)
      AND ${company} AND ${tenantCondition(scope, sql`e.company_id`)}
    ORDER BY e.ts, e.id
    LIMIT ${PROCESS_EVENTS_READ + 1}`);
  const readAll = rows.length <= PROCESS_EVENTS_READ;
  const events: ProcessEventRow[] = rows.slice(0, PROCESS_EVENTS_READ).map((r) => ({
    ...r,
    id: Number(r.id),
    company_id: Number(r.company_id),
    ts: iso(r.ts),
    pid: toInt(r.pid),
    parent_pid: toInt(r.parent_pid),
  }));
  const tree = buildProcessTree(events, PROCESS_TREE_LIMIT, input.root_pid);

  // Alerts raised from the processes' events, to mark them in the tree.
  const eventIds = tree.processes.flatMap((p) => p.event_ids);
  const companies: TenantScope = { companies: [...new Set(tree.processes.map((p) => p.company_id))] };
  if (eventIds.length > 0) {
    const links = await db.query<{ event_id: string; alert_id: string }>(sql`
      SELECT ae.event_id, ae.alert_id FROM alert_events ae
      WHERE ${tenantCondition(companies, sql`ae.company_id`)} AND ae.event_kind = 'endpoint'
        AND ae.event_id = ANY(${eventIds}::int8[])`);
    const alertsOf = new Map<number, number[]>();
    for (const link of links.rows) {
      const list = alertsOf.get(Number(link.event_id)) ?? [];
      list.push(Number(link.alert_id));
      alertsOf.set(Number(link.event_id), list);
    }
    for (const process of tree.processes) {
      const ids = new Set(process.event_ids.flatMap((id) => alertsOf.get(id) ?? []));
      process.alert_ids = [...ids].sort((a, b) => a - b);
    }
  }
  return {
    host_name: input.host_name,
    from: input.from,
    to: input.to,
    truncated: tree.truncated || !readAll,
    processes: tree.processes.map(({ event_ids: _eventIds, ...process }) => process),
  };
}
