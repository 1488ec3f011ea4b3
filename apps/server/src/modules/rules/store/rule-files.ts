import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RuleKind } from '@vigil/contract';

/** The file name endings each kind's rule files have. */
const extensions: Record<RuleKind, RegExp> = {
  suricata: /\.rules$/i,
  sigma: /\.ya?ml$/i,
  yara: /\.yara?$/i,
};

/**
 * The rule files the paths name: a file as it is; a folder walked recursively for the kind's
 * files (.rules; .yml and .yaml; .yar and .yara), in name order. Throws on a path that is not there.
 */
export async function ruleFilesUnder(kind: RuleKind, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && extensions[kind].test(entry.name)) found.push(full);
    }
  };
  for (const target of paths) {
    const info = await stat(target).catch(() => null);
    if (!info) throw new Error(`no such file or folder: ${target}`);
    if (info.isDirectory()) await walk(target);
    else found.push(target);
  }
  return found;
}

/**
 * Reads rule files for an import: each named by its path relative to `base` (the folder given, or
 * the file's own folder), so keys built from file names do not depend on where the files lie.
 */
export async function readRuleFilesFrom(
  kind: RuleKind,
  paths: readonly string[],
): Promise<{ name: string; content: string }[]> {
  const files: { name: string; content: string }[] = [];
  for (const target of paths) {
    const info = await stat(target).catch(() => null);
    if (!info) throw new Error(`no such file or folder: ${target}`);
    const base = info.isDirectory() ? target : path.dirname(target);
    for (const file of await ruleFilesUnder(kind, [target])) {
      files.push({ name: path.relative(base, file), content: await readFile(file, 'utf8') });
    }
  }
  return files;
}
