import type { Queryable } from '../../db/database';
import { insertJob, insertJobs, insertJobUnlessPending, type JsonObject } from './jobs.repository';

export interface EnqueueOptions {
  /** Not before this time; now by default. */
  runAt?: Date;
  /** Attempts before the job is marked failed (1 to 100); 5 by default. */
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

const kindPattern = /^[a-z][a-z0-9_.:-]{0,99}$/;

function checked(kind: string, options: EnqueueOptions): { runAt: Date | null; maxAttempts: number } {
  if (!kindPattern.test(kind)) throw new Error(`Job kind must be a short lower-case name, got ${JSON.stringify(kind)}`);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100)
    throw new Error(`maxAttempts must be a whole number from 1 to 100, got ${maxAttempts}`);
  if (options.runAt && Number.isNaN(options.runAt.getTime())) throw new Error('runAt is not a valid date');
  return { runAt: options.runAt ?? null, maxAttempts };
}

/**
 * Queues a job. Call it with the transaction that makes the change the job follows from: the job
 * exists only if that change commits, so a rolled-back change sends nothing. The job runs after
 * commit, outside any transaction, in whichever server process claims it first.
 * Returns the job's id.
 */
export async function enqueueJob(
  tx: Queryable,
  kind: string,
  payload: JsonObject,
  options: EnqueueOptions = {},
): Promise<number> {
  return insertJob(tx, { kind, payload, ...checked(kind, options) });
}

/** Queues many jobs of one kind in the caller's transaction, a few statements in all. Returns how many. */
export async function enqueueJobs(
  tx: Queryable,
  kind: string,
  payloads: readonly JsonObject[],
  options: EnqueueOptions = {},
): Promise<number> {
  if (payloads.length === 0) return 0;
  return insertJobs(tx, kind, payloads, checked(kind, options));
}

/**
 * Queues a job that needs no payload unless one of its kind is already waiting: many changes then
 * cost one run (a scan of whatever is new). Call it in the transaction that makes the change.
 */
export async function enqueueJobOnce(tx: Queryable, kind: string, options: EnqueueOptions = {}): Promise<boolean> {
  return insertJobUnlessPending(tx, { kind, payload: {}, ...checked(kind, options) });
}
