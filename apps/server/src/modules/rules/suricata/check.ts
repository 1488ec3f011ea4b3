import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseRulesFile } from './rules-file';
import { parseThresholdConfig } from './threshold-config';

/** A rules or threshold file larger than this is refused without being read. */
export const MAX_SURICATA_FILE_BYTES = 50 * 1024 * 1024;

export interface SuricataRuleCheck {
  line: number;
  status: 'compiled' | 'disabled' | 'refused';
  sid: number | null;
  gid: number | null;
  msg: string | null;
  reason: string | null;
}

export interface SuricataFileCheck {
  path: string;
  kind: 'rules' | 'threshold';
  /** Whether the file could be read and every entry in it was taken. */
  ok: boolean;
  /** Why the whole file was refused (unreadable, too large); null otherwise. */
  error: string | null;
  /** Rules of a rules file and entries of a threshold file, in line order. */
  entries: SuricataRuleCheck[];
}

/** threshold.config and its renamed copies (`threshold.conf`, `sensor1-threshold.config`) hold thresholds; anything else rules. */
export function isThresholdFile(file: string): boolean {
  return /threshold\.conf(ig)?$/i.test(path.basename(file));
}

async function checkOne(file: string): Promise<SuricataFileCheck> {
  const kind = isThresholdFile(file) ? 'threshold' : 'rules';
  const refuse = (error: string): SuricataFileCheck => ({ path: file, kind, ok: false, error, entries: [] });
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (e) {
    return refuse(`cannot read the file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (size > MAX_SURICATA_FILE_BYTES) {
    return refuse(`the file is ${size} bytes, over the limit of ${MAX_SURICATA_FILE_BYTES} bytes`);
  }
  const content = await readFile(file, 'utf8');
  if (kind === 'threshold') {
    const result = parseThresholdConfig(content);
    const entries: SuricataRuleCheck[] = [
      ...result.entries.map(({ line, entry }) => ({
        line,
        status: 'compiled' as const,
        sid: entry.sid,
        gid: entry.gid,
        msg: entry.kind,
        reason: null,
      })),
      ...result.refused.map(({ line, reason }) => ({
        line,
        status: 'refused' as const,
        sid: null,
        gid: null,
        msg: null,
        reason,
      })),
    ].sort((a, b) => a.line - b.line);
    return { path: file, kind, ok: result.refused.length === 0, error: null, entries };
  }
  const result = parseRulesFile(content);
  const entries: SuricataRuleCheck[] = [
    ...result.rules.map(({ line, rule }) => ({
      line,
      status: rule.enabled ? ('compiled' as const) : ('disabled' as const),
      sid: rule.sid,
      gid: rule.gid,
      msg: rule.msg,
      reason: null,
    })),
    ...result.refused.map(({ line, reason }) => ({
      line,
      status: 'refused' as const,
      sid: null,
      gid: null,
      msg: null,
      reason,
    })),
  ].sort((a, b) => a.line - b.line);
  return { path: file, kind, ok: result.refused.length === 0, error: null, entries };
}

/** Checks Suricata rules files and threshold.config files, each rule or entry taken or refused with its reason. */
export async function checkSuricataFiles(paths: readonly string[]): Promise<SuricataFileCheck[]> {
  const results: SuricataFileCheck[] = [];
  for (const file of paths) results.push(await checkOne(file));
  return results;
}
