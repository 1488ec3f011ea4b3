import type { EndpointEvent, MailMessage, NetworkEvent } from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition } from '../../http/tenancy';
import { likeLiteral, likeMatch } from '../../list/list-engine';
import { enqueueJobs } from '../jobs/jobs.queue';
import type { Detection } from '../pipeline/detections';
import type { DetectionPipeline } from '../pipeline/pipeline';
import type { StoredEvent } from '../pipeline/stored-events';
import { detectWithIndex } from './indicator-detections';
import { IndicatorIndex, type IndexedIndicator, type IndicatorIndexSource } from './indicator-index';
import { loadLiveIndicators } from './indicators.repository';

/** Job kind of a retro-hunt: `{ids: number[]}` of indicators added or changed. */
export const RETRO_HUNT_JOB = 'indicators.retro_hunt';
/** Indicators per retro-hunt job. */
const IDS_PER_JOB = 5000;
/** Most events read per event table by one retro-hunt job (newest first). */
export const RETRO_HUNT_MAX_EVENTS = 50_000;

/** Queues retro-hunts for alert indicators just written; call it in the transaction that wrote them. */
export async function enqueueRetroHunt(tx: Queryable, ids: readonly number[]): Promise<number> {
  const payloads = [];
  for (let start = 0; start < ids.length; start += IDS_PER_JOB)
    payloads.push({ ids: ids.slice(start, start + IDS_PER_JOB) });
  return enqueueJobs(tx, RETRO_HUNT_JOB, payloads, { maxAttempts: 3 });
}

/** The values of a set of indicators, grouped the way the event tables can be searched for them. */
function valuesOf(indicators: readonly IndexedIndicator[]) {
  const v = {
    ips: [] as string[],
    cidrs: [] as string[],
    names: [] as string[],
    patterns: [] as string[],
    urls: [] as string[],
    urlHosts: [] as string[],
    emails: [] as string[],
    md5s: [] as string[],
    sha1s: [] as string[],
    sha256s: [] as string[],
    filenames: [] as string[],
  };
  for (const i of indicators) {
    switch (i.type) {
      case 'ip':
        v.ips.push(i.value);
        break;
      case 'cidr':
        v.cidrs.push(i.value);
        break;
      case 'domain':
        v.names.push(i.value);
        v.patterns.push(`%.${likeLiteral(i.value)}`);
        break;
      case 'url':
        v.urls.push(i.value);
        v.urlHosts.push(new URL(i.value).hostname);
        break;
      case 'email':
        v.emails.push(i.value);
        break;
      case 'md5':
        v.md5s.push(i.value);
        break;
      case 'sha1':
        v.sha1s.push(i.value);
        break;
      case 'sha256':
        v.sha256s.push(i.value);
        break;
      case 'filename':
        v.filenames.push(i.value);
        break;
    }
  }
  return v;
}

type Values = ReturnType<typeof valuesOf>;
const baseName = (expr: SqlFragment) => sql`lower(regexp_replace(${expr}, '^.*[\\\\/]', ''))`;
const hostOf = (expr: SqlFragment) => sql`rtrim(lower(${expr}), '.')`;

function nameConditions(v: Values, expr: SqlFragment): SqlFragment[] {
  const out: SqlFragment[] = [];
  if (v.names.length > 0) {
    out.push(sql`${hostOf(expr)} = ANY(${v.names}::text[])`);
    // A subdomain of a listed name; LIKE ANY takes no ESCAPE clause, so one LIKE per pattern.
    const host = hostOf(expr);
    out.push(
      sql`EXISTS (SELECT 1 FROM unnest(${v.patterns}::text[]) AS p(pattern) WHERE ${likeMatch(host, sql`p.pattern`, false)})`,
    );
  }
  return out;
}

function ipConditions(v: Values, expr: SqlFragment): SqlFragment[] {
  const out: SqlFragment[] = [];
  if (v.ips.length > 0) out.push(sql`${expr} = ANY(${v.ips}::inet[])`);
  if (v.cidrs.length > 0) out.push(sql`${expr} <<= ANY(${v.cidrs}::inet[])`);
  return out;
}

function any(list: string[], expr: SqlFragment): SqlFragment[] {
  return list.length > 0 ? [sql`${expr} = ANY(${list}::text[])`] : [];
}

const isoTs = sql`to_char(e.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

interface EventRow {
  company_id: number;
  id: number;
  ts: string;
  event: Record<string, unknown>;
}

/**
 * Events of the last `days` days that may hold one of the indicators' values: one set-based query
 * per event table (a superset: the exact match, with the index's own semantics, is made in memory
 * afterwards). Each table is read newest first, at most RETRO_HUNT_MAX_EVENTS rows.
 */
export async function retroHuntCandidates(
  db: Queryable,
  indicators: readonly IndexedIndicator[],
  days: number,
): Promise<StoredEvent[]> {
  if (indicators.length === 0) return [];
  const v = valuesOf(indicators);
  const companies = indicators.some((i) => i.all) ? null : [...new Set(indicators.map((i) => i.companyId))];
  const common = sql.and([
    sql`e.ts >= now() - make_interval(days => ${days}::int4)`,
    tenantCondition({ companies: companies ?? 'all' }, sql`e.company_id`),
  ]);
  const limit = RETRO_HUNT_MAX_EVENTS;
  const events: StoredEvent[] = [];

  const network = sql.or([
    ...ipConditions(v, sql`e.src_ip`),
    ...ipConditions(v, sql`e.dest_ip`),
    ...nameConditions(v, sql`e.dns_rrname`),
    ...nameConditions(v, sql`e.http_hostname`),
    ...nameConditions(v, sql`e.tls_sni`),
    ...any(v.urlHosts, hostOf(sql`e.http_hostname`)),
    ...any(v.sha256s, sql`e.file_sha256`),
    ...any(v.md5s, sql`(e.event #>> '{fileinfo,md5}')`),
    ...any(v.sha1s, sql`(e.event #>> '{fileinfo,sha1}')`),
    ...any(v.filenames, baseName(sql`(e.event #>> '{fileinfo,filename}')`)),
  ]);
  const networkRows = await db.query<EventRow>(sql`
    SELECT e.company_id, e.id, ${isoTs} AS ts, e.event FROM network_events e
    WHERE ${common} AND (${network}) ORDER BY e.ts DESC LIMIT ${limit}`);
  for (const r of networkRows.rows)
    events.push({
      kind: 'network',
      companyId: Number(r.company_id),
      id: Number(r.id),
      ts: r.ts,
      event: { ...(r.event as Omit<NetworkEvent, 'raw'>), raw: {} },
    });

  const endpoint = sql.or([
    ...ipConditions(v, sql`e.dest_ip`),
    ...nameConditions(v, sql`e.dns_question`),
    ...any(v.sha256s, sql`e.process_sha256`),
    ...any(v.sha256s, sql`e.file_sha256`),
    ...any(v.md5s, sql`(e.event #>> '{process,hash,md5}')`),
    ...any(v.md5s, sql`(e.event #>> '{file,hash,md5}')`),
    ...any(v.sha1s, sql`(e.event #>> '{process,hash,sha1}')`),
    ...any(v.sha1s, sql`(e.event #>> '{file,hash,sha1}')`),
    ...any(v.filenames, baseName(sql`coalesce(e.event #>> '{process,executable}', e.process_name)`)),
    ...any(v.filenames, baseName(sql`coalesce(e.event #>> '{process,parent,executable}', e.parent_name)`)),
    ...any(v.filenames, baseName(sql`coalesce(e.event #>> '{file,name}', e.file_path)`)),
    ...any(v.emails, sql`lower(e.event #>> '{user,name}')`),
  ]);
  const endpointRows = await db.query<EventRow>(sql`
    SELECT e.company_id, e.id, ${isoTs} AS ts, e.event FROM endpoint_events e
    WHERE ${common} AND (${endpoint}) ORDER BY e.ts DESC LIMIT ${limit}`);
  for (const r of endpointRows.rows)
    events.push({
      kind: 'endpoint',
      companyId: Number(r.company_id),
      id: Number(r.id),
      ts: r.ts,
      event: { ...(r.event as Omit<EndpointEvent, 'raw'>), raw: {} },
    });

  const addressDomain = (expr: SqlFragment) => sql`split_part(lower(${expr}), '@', 2)`;
  const urlHost = sql`lower(substring(u from '^[a-z]+://(?:[^@/]*@)?([^/:?#]+)'))`;
  const urlHostConditions = [
    ...nameConditions(v, urlHost),
    ...(v.ips.length > 0 ? [sql`${urlHost} = ANY(${v.ips}::text[])`] : []),
  ];
  const attachmentConditions = [
    ...any(v.md5s, sql`a.md5`),
    ...any(v.sha1s, sql`a.sha1`),
    ...any(v.sha256s, sql`a.sha256`),
    ...any(v.filenames, sql`lower(a.filename)`),
  ];
  const mail = sql.or([
    ...any(v.emails, sql`lower(e.sender)`),
    ...nameConditions(v, addressDomain(sql`e.sender`)),
    ...(v.emails.length > 0 || v.names.length > 0
      ? [
          sql`EXISTS (SELECT 1 FROM jsonb_array_elements(e.event -> 'reply_to') r
                WHERE (${sql.or([
                  ...any(v.emails, sql`lower(r ->> 'address')`),
                  ...nameConditions(v, addressDomain(sql`(r ->> 'address')`)),
                ])}))`,
        ]
      : []),
    ...(v.urls.length > 0 ? [sql`e.urls && ${v.urls}::text[]`] : []),
    ...(urlHostConditions.length > 0
      ? [sql`EXISTS (SELECT 1 FROM unnest(e.urls) AS u WHERE (${sql.or(urlHostConditions)}))`]
      : []),
    ...(attachmentConditions.length > 0
      ? [
          sql`EXISTS (SELECT 1 FROM mail_attachments a
                WHERE a.company_id = e.company_id AND a.mail_id = e.id AND (${sql.or(attachmentConditions)}))`,
        ]
      : []),
  ]);
  const mailRows = await db.query<EventRow>(sql`
    SELECT e.company_id, e.id, ${isoTs} AS ts, e.event FROM mail_messages e
    WHERE ${common} AND (${mail}) ORDER BY e.ts DESC LIMIT ${limit}`);
  for (const r of mailRows.rows)
    events.push({
      kind: 'mail',
      companyId: Number(r.company_id),
      id: Number(r.id),
      ts: r.ts,
      event: r.event as MailMessage,
    });
  return events;
}

/**
 * Past sightings of the given alert indicators in the last `days` days, as detections. Matching
 * uses the same code as ingest, on an index of just these indicators; values that a live ignore
 * indicator (in `current`, the full index) covers are dropped, as they would be at ingest.
 */
export async function retroHuntDetections(
  db: Queryable,
  indicators: readonly IndexedIndicator[],
  days: number,
  current: IndicatorIndex,
): Promise<Detection[]> {
  const alerting = indicators.filter((i) => i.policy === 'alert');
  const candidates = await retroHuntCandidates(db, alerting, days);
  if (candidates.length === 0) return [];
  const index = new IndicatorIndex(alerting);
  const byCompany = new Map<number, StoredEvent[]>();
  for (const event of candidates) {
    const list = byCompany.get(event.companyId);
    if (list) list.push(event);
    else byCompany.set(event.companyId, [event]);
  }
  const now = Date.now();
  const detections: Detection[] = [];
  for (const [companyId, events] of byCompany) {
    for (const d of detectWithIndex(index, companyId, events, now)) {
      const observed = d.observables[0];
      if (observed && d.source.type === 'indicator') {
        const type = d.source.indicatorType as IndexedIndicator['type'];
        if (current.match(companyId, type === 'cidr' ? 'ip' : type, observed.value, now).ignored) continue;
      }
      detections.push({ ...d, description: `${d.description}\nFound by retro-hunt over the last ${days} days.` });
    }
  }
  return detections;
}

/** Detections raised per transaction by one retro-hunt job. */
const RAISE_CHUNK = 5000;

/**
 * The retro-hunt job: loads the indicators named in the payload (live alert ones only), searches
 * the stored events, and raises alerts for what it finds through the same pipeline as ingest
 * (raise, group, match; live updates after commit), a chunk per transaction. Alerts deduplicate
 * as at ingest, so a job run twice (delivery is at least once) adds to the same alerts' counts only
 * within the deduplication window.
 */
export function retroHuntJobHandler(options: {
  db: Database;
  days: number;
  /** The live index, whose ignore indicators drop what they cover. */
  indexes: IndicatorIndexSource;
  pipeline: Pick<DetectionPipeline, 'raise' | 'publish'>;
}) {
  return async (payload: unknown): Promise<void> => {
    const ids = (payload as { ids?: unknown } | null)?.ids;
    if (!Array.isArray(ids)) return;
    const wanted = ids.filter((id): id is number => typeof id === 'number' && Number.isInteger(id));
    const indicators = (await loadLiveIndicators(options.db, wanted)).filter((i) => i.policy === 'alert');
    const detections = await retroHuntDetections(options.db, indicators, options.days, options.indexes.current());
    for (let start = 0; start < detections.length; start += RAISE_CHUNK) {
      const chunk = detections.slice(start, start + RAISE_CHUNK);
      const result = await options.db.transaction((tx) => options.pipeline.raise(tx, chunk));
      if (result.live.length > 0) await options.pipeline.publish(result.live);
    }
  };
}
