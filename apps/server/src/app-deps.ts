import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { IndicatorIndexService } from './modules/indicators/indicator-index.service';
import type { Mailer } from './modules/mail/mail.transport';
import type { DetectionPipeline } from './modules/pipeline/pipeline';

/** Everything the application needs from outside; tests pass their own. */
export interface AppDeps {
  db: Database;
  config: Config;
  /** Application version, shown by the health check. */
  version: string;
  /** Fastify logger setting: pino options, or false to stay quiet. */
  logger?: FastifyServerOptions['logger'];
  /** Sends mail; SMTP from the configuration when absent. */
  mailer?: Mailer;
  /** Time source of the job runner; the database's clock when absent. */
  clock?: () => Date;
  /** Where release notes are read from; docs/release-notes of the repository when absent. */
  releaseNotesDir?: string;
}

/** What the composition root (buildApp) makes once from AppDeps and hands to the modules with them. */
export interface AppServices {
  /** This app's in-memory index of live policy indicators: ingest matching, retro-hunt, verdicts. */
  indicatorIndex: IndicatorIndexService;
  /** The detection pipeline every alert is raised through (ingest batches and retro-hunts alike). */
  pipeline: DetectionPipeline;
}

/** What a module's `register` function is given. */
export type ModuleDeps = AppDeps & AppServices;
