import { existsSync } from 'node:fs';
import { CommanderError, type Command } from 'commander';
import { SIGMAHQ_LICENSE, checkSigmaFiles } from '../modules/rules/sigma';

/**
 * `vigil rules check sigma <path…>`: compiles Sigma rule files (or every .yml under folders) as
 * the engine would, and prints per file whether it compiled or why it was refused. Exits with 1
 * when any file was refused. Reads files only; no database.
 */
export function registerRulesCommands(program: Command): void {
  const rules = program.command('rules').description('detection rules');
  const check = rules.command('check').description('check rule files without loading them');
  check
    .command('sigma')
    .description('compile Sigma rules and say, per file, whether the engine can run it or why not')
    .argument('<paths...>', 'rule files or folders of them')
    .option('--refused-only', 'print only the refused files')
    .action((paths: string[], options: { refusedOnly?: boolean }) => {
      const missing = paths.filter((p) => !existsSync(p));
      if (missing.length > 0) throw new Error(`no such file or folder: ${missing.join(', ')}`);
      const results = checkSigmaFiles(paths, { defaultLicense: SIGMAHQ_LICENSE });
      for (const r of results) {
        if (r.status === 'compiled' && !options.refusedOnly) console.log(`compiled  ${r.file}`);
        if (r.status === 'refused') console.log(`refused   ${r.file}: ${r.reason}`);
      }
      const refused = results.filter((r) => r.status === 'refused').length;
      console.log(`${results.length - refused} of ${results.length} rule file(s) compiled, ${refused} refused.`);
      if (refused > 0) throw new CommanderError(1, 'vigil.rules.refused', `${refused} rule file(s) refused`);
    });
}
