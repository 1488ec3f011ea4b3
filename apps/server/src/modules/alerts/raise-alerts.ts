import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { recordSystemAudits, type SystemAuditEntry } from '../audit/audit.service';
import { liveEvents, type LiveEvent } from '../live/live.bus';
import { severityScore, type Detection, type EventRef, type NewAlert, type Observable } from '../pipeline/detections';

/** Linked events kept per alert; `count` keeps counting past it. */
export const MAX_LINKED_EVENTS = 100;
const MAX_OBSERVABLES = 200;
/** Alert ids listed in one aggregated 'deduplicate' audit record. */
const MAX_AUDIT_IDS = 1000;

export interface RaiseOptions {
  /** Minutes within which an open alert with the same key absorbs a detection (the app passes ALERT_DEDUP_WINDOW_MINUTES). */
  dedupWindowMinutes: number;
}

export interface Raised {
  /** Alerts raised by this batch, as grouping and matchers take them. */
  created: NewAlert[];
  /** Existing alerts the batch's detections were folded into. */
  updated: number[];
  /** `alert.created` and `alert.updated` live updates, to publish once the transaction has committed. */
  live: LiveEvent[];
}

interface Group {
  companyId: number;
  dedupKey: string;
  first: Detection;
  firstSeen: string;
  lastSeen: string;
  count: number;
  observables: Observable[];
  mitre: string[];
  events: EventRef[];
}

/** Folds a batch into one group per (company, key): earliest detection gives title and severity. */
function groupDetections(detections: readonly Detection[]): Group[] {
  const groups = new Map<string, Group>();
  for (const d of detections) {
    const key = `${d.companyId}\u0000${d.dedupKey}`;
    const at = new Date(d.occurredAt).toISOString();
    let g = groups.get(key);
    if (!g) {
      g = {
        companyId: d.companyId,
        dedupKey: d.dedupKey,
        first: d,
        firstSeen: at,
        lastSeen: at,
        count: 0,
        observables: [],
        mitre: [],
        events: [],
      };
      groups.set(key, g);
    }
    g.count += 1;
    if (at < g.firstSeen) {
      g.firstSeen = at;
      g.first = d;
    }
    if (at > g.lastSeen) g.lastSeen = at;
    if (severityScore[d.severity] > severityScore[g.first.severity] && at === g.firstSeen) g.first = d;
    for (const o of d.observables) {
      if (g.observables.length >= MAX_OBSERVABLES) break;
      if (!g.observables.some((x) => x.kind === o.kind && x.value === o.value)) g.observables.push(o);
    }
    for (const t of d.mitre) if (!g.mitre.includes(t)) g.mitre.push(t);
    if (g.events.length < MAX_LINKED_EVENTS) g.events.push(d.event);
  }
  return [...groups.values()];
}

/**
 * Raises alerts from a batch of detections inside the caller's (ingest batch) transaction.
 *
 * Deduplication: a detection whose company and `dedupKey` match an alert that is still open
 * (new or in progress) and was last seen within the window adds to that alert — `count`,
 * `last_seen`, a linked event — instead of raising another. The whole batch costs a fixed handful
 * of statements whatever its size: one advisory-lock statement (so concurrent batches with the
 * same keys serialise instead of raising twins), one UPDATE … / INSERT … statement, one insert of
 * linked events, one of audit records. Incident grouping and matchers are not its business: the
 * pipeline hands them the new alerts it answers.
 *
 * Audit: each new alert gets its own 'raise' record (system user); deduplications are aggregated
 * into one 'deduplicate' record per company and batch listing the alert ids and detection count —
 * a noisy sensor would otherwise write an audit row per event.
 */
export async function raiseAlerts(
  tx: Queryable,
  detections: readonly Detection[],
  options: RaiseOptions,
): Promise<Raised> {
  if (detections.length === 0) return { created: [], updated: [], live: [] };
  const windowMinutes = options.dedupWindowMinutes;
  const groups = groupDetections(detections);

  await tx.query(sql`
    SELECT count(pg_advisory_xact_lock(h)) FROM (
      SELECT DISTINCT hashtextextended(c::text || ':' || k, 0) AS h
      FROM unnest(${groups.map((g) => String(g.companyId))}::int8[], ${groups.map((g) => g.dedupKey)}::text[]) AS u(c, k)
      ORDER BY h
    ) s`);

  const col = <T>(pick: (g: Group) => T) => groups.map(pick);
  const { rows } = await tx.query<{ op: 'c' | 'u'; id: number; company_id: number; ord: number; before: number }>(sql`
    WITH input AS (
      SELECT * FROM unnest(
        ${col((g) => g.companyId)}::int8[], ${col((g) => g.dedupKey)}::text[], ${col((g) => g.first.title)}::text[],
        ${col((g) => g.first.description)}::text[], ${col((g) => g.first.severity)}::text[],
        ${col((g) => severityScore[g.first.severity])}::int4[], ${col((g) => g.first.event.kind)}::text[],
        ${col((g) => JSON.stringify(g.first.source))}::jsonb[], ${col((g) => g.firstSeen)}::timestamptz[],
        ${col((g) => g.lastSeen)}::timestamptz[], ${col((g) => g.count)}::int8[],
        ${col((g) => JSON.stringify(g.observables))}::jsonb[], ${col((g) => JSON.stringify(g.mitre))}::jsonb[],
        ${groups.map((_, i) => i)}::int4[]
      ) AS i(company_id, dedup_key, title, description, severity, score, source, detection, first_seen, last_seen, n,
             observables, mitre, ord)
    ),
    matched AS (
      SELECT DISTINCT ON (i.ord) i.ord, a.company_id, a.id
      FROM input i
      JOIN alerts a ON a.company_id = i.company_id AND a.dedup_key = i.dedup_key
       AND a.status IN ('new', 'in_progress')
       AND a.last_seen >= i.first_seen - make_interval(mins => ${windowMinutes}::int4)
      ORDER BY i.ord, a.last_seen DESC
    ),
    updated AS (
      UPDATE alerts a
         SET count = a.count + i.n,
             last_seen = GREATEST(a.last_seen, i.last_seen),
             first_seen = LEAST(a.first_seen, i.first_seen),
             updated_at = now()
        FROM matched m JOIN input i ON i.ord = m.ord
       WHERE a.company_id = m.company_id AND a.id = m.id
      RETURNING a.id, a.company_id, i.ord, a.count - i.n AS before
    ),
    inserted AS (
      INSERT INTO alerts (company_id, title, description, severity, score, source, detection, dedup_key,
                          first_seen, last_seen, count, observables, mitre)
      SELECT i.company_id, i.title, i.description, i.severity, i.score, i.source, i.detection, i.dedup_key,
             i.first_seen, i.last_seen, i.n, i.observables,
             ARRAY(SELECT jsonb_array_elements_text(i.mitre))
        FROM input i
       WHERE NOT EXISTS (SELECT 1 FROM matched m WHERE m.ord = i.ord)
       ORDER BY i.ord
      RETURNING id, company_id, dedup_key
    )
    SELECT 'u' AS op, id, company_id, ord, before FROM updated
    UNION ALL
    SELECT 'c' AS op, n.id, n.company_id, i.ord, 0::int8 AS before
      FROM inserted n JOIN input i ON i.company_id = n.company_id AND i.dedup_key = n.dedup_key`);

  const created: NewAlert[] = [];
  const updated: { id: number; company_id: number; count: number }[] = [];
  const eventRows: unknown[][] = [];
  const audits: SystemAuditEntry[] = [];
  for (const row of rows.sort((x, y) => x.ord - y.ord)) {
    const g = groups[row.ord] as Group;
    const room = Math.max(0, MAX_LINKED_EVENTS - Math.min(Number(row.before), MAX_LINKED_EVENTS));
    for (const e of g.events.slice(0, room)) eventRows.push([row.company_id, row.id, e.kind, e.id, e.ts]);
    if (row.op === 'c') {
      created.push({
        id: row.id,
        company_id: row.company_id,
        title: g.first.title,
        severity: g.first.severity,
        score: severityScore[g.first.severity],
        source: g.first.event.kind,
        detection: g.first.source,
        observables: g.observables,
      });
      audits.push({
        companyId: row.company_id,
        action: 'raise',
        objectType: 'alert',
        objectId: row.id,
        objectRepr: g.first.title.slice(0, 200),
        changes: {
          status: { before: null, after: 'new' },
          severity: { before: null, after: g.first.severity },
          count: { before: null, after: g.count },
        },
      });
    } else {
      updated.push({ id: row.id, company_id: row.company_id, count: g.count });
    }
  }
  if (eventRows.length > 0) {
    await bulkInsert(
      tx,
      'alert_events',
      [
        { name: 'company_id', type: 'int8' },
        { name: 'alert_id', type: 'int8' },
        { name: 'event_kind', type: 'text' },
        { name: 'event_id', type: 'int8' },
        { name: 'ts', type: 'timestamptz' },
      ],
      eventRows,
      { onConflictDoNothing: true },
    );
  }
  const dedupByCompany = new Map<number, { ids: number[]; detections: number }>();
  for (const u of updated) {
    const entry = dedupByCompany.get(u.company_id) ?? { ids: [], detections: 0 };
    entry.ids.push(u.id);
    entry.detections += u.count;
    dedupByCompany.set(u.company_id, entry);
  }
  for (const [companyId, entry] of dedupByCompany) {
    audits.push({
      companyId,
      action: 'deduplicate',
      objectType: 'alert',
      objectId: null,
      objectRepr: `${entry.ids.length} alert(s), ${entry.detections} detection(s)`,
      changes: {
        alert_ids: { before: null, after: entry.ids.slice(0, MAX_AUDIT_IDS) },
        alerts: { before: null, after: entry.ids.length },
        detections: { before: null, after: entry.detections },
      },
    });
  }
  await recordSystemAudits(tx, audits);

  return {
    created,
    updated: updated.map((u) => u.id),
    live: [...liveEvents('alert.created', created), ...liveEvents('alert.updated', updated)],
  };
}
