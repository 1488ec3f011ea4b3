import type { RuleKind } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { AlertSeverity } from '../pipeline/detections';

/*
 * What the detection stages and the YARA scan read of the rule store (rules.repository.ts writes the
 * rules; this file is the one reader of the enabled sets and the one writer of hit counts): the enabled
 * rules of a kind, the all-companies rules a company turned off, a cheap version that tells a stage
 * when to read them again, a company's Suricata threshold.config entries, and the hit counts the
 * stages add to.
 */

/** An enabled rule as a detection stage needs it. */
export interface EngineRule {
  id: number;
  companyId: number;
  scope: 'company' | 'all';
  revision: number;
  ruleKey: string;
  title: string;
  level: AlertSeverity;
  techniques: string[];
  author: string;
  licence: string;
  fileName: string;
  source: string;
  details: Record<string, unknown>;
}

/** The enabled rules of a kind, every company's and the all-companies ones, in id order. */
export async function loadEnabledRules(db: Queryable, kind: RuleKind): Promise<EngineRule[]> {
  const { rows } = await db.query<{
    id: number;
    company_id: number;
    scope: 'company' | 'all';
    revision: number;
    rule_key: string;
    title: string;
    level: AlertSeverity;
    techniques: string[];
    author: string;
    licence: string;
    file_name: string;
    source: string;
    details: Record<string, unknown>;
  }>(sql`
    SELECT id, company_id, scope, revision, rule_key, title, level, techniques, author, licence, file_name, source,
      details
    FROM rules WHERE kind = ${kind} AND enabled AND unsupported IS NULL
    ORDER BY id`);
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: Number(r.company_id),
    scope: r.scope,
    revision: Number(r.revision),
    ruleKey: r.rule_key,
    title: r.title,
    level: r.level,
    techniques: r.techniques,
    author: r.author,
    licence: r.licence,
    fileName: r.file_name,
    source: r.source,
    details: r.details,
  }));
}

/** A stored rule that is not enabled (or cannot run): its alerts are not raised. */
export interface DisabledRuleKey {
  companyId: number;
  scope: 'company' | 'all';
  ruleKey: string;
}

/** The keys of the stored rules of a kind that are disabled or cannot run. */
export async function loadDisabledRuleKeys(db: Queryable, kind: RuleKind): Promise<DisabledRuleKey[]> {
  const { rows } = await db.query<{ company_id: number; scope: 'company' | 'all'; rule_key: string }>(sql`
    SELECT company_id, scope, rule_key FROM rules
    WHERE kind = ${kind} AND NOT (enabled AND unsupported IS NULL)`);
  return rows.map((r) => ({ companyId: Number(r.company_id), scope: r.scope, ruleKey: r.rule_key }));
}

/** Per company, the all-companies rules of a kind it turned off. */
export async function loadTurnedOff(db: Queryable, kind: RuleKind): Promise<Map<number, Set<number>>> {
  const { rows } = await db.query<{ company_id: number; rule_id: number }>(sql`
    SELECT s.company_id, s.rule_id FROM rule_company_settings s JOIN rules r ON r.id = s.rule_id
    WHERE r.kind = ${kind} AND r.scope = 'all' AND NOT s.enabled`);
  const out = new Map<number, Set<number>>();
  for (const row of rows) {
    const companyId = Number(row.company_id);
    let set = out.get(companyId);
    if (set === undefined) out.set(companyId, (set = new Set()));
    set.add(Number(row.rule_id));
  }
  return out;
}

/**
 * A text that changes whenever the rules of a kind or the per-company settings change: their
 * counts and latest change times (a write sets updated_at; a deletion lowers a count). One small
 * statement, read once per batch: a stage reloads and recompiles only when it differs.
 */
export async function ruleSetVersion(db: Queryable, kind: RuleKind): Promise<string> {
  const { rows } = await db.query<{ version: string }>(sql`
    SELECT concat_ws('/',
      (SELECT count(*) FROM rules WHERE kind = ${kind}),
      (SELECT max(updated_at) FROM rules WHERE kind = ${kind}),
      (SELECT count(*) FROM rule_company_settings),
      (SELECT max(updated_at) FROM rule_company_settings)) AS version`);
  return rows[0]?.version ?? '';
}

/** A company's Suricata threshold.config entries, in the order they were written. */
export async function loadSuricataThresholds(db: Queryable, companyId: number): Promise<string[]> {
  const { rows } = await db.query<{ entry: string }>(sql`
    SELECT entry FROM suricata_thresholds WHERE company_id = ${companyId} ORDER BY id`);
  return rows.map((r) => r.entry);
}

/** Matches of one rule for one company on one day. */
export interface RuleHit {
  companyId: number;
  ruleId: number;
  /** The day of the matches, `YYYY-MM-DD` (UTC). */
  day: string;
  hits: number;
  /** The latest match. */
  lastHitAt: string;
}

/**
 * Adds a batch's rule matches to the daily counts, in one statement (rows for the same day add
 * up). Each connection writes rows of its own (`shard`: its backend's process id), so concurrent
 * batches never wait for each other's commit on a shared counter; readers sum the rows.
 */
export async function recordRuleHits(tx: Queryable, hits: readonly RuleHit[]): Promise<void> {
  if (hits.length === 0) return;
  await tx.query(sql`
    INSERT INTO rule_hits (company_id, rule_id, day, hits, last_hit_at, shard)
    SELECT c, r, d, sum(h), max(l), pg_backend_pid()
    FROM unnest(${hits.map((h) => h.companyId)}::int8[], ${hits.map((h) => h.ruleId)}::int8[],
                ${hits.map((h) => h.day)}::date[], ${hits.map((h) => h.hits)}::int8[],
                ${hits.map((h) => h.lastHitAt)}::timestamptz[]) AS u(c, r, d, h, l)
    -- A rule deleted since the stage loaded it has no counts to keep.
    WHERE EXISTS (SELECT 1 FROM rules WHERE rules.id = u.r)
    GROUP BY c, r, d
    ON CONFLICT (rule_id, company_id, day, shard) DO UPDATE
      SET hits = rule_hits.hits + excluded.hits,
          last_hit_at = greatest(rule_hits.last_hit_at, excluded.last_hit_at)`);
}

/** Advisory lock keys of the threshold counters: this base plus the company id. */
const THRESHOLD_LOCK_BASE = 7_314_206_000_000;

/** A Suricata threshold counter as the gate keeps it (threshold-engine.ts CounterState). */
export interface ThresholdCounter {
  windowStart: number;
  windowEnd: number;
  count: number;
  next: number;
}

/**
 * Reads a company's threshold counters of these keys, after taking the company's counter lock for
 * the rest of the transaction: batches of one company in several processes count in turn. Keys are
 * stored after the digest of the entries that made them (`digest|key`), so other entries' counters
 * are never read.
 */
export async function lockThresholdCounters(
  tx: Queryable,
  companyId: number,
  digest: string,
  keys: readonly string[],
): Promise<Map<string, ThresholdCounter>> {
  await tx.query(sql`SELECT pg_advisory_xact_lock(${THRESHOLD_LOCK_BASE + companyId}::int8)`);
  const { rows } = await tx.query<{
    counter_key: string;
    window_start: string | number;
    window_end: string | number | null;
    count: number;
    next: number;
  }>(sql`
    SELECT counter_key, window_start, window_end, count, next FROM suricata_threshold_counters
    WHERE company_id = ${companyId} AND counter_key = ANY(${keys.map((k) => `${digest}|${k}`)}::text[])`);
  return new Map(
    rows.map((r) => [
      r.counter_key.slice(digest.length + 1),
      {
        windowStart: Number(r.window_start),
        windowEnd: r.window_end === null ? Infinity : Number(r.window_end),
        count: r.count,
        next: r.next,
      },
    ]),
  );
}

/** Writes a company's counters back, and forgets those whose window ended before `now` (ms). */
export async function saveThresholdCounters(
  tx: Queryable,
  companyId: number,
  digest: string,
  counters: ReadonlyMap<string, ThresholdCounter>,
  now: number,
): Promise<void> {
  const entries = [...counters];
  if (entries.length > 0) {
    await tx.query(sql`
      INSERT INTO suricata_threshold_counters AS c (company_id, counter_key, window_start, window_end, count, next)
      SELECT ${companyId}, k, s, e, n, x
      FROM unnest(${entries.map(([k]) => `${digest}|${k}`)}::text[], ${entries.map(([, c]) => c.windowStart)}::int8[],
                  ${entries.map(([, c]) => (Number.isFinite(c.windowEnd) ? c.windowEnd : null))}::int8[],
                  ${entries.map(([, c]) => c.count)}::int4[], ${entries.map(([, c]) => c.next)}::int4[]) AS u(k, s, e, n, x)
      ON CONFLICT (company_id, counter_key) DO UPDATE
        SET window_start = excluded.window_start, window_end = excluded.window_end, count = excluded.count,
            next = excluded.next, updated_at = now()`);
  }
  await tx.query(sql`
    DELETE FROM suricata_threshold_counters
    WHERE company_id = ${companyId} AND (window_end < ${now}::int8
      OR (window_end IS NULL AND updated_at < now() - interval '1 day'))`);
}
