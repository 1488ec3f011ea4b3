import { createHash } from 'node:crypto';
import type { Database } from '../../src/db/database';
import { sql } from '../../src/db/sql';
import { parseSigmaYaml } from '../../src/modules/rules/sigma';

/*
 * Rules written straight into the rule store's tables, for tests of the detection stages (the
 * import API is tested on its own). Each change sets updated_at, as the store does.
 */

export interface RuleRow {
  companyId: number;
  kind: 'suricata' | 'sigma' | 'yara';
  scope?: 'company' | 'all';
  ruleKey: string;
  title: string;
  level?: 'info' | 'low' | 'medium' | 'high' | 'critical';
  techniques?: string[];
  author?: string;
  licence?: string;
  source: string;
  details?: Record<string, unknown>;
  enabled?: boolean;
}

export async function insertRule(db: Database, r: RuleRow): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO rules (company_id, kind, scope, rule_key, title, level, techniques, author, licence, details,
                       source, source_sha256, enabled)
    VALUES (${r.companyId}, ${r.kind}, ${r.scope ?? 'company'}, ${r.ruleKey}, ${r.title}, ${r.level ?? 'medium'},
            ${r.techniques ?? []}::text[], ${r.author ?? ''}, ${r.licence ?? ''}, ${JSON.stringify(r.details ?? {})}::jsonb,
            ${r.source}, ${createHash('sha256').update(r.source).digest('hex')}, ${r.enabled ?? true})
    RETURNING id`);
  return Number(rows[0]!.id);
}

/** The row of a Sigma rule's YAML, as the store keeps it. */
export function sigmaRuleRow(
  source: string,
  companyId: number,
  scope: 'company' | 'all',
  defaultLicense = 'DRL-1.1',
): RuleRow {
  const { info } = parseSigmaYaml(source, { defaultLicense });
  const level = info.level === 'informational' ? 'info' : info.level;
  return {
    companyId,
    kind: 'sigma',
    scope,
    ruleKey: info.id,
    title: info.title,
    level: level === 'low' || level === 'high' || level === 'critical' || level === 'info' ? level : 'medium',
    techniques: [...info.techniques],
    author: info.author ?? '',
    licence: info.license ?? '',
    source,
  };
}

export async function setRuleEnabled(db: Database, ruleId: number, enabled: boolean): Promise<void> {
  await db.query(sql`UPDATE rules SET enabled = ${enabled}, updated_at = now() WHERE id = ${ruleId}`);
}

/** Turns an all-companies rule off (or back on) for one company. */
export async function setRuleForCompany(db: Database, companyId: number, ruleId: number, enabled: boolean) {
  await db.query(sql`
    INSERT INTO rule_company_settings (company_id, rule_id, enabled) VALUES (${companyId}, ${ruleId}, ${enabled})
    ON CONFLICT (company_id, rule_id) DO UPDATE SET enabled = excluded.enabled, updated_at = now()`);
}
