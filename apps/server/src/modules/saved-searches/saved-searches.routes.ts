import { endpoints } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ModuleDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { registerList } from '../../list/list-routes';
import { auditContextOf } from '../audit/audit.service';
import { requestSavedSearchRuns, SAVED_SEARCH_RUN_JOB, SavedSearchRuns } from './saved-search-runs';
import { savedSearchList, toSavedSearch } from './saved-searches.repository';
import { SavedSearchesService } from './saved-searches.service';
import { searchReportList } from './search-reports.repository';

/** How often the due saved searches are looked for, when the job runner polls by itself. */
const SCHEDULE_MS = 30_000;

/** Saved searches, their scheduled runs (the job `saved_searches.run`) and the reports the runs write. */
export async function registerSavedSearches(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const runs = new SavedSearchRuns(deps.db, deps.pipeline, app.log, { publicUrl: deps.config.publicUrl });
  app.jobs.register(SAVED_SEARCH_RUN_JOB, () => runs.runJob());
  if (deps.config.jobsPollMs > 0) {
    const timer = setInterval(() => {
      deps.db
        .transaction((tx) => requestSavedSearchRuns(tx))
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not queue the saved search runs'));
    }, SCHEDULE_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  const saved = new SavedSearchesService(deps.db, runs);
  const api = endpoints.savedSearches;
  const options = { db: deps.db, publicUrl: deps.config.publicUrl };
  // Start-up checks the orderings against this one; each caller reads the list as they see it.
  registerList(app, api, savedSearchList({ userId: 0, scope: { companies: [] } }), {
    ...options,
    forActor: (actor) => savedSearchList({ userId: actor.userId, scope: actor.scope }),
  });
  /** A path naming no saved search the caller can see answers 404 before the body is checked. */
  const visibleFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) => saved.exists(requireActor(request), id),
  };

  route(app, api.get, async ({ request, params }) => toSavedSearch(await saved.get(requireActor(request), params.id)));
  route(app, api.create, async ({ request, body }) =>
    toSavedSearch(await saved.create(requireActor(request), auditContextOf(request), body)),
  );
  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toSavedSearch(await saved.update(requireActor(request), auditContextOf(request), params.id, body)),
    visibleFirst,
  );
  route(
    app,
    api.delete,
    async ({ request, params }) => {
      await saved.remove(requireActor(request), auditContextOf(request), params.id);
    },
    visibleFirst,
  );
  route(
    app,
    api.runNow,
    async ({ request, params }) => saved.runNow(requireActor(request), auditContextOf(request), params.id),
    visibleFirst,
  );

  for (const [spec, on] of [
    [api.subscribe, true],
    [api.unsubscribe, false],
  ] as const) {
    route(
      app,
      spec,
      async ({ request, params }) =>
        toSavedSearch(await saved.subscribe(requireActor(request), auditContextOf(request), params.id, on)),
      visibleFirst,
    );
  }

  registerList(app, api.reports, searchReportList, options);
  route(app, api.reports.get, async ({ request, params }) => saved.report(requireActor(request), params.id));
}
