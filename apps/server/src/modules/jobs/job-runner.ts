import type { Database } from '../../db/database';
import {
  claimNextJob,
  completeJob,
  failAbandonedJobs,
  failJobAttempt,
  type ClaimedJob,
  type JsonObject,
} from './jobs.repository';

/** What a handler may hand back: a payload that replaces the stored one (to drop secrets or bodies). */
export interface JobResult {
  payload?: JsonObject;
}

export type JobHandler = (payload: unknown, job: ClaimedJob) => Promise<JobResult | void>;

/** Thrown by a handler when trying again cannot help (a recipient refused for good): no retry. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** Where the runner reports; Fastify's logger fits. */
export interface JobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: JobLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface JobRunnerOptions {
  db: Database;
  /** Time source; without one the database's clock is used, which every process shares. */
  clock?: (() => Date) | undefined;
  logger?: JobLogger | undefined;
  /** Pause between looks for due jobs when the runner runs by itself. */
  pollMs?: number;
  /** How long a claimed job stays taken; past it another runner takes the job again. */
  leaseSeconds?: number;
  /** Jobs run at once by this process when running by itself. */
  concurrency?: number;
  /** Seconds to wait before attempt `attempt + 1` after attempt `attempt` failed. */
  backoffSeconds?: (attempt: number) => number;
}

export interface JobOutcome {
  id: number;
  kind: string;
  attempt: number;
  /** done; retry (pending again, later); failed (no attempts left or permanent); lost (lease taken over). */
  outcome: 'done' | 'retry' | 'failed' | 'lost';
  error?: string;
}

/** 1 min, 4 min, 16 min, 64 min, … at most 6 h. */
export function defaultBackoffSeconds(attempt: number): number {
  return Math.min(60 * 4 ** Math.max(0, attempt - 1), 6 * 60 * 60);
}

/** Text of an error for `last_error`: the message and, for network peers, their code; never a stack. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 2000);
  const code = (error as { code?: unknown }).code;
  const text = typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  return text.slice(0, 2000);
}

/**
 * Runs queued jobs: claims due jobs one at a time, runs each handler outside any transaction,
 * then marks it done or records the failure and schedules a retry with exponential back-off.
 * Safe with several runners in one or many processes (claims use FOR UPDATE SKIP LOCKED and a
 * lease); delivery is at least once: a process that dies mid-job leaves it to be taken again
 * when its lease expires.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly db: Database;
  private readonly clock: (() => Date) | undefined;
  private readonly logger: JobLogger;
  private readonly pollMs: number;
  private readonly leaseSeconds: number;
  private readonly concurrency: number;
  private readonly backoffSeconds: (attempt: number) => number;
  private timer: NodeJS.Timeout | null = null;
  /** Runs in progress, started by the poller or by a caller; stop() waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopping = false;

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.logger = options.logger ?? silentLogger;
    this.pollMs = options.pollMs ?? 1000;
    this.leaseSeconds = options.leaseSeconds ?? 5 * 60;
    this.concurrency = options.concurrency ?? 4;
    this.backoffSeconds = options.backoffSeconds ?? defaultBackoffSeconds;
  }

  /** Registers the handler of one kind of job; a runner claims only kinds it has handlers for. */
  register(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`A handler for job kind "${kind}" is already registered`);
    this.handlers.set(kind, handler);
  }

  /** Kinds this runner handles. */
  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Runs due jobs until none is left (or `limit` have run), `concurrency` at a time (1 by
   * default, so tests see a deterministic order). `now` stands in for the clock.
   */
  async runDueJobs(options: { now?: Date; limit?: number; concurrency?: number } = {}): Promise<JobOutcome[]> {
    const run = this.drain(options);
    this.inFlight.add(run);
    try {
      return await run;
    } finally {
      this.inFlight.delete(run);
    }
  }

  private async drain(options: { now?: Date; limit?: number; concurrency?: number }): Promise<JobOutcome[]> {
    const kinds = this.kinds;
    if (kinds.length === 0) return [];
    const now = options.now ?? this.clock?.() ?? null;
    const abandoned = await failAbandonedJobs(this.db, kinds, now);
    if (abandoned > 0) this.logger.warn({ count: abandoned }, 'jobs failed: their process died on the last attempt');
    const outcomes: JobOutcome[] = [];
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    let started = 0;
    const lane = async () => {
      while (!this.stopping && started < limit) {
        started += 1;
        const job = await claimNextJob(this.db, kinds, now, this.leaseSeconds);
        if (!job) return;
        outcomes.push(await this.runOne(job, now));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, lane));
    return outcomes;
  }

  private async runOne(job: ClaimedJob, now: Date | null): Promise<JobOutcome> {
    const handler = this.handlers.get(job.kind);
    const base = { id: job.id, kind: job.kind, attempt: job.attempts };
    try {
      if (!handler) throw new PermanentJobError(`No handler for job kind "${job.kind}"`);
      const result = await handler(job.payload, job);
      // The job ran at `now` when a clock was given; otherwise the database stamps it.
      const kept = await completeJob(this.db, job, now, result ? result.payload : undefined);
      if (!kept) {
        this.logger.warn(base, 'job finished after its lease had been taken over');
        return { ...base, outcome: 'lost' };
      }
      return { ...base, outcome: 'done' };
    } catch (error) {
      const message = describeError(error);
      const permanent = error instanceof PermanentJobError;
      const status = await failJobAttempt(this.db, job, now, message, {
        retryInSeconds: this.backoffSeconds(job.attempts),
        permanent,
      });
      if (status === null) {
        this.logger.warn({ ...base, error: message }, 'job failed after its lease had been taken over');
        return { ...base, outcome: 'lost', error: message };
      }
      if (status === 'failed') {
        this.logger.error({ ...base, error: message }, 'job failed for good');
        return { ...base, outcome: 'failed', error: message };
      }
      this.logger.warn({ ...base, error: message }, 'job attempt failed; it will be retried');
      return { ...base, outcome: 'retry', error: message };
    }
  }

  /** Starts polling for due jobs in this process. Does nothing when the poll interval is 0. */
  start(): void {
    if (this.pollMs <= 0 || this.timer || this.stopping) return;
    const tick = async () => {
      try {
        await this.runDueJobs({ concurrency: this.concurrency });
      } catch (error) {
        this.logger.error({ error: describeError(error) }, 'job runner could not reach the database');
      } finally {
        if (!this.stopping) this.timer = setTimeout(() => void tick(), this.pollMs);
      }
    };
    this.timer = setTimeout(() => void tick(), this.pollMs);
  }

  /** Stops polling and waits for the jobs in hand to finish; claims nothing more. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
  }
}
