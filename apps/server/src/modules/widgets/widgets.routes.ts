import { endpoints, type WidgetList } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { route } from '../../http/endpoints';
import { auditContextOf } from '../audit/audit.service';
import { toWidget, type WidgetRow } from './widgets.repository';
import { WidgetsService } from './widgets.service';

const answerList = (rows: WidgetRow[]): WidgetList => ({ results: rows.map(toWidget), count: rows.length });

/** The caller's own dashboard: widgets each user adds, removes and arranges, and their chart data. */
export async function registerWidgets(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const widgets = new WidgetsService(deps.db);
  const api = endpoints.widgets;
  /** A path naming none of the caller's widgets answers 404 before the body is checked. */
  const widgetFirst = {
    exists: async ({ id }: { id: number }, request: FastifyRequest) =>
      Boolean(await widgets.get(requireActor(request), id)),
  };

  route(app, api.list, async ({ request }) => answerList(await widgets.list(requireActor(request))));

  route(app, api.create, async ({ request, body }) =>
    toWidget(await widgets.create(requireActor(request), auditContextOf(request), body)),
  );

  route(
    app,
    api.update,
    async ({ request, params, body }) =>
      toWidget(await widgets.update(requireActor(request), auditContextOf(request), params.id, body)),
    widgetFirst,
  );

  route(app, api.remove, async ({ request, params }) => {
    await widgets.remove(requireActor(request), auditContextOf(request), params.id);
  });

  route(app, api.layout, async ({ request, body }) =>
    answerList(await widgets.layout(requireActor(request), auditContextOf(request), body)),
  );

  route(app, api.data, async ({ request, body }) => widgets.data(requireActor(request), body));
}
