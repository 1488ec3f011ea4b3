import { bulkInsert } from '../../db/bulk';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';

/** A JSON value as it is stored in `jobs.payload`. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

/** A job as the runner holds it after claiming it. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  /** This attempt's number, from 1. */
  attempts: number;
  maxAttempts: number;
}

/** A row of the jobs table, for inspection (tests, the command line, a future admin page). */
export interface JobRow {
  id: number;
  kind: string;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface NewJob {
  kind: string;
  payload: JsonObject;
  runAt: Date | null;
  maxAttempts: number;
}

/**
 * The current time for a statement: the caller's clock when it has one (tests, an injected
 * clock), else the database's, which every server process shares. Kept to milliseconds, as a
 * JavaScript Date holds it, so a time read back (a job's run_at) compares equal when passed in.
 */
export function at(now: Date | null): SqlFragment {
  return sql`date_trunc('milliseconds', COALESCE(${now}::timestamptz, now()))`;
}

export async function insertJob(db: Queryable, job: NewJob): Promise<number> {
  const { rows } = await db.query<{ id: number }>(sql`
    INSERT INTO jobs (kind, payload, max_attempts, run_at)
    VALUES (${job.kind}, ${JSON.stringify(job.payload)}::jsonb, ${job.maxAttempts}, ${at(job.runAt)})
    RETURNING id`);
  return rows[0]!.id;
}

/**
 * Inserts a job unless one of the same kind is already waiting (a running one does not count: it
 * may have looked before the caller's change). One statement; answers whether a job was added.
 */
export async function insertJobUnlessPending(db: Queryable, job: NewJob): Promise<boolean> {
  const { rowCount } = await db.query(sql`
    INSERT INTO jobs (kind, payload, max_attempts, run_at)
    SELECT ${job.kind}, ${JSON.stringify(job.payload)}::jsonb, ${job.maxAttempts}, ${at(job.runAt)}
    WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ${job.kind} AND status = 'pending')`);
  return rowCount > 0;
}

/** Inserts many jobs of one kind with one statement per few thousand rows. */
export async function insertJobs(
  db: Queryable,
  kind: string,
  payloads: readonly JsonObject[],
  options: { runAt: Date | null; maxAttempts: number },
): Promise<number> {
  const columns = [
    { name: 'kind', type: 'text' },
    { name: 'payload', type: 'jsonb' },
    { name: 'max_attempts', type: 'int4' },
    ...(options.runAt ? [{ name: 'run_at', type: 'timestamptz' } as const] : []),
  ] as const;
  const rows = payloads.map((payload) => [
    kind,
    payload,
    options.maxAttempts,
    ...(options.runAt ? [options.runAt] : []),
  ]);
  return bulkInsert(db, 'jobs', columns, rows);
}

/**
 * Claims the next due job of one of `kinds`: a pending job whose time has come, or a running job
 * whose lease has expired (its process died). One statement, `FOR UPDATE SKIP LOCKED`, so two
 * runners never claim the same job; the lease in `locked_until` marks it as taken until then.
 */
export async function claimNextJob(
  db: Queryable,
  kinds: readonly string[],
  now: Date | null,
  leaseSeconds: number,
): Promise<ClaimedJob | null> {
  const t = at(now);
  const { rows } = await db.query<{
    id: number;
    kind: string;
    payload: unknown;
    attempts: number;
    max_attempts: number;
  }>(
    sql`
    WITH due AS (
      SELECT id FROM jobs
      WHERE kind = ANY(${[...kinds]}::text[])
        AND attempts < max_attempts
        AND ((status = 'pending' AND run_at <= ${t}) OR (status = 'running' AND locked_until <= ${t}))
      ORDER BY run_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE jobs j
       SET status = 'running', attempts = j.attempts + 1,
           locked_until = ${t} + make_interval(secs => ${leaseSeconds})
      FROM due
     WHERE j.id = due.id
    RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts`,
  );
  const row = rows[0];
  if (!row) return null;
  return { id: row.id, kind: row.kind, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts };
}

/**
 * Fails running jobs whose lease expired with no attempts left: their process died on the last
 * attempt, so nobody will finish them. Returns how many.
 */
export async function failAbandonedJobs(db: Queryable, kinds: readonly string[], now: Date | null): Promise<number> {
  const t = at(now);
  const result = await db.query(sql`
    UPDATE jobs
       SET status = 'failed', finished_at = ${t}, locked_until = NULL,
           last_error = 'The process running the last attempt stopped before finishing it (its lease expired).'
     WHERE kind = ANY(${[...kinds]}::text[])
       AND status = 'running' AND locked_until <= ${t} AND attempts >= max_attempts`);
  return result.rowCount;
}

/**
 * Marks a claimed job done; `payload` replaces the stored one when given (to drop what need not
 * be kept). False when the claim was lost (the lease expired and another runner took the job).
 */
export async function completeJob(
  db: Queryable,
  job: ClaimedJob,
  now: Date | null,
  payload: JsonObject | undefined,
): Promise<boolean> {
  const result = await db.query(sql`
    UPDATE jobs
       SET status = 'done', finished_at = ${at(now)}, locked_until = NULL,
           payload = COALESCE(${payload === undefined ? null : JSON.stringify(payload)}::jsonb, payload)
     WHERE id = ${job.id} AND status = 'running' AND attempts = ${job.attempts}`);
  return result.rowCount === 1;
}

/**
 * Records a failed attempt: the job goes back to pending to run again after `retryInSeconds`, or
 * to failed when it was the last attempt or `permanent`. Null when the claim was lost.
 */
export async function failJobAttempt(
  db: Queryable,
  job: ClaimedJob,
  now: Date | null,
  error: string,
  options: { retryInSeconds: number; permanent: boolean },
): Promise<'pending' | 'failed' | null> {
  const t = at(now);
  const final = sql`(${options.permanent} OR attempts >= max_attempts)`;
  const { rows } = await db.query<{ status: 'pending' | 'failed' }>(sql`
    UPDATE jobs
       SET status = CASE WHEN ${final} THEN 'failed' ELSE 'pending' END,
           finished_at = CASE WHEN ${final} THEN ${t} END,
           run_at = CASE WHEN ${final} THEN run_at ELSE ${t} + make_interval(secs => ${options.retryInSeconds}) END,
           locked_until = NULL,
           last_error = ${error}
     WHERE id = ${job.id} AND status = 'running' AND attempts = ${job.attempts}
    RETURNING status`);
  return rows[0]?.status ?? null;
}

/** One job by id. */
export async function findJob(db: Queryable, id: number): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>(sql`SELECT * FROM jobs WHERE id = ${id}`);
  return rows[0] ?? null;
}

/** Jobs of one kind, oldest first. */
export async function listJobs(db: Queryable, kind: string): Promise<JobRow[]> {
  const { rows } = await db.query<JobRow>(sql`SELECT * FROM jobs WHERE kind = ${kind} ORDER BY id`);
  return rows;
}
