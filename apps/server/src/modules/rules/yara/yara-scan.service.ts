import type { FileYara, YaraScanProgress } from '@vigil/contract';
import type { Database, Queryable } from '../../../db/database';
import type { TenantScope } from '../../../http/tenancy';
import { notFound } from '../../../http/errors';
import { enqueueJobOnce } from '../../jobs/jobs.queue';
import {
  fileSeenBy,
  loadYaraRulesetKeys,
  matchesOfFile,
  scanCounts,
  scanJobActive,
  scanOfFile,
  YARA_SCAN_JOB,
} from './yara-scan.repository';
import { rulesetDigest } from './yara-ruleset';

export { YARA_SCAN_JOB } from './yara-scan.repository';

/**
 * Asks for a scan of the warehouse files not yet scanned with the enabled YARA rules. Ingest calls
 * it in the transaction that stores new files: one statement, and nothing when a scan is already
 * waiting.
 */
export async function requestYaraScan(tx: Queryable): Promise<void> {
  await enqueueJobOnce(tx, YARA_SCAN_JOB, { maxAttempts: 3 });
}

/**
 * The rule store calls this in the transaction that changes the enabled YARA rules (import,
 * enable, disable, a new revision, a rule turned off for one company, removal): the warehouse is
 * then scanned again in the background with the new set, and only matches not stored before
 * raise alerts.
 */
export async function requestYaraRescan(tx: Queryable): Promise<void> {
  await enqueueJobOnce(tx, YARA_SCAN_JOB, { maxAttempts: 3 });
}

async function currentRuleset(db: Queryable): Promise<{ digest: string; enabled: number }> {
  const keys = await loadYaraRulesetKeys(db);
  return { digest: rulesetDigest(keys.rules, keys.turnedOff), enabled: keys.rules.length };
}

/** Reads of the YARA scan: a file's matches, the scan's progress. */
export class YaraScanService {
  constructor(private readonly db: Database) {}

  async fileMatches(scope: TenantScope, sha256: string): Promise<FileYara> {
    const hash = sha256.toLowerCase();
    if (!(await fileSeenBy(this.db, hash, scope))) throw notFound();
    const [matches, scan, ruleset] = await Promise.all([
      matchesOfFile(this.db, hash, scope),
      scanOfFile(this.db, hash),
      currentRuleset(this.db),
    ]);
    const current = scan !== null && scan.ruleset === ruleset.digest;
    return {
      status: !current ? 'pending' : scan.error ? 'skipped' : 'scanned',
      reason: current ? scan.error : null,
      scanned_at: scan ? scan.scanned_at.toISOString() : null,
      matches: matches.map((m) => ({
        company_id: Number(m.company_id),
        rule_id: Number(m.rule_id),
        revision: m.revision,
        rule_name: m.rule_name,
        namespace: m.namespace,
        title: m.title,
        tags: m.tags,
        metadata: m.meta,
        strings: m.strings,
        matched_at: m.matched_at.toISOString(),
      })),
    };
  }

  async progress(scope: TenantScope): Promise<YaraScanProgress> {
    const ruleset = await currentRuleset(this.db);
    const [counts, job] = await Promise.all([scanCounts(this.db, ruleset.digest, scope), scanJobActive(this.db)]);
    return {
      state: job.running ? 'running' : job.pending || counts.scanned < counts.total ? 'pending' : 'idle',
      ...counts,
      enabled_rules: ruleset.enabled,
    };
  }
}
