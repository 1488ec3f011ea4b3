import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { compileSigmaRule, type CompiledRule, type SigmaCompileOptions } from './compile';
import { SigmaRefusal } from './types';

/** What became of one rule file. */
export type SigmaFileResult =
  | { readonly file: string; readonly status: 'compiled'; readonly rule: CompiledRule }
  | { readonly file: string; readonly status: 'refused'; readonly reason: string };

/** Rule files under the paths: the files themselves, and every .yml/.yaml under a folder, in name order. */
export function sigmaFilesUnder(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      const found = readdirSync(p, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.ya?ml$/i.test(f))
        .sort()
        .map((f) => path.join(p, f));
      out.push(...found);
    } else out.push(p);
  }
  return out;
}

/** Compiles one rule's text; a refusal is answered, not thrown. */
export function checkSigmaSource(file: string, source: string, options: SigmaCompileOptions = {}): SigmaFileResult {
  try {
    return { file, status: 'compiled', rule: compileSigmaRule(source, options) };
  } catch (error) {
    if (error instanceof SigmaRefusal) return { file, status: 'refused', reason: error.message };
    throw error;
  }
}

/**
 * Compiles every rule file under the paths (files or folders) and says, per file, whether it
 * compiled or why it was refused. A file that cannot be read is refused with the reason.
 */
export function checkSigmaFiles(paths: readonly string[], options: SigmaCompileOptions = {}): SigmaFileResult[] {
  return sigmaFilesUnder(paths).map((file) => {
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch (error) {
      return { file, status: 'refused', reason: `the file cannot be read: ${(error as Error).message}` };
    }
    return checkSigmaSource(file, source, options);
  });
}
