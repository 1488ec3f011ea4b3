import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
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

/** `vigil rules check suricata|yara|sigma <path...>`: no database, only the files. */
export function registerRulesCommands(program: Command): void {
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
}
