import { createHash } from 'node:crypto';
import {
  MAX_RULE_FILE_BYTES,
  MAX_RULE_IMPORT_BYTES,
  type Rule,
  type RuleBulk,
  type RuleBulkAnswer,
  type RuleDetail,
  type RuleDiff,
  type RuleFilters,
  type RuleImport,
  type RuleImportAnswer,
  type RuleKind,
  type SuricataExport,
} from '@vigil/contract';
import type { Database } from '../../db/database';
import { sql } from '../../db/sql';
import type { Actor } from '../../http/actor';
import { forbidden, notFound, ValidationError } from '../../http/errors';
import { inScope, seesAllCompanies } from '../../http/tenancy';
import { listCondition, type ListResource } from '../../list/list-engine';
import { printable } from '../../safe-text';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { requestYaraRescan } from './yara/yara-scan.service';
import {
  deleteRule,
  disabledFor,
  effectiveSuricataSources,
  findRule,
  HIT_DAYS,
  revisionSource,
  ruleHits,
  ruleList,
  ruleRevisions,
  selectRules,
  setCompanyRuleSettings,
  setRulesEnabled,
  toRule,
  writeImportedRules,
  type RuleRow,
  type RuleTarget,
  type RuleViewer,
} from './rules.repository';
import { ruleSetVersion } from './rule-engines.repository';
import { unifiedDiff } from './store/line-diff';
import { readRuleFiles } from './store/rule-candidates';
import { parseRule } from './suricata/rule-parser';
import type { SuricataRule } from './suricata/rule-types';
import { parseThresholdLine, type ThresholdConfigEntry } from './suricata/threshold-config';
import { formatRulesFile, formatThresholdConfig } from './suricata/writer';
import { companyThresholds, thresholdsVersion } from './thresholds.repository';

/** Ids and keys listed in one aggregated audit record. */
const MAX_AUDIT_ITEMS = 1000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** C0 controls other than tab, line ends, vertical tab and form feed; DEL; the replacement character. */
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/g;

/**
 * Whether a file is binary data rather than rule text: it holds NUL (which no text column stores),
 * or control and replacement characters make more than 1% of it. Real rule files hold a few in
 * comments (decoded base64 strings), never that many.
 */
function looksBinary(content: string): boolean {
  if (content.includes('\u0000')) return true;
  const odd = content.match(NOT_TEXT)?.length ?? 0;
  return odd > 8 && odd > content.length / 100;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Files an import refuses outright (nothing is stored): too large, or not text. */
function checkImportFiles(kind: RuleKind, files: RuleImport['files']): void {
  const errors: Record<string, string[]> = {};
  let total = 0;
  files.forEach((file, i) => {
    const bytes = Buffer.byteLength(file.content, 'utf8');
    total += bytes;
    const name = printable(file.name, 120);
    if (bytes > MAX_RULE_FILE_BYTES) {
      errors[`files.${i}.content`] = [
        `${name} is ${megabytes(bytes)}, over the ${megabytes(MAX_RULE_FILE_BYTES)} limit of one rule file; split it into smaller files.`,
      ];
    } else if (looksBinary(file.content)) {
      errors[`files.${i}.content`] = [
        `${name} holds binary data (control characters), not the text of ${kind === 'yara' ? 'YARA' : kind === 'sigma' ? 'Sigma' : 'Suricata'} rules.`,
      ];
    }
  });
  if (total > MAX_RULE_IMPORT_BYTES) {
    errors.files = [
      `The files add up to ${megabytes(total)}, over the ${megabytes(MAX_RULE_IMPORT_BYTES)} limit of one import; import them in parts.`,
    ];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

const viewerOf = (actor: Pick<Actor, 'scope' | 'companyId'>): RuleViewer => ({
  scope: actor.scope,
  companyId: actor.companyId,
});

/** Who imports: the company and scope of the rules, and the user recorded with their revisions. */
export interface RuleImporter {
  userId: number | null;
  companyId: number;
  scope: Actor['scope'];
}

/**
 * The rule store: Suricata, Sigma and YARA rules, their revisions, their per-company switches and
 * hit counts. Each change runs in one transaction with its audit record. Detection stages read the
 * enabled rules through rule-engines.repository.ts and recompile when `ruleSetVersion` moves.
 */
export class RulesService {
  /** The last Suricata export of each company, by the versions it was made from. */
  private readonly exports = new Map<number, { version: string; answer: SuricataExport }>();

  constructor(private readonly db: Database) {}

  /** The list resource of a kind as the caller reads it. */
  listFor(kind: RuleKind, actor: Pick<Actor, 'scope' | 'companyId'>): ListResource<RuleRow, RuleFilters, Rule> {
    return ruleList(kind, viewerOf(actor));
  }

  async get(kind: RuleKind, actor: Actor, id: number): Promise<RuleDetail> {
    const row = await findRule(this.db, kind, viewerOf(actor), id);
    if (!row) throw notFound();
    const [revisions, hits, disabled] = await Promise.all([
      ruleRevisions(this.db, row.id),
      ruleHits(this.db, row.id, actor.scope, HIT_DAYS),
      row.scope === 'all' ? disabledFor(this.db, row.id, actor.scope) : Promise.resolve([]),
    ]);
    const last = hits.reduce<Date | null>((m, h) => (m === null || h.last_hit_at > m ? h.last_hit_at : m), null);
    return {
      ...toRule(row),
      references: row.references,
      details: row.details,
      source: row.source,
      source_sha256: row.source_sha256,
      disabled_for: disabled,
      hits: {
        total: hits.reduce((n, h) => n + h.hits, 0),
        days: hits.map((h) => ({ day: h.day, hits: h.hits })),
        last_hit_at: last ? new Date(last).toISOString() : null,
      },
      revisions: revisions.map((r) => ({
        revision: Number(r.revision),
        changed_at: r.changed_at.toISOString(),
        changed_by: r.changed_by,
      })),
    };
  }

  /** A unified diff between two revisions (by default the last two) of a rule's source. */
  async diff(kind: RuleKind, actor: Actor, id: number, from?: number, to?: number): Promise<RuleDiff> {
    const row = await findRule(this.db, kind, viewerOf(actor), id);
    if (!row) throw notFound();
    const newer = to ?? Number(row.revision);
    const older = from ?? Math.max(1, newer - 1);
    const [a, b] = await Promise.all([revisionSource(this.db, row.id, older), revisionSource(this.db, row.id, newer)]);
    const errors: Record<string, string[]> = {};
    if (a === null) errors.from = [`The rule has no revision ${older}; it has revisions 1 to ${row.revision}.`];
    if (b === null) errors.to = [`The rule has no revision ${newer}; it has revisions 1 to ${row.revision}.`];
    if (a === null || b === null) throw new ValidationError(errors);
    return {
      from: older,
      to: newer,
      diff: unifiedDiff(a, b, [`${row.rule_key} revision ${older}`, `${row.rule_key} revision ${newer}`]),
    };
  }

  /**
   * Deletes a rule with its revisions, switches and hit counts; the alerts it raised stay. Rules for
   * all companies are deleted only by staff who see every company (a customer turns them off).
   */
  async remove(kind: RuleKind, actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await findRule(tx, kind, viewerOf(actor), id, true);
      if (!row) throw notFound();
      if (row.scope === 'all' && !seesAllCompanies(actor.scope))
        throw forbidden('This rule is the provider’s, for all companies: turn it off for your company instead.');
      await deleteRule(tx, row.id);
      if (kind === 'yara') await requestYaraRescan(tx);
      await recordAudit(tx, audit, {
        action: 'delete',
        objectType: `${kind}_rule`,
        objectId: row.id,
        objectRepr: `${row.rule_key} ${row.title}`.slice(0, 200),
        companyId: row.company_id,
        before: { rule_key: row.rule_key, title: row.title, revision: row.revision, scope: row.scope },
      });
    });
  }

  /** Where an import goes, checked against the caller's scope. */
  private importTarget(importer: RuleImporter, companyId: number | undefined): RuleTarget {
    if (companyId !== undefined) {
      if (!inScope(importer.scope, companyId)) throw ValidationError.field('company_id', 'No such company.');
      return { companyId, scope: 'company' };
    }
    return { companyId: importer.companyId, scope: seesAllCompanies(importer.scope) ? 'all' : 'company' };
  }

  /**
   * Imports rule files: new keys created, changed texts made new revisions, same texts left alone;
   * unreadable rules answered in `rejected`. Files over the size limits or not text refuse the whole
   * import (400) before anything is stored.
   */
  async import(
    kind: RuleKind,
    importer: RuleImporter,
    audit: AuditContext,
    input: RuleImport,
  ): Promise<RuleImportAnswer> {
    const target = this.importTarget(importer, input.company_id);
    checkImportFiles(kind, input.files);
    const { rules, rejected } = readRuleFiles(kind, input.files, input.licence ?? '');
    if (rules.length === 0) return { created: 0, updated: 0, unchanged: 0, unsupported: 0, rejected };
    const written = await this.db.transaction(async (tx) => {
      const done = await writeImportedRules(tx, kind, target, rules, importer.userId, sha256);
      // New or changed YARA rules: the warehouse is scanned again in the background.
      if (kind === 'yara' && done.created.length + done.updated.length > 0) await requestYaraRescan(tx);
      if (done.created.length + done.updated.length > 0 || rejected.length > 0) {
        await recordAudit(tx, audit, {
          action: 'import',
          objectType: `${kind}_rule`,
          objectId: null,
          objectRepr: `${done.created.length} created, ${done.updated.length} updated, ${rejected.length} rejected`,
          companyId: target.companyId,
          after: {
            scope: target.scope,
            files: input.files.slice(0, MAX_AUDIT_ITEMS).map((f) => f.name),
            created: done.created.slice(0, MAX_AUDIT_ITEMS).map((r) => r.rule_key),
            updated: done.updated.slice(0, MAX_AUDIT_ITEMS).map((r) => r.rule_key),
            created_count: done.created.length,
            updated_count: done.updated.length,
            rejected: rejected.length,
          },
        });
      }
      return done;
    });
    const created = written.created.length;
    const updated = written.updated.length;
    return {
      created,
      updated,
      unchanged: rules.length - created - updated,
      unsupported: [...written.created, ...written.updated].filter((r) => r.unsupported).length,
      rejected,
    };
  }

  /**
   * Turns rules on or off, by ids or by the list filters. Staff who see every company switch the
   * rules themselves; other callers switch their companies' rules and turn rules for all companies
   * off (or on) for their own company; with `company_id`, rules for all companies are switched for
   * that company only.
   */
  async bulk(kind: RuleKind, actor: Actor, audit: AuditContext, body: RuleBulk): Promise<RuleBulkAnswer> {
    if (body.company_id !== undefined && !inScope(actor.scope, body.company_id))
      throw ValidationError.field('company_id', 'No such company.');
    const viewer = viewerOf(actor);
    const where = body.ids
      ? sql`r.id = ANY(${[...new Set(body.ids)]}::int8[])`
      : listCondition(ruleList(kind, viewer), body.filters ?? {}, actor.scope);
    return this.db.transaction(async (tx) => {
      const targets = await selectRules(tx, kind, actor.scope, where);
      const own: number[] = [];
      const settings: number[] = [];
      const settingsCompany = body.company_id ?? actor.companyId;
      for (const rule of targets) {
        if (rule.scope === 'company') {
          if (body.company_id === undefined || rule.company_id === body.company_id) own.push(rule.id);
        } else if (body.company_id === undefined && seesAllCompanies(actor.scope)) own.push(rule.id);
        else settings.push(rule.id);
      }
      const changed = await setRulesEnabled(tx, own, body.enabled);
      const switched = await setCompanyRuleSettings(tx, settingsCompany, settings, body.enabled);
      const skipped = body.enabled ? targets.filter((r) => r.unsupported && own.includes(r.id)).length : 0;
      if (kind === 'yara' && changed.length + switched.length > 0) await requestYaraRescan(tx);
      if (changed.length + switched.length > 0) {
        await recordAudit(tx, audit, {
          action: body.enabled ? 'enable' : 'disable',
          objectType: `${kind}_rule`,
          objectId: changed.length + switched.length === 1 ? (changed[0] ?? switched[0]!) : null,
          objectRepr: `${changed.length} rule(s) turned ${body.enabled ? 'on' : 'off'}${
            switched.length > 0
              ? `, ${switched.length} rule(s) for all companies turned ${body.enabled ? 'on' : 'off'} for company ${settingsCompany}`
              : ''
          }`,
          companyId: switched.length > 0 ? settingsCompany : actor.companyId,
          after: {
            enabled: body.enabled,
            rules: changed.slice(0, MAX_AUDIT_ITEMS),
            company_settings: switched.slice(0, MAX_AUDIT_ITEMS),
            ...(switched.length > 0 ? { company_id: settingsCompany } : {}),
            ...(body.filters ? { filters: body.filters } : {}),
          },
        });
      }
      return { changed: changed.length, company_settings: switched.length, skipped_unsupported: skipped };
    });
  }

  /** The Suricata rules and threshold.config that run for a company, with their version (SHA-256). */
  async suricataExport(companyId: number): Promise<SuricataExport> {
    const version = `${await ruleSetVersion(this.db, 'suricata')}|${await thresholdsVersion(this.db, companyId)}`;
    const cached = this.exports.get(companyId);
    if (cached?.version === version) return cached.answer;
    const [sources, entries] = await Promise.all([
      effectiveSuricataSources(this.db, companyId),
      companyThresholds(this.db, companyId),
    ]);
    const rules = sources.map((s) => parseRule(s)).flatMap((p) => (p.ok ? [{ ...p.value, enabled: true }] : []));
    const thresholds = entries
      .map((e) => parseThresholdLine(e))
      .flatMap((p): ThresholdConfigEntry[] => (p.ok ? [p.value] : []));
    const rulesText = formatRulesFile(rules as SuricataRule[], 'Vigil: the enabled Suricata rules of this company');
    const thresholdText = formatThresholdConfig(thresholds, 'Vigil: threshold.config of this company');
    const answer: SuricataExport = {
      rules: rulesText,
      threshold_config: thresholdText,
      rule_count: rules.length,
      threshold_count: thresholds.length,
      version: sha256(`${rulesText}\u0000${thresholdText}`),
    };
    this.exports.set(companyId, { version, answer });
    return answer;
  }
}
