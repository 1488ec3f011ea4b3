import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { migrate } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import { JobRunner, PermanentJobError, defaultBackoffSeconds } from '../src/modules/jobs/job-runner';
import { enqueueJob, enqueueJobs } from '../src/modules/jobs/jobs.queue';
import { claimNextJob, findJob, listJobs, type JobRow } from '../src/modules/jobs/jobs.repository';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ migrated: true });
  await migrate(database.db);
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.query(sql`DELETE FROM jobs`);
});

/** A runner whose handlers record what they were given. */
function recordingRunner(kind = 'test.echo') {
  const seen: unknown[] = [];
  const runner = new JobRunner({ db: database.db });
  runner.register(kind, async (payload) => {
    seen.push(payload);
  });
  return { runner, seen };
}

async function job(id: number): Promise<JobRow> {
  const row = await findJob(database.db, id);
  if (!row) throw new Error(`job ${id} is gone`);
  return row;
}

describe('enqueueJob', () => {
  it('queues in the caller’s transaction: committed jobs run, rolled-back ones never exist', async () => {
    const { runner, seen } = recordingRunner();
    const id = await database.db.transaction((tx) => enqueueJob(tx, 'test.echo', { n: 1 }));
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, 'test.echo', { n: 2 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await listJobs(database.db, 'test.echo')).map((row) => row.payload)).toEqual([{ n: 1 }]);

    const outcomes = await runner.runDueJobs();
    expect(outcomes).toEqual([{ id, kind: 'test.echo', attempt: 1, outcome: 'done' }]);
    expect(seen).toEqual([{ n: 1 }]);
    const done = await job(id);
    expect(done).toMatchObject({ status: 'done', attempts: 1, locked_until: null, last_error: null });
    expect(done.finished_at).not.toBeNull();
  });

  it('refuses a bad kind or attempt count before touching the database', async () => {
    await expect(enqueueJob(database.db, 'Bad Kind', {})).rejects.toThrow(/kind/);
    await expect(enqueueJob(database.db, 'test.echo', {}, { maxAttempts: 0 })).rejects.toThrow(/maxAttempts/);
    await expect(enqueueJob(database.db, 'test.echo', {}, { maxAttempts: 1.5 })).rejects.toThrow(/maxAttempts/);
    expect(await listJobs(database.db, 'test.echo')).toEqual([]);
  });

  it('queues many jobs at once and runs each once, oldest first', async () => {
    const { runner, seen } = recordingRunner();
    const count = await database.db.transaction((tx) =>
      enqueueJobs(
        tx,
        'test.echo',
        Array.from({ length: 25 }, (_, n) => ({ n })),
      ),
    );
    expect(count).toBe(25);
    const outcomes = await runner.runDueJobs();
    expect(outcomes.every((o) => o.outcome === 'done')).toBe(true);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, n) => ({ n })));
  });

  it('does not run a job before its time', async () => {
    const { runner, seen } = recordingRunner();
    const later = new Date(Date.UTC(2100, 0, 1));
    const id = await enqueueJob(database.db, 'test.echo', { n: 1 }, { runAt: later });
    expect(await runner.runDueJobs()).toEqual([]);
    expect(await runner.runDueJobs({ now: new Date(later.getTime() - 1000) })).toEqual([]);
    expect(await runner.runDueJobs({ now: later })).toMatchObject([{ id, outcome: 'done' }]);
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('leaves kinds it has no handler for to runners that have one', async () => {
    const { runner } = recordingRunner('test.echo');
    const id = await enqueueJob(database.db, 'test.other', {});
    expect(await runner.runDueJobs()).toEqual([]);
    expect((await job(id)).status).toBe('pending');
  });
});

describe('JobRunner', () => {
  it('runs the handler outside any transaction: the claim is already committed when it runs', async () => {
    const runner = new JobRunner({ db: database.db });
    const statusSeen: string[] = [];
    runner.register('test.look', async (_payload, claimed) => {
      // On the embedded database (one connection) this query would wait forever if the runner
      // held a transaction open; on a server it would not see the uncommitted claim.
      const { rows } = await database.db.query<{ status: string }>(
        sql`SELECT status FROM jobs WHERE id = ${claimed.id}`,
      );
      statusSeen.push(rows[0]!.status);
    });
    await enqueueJob(database.db, 'test.look', {});
    await runner.runDueJobs();
    expect(statusSeen).toEqual(['running']);
  });

  it('retries a failed job with exponential back-off and records the error', async () => {
    let calls = 0;
    const runner = new JobRunner({ db: database.db });
    runner.register('test.flaky', async () => {
      calls += 1;
      if (calls < 3) throw Object.assign(new Error(`relay busy (call ${calls})`), { code: 'EBUSY' });
    });
    const id = await enqueueJob(database.db, 'test.flaky', {});
    const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));

    expect(await runner.runDueJobs({ now: start })).toMatchObject([{ id, attempt: 1, outcome: 'retry' }]);
    let row = await job(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'EBUSY: relay busy (call 1)' });
    const firstRetry = start.getTime() + defaultBackoffSeconds(1) * 1000;
    expect(row.run_at.getTime()).toBe(firstRetry);

    // Not again before the back-off has passed.
    expect(await runner.runDueJobs({ now: new Date(firstRetry - 1000) })).toEqual([]);
    expect(await runner.runDueJobs({ now: new Date(firstRetry) })).toMatchObject([{ attempt: 2, outcome: 'retry' }]);
    row = await job(id);
    const secondRetry = firstRetry + defaultBackoffSeconds(2) * 1000;
    expect(row.run_at.getTime()).toBe(secondRetry);
    expect(defaultBackoffSeconds(2)).toBeGreaterThan(defaultBackoffSeconds(1));

    expect(await runner.runDueJobs({ now: new Date(secondRetry) })).toMatchObject([{ attempt: 3, outcome: 'done' }]);
    row = await job(id);
    expect(row).toMatchObject({ status: 'done', attempts: 3 });
    expect(row.finished_at?.getTime()).toBe(secondRetry);
    expect(calls).toBe(3);
  });

  it('marks a job failed with its last error after max attempts', async () => {
    const runner = new JobRunner({ db: database.db, backoffSeconds: () => 1 });
    runner.register('test.broken', async () => {
      throw new Error('always broken');
    });
    const id = await enqueueJob(database.db, 'test.broken', {}, { maxAttempts: 3 });
    let now = new Date(Date.UTC(2030, 0, 1));
    const outcomes = [];
    for (let i = 0; i < 5; i += 1) {
      outcomes.push(...(await runner.runDueJobs({ now })));
      now = new Date(now.getTime() + 1000);
    }
    expect(outcomes.map((o) => o.outcome)).toEqual(['retry', 'retry', 'failed']);
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 3, last_error: 'always broken' });
  });

  it('does not retry a permanent failure', async () => {
    const runner = new JobRunner({ db: database.db });
    runner.register('test.permanent', async () => {
      throw new PermanentJobError('recipient refused for good');
    });
    const id = await enqueueJob(database.db, 'test.permanent', {});
    expect(await runner.runDueJobs()).toMatchObject([{ outcome: 'failed', error: 'recipient refused for good' }]);
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('takes a job again when the process running it died (its lease expired)', async () => {
    const { runner, seen } = recordingRunner();
    const id = await enqueueJob(database.db, 'test.echo', { n: 7 });
    const start = new Date(Date.UTC(2030, 0, 1));
    // A process claims the job and dies before finishing it.
    const claimed = await claimNextJob(database.db, ['test.echo'], start, 60);
    expect(claimed).toMatchObject({ id, attempts: 1 });
    expect((await job(id)).status).toBe('running');

    // While the lease holds nobody else takes it; once it has expired another runner does.
    expect(await runner.runDueJobs({ now: new Date(start.getTime() + 59_000) })).toEqual([]);
    expect(await runner.runDueJobs({ now: new Date(start.getTime() + 60_000) })).toMatchObject([
      { id, attempt: 2, outcome: 'done' },
    ]);
    expect(seen).toEqual([{ n: 7 }]);
  });

  it('fails a job whose process died on its last attempt', async () => {
    const { runner, seen } = recordingRunner();
    const id = await enqueueJob(database.db, 'test.echo', {}, { maxAttempts: 1 });
    const start = new Date(Date.UTC(2030, 0, 1));
    await claimNextJob(database.db, ['test.echo'], start, 60);
    expect(await runner.runDueJobs({ now: new Date(start.getTime() + 61_000) })).toEqual([]);
    const row = await job(id);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/lease expired/);
    expect(seen).toEqual([]);
  });

  it('does not let a runner whose lease was taken over overwrite the new attempt', async () => {
    const runner = new JobRunner({ db: database.db, leaseSeconds: 60 });
    const start = new Date(Date.UTC(2030, 0, 1));
    let stolen = false;
    runner.register('test.slow', async (_payload, claimed) => {
      if (stolen) return;
      stolen = true;
      // While this attempt runs, its lease expires and another runner claims the job.
      const again = await claimNextJob(database.db, ['test.slow'], new Date(start.getTime() + 120_000), 60);
      expect(again).toMatchObject({ id: claimed.id, attempts: 2 });
    });
    const id = await enqueueJob(database.db, 'test.slow', {});
    expect(await runner.runDueJobs({ now: start, limit: 1 })).toMatchObject([{ id, outcome: 'lost' }]);
    expect(await job(id)).toMatchObject({ status: 'running', attempts: 2 });
  });

  it('never runs one job twice when two runners drain the queue at once', async () => {
    const runs = new Map<number, number>();
    const runners = [0, 1].map(() => {
      const runner = new JobRunner({ db: database.db });
      runner.register('test.count', async (payload) => {
        const n = (payload as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        await new Promise((resolve) => setImmediate(resolve));
      });
      return runner;
    });
    await enqueueJobs(
      database.db,
      'test.count',
      Array.from({ length: 40 }, (_, n) => ({ n })),
    );
    const [a, b] = await Promise.all(runners.map((runner) => runner.runDueJobs({ concurrency: 3 })));
    expect(a!.length + b!.length).toBe(40);
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    const { rows } = await database.db.query<{ n: number }>(
      sql`SELECT count(*)::int8 AS n FROM jobs WHERE kind = 'test.count' AND status = 'done' AND attempts = 1`,
    );
    expect(Number(rows[0]!.n)).toBe(40);
  });

  it('stops claiming when stopped, after finishing the job in hand', async () => {
    const runner = new JobRunner({ db: database.db });
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      runner.register('test.hold', async () => {
        resolve();
        await new Promise<void>((r) => (release = r));
      });
    });
    const first = await enqueueJob(database.db, 'test.hold', {});
    const second = await enqueueJob(database.db, 'test.hold', {});
    const draining = runner.runDueJobs();
    await started;
    const stopped = runner.stop();
    release();
    await stopped;
    expect(await draining).toMatchObject([{ id: first, outcome: 'done' }]);
    expect((await job(first)).status).toBe('done');
    expect((await job(second)).status).toBe('pending');
  });
});

describe('the runner in the app', () => {
  it('runs by itself when JOBS_POLL_MS is set and finishes its job before the app closes', async () => {
    const config = loadConfig({ DATA_DIR: '/nonexistent', WEB_DIST_DIR: '/nonexistent', JOBS_POLL_MS: '10' });
    const app = await buildApp({ db: database.db, config, version: 'test', logger: false });
    const handled: number[] = [];
    app.jobs.register('test.app', async (payload) => {
      handled.push((payload as { n: number }).n);
    });
    await app.ready();
    const id = await enqueueJob(database.db, 'test.app', { n: 1 });
    while ((await job(id)).status !== 'done') await new Promise((resolve) => setTimeout(resolve, 10));
    await app.close();
    expect(handled).toEqual([1]);
  });

  it('does not run by itself when JOBS_POLL_MS is 0; runDueJobs drains it', async () => {
    const config = loadConfig({ DATA_DIR: '/nonexistent', WEB_DIST_DIR: '/nonexistent', JOBS_POLL_MS: '0' });
    const app = await buildApp({ db: database.db, config, version: 'test', logger: false });
    app.jobs.register('test.app', async () => undefined);
    await app.ready();
    const id = await enqueueJob(database.db, 'test.app', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await job(id)).status).toBe('pending');
    await app.jobs.runDueJobs();
    expect((await job(id)).status).toBe('done');
    await app.close();
  });
});
