import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { isEmptyInstallation } from './demo.repository';
import { loadDemo } from './load-demo';
import { describeDemo, writeDemoAccounts } from './report';

/** First line of the outcome of VIGIL_DEMO=1, one of these (the browser-test harness waits for them). */
export const DEMO_LOADED_LINE = 'Demo data loaded';
export const DEMO_SKIPPED_LINE = 'Demo data not loaded';
export const DEMO_FAILED_LINE = 'Demo data could not be loaded';

/**
 * VIGIL_DEMO=1: once the server is listening, loads the demo through its own API when the
 * database is a fresh installation (no customer company, no events), and says so otherwise.
 * Never throws: a failed demo leaves the server running.
 */
export async function loadDemoAtStart(
  app: FastifyInstance,
  db: Database,
  config: Pick<Config, 'dataDir' | 'demo'>,
): Promise<void> {
  const say = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
  try {
    if (!(await isEmptyInstallation(db))) {
      say([`${DEMO_SKIPPED_LINE}: the database already holds customer companies or events (VIGIL_DEMO is ignored).`]);
      return;
    }
    say([`Loading the demo data (scale ${config.demo.scale}); the console can be used meanwhile.`]);
    const summary = await loadDemo(app, db, {
      scale: config.demo.scale,
      ...(config.demo.seed === undefined ? {} : { seed: config.demo.seed }),
      passwords: config.demo.passwords,
      log: (line) => say([`  demo: ${line}`]),
    });
    const file = await writeDemoAccounts(config.dataDir, summary);
    say(['', ...describeDemo(summary), `The accounts are also in ${file}.`, '']);
  } catch (error) {
    app.log.error({ err: error }, 'demo data could not be loaded');
    say([`${DEMO_FAILED_LINE}: ${error instanceof Error ? error.message : String(error)}`]);
  }
}
