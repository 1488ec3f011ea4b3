import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { MAX_RULE_IMPORT_BYTES, type RuleImportAnswer } from '@vigil/contract';
import type { Database } from '../db/database';
import { ValidationError } from '../http/errors';
import { findCompany, findCompanyByName, providerCompany } from '../modules/companies/companies.repository';
import { RulesService } from '../modules/rules/rules.service';
import { readRuleFilesFrom } from '../modules/rules/store/rule-files';
import { checkSigmaFiles, SIGMAHQ_LICENSE } from '../modules/rules/sigma';
import { checkSuricataFiles, isThresholdFile, type SuricataFileCheck } from '../modules/rules/suricata/check';
import { checkYaraFiles, type YaraFileCheck } from '../modules/rules/yara/check';
import { diagnosticHeadline } from '../modules/rules/yara/yara-compile';

export type RuleKind = 'suricata' | 'yara' | 'sigma';
const kinds: readonly string[] = ['suricata', 'yara', 'sigma'];

/** The files a path names: the path itself, or the rule files directly inside a folder. */
async function filesOf(kind: RuleKind, target: string): Promise<string[]> {
  const info = await stat(target).catch(() => null);
  if (!info?.isDirectory()) return [target];
  const wanted = (name: string) =>
    kind === 'yara' ? /\.yara?$/i.test(name) : name.endsWith('.rules') || isThresholdFile(name);
  return (await readdir(target))
    .filter(wanted)
    .sort()
    .map((name) => path.join(target, name));
}

function suricataReport(results: SuricataFileCheck[]): { lines: string[]; refused: number; total: number } {
  const lines: string[] = [];
  let refused = 0;
  let total = 0;
  for (const file of results) {
    if (file.error) {
      lines.push(`${file.path}: refused: ${file.error}`);
      refused++;
      total++;
      continue;
    }
    const count = (status: string) => file.entries.filter((e) => e.status === status).length;
    const noun = file.kind === 'threshold' ? 'entries' : 'rules';
    lines.push(
      `${file.path}: ${count('compiled')} ${noun} taken, ${count('disabled')} disabled, ${count('refused')} refused`,
    );
    for (const e of file.entries.filter((x) => x.status === 'refused')) lines.push(`  line ${e.line}: ${e.reason}`);
    refused += count('refused');
    total += file.entries.length;
  }
  return { lines, refused, total };
}

function yaraReport(results: YaraFileCheck[]): { lines: string[]; refused: number; total: number } {
  const lines = results.flatMap((r) => [
    r.status === 'compiled' ? `${r.path}: compiled, ${r.rules.length} rule(s)` : `${r.path}: refused: ${r.reason}`,
    ...r.warnings.map((w) => `  warning: ${diagnosticHeadline(w)}`),
  ]);
  return { lines, refused: results.filter((r) => r.status === 'refused').length, total: results.length };
}

/** Sigma: one line a rule file (the engine's check walks folders for .yml itself), then the tally. */
function sigmaReport(targets: readonly string[]): { lines: string[]; refused: number; total: number } {
  const results = checkSigmaFiles(targets, { defaultLicense: SIGMAHQ_LICENSE });
  const lines = results.map((r) =>
    r.status === 'compiled' ? `compiled  ${r.file}` : `refused   ${r.file}: ${r.reason}`,
  );
  const refused = results.filter((r) => r.status === 'refused').length;
  lines.push(`${results.length - refused} of ${results.length} rule file(s) compiled, ${refused} refused.`);
  return { lines, refused, total: results.length };
}

/** Checks rule files and prints one line a file, then a line per refused Suricata rule or YARA warning; throws when anything was refused. */
export async function checkRules(kind: RuleKind, targets: readonly string[]): Promise<string[]> {
  const missing = targets.filter((target) => !existsSync(target));
  if (missing.length > 0) throw new Error(`no such file or folder: ${missing.join(', ')}`);
  const files = kind === 'sigma' ? targets : (await Promise.all(targets.map((t) => filesOf(kind, t)))).flat();
  if (files.length === 0) throw new Error('no rule files found in the given paths');
  const report =
    kind === 'sigma'
      ? sigmaReport(files)
      : kind === 'suricata'
        ? suricataReport(await checkSuricataFiles(files))
        : yaraReport(await checkYaraFiles(files));
  for (const line of report.lines) console.log(line);
  const what = kind === 'suricata' ? 'rule(s) or entries' : kind === 'sigma' ? 'rule file(s)' : 'file(s)';
  if (report.refused > 0) throw new Error(`${report.refused} of ${report.total} ${what} refused`);
  return report.lines;
}

/** Runs work against the configured database (the command line's `withDatabase`). */
export type WithDatabase = <T>(work: (db: Database) => Promise<T>) => Promise<T>;

const cli = { userId: null, username: 'vigil-cli', impersonatorId: null, ip: null };

/** The import's answer as lines: the counts, then each refused rule with its file, line and reason. */
export function importReport(answer: RuleImportAnswer, into: string): string[] {
  return [
    `${answer.created} created, ${answer.updated} updated, ${answer.unchanged} unchanged, ${answer.rejected.length} rejected (${into}).`,
    ...(answer.unsupported > 0
      ? [`${answer.unsupported} of the created or updated rule(s) stored disabled: the engine cannot run them.`]
      : []),
    ...answer.rejected.map((r) => `  ${r.file} line ${r.line}${r.rule ? ` (${r.rule})` : ''}: ${r.reason}`),
  ];
}

/** Files in consecutive parts of at most MAX_RULE_IMPORT_BYTES each (a larger file is a part of its own). */
function importParts<F extends { content: string }>(files: readonly F[]): F[][] {
  const parts: F[][] = [];
  let size = 0;
  for (const file of files) {
    const bytes = Buffer.byteLength(file.content, 'utf8');
    const last = parts[parts.length - 1];
    if (last && size + bytes <= MAX_RULE_IMPORT_BYTES) {
      last.push(file);
      size += bytes;
    } else {
      parts.push([file]);
      size = bytes;
    }
  }
  return parts;
}

/**
 * Imports rule files through the rule store, as provider staff would: for all companies, or for
 * the company `--company` names (by name or id). Prints the counts and every rejected rule.
 */
export async function importRules(
  db: Database,
  kind: RuleKind,
  targets: readonly string[],
  company: string | undefined,
  licence?: string,
): Promise<string[]> {
  const files = await readRuleFilesFrom(kind, targets);
  if (files.length === 0) throw new Error('no rule files found in the given paths');
  const provider = await providerCompany(db);
  if (!provider) throw new Error('the database has no provider company yet: start the server once');
  let target: { id: number; name: string } | null = null;
  if (company !== undefined) {
    target = /^\d{1,15}$/.test(company)
      ? await findCompany(db, { companies: 'all' }, Number(company))
      : await findCompanyByName(db, company);
    if (!target) throw new Error(`no company "${company}"`);
  }
  try {
    // One import takes at most MAX_RULE_IMPORT_BYTES: larger sets go in parts, their answers added up.
    const total: RuleImportAnswer = { created: 0, updated: 0, unchanged: 0, unsupported: 0, rejected: [] };
    for (const part of importParts(files)) {
      const answer = await new RulesService(db).import(
        kind,
        { userId: null, companyId: Number(provider.id), scope: { companies: 'all' } },
        cli,
        { files: part, ...(target ? { company_id: Number(target.id) } : {}), ...(licence ? { licence } : {}) },
      );
      total.created += answer.created;
      total.updated += answer.updated;
      total.unchanged += answer.unchanged;
      total.unsupported += answer.unsupported;
      total.rejected.push(...answer.rejected);
    }
    return importReport(total, target ? `for ${target.name}` : 'for all companies');
  } catch (error) {
    if (error instanceof ValidationError) {
      const reasons = Object.values(error.fieldErrors).flat();
      throw new Error(reasons.join(' '));
    }
    throw error;
  }
}

/** `vigil rules check suricata|yara|sigma <path...>` (no database, only the files) and `vigil rules import`. */
export function registerRulesCommands(program: Command, withDatabase: WithDatabase): void {
  const rules = program.command('rules').description('detection rules (Suricata, YARA and Sigma)');
  rules
    .command('check')
    .description(
      'check Suricata rules and threshold.config files, YARA files or Sigma rules as the server would take them; exits 1 when any is refused',
    )
    .argument('<kind>', 'suricata, yara or sigma')
    .argument('<paths...>', 'files, or folders whose rule files are checked')
    .action(async (kind: string, paths: string[]) => {
      if (!kinds.includes(kind)) throw new Error(`unknown rule kind "${kind}": use suricata, yara or sigma`);
      await checkRules(kind as RuleKind, paths);
    });
  rules
    .command('import')
    .description(
      'import rule files into the rule store (folders walked for .rules, .yml/.yaml or .yar/.yara files); rules ' +
        'for all companies unless --company names one; the same text again changes nothing',
    )
    .argument('<kind>', 'suricata, yara or sigma')
    .argument('<paths...>', 'files, or folders walked recursively for rule files')
    .option('--company <name or id>', 'the company the rules are for (default: every company)')
    .option('--licence <name>', 'the licence of rules that name none, e.g. DRL-1.1 for the SigmaHQ rules')
    .action(async (kind: string, paths: string[], options: { company?: string; licence?: string }) => {
      if (!kinds.includes(kind)) throw new Error(`unknown rule kind "${kind}": use suricata, yara or sigma`);
      const lines = await withDatabase((db) =>
        importRules(db, kind as RuleKind, paths, options.company, options.licence),
      );
      for (const line of lines) console.log(line);
    });
}
