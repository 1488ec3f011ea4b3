import { readFile, stat } from 'node:fs/promises';
import { checkYaraSource, sizeRefusal, type YaraDiagnostic } from './yara-compile';
import { parseYaraSource, type YaraRuleInfo } from './yara-source';

export interface YaraFileCheck {
  path: string;
  status: 'compiled' | 'refused';
  /** Why the file was refused: too large, unreadable, or the compiler's first error with its line. */
  reason: string | null;
  errors: YaraDiagnostic[];
  warnings: YaraDiagnostic[];
  imports: string[];
  /** The rules the file declares, read from its text (also for a file that does not compile). */
  rules: YaraRuleInfo[];
}

async function checkOne(file: string): Promise<YaraFileCheck> {
  const refused = (reason: string): YaraFileCheck => ({
    path: file,
    status: 'refused',
    reason,
    errors: [],
    warnings: [],
    imports: [],
    rules: [],
  });
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (e) {
    return refused(`cannot read the file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const tooLarge = sizeRefusal(size);
  if (tooLarge) return refused(tooLarge);
  const source = await readFile(file, 'utf8');
  const info = parseYaraSource(source);
  const check = checkYaraSource(source);
  return {
    path: file,
    status: check.ok ? 'compiled' : 'refused',
    reason: check.ok ? null : check.reason,
    errors: check.ok ? [] : check.errors,
    warnings: check.warnings,
    imports: info.imports,
    rules: info.rules,
  };
}

/** Compiles each YARA file on its own and says whether it compiled, with the compiler's reason when not. */
export async function checkYaraFiles(paths: readonly string[]): Promise<YaraFileCheck[]> {
  const results: YaraFileCheck[] = [];
  for (const file of paths) results.push(await checkOne(file));
  return results;
}
