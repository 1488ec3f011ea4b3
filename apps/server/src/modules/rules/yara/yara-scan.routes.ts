import { endpoints } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../../app-deps';
import { requireActor } from '../../../http/actor';
import { route } from '../../../http/endpoints';
import { WarehouseScan } from './warehouse-scan';
import { requestYaraScan, YARA_SCAN_JOB, YaraScanService } from './yara-scan.service';

/** How often a scan is asked for anyway, in case a change did not ask (a safety net; a scan with nothing new is cheap). */
const SAFETY_SCAN_MS = 15 * 60 * 1000;

/**
 * YARA on warehouse files: the background scan job and its reads (a file's matches, the scan's
 * progress). The job is queued by ingest when new files arrive and by the rule store when the
 * enabled YARA rules change.
 */
export async function registerYaraScan(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const scan = new WarehouseScan(deps.db, deps.pipeline, app.log);
  app.jobs.register(YARA_SCAN_JOB, () => scan.runJob());
  app.addHook('onClose', async () => {
    await scan.close();
  });
  if (deps.config.jobsPollMs > 0) {
    const timer = setInterval(() => {
      deps.db
        .transaction((tx) => requestYaraScan(tx))
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not queue the YARA scan'));
    }, SAFETY_SCAN_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  const reads = new YaraScanService(deps.db);
  const api = endpoints.yaraScans;
  route(app, api.fileMatches, async ({ request, params }) =>
    reads.fileMatches(requireActor(request).scope, params.sha256),
  );
  route(app, api.progress, async ({ request }) => reads.progress(requireActor(request).scope));
}
