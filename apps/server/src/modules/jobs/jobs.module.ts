import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { JobRunner } from './job-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job runner: modules register handlers on it; tests call `runDueJobs()` to drain it. */
    jobs: JobRunner;
  }
}

/**
 * The job runner of this process. It starts polling when the app is ready (unless JOBS_POLL_MS is
 * 0) and, when the app closes, stops claiming and finishes the jobs in hand before the database
 * closes.
 */
export async function registerJobs(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const runner = new JobRunner({
    db: deps.db,
    clock: deps.clock,
    logger: app.log,
    pollMs: deps.config.jobsPollMs,
  });
  app.decorate('jobs', runner);
  app.addHook('onReady', async () => {
    runner.start();
  });
  app.addHook('preClose', async () => {
    await runner.stop();
  });
}
