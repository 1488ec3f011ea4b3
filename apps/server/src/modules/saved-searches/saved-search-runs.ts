import {
  mailAddressSchema,
  SEARCH_REPORT_FIRST_HITS,
  type SavedSearchRunAnswer,
  type SearchHit,
} from '@vigil/contract';
import type { Database, Queryable } from '../../db/database';
import { enqueueJobOnce } from '../jobs/jobs.queue';
import { enqueueMails } from '../mail/mail.queue';
import { dedupKeyOf, type Detection, type DetectionSource, type Observable } from '../pipeline/detections';
import type { DetectionPipeline } from '../pipeline/pipeline';
import type { LiveEvent } from '../live/live.bus';
import { searchBatches, type BatchedSearchKind } from '../search/search.repository';
import { checkedQuery } from '../search/search.service';
import { reportMail, type ReportForMail } from './report-mail';
import { findSavedSearch, reportRecipients, type SavedSearchRow } from './saved-searches.repository';
import {
  companyNameOf,
  dueSavedSearches,
  finishRun,
  insertSearchReport,
  pruneReadBatches,
  recordReadBatches,
  unreadBatches,
} from './search-reports.repository';

/** The job that runs the saved searches whose time has come. */
export const SAVED_SEARCH_RUN_JOB = 'saved_searches.run';

/** Most ingest batches one run of a saved search reads; the next run, at once, reads on. */
export const BATCHES_PER_RUN = 500;

/** Saved searches one job run takes before it queues the next job run for the rest. */
const SEARCHES_PER_JOB = 50;

/** How often a process forgets ledger rows no run can need. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Asks for a run of the due saved searches (one waiting job serves every ask). */
export async function requestSavedSearchRuns(tx: Queryable): Promise<void> {
  await enqueueJobOnce(tx, SAVED_SEARCH_RUN_JOB);
}

/** What one run did; `more` when batches were left for the next run. */
export interface RunOutcome extends SavedSearchRunAnswer {
  more: boolean;
}

/** The companies a run searches: those chosen (`companies` sharing), else the saved search's own. */
export function runCompanies(saved: Pick<SavedSearchRow, 'sharing' | 'company_ids' | 'company_id'>): number[] {
  return saved.sharing === 'companies' ? saved.company_ids.map(Number) : [Number(saved.company_id)];
}

/** `{{name}}` and `{{count}}` of an alert title template filled in. */
export function alertTitle(template: string, name: string, count: number): string {
  return template.replace(/\{\{\s*(name|count)\s*\}\}/g, (_, key: string) => (key === 'name' ? name : String(count)));
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** What the hits are about, where their events say it plainly: addresses, hosts, accounts, senders. */
export function observablesOf(hits: readonly SearchHit[]): Observable[] {
  const found = new Map<string, Observable>();
  const add = (kind: Observable['kind'], value: string | null, role: string) => {
    if (value !== null && !found.has(`${kind}:${value}`)) found.set(`${kind}:${value}`, { kind, value, role });
  };
  for (const hit of hits) {
    const event = hit.event;
    if (hit.kind === 'network') {
      add('ip', text(event.src_ip), 'src_ip');
      add('ip', text(event.dest_ip), 'dest_ip');
    } else if (hit.kind === 'endpoint') {
      add('host', text(field(event.host, 'name')), 'host.name');
      add('user', text(field(event.user, 'name')), 'user.name');
    } else if (hit.kind === 'mail') {
      add('email', text(field(event.from, 'address')), 'mail.from');
    }
  }
  return [...found.values()].slice(0, 50);
}

/**
 * Runs enabled saved searches over the events that arrived since their last run. One run of one
 * saved search is one transaction: it locks the saved search, picks the ingest batches its ledger
 * lacks, searches their events per company, writes a report (and an alert) per company with hits,
 * adds the batches to the ledger and sets the next run. A run that fails writes nothing and the next
 * reads the same batches; a committed run's batches are never read again.
 */
export class SavedSearchRuns {
  /** Most batches one run reads (BATCHES_PER_RUN; tests make it small). */
  private readonly batchesPerRun: number;
  /** Where users open the console (PUBLIC_URL), for the links in report mails. */
  private readonly publicUrl: string | undefined;

  constructor(
    private readonly db: Database,
    private readonly pipeline: DetectionPipeline,
    private readonly log: { warn(o: object, m: string): void },
    options: { publicUrl?: string | undefined; batchesPerRun?: number } = {},
  ) {
    this.batchesPerRun = options.batchesPerRun ?? BATCHES_PER_RUN;
    this.publicUrl = options.publicUrl;
  }

  private prunedAt = 0;

  /** The job's handler: the due saved searches, then another job run when some are left. */
  async runJob(): Promise<void> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await pruneReadBatches(this.db);
    }
    const due = await dueSavedSearches(this.db, SEARCHES_PER_JOB);
    let more = due.length === SEARCHES_PER_JOB;
    for (const id of due) {
      try {
        const outcome = await this.run(id, 'scheduled');
        if (outcome?.more) more = true;
      } catch (error) {
        // One saved search that cannot run (its query no longer reads) must not hold up the others.
        this.log.warn({ savedSearchId: id, err: error }, 'saved search run failed');
      }
    }
    if (more) await this.db.transaction((tx) => requestSavedSearchRuns(tx));
  }

  /**
   * One run of a saved search. `scheduled`: only when it is enabled and due, and not while another
   * run holds it (null then); `now`: waits for a run under way and then reads what that one left.
   */
  async run(
    id: number,
    mode: 'scheduled' | 'now',
    /** Called in the run's transaction once it has run (a run by hand writes its audit record). */
    after?: (tx: Queryable, saved: SavedSearchRow, outcome: RunOutcome) => Promise<void>,
  ): Promise<RunOutcome | null> {
    const live: LiveEvent[] = [];
    const outcome = await this.db.transaction(async (tx) => {
      const saved = await findSavedSearch(tx, null, id, mode === 'scheduled' ? 'skip' : 'update');
      if (!saved || !saved.enabled || saved.enabled_at === null) return null;
      if (mode === 'scheduled' && (saved.next_run_at === null || new Date(saved.next_run_at) > new Date())) return null;
      const done = await this.runLocked(tx, saved, live);
      await after?.(tx, saved, done);
      return done;
    });
    if (live.length > 0) await this.pipeline.publish(live);
    return outcome;
  }

  private async runLocked(tx: Queryable, saved: SavedSearchRow, live: LiveEvent[]): Promise<RunOutcome> {
    const now = new Date();
    // Alerts come in no ingest batch: a run reads the event kinds alone.
    const kinds = saved.kinds.filter((kind): kind is BatchedSearchKind => kind !== 'alerts');
    const picked = await unreadBatches(
      tx,
      {
        id: saved.id,
        kinds,
        companyIds: runCompanies(saved),
        since: new Date(saved.batches_from ?? saved.enabled_at!),
      },
      this.batchesPerRun + 1,
    );
    const more = picked.length > this.batchesPerRun;
    const batches = picked.slice(0, this.batchesPerRun);
    const byCompany = new Map<number, number[]>();
    for (const { companyId, batchId } of batches) {
      const ids = byCompany.get(companyId);
      if (ids) ids.push(batchId);
      else byCompany.set(companyId, [batchId]);
    }
    const ast = byCompany.size === 0 ? null : checkedQuery(saved.query, kinds.length > 0 ? kinds : saved.kinds, now);
    const answer: RunOutcome = { hits: 0, reports: 0, alerts: 0, more };
    for (const [companyId, batchIds] of byCompany) {
      const found = await searchBatches(tx, { kinds, ast, companyId, batchIds, now }, SEARCH_REPORT_FIRST_HITS);
      if (found.count === 0) continue;
      answer.hits += found.count;
      let alertId: number | null = null;
      if (saved.alert) {
        const raised = await this.pipeline.raise(tx, [detectionOf(saved, companyId, found.count, found.hits, now)]);
        alertId = raised.created[0] ?? raised.updated[0] ?? null;
        live.push(...raised.live);
        if (alertId !== null) answer.alerts++;
      }
      const report = {
        savedSearchId: saved.id,
        savedSearchName: saved.name,
        companyId,
        query: saved.query,
        kinds: saved.kinds,
        from: found.first!,
        to: found.last!,
        hitCount: found.count,
        firstHits: found.hits,
        alertId,
      };
      const reportId = await insertSearchReport(tx, report);
      answer.reports++;
      await this.mailReport(tx, saved.id, companyId, { ...report, id: reportId });
    }
    await recordReadBatches(tx, saved.id, batches);
    await finishRun(tx, saved.id, answer.hits, more);
    return answer;
  }

  /**
   * Queues the mail of a report to each subscriber who may read it, in the run's transaction: a run
   * that rolls back mails nothing, and a committed run's events are never reported (nor mailed) again.
   */
  private async mailReport(
    tx: Queryable,
    savedSearchId: number,
    companyId: number,
    report: Omit<ReportForMail, 'companyName'>,
  ) {
    const recipients = (await reportRecipients(tx, savedSearchId, companyId)).filter(
      (user) => mailAddressSchema.safeParse(user.email).success,
    );
    if (recipients.length === 0) return;
    const about = { ...report, companyName: await companyNameOf(tx, companyId) };
    await enqueueMails(
      tx,
      recipients.map((user) => ({
        to: user.email,
        ...reportMail(about, { name: user.name, locale: user.locale, timeZone: user.time_zone }, this.publicUrl),
      })),
    );
  }
}

/** The alert of one run's hits in one company: the saved search's template, severity and techniques. */
export function detectionOf(
  saved: Pick<SavedSearchRow, 'id' | 'name' | 'query' | 'alert'>,
  companyId: number,
  count: number,
  hits: readonly SearchHit[],
  now: Date,
): Detection {
  const alert = saved.alert!;
  const source: DetectionSource = { type: 'search', savedSearchId: Number(saved.id), name: saved.name };
  const newest = hits.find((hit) => hit.kind !== 'alerts') ?? hits[0]!;
  return {
    companyId,
    source,
    title: alertTitle(alert.title, saved.name, count),
    description:
      `The saved search "${saved.name}" found ${count} ${count === 1 ? 'event' : 'events'} among those that ` +
      `arrived since its last run.\nQuery: ${saved.query}`,
    severity: alert.severity,
    mitre: [...alert.mitre],
    observables: observablesOf(hits),
    event: { kind: newest.kind === 'alerts' ? 'network' : newest.kind, id: newest.id, ts: newest.ts },
    // One alert per run and company: the run's time makes the key its own.
    dedupKey: dedupKeyOf(source, [String(companyId), now.toISOString()]),
    occurredAt: now.toISOString(),
  };
}
