import type { Queryable } from '../../../db/database';
import { sql } from '../../../db/sql';
import { tenantCondition, type TenantScope } from '../../../http/tenancy';
import { loadEnabledRules, loadTurnedOff } from '../rule-engines.repository';
import type { RuleTurnedOff, StoredYaraRule } from './yara-ruleset';
import type { YaraStringMatch } from './yara-scanner';
import type { YaraMetaValue } from './yara-source';

/** Job kind of the warehouse scan: it takes no payload. */
export const YARA_SCAN_JOB = 'rules.yara_scan';

/** Every enabled YARA rule of every scope, and the rules for all companies turned off for one. */
export async function loadEnabledYaraRules(
  db: Queryable,
): Promise<{ rules: StoredYaraRule[]; turnedOff: RuleTurnedOff[] }> {
  const [rules, off] = await Promise.all([loadEnabledRules(db, 'yara'), loadTurnedOff(db, 'yara')]);
  return {
    rules,
    turnedOff: [...off].flatMap(([companyId, ids]) => [...ids].map((ruleId) => ({ companyId, ruleId }))),
  };
}

/** Ids and revisions only: enough for the ruleset digest. */
/**
 * A fingerprint of the enabled YARA rules (ids and revisions) and of the companies' turned-off
 * ones, in one statement that answers one row: the same while neither changed, however the
 * change was written.
 */
export async function yaraRulesetVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>(sql`
    SELECT concat_ws('/',
      (SELECT concat_ws(':', count(*), coalesce(bit_xor(hashtextextended(id::text || ':' || revision::text, 0)), 0))
         FROM rules WHERE kind = 'yara' AND enabled AND unsupported IS NULL),
      (SELECT concat_ws(':', count(*), coalesce(bit_xor(hashtextextended(s.company_id::text || ':' || s.rule_id::text, 0)), 0))
         FROM rule_company_settings s JOIN rules r ON r.id = s.rule_id
        WHERE r.kind = 'yara' AND r.scope = 'all' AND r.enabled AND NOT s.enabled)) AS version`);
  return rows[0]?.version ?? '';
}

export async function loadYaraRulesetKeys(
  db: Queryable,
): Promise<{ rules: { id: number; revision: number }[]; turnedOff: RuleTurnedOff[] }> {
  const [rules, off] = await Promise.all([
    db.query<{ id: string | number; revision: number }>(sql`
      SELECT id, revision FROM rules WHERE kind = 'yara' AND enabled AND unsupported IS NULL`),
    db.query<{ company_id: string | number; rule_id: string | number }>(sql`
      SELECT s.company_id, s.rule_id FROM rule_company_settings s JOIN rules r ON r.id = s.rule_id
      WHERE r.kind = 'yara' AND r.scope = 'all' AND r.enabled AND NOT s.enabled`),
  ]);
  return {
    rules: rules.rows.map((r) => ({ id: Number(r.id), revision: r.revision })),
    turnedOff: off.rows.map((r) => ({ companyId: Number(r.company_id), ruleId: Number(r.rule_id) })),
  };
}

/** A warehouse file waiting for a scan: its bytes only when within the size limit. */
export interface PendingFile {
  id: number;
  sha256: string;
  md5: string;
  sha1: string;
  size: number;
  detectedType: string;
  content: Buffer | null;
}

/**
 * Files after `afterId` not yet scanned with `ruleset`, or seen by a company since they were,
 * smallest id first, at most `limit`.
 */
export async function pendingFiles(
  db: Queryable,
  ruleset: string,
  afterId: number,
  limit: number,
  maxFileBytes: number,
): Promise<PendingFile[]> {
  const { rows } = await db.query<{
    id: string | number;
    sha256: string;
    md5: string;
    sha1: string;
    size: string | number;
    detected_type: string;
    content: Buffer | null;
  }>(sql`
    SELECT f.id, f.sha256, f.md5, f.sha1, f.size, f.detected_type,
           CASE WHEN f.size <= ${maxFileBytes} THEN f.content END AS content
    FROM warehouse_files f
    WHERE f.id > ${afterId}
      -- Scanned with this set, and seen by no company since (a new company's matches may be new).
      AND NOT EXISTS (SELECT 1 FROM yara_scans s WHERE s.sha256 = f.sha256 AND s.ruleset = ${ruleset}
        AND NOT EXISTS (SELECT 1 FROM warehouse_hashes h WHERE h.sha256 = f.sha256 AND h.id > s.sightings_through))
    ORDER BY f.id LIMIT ${limit}`);
  return rows.map((r) => ({
    id: Number(r.id),
    sha256: r.sha256,
    md5: r.md5,
    sha1: r.sha1,
    size: Number(r.size),
    detectedType: r.detected_type,
    content: r.content === null ? null : Buffer.from(r.content),
  }));
}

/** A company's sighting of a file: the names it saw and the last event that named it. */
export interface FileSighting {
  /** The sighting's row (ids grow as companies first see files). */
  id: number;
  companyId: number;
  sha256: string;
  filename: string | null;
  eventKind: 'mail' | 'network' | 'endpoint' | null;
  eventId: number | null;
  lastSeen: string;
}

export async function sightingsOf(db: Queryable, hashes: readonly string[]): Promise<FileSighting[]> {
  if (hashes.length === 0) return [];
  const { rows } = await db.query<{
    id: string | number;
    company_id: string | number;
    sha256: string;
    filename: string | null;
    last_event_kind: FileSighting['eventKind'];
    last_event_id: string | number | null;
    last_seen: string;
  }>(sql`
    SELECT id, company_id, sha256, filename, last_event_kind, last_event_id,
           to_char(last_seen AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_seen
    FROM warehouse_hashes WHERE sha256 = ANY(${[...hashes]}::text[]) ORDER BY company_id`);
  return rows.map((r) => ({
    id: Number(r.id),
    companyId: Number(r.company_id),
    sha256: r.sha256,
    filename: r.filename,
    eventKind: r.last_event_kind,
    eventId: r.last_event_id === null ? null : Number(r.last_event_id),
    lastSeen: r.last_seen,
  }));
}

/** File names the mails of any company gave to these files, for the `filename` external. */
export async function attachmentNames(db: Queryable, hashes: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (hashes.length === 0) return out;
  const { rows } = await db.query<{ sha256: string; filename: string }>(sql`
    SELECT DISTINCT a.sha256, a.filename FROM mail_attachments a
    WHERE a.sha256 = ANY(${[...hashes]}::text[]) AND a.filename IS NOT NULL AND a.filename <> ''`);
  for (const r of rows) {
    const list = out.get(r.sha256);
    if (list) list.push(r.filename);
    else out.set(r.sha256, [r.filename]);
  }
  return out;
}

/** Where a company saw a file: the mails' recipients and the endpoints' host names (a few of each). */
export async function placesSeen(
  db: Queryable,
  companyId: number,
  sha256: string,
): Promise<{ recipients: string[]; hosts: string[] }> {
  const scope: TenantScope = { companies: [companyId] };
  const [mails, hosts] = await Promise.all([
    db.query<{ recipient: string }>(sql`
      SELECT DISTINCT r.recipient FROM mail_attachments a
      JOIN mail_messages m ON m.company_id = a.company_id AND m.ts = a.ts AND m.id = a.mail_id
      CROSS JOIN LATERAL unnest(m.recipients) AS r(recipient)
      WHERE a.sha256 = ${sha256} AND ${tenantCondition(scope, sql`a.company_id`)}
      LIMIT 10`),
    db.query<{ host_name: string }>(sql`
      SELECT DISTINCT e.host_name FROM endpoint_events e
      WHERE (e.process_sha256 = ${sha256} OR e.file_sha256 = ${sha256})
        AND ${tenantCondition(scope, sql`e.company_id`)} AND e.host_name IS NOT NULL
      LIMIT 10`),
  ]);
  return { recipients: mails.rows.map((r) => r.recipient), hosts: hosts.rows.map((r) => r.host_name) };
}

/** One file's scan: why it was not scanned (null: it was), and the last sighting it covered. */
export interface ScanRecord {
  sha256: string;
  error: string | null;
  sightingsThrough: number;
}

/** Records that these files were scanned (or why not) with `ruleset`, for the sightings they had. */
export async function recordScans(tx: Queryable, ruleset: string, scans: readonly ScanRecord[]): Promise<void> {
  if (scans.length === 0) return;
  await tx.query(sql`
    INSERT INTO yara_scans (sha256, ruleset, scanned_at, error, sightings_through)
    SELECT s.sha256, ${ruleset}, now(), s.error, s.through
    FROM unnest(${scans.map((s) => s.sha256)}::text[], ${scans.map((s) => s.error)}::text[],
                ${scans.map((s) => s.sightingsThrough)}::int8[]) AS s(sha256, error, through)
    ON CONFLICT (sha256) DO UPDATE SET ruleset = excluded.ruleset, scanned_at = excluded.scanned_at,
      error = excluded.error, sightings_through = excluded.sightings_through`);
}

export interface NewYaraMatch {
  companyId: number;
  sha256: string;
  ruleId: number;
  revision: number;
  ruleName: string;
  namespace: string;
  tags: string[];
  meta: Record<string, YaraMetaValue>;
  strings: YaraStringMatch[];
}

/** Stores matches; answers those that were not stored before (the new ones, which raise alerts). */
export async function insertMatches(
  tx: Queryable,
  matches: readonly NewYaraMatch[],
): Promise<{ companyId: number; sha256: string; ruleId: number; revision: number }[]> {
  if (matches.length === 0) return [];
  const { rows } = await tx.query<{
    company_id: string | number;
    sha256: string;
    rule_id: string | number;
    revision: number;
  }>(sql`
    INSERT INTO yara_matches (company_id, sha256, rule_id, revision, rule_name, namespace, tags, meta, strings)
    SELECT (m ->> 'company_id')::int8, m ->> 'sha256', (m ->> 'rule_id')::int8, (m ->> 'revision')::int4,
           m ->> 'rule_name', m ->> 'namespace', ARRAY(SELECT jsonb_array_elements_text(m -> 'tags')),
           m -> 'meta', m -> 'strings'
    FROM jsonb_array_elements(${JSON.stringify(
      matches.map((m) => ({
        company_id: m.companyId,
        sha256: m.sha256,
        rule_id: m.ruleId,
        revision: m.revision,
        rule_name: m.ruleName,
        namespace: m.namespace,
        tags: m.tags,
        meta: m.meta,
        strings: m.strings,
      })),
    )}::jsonb) AS m
    WHERE EXISTS (SELECT 1 FROM rules r WHERE r.id = (m ->> 'rule_id')::int8)
    ON CONFLICT (company_id, sha256, rule_id, revision) DO NOTHING
    RETURNING company_id, sha256, rule_id, revision`);
  return rows.map((r) => ({
    companyId: Number(r.company_id),
    sha256: r.sha256,
    ruleId: Number(r.rule_id),
    revision: r.revision,
  }));
}

/** Whether a scan job is waiting or running. */
export async function scanJobActive(db: Queryable): Promise<{ pending: boolean; running: boolean }> {
  const { rows } = await db.query<{ status: string }>(sql`
    SELECT DISTINCT status FROM jobs WHERE kind = ${YARA_SCAN_JOB} AND status IN ('pending', 'running')`);
  const statuses = new Set(rows.map((r) => r.status));
  return { pending: statuses.has('pending'), running: statuses.has('running') };
}

/**
 * Warehouse files the scope's companies saw, those scanned with `ruleset` (or not scanned, with a
 * reason: `skipped`).
 */
export async function scanCounts(
  db: Queryable,
  ruleset: string,
  scope: TenantScope,
): Promise<{ total: number; scanned: number; skipped: number }> {
  const { rows } = await db.query<{ total: string | number; scanned: string | number; skipped: string | number }>(sql`
    WITH seen AS (
      SELECT DISTINCT h.sha256 FROM warehouse_hashes h
      WHERE ${tenantCondition(scope, sql`h.company_id`)}
        AND EXISTS (SELECT 1 FROM warehouse_files f WHERE f.sha256 = h.sha256)
    )
    SELECT count(*) AS total,
           count(s.sha256) AS scanned,
           count(s.error) AS skipped
    FROM seen LEFT JOIN yara_scans s ON s.sha256 = seen.sha256 AND s.ruleset = ${ruleset}`);
  const r = rows[0]!;
  return { total: Number(r.total), scanned: Number(r.scanned), skipped: Number(r.skipped) };
}

export interface YaraMatchRow {
  company_id: string | number;
  rule_id: string | number;
  revision: number;
  rule_name: string;
  namespace: string;
  title: string | null;
  tags: string[];
  meta: Record<string, YaraMetaValue>;
  strings: YaraStringMatch[];
  matched_at: Date;
}

/** A file's matches, as the caller's companies have them, newest first. */
export async function matchesOfFile(db: Queryable, sha256: string, scope: TenantScope): Promise<YaraMatchRow[]> {
  const { rows } = await db.query<YaraMatchRow>(sql`
    SELECT m.company_id, m.rule_id, m.revision, m.rule_name, m.namespace, r.title, m.tags, m.meta, m.strings, m.matched_at
    FROM yara_matches m LEFT JOIN rules r ON r.id = m.rule_id
    WHERE m.sha256 = ${sha256} AND ${tenantCondition(scope, sql`m.company_id`)}
    ORDER BY m.matched_at DESC, m.rule_name, m.company_id
    LIMIT 500`);
  return rows;
}

/** The scan state of one file: the ruleset it was scanned with and why it was not, if it was not. */
export async function scanOfFile(
  db: Queryable,
  sha256: string,
): Promise<{ ruleset: string; scanned_at: Date; error: string | null } | null> {
  const { rows } = await db.query<{ ruleset: string; scanned_at: Date; error: string | null }>(
    sql`SELECT ruleset, scanned_at, error FROM yara_scans WHERE sha256 = ${sha256}`,
  );
  return rows[0] ?? null;
}

/** Whether one of the scope's companies saw the file. */
export async function fileSeenBy(db: Queryable, sha256: string, scope: TenantScope): Promise<boolean> {
  const { rows } = await db.query(sql`
    SELECT 1 FROM warehouse_hashes h WHERE h.sha256 = ${sha256} AND ${tenantCondition(scope, sql`h.company_id`)} LIMIT 1`);
  return rows.length > 0;
}
