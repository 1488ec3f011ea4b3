import path from 'node:path';
import type { Database } from '../../../db/database';
import { flushSightings } from '../../ingest/ingest.service';
import { enqueueJobOnce } from '../../jobs/jobs.queue';
import { dedupKeyOf, type Detection, type DetectionSource, type Observable } from '../../pipeline/detections';
import type { DetectionPipeline } from '../../pipeline/pipeline';
import { recordRuleHits } from '../rule-engines.repository';
import { hitsOfBatch } from '../rule-hits';
import {
  attachmentNames,
  insertMatches,
  loadEnabledYaraRules,
  loadYaraRulesetKeys,
  pendingFiles,
  placesSeen,
  recordScans,
  sightingsOf,
  yaraRulesetVersion,
  YARA_SCAN_JOB,
  type FileSighting,
  type NewYaraMatch,
  type PendingFile,
  type ScanRecord,
} from './yara-scan.repository';
import { YaraCompileThread } from './yara-compile-thread';
import { buildRuleSet, effectiveFor, rulesetDigest, type CompiledRuleSet, type StoredYaraRule } from './yara-ruleset';
import { YaraScanError, YaraScanner, type YaraScanFile, type YaraScanMatch } from './yara-scanner';

export interface WarehouseScanOptions {
  /** Files larger than this are not scanned; their scan row says why. */
  maxFileBytes: number;
  /** A scan of one file running longer is stopped and the file marked timed out. */
  timeoutMs: number;
  /** Files read and scanned per transaction. */
  batchSize: number;
  /** A job run stops after this long and queues the next run for the rest. */
  budgetMs: number;
  /** Most matched strings kept per match. */
  maxStrings: number;
}

export const defaultWarehouseScanOptions: WarehouseScanOptions = {
  maxFileBytes: 32 * 1024 * 1024,
  timeoutMs: 10_000,
  batchSize: 20,
  budgetMs: 60_000,
  maxStrings: 20,
};

interface LoadedRules {
  /** Of the rules and the companies' settings: what the files' scan rows name. */
  digest: string;
  /** Of the rules alone: what the scanner was compiled from. */
  rulesDigest: string;
  set: CompiledRuleSet;
  scanner: YaraScanner | null;
  turnedOff: Set<string>;
}

/** Files read for a scan, with the companies' sightings of them and the names mails gave them. */
interface ReadBatch {
  files: PendingFile[];
  sightings: FileSighting[];
  mailNames: Map<string, string[]>;
}

/** What a batch's scans found, before it is written. */
interface ScannedBatch {
  files: number;
  skipped: number;
  scans: ScanRecord[];
  kept: { match: NewYaraMatch; rule: StoredYaraRule; file: PendingFile; sighting: FileSighting }[];
}

type BatchCounts = Pick<ScanRunResult, 'scanned' | 'skipped' | 'matches' | 'raised'>;

export interface ScanRunResult {
  ruleset: string;
  scanned: number;
  skipped: number;
  matches: number;
  raised: number;
  /** True when files are left for the next run. */
  more: boolean;
}

/** The `filename`, `filepath`, `extension` and `filetype` a file is scanned with. */
export function externalsOf(file: Pick<PendingFile, 'detectedType'>, names: readonly string[]): YaraScanFile {
  const seen = names.find((n) => n.length > 0) ?? '';
  const base = seen.split(/[\\/]/).pop() ?? '';
  const type = file.detectedType.toUpperCase();
  return {
    filename: base,
    filepath: seen,
    extension: path.extname(base).toLowerCase(),
    // Only a known short type; an unknown one lets the scanner read it from the first bytes.
    ...(type && type !== 'UNKNOWN' && type.length <= 16 ? { filetype: type === 'PE' ? 'EXE' : type } : {}),
  };
}

/** The matches a company keeps: of the rules effective for it, one per rule. */
export function matchesForCompany(
  companyId: number,
  sha256: string,
  found: readonly YaraScanMatch[],
  set: CompiledRuleSet,
  turnedOff: ReadonlySet<string>,
  maxStrings: number,
): { match: NewYaraMatch; rule: StoredYaraRule }[] {
  const out: { match: NewYaraMatch; rule: StoredYaraRule }[] = [];
  const seen = new Set<number>();
  for (const m of found) {
    const rule = set.rules.get(`${m.namespace}\0${m.rule}`);
    if (!rule || seen.has(rule.id) || !effectiveFor(rule, companyId, turnedOff)) continue;
    seen.add(rule.id);
    out.push({
      rule,
      match: {
        companyId,
        sha256,
        ruleId: rule.id,
        revision: rule.revision,
        ruleName: m.rule,
        namespace: rule.fileName || m.namespace,
        tags: m.tags,
        meta: m.meta,
        strings: m.strings.slice(0, maxStrings),
      },
    });
  }
  return out;
}

/**
 * Scans the warehouse with the enabled YARA rules, off the ingest path. One scanner holds every
 * enabled rule of every scope; it is compiled again only when the set changes. Each run scans the
 * files not yet scanned with the current set, keeps for each company that saw a file the matches of
 * the rules effective for it, and raises an alert for each match not stored before.
 */
export class WarehouseScan {
  private loaded: LoadedRules | null = null;
  private loading: Promise<LoadedRules> | null = null;
  /** Compile checks run here, off the server's thread (made when a rule set is first built). */
  private compiler: YaraCompileThread | null = null;
  readonly options: WarehouseScanOptions;

  constructor(
    private readonly db: Database,
    private readonly pipeline: Pick<DetectionPipeline, 'raise' | 'publish'>,
    private readonly log: { warn(o: object, m: string): void; info(o: object, m: string): void },
    options: Partial<WarehouseScanOptions> = {},
  ) {
    this.options = { ...defaultWarehouseScanOptions, ...options };
  }

  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = null;
    await loaded?.scanner?.close();
    const compiler = this.compiler;
    this.compiler = null;
    await compiler?.close();
  }

  /** The job's handler: a run, then the next run queued when files remain. */
  async runJob(): Promise<void> {
    const result = await this.run();
    if (result.more) await this.db.transaction((tx) => enqueueJobOnce(tx, YARA_SCAN_JOB));
  }

  /** The rule store's version the loaded rules were read at. */
  private version: string | null = null;

  /** The rules to scan with: one small statement when the store has not changed since. */
  private async rules(): Promise<LoadedRules> {
    const version = await yaraRulesetVersion(this.db);
    if (this.loaded && this.version === version) return this.loaded;
    // A load already under way may have read an older version: the next call checks again.
    const fresh = this.loading === null;
    const loaded = await this.readRules();
    if (fresh) this.version = version;
    return loaded;
  }

  private async readRules(): Promise<LoadedRules> {
    // Ids and revisions first: the sources are read only when the rules changed.
    const keys = await loadYaraRulesetKeys(this.db);
    const digest = rulesetDigest(keys.rules, keys.turnedOff);
    const rulesDigest = rulesetDigest(keys.rules, []);
    const off = new Set(keys.turnedOff.map((o) => `${o.companyId}:${o.ruleId}`));
    if (this.loaded && this.loaded.rulesDigest === rulesDigest) {
      // Only the companies' settings changed: the same scanner serves.
      this.loaded = { ...this.loaded, digest, turnedOff: off };
      return this.loaded;
    }
    if (this.loading) return this.loading;
    this.loading = (async () => {
      const { rules, turnedOff } = await loadEnabledYaraRules(this.db);
      this.compiler ??= new YaraCompileThread();
      const compiler = this.compiler;
      const set = await buildRuleSet(rules, { check: (source) => compiler.check(source) });
      for (const { rule, reason } of set.skipped)
        this.log.warn(
          { ruleId: rule.id, rule: rule.ruleKey, reason },
          'YARA rule left out of the scan: it does not compile',
        );
      const scanner =
        set.units.length === 0
          ? null
          : await YaraScanner.open(set.units, {
              timeoutMs: this.options.timeoutMs,
              maxBytes: this.options.maxFileBytes,
              checked: true,
              // Thousands of rules compile for tens of seconds, longer on a busy machine.
              startTimeoutMs: 300_000,
            });
      const previous = this.loaded;
      this.loaded = {
        digest: rulesetDigest(rules, turnedOff),
        rulesDigest: rulesetDigest(rules, []),
        set,
        scanner,
        turnedOff: new Set(turnedOff.map((o) => `${o.companyId}:${o.ruleId}`)),
      };
      await previous?.scanner?.close();
      return this.loaded;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** Scans what is not yet scanned with the current set, within the run's time budget. */
  async run(): Promise<ScanRunResult> {
    const started = Date.now();
    // Sightings queued by ingest are folded first: the companies that saw a file must be known.
    await flushSightings(this.db);
    let loaded = await this.rules();
    const result: ScanRunResult = {
      ruleset: loaded.digest,
      scanned: 0,
      skipped: 0,
      matches: 0,
      raised: 0,
      more: false,
    };
    // Files are walked in id order; the next batch (files and sightings) is read while this one
    // is scanned, and a batch is written while the next one is scanned. A walk that reaches the
    // end starts once more from the beginning, for files whose ids committed late.
    let afterId = 0;
    const read = async (after: number): Promise<ReadBatch> => {
      const files = await pendingFiles(
        this.db,
        loaded.digest,
        after,
        this.options.batchSize,
        this.options.maxFileBytes,
      );
      if (files.length === 0) return { files, sightings: [], mailNames: new Map() };
      const hashes = files.map((f) => f.sha256);
      const [sightings, mailNames] = await Promise.all([
        sightingsOf(this.db, hashes),
        attachmentNames(this.db, hashes),
      ]);
      return { files, sightings, mailNames };
    };
    const add = (counts: BatchCounts) => {
      result.scanned += counts.scanned;
      result.skipped += counts.skipped;
      result.matches += counts.matches;
      result.raised += counts.raised;
    };
    let next: Promise<ReadBatch> | null = null;
    let writing: Promise<BatchCounts> | null = null;
    try {
      for (;;) {
        if (Date.now() - started > this.options.budgetMs) {
          result.more = true;
          break;
        }
        const batch = await (next ?? read(afterId));
        next = null;
        if (batch.files.length === 0) {
          // Every scanned file gets its scan row, so a walk from the start that finds none is the end.
          if (writing) add(await writing);
          writing = null;
          if (afterId === 0) break;
          afterId = 0;
          continue;
        }
        afterId = batch.files[batch.files.length - 1]!.id;
        next = read(afterId);
        // An unhandled rejection of the read ahead must not end the process; it is awaited next turn.
        next.catch(() => undefined);
        const scanned = await this.scanFiles(loaded, batch);
        if (writing) add(await writing);
        writing = this.writeBatch(loaded, scanned);
        writing.catch(() => undefined);
        // A set changed during the run: the rest is scanned with the new one, from the beginning.
        const now = await this.rules();
        if (now.digest !== loaded.digest) {
          loaded = now;
          result.ruleset = now.digest;
          await next.catch(() => undefined);
          next = null;
          afterId = 0;
        }
      }
      if (writing) add(await writing);
      writing = null;
    } finally {
      await next?.catch(() => undefined);
      await writing?.catch(() => undefined);
    }
    return result;
  }

  /** Scans a batch's files: the scan row of each, and the matches each company keeps. */
  private async scanFiles(loaded: LoadedRules, batch: ReadBatch): Promise<ScannedBatch> {
    const { files, sightings, mailNames } = batch;
    const bySha = new Map<string, FileSighting[]>();
    for (const s of sightings) {
      const list = bySha.get(s.sha256);
      if (list) list.push(s);
      else bySha.set(s.sha256, [s]);
    }
    const scans: ScanRecord[] = [];
    /** The last sighting of a file this scan covers: a later one (a company new to it) asks for another. */
    const through = (sha256: string) => Math.max(0, ...(bySha.get(sha256) ?? []).map((s) => s.id));
    const kept: ScannedBatch['kept'] = [];
    let skipped = 0;
    for (const file of files) {
      if (file.content === null) {
        skipped++;
        scans.push({
          sha256: file.sha256,
          error: `too_large: the file is ${file.size} bytes, over the scan limit of ${this.options.maxFileBytes} bytes`,
          sightingsThrough: through(file.sha256),
        });
        continue;
      }
      const seen = bySha.get(file.sha256) ?? [];
      let found: YaraScanMatch[] = [];
      if (loaded.scanner) {
        const names = [...seen.map((s) => s.filename ?? '').filter(Boolean), ...(mailNames.get(file.sha256) ?? [])];
        try {
          found = await loaded.scanner.scan(file.content, externalsOf(file, names));
        } catch (error) {
          if (!(error instanceof YaraScanError) || error.code === 'closed') throw error;
          skipped++;
          scans.push({
            sha256: file.sha256,
            error: `${error.code}: ${error.message}`,
            sightingsThrough: through(file.sha256),
          });
          this.log.warn({ sha256: file.sha256, reason: error.message }, 'YARA scan of a warehouse file stopped');
          continue;
        }
      }
      scans.push({ sha256: file.sha256, error: null, sightingsThrough: through(file.sha256) });
      for (const sighting of seen) {
        for (const m of matchesForCompany(
          sighting.companyId,
          file.sha256,
          found,
          loaded.set,
          loaded.turnedOff,
          this.options.maxStrings,
        ))
          kept.push({ ...m, file, sighting });
      }
    }
    return { files: files.length, skipped, scans, kept };
  }

  /** Writes a scanned batch in one transaction: scan rows, new matches, and the alerts they raise. */
  private async writeBatch(loaded: LoadedRules, scanned: ScannedBatch): Promise<BatchCounts> {
    const { scans, kept } = scanned;
    const detections: Detection[] = [];
    const outcome = await this.db.transaction(async (tx) => {
      const fresh = await insertMatches(
        tx,
        kept.map((k) => k.match),
      );
      const isNew = new Set(fresh.map((f) => `${f.companyId}:${f.sha256}:${f.ruleId}:${f.revision}`));
      for (const k of kept) {
        const key = `${k.match.companyId}:${k.match.sha256}:${k.match.ruleId}:${k.match.revision}`;
        if (!isNew.has(key) || k.sighting.eventKind === null || k.sighting.eventId === null) continue;
        const places = await placesSeen(tx, k.match.companyId, k.match.sha256);
        detections.push(detectionOf(k.rule, k.match, k.file, k.sighting, places));
      }
      await recordScans(tx, loaded.digest, scans);
      await recordRuleHits(tx, hitsOfBatch(detections));
      return detections.length > 0 ? this.pipeline.raise(tx, detections) : null;
    });
    if (outcome && outcome.live.length > 0) await this.pipeline.publish(outcome.live);
    return {
      scanned: scanned.files - scanned.skipped,
      skipped: scanned.skipped,
      matches: kept.length,
      raised: detections.length,
    };
  }
}

/** The alert of a new match: the rule, the file's hashes and names, and where the company saw it. */
export function detectionOf(
  rule: StoredYaraRule,
  match: NewYaraMatch,
  file: Pick<PendingFile, 'sha256' | 'md5' | 'sha1' | 'size'>,
  sighting: FileSighting,
  places: { recipients: string[]; hosts: string[] },
): Detection {
  const source: DetectionSource = {
    type: 'rule',
    engine: 'yara',
    ruleId: String(rule.id),
    revision: rule.revision,
    name: match.ruleName,
    storedRuleId: rule.id,
    ...(rule.author === '' ? {} : { author: rule.author }),
    ...(rule.licence === '' ? {} : { licence: rule.licence }),
  };
  const observables: Observable[] = [
    { kind: 'hash', value: file.sha256, role: 'file.hash.sha256' },
    { kind: 'hash', value: file.md5, role: 'file.hash.md5' },
    { kind: 'hash', value: file.sha1, role: 'file.hash.sha1' },
    ...(sighting.filename ? [{ kind: 'file' as const, value: sighting.filename, role: 'file.name' }] : []),
    ...places.hosts.map((h) => ({ kind: 'host' as const, value: h, role: 'host.name' })),
    ...places.recipients.map((r) => ({ kind: 'email' as const, value: r, role: 'mail.to' })),
  ];
  const strings = match.strings.map((s) => `${s.identifier}@${s.offset}`).join(', ');
  return {
    companyId: match.companyId,
    source,
    title: rule.title || match.ruleName,
    description:
      `YARA rule ${match.ruleName} (${match.namespace}) matched the file ${sighting.filename ?? file.sha256} ` +
      `(${file.size} bytes, SHA-256 ${file.sha256}).` +
      (strings ? `\nMatched strings: ${strings}.` : '') +
      (match.tags.length > 0 ? `\nTags: ${match.tags.join(', ')}.` : '') +
      (rule.author ? `\nAuthor: ${rule.author}` : '') +
      (rule.licence ? `\nLicence: ${rule.licence}` : ''),
    severity: rule.level,
    mitre: [...rule.techniques].sort((a, b) => (a.startsWith('TA') ? 0 : 1) - (b.startsWith('TA') ? 0 : 1)),
    observables,
    event: { kind: sighting.eventKind!, id: sighting.eventId!, ts: sighting.lastSeen },
    dedupKey: dedupKeyOf(source, [file.sha256]),
    occurredAt: new Date().toISOString(),
  };
}
