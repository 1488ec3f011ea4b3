import {
  widgetCreateSchema,
  widgetDataRequestSchema,
  widgetLayoutSchema,
  WIDGETS_PER_USER_MAX,
  widgetUpdateSchema,
  type WidgetList,
} from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { requireActor } from '../../http/actor';
import { notFound, parseOrThrow, ValidationError } from '../../http/errors';
import { pathId } from '../../http/params';
import { inScope } from '../../http/tenancy';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { widgetData } from './widgets.data';
import {
  countWidgets,
  deleteWidget,
  ensureDashboard,
  findWidget,
  insertWidget,
  listWidgets,
  saveLayout,
  toWidget,
  updateWidget,
  type WidgetRow,
} from './widgets.repository';

const snapshot = (w: WidgetRow) => ({ kind: w.kind, size: w.size, position: w.position, settings: w.settings });
const repr = (w: WidgetRow) => `${w.kind} (${w.size})`;

function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The caller's own dashboard: widgets each user adds, removes and arranges, and their chart data. */
export async function registerWidgets(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const permission = (action: string) => ({ config: { permission: { basename: 'widgets', action } } });

  const answerList = async (userId: number): Promise<WidgetList> => {
    const rows = await listWidgets(db, userId);
    return { results: rows.map(toWidget), count: rows.length };
  };

  app.get('/api/widgets/', permission('view'), async (request) => {
    const actor = requireActor(request);
    await db.transaction((tx) => ensureDashboard(tx, actor.userId, actor.companyId));
    return answerList(actor.userId);
  });

  app.post('/api/widgets/', permission('add'), async (request, reply) => {
    const actor = requireActor(request);
    const input = parseOrThrow(widgetCreateSchema, request.body ?? {});
    const row = await db.transaction(async (tx) => {
      // A dashboard someone builds before ever reading it still starts from the defaults.
      await ensureDashboard(tx, actor.userId, actor.companyId);
      if ((await countWidgets(tx, actor.userId)) >= WIDGETS_PER_USER_MAX)
        throw ValidationError.field('kind', `A dashboard holds at most ${WIDGETS_PER_USER_MAX} widgets.`);
      const created = await insertWidget(
        tx,
        { userId: actor.userId, companyId: actor.companyId },
        { kind: input.kind, size: input.size ?? 'half', settings: input.settings ?? {} },
      );
      await recordAudit(tx, auditContextOf(request), {
        action: 'create',
        objectType: 'widget',
        objectId: created.id,
        objectRepr: repr(created),
        companyId: created.company_id,
        after: snapshot(created),
      });
      return created;
    });
    reply.status(201);
    return toWidget(row);
  });

  app.patch('/api/widgets/:id/', permission('change'), async (request) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    const row = await db.transaction(async (tx) => {
      const before = await findWidget(tx, actor.userId, id, true);
      if (!before) throw notFound();
      const input = parseOrThrow(widgetUpdateSchema, request.body ?? {});
      const after = await updateWidget(tx, before, input);
      await recordAudit(tx, auditContextOf(request), {
        action: 'update',
        objectType: 'widget',
        objectId: id,
        objectRepr: repr(after),
        companyId: after.company_id,
        before: snapshot(before),
        after: snapshot(after),
      });
      return after;
    });
    return toWidget(row);
  });

  app.delete('/api/widgets/:id/', permission('delete'), async (request, reply) => {
    const actor = requireActor(request);
    const id = pathId(request.params);
    await db.transaction(async (tx) => {
      const row = await findWidget(tx, actor.userId, id, true);
      if (!row) throw notFound();
      await deleteWidget(tx, row);
      await recordAudit(tx, auditContextOf(request), {
        action: 'delete',
        objectType: 'widget',
        objectId: id,
        objectRepr: repr(row),
        companyId: row.company_id,
        before: snapshot(row),
      });
    });
    reply.status(204);
  });

  app.put('/api/widgets/layout/', permission('change'), async (request) => {
    const actor = requireActor(request);
    const input = parseOrThrow(widgetLayoutSchema, request.body ?? {});
    await db.transaction(async (tx) => {
      const rows = await listWidgets(tx, actor.userId);
      const known = new Map(rows.map((r) => [r.id, r]));
      const errors: Record<string, string[]> = {};
      const seen = new Set<number>();
      input.widgets.forEach((w, index) => {
        if (!known.has(w.id)) errors[`widgets.${index}.id`] = [`No widget with id ${w.id} on your dashboard.`];
        else if (seen.has(w.id)) errors[`widgets.${index}.id`] = ['This widget is listed twice.'];
        seen.add(w.id);
      });
      if (Object.keys(errors).length === 0 && seen.size !== rows.length)
        errors.widgets = ['List every widget of the dashboard once, in the new order.'];
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      await saveLayout(tx, actor.userId, input.widgets);
      const order = (list: { id: number; size: string }[]) => list.map((w) => `${w.id}:${w.size}`);
      const before = order(rows);
      const after = order(input.widgets);
      if (before.join() !== after.join()) {
        await recordAudit(tx, auditContextOf(request), {
          action: 'update',
          objectType: 'dashboard',
          objectId: actor.userId,
          objectRepr: actor.username,
          companyId: actor.companyId,
          before: { layout: before },
          after: { layout: after },
        });
      }
    });
    return answerList(actor.userId);
  });

  app.post('/api/widgets/data/', permission('view'), async (request) => {
    const actor = requireActor(request);
    const input = parseOrThrow(widgetDataRequestSchema, request.body ?? {});
    if (!isKnownTimeZone(input.time_zone))
      throw ValidationError.field('time_zone', `Unknown time zone ${input.time_zone}.`);
    if (input.company_id !== undefined && !inScope(actor.scope, input.company_id))
      throw ValidationError.field('company_id', `No company with id ${input.company_id}.`);
    return widgetData(db, actor.scope, input);
  });
}
