import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { Mailer } from './modules/mail/mail.transport';

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
