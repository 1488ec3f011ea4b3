import {
  WIDGETS_PER_USER_MAX,
  type WidgetCreate,
  type WidgetData,
  type WidgetDataRequest,
  type WidgetLayout,
  type WidgetUpdate,
} from '@vigil/contract';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { inScope } from '../../http/tenancy';
import { recordAudit, recordChange, type AuditContext, type AuditedKind } from '../audit/audit.service';
import { widgetData } from './widgets.data.repository';
import {
  countWidgets,
  deleteWidget,
  ensureDashboard,
  findWidget,
  insertWidget,
  listWidgets,
  saveLayout,
  updateWidget,
  type WidgetRow,
} from './widgets.repository';

/** A widget in the audit log: its kind, size, place and settings. */
const audited: AuditedKind<WidgetRow> = {
  objectType: 'widget',
  repr: (w) => `${w.kind} (${w.size})`,
  snapshot: (w) => ({ kind: w.kind, size: w.size, position: w.position, settings: w.settings }),
};

function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The caller's own dashboard: each change in one transaction with its audit record. */
export class WidgetsService {
  constructor(private readonly db: Database) {}

  /** The caller's widgets in order; the first read makes the default set. */
  async list(actor: Actor): Promise<WidgetRow[]> {
    await this.db.transaction((tx) => ensureDashboard(tx, actor.userId, actor.companyId));
    return listWidgets(this.db, actor.userId);
  }

  /** One of the caller's own widgets (another user's widget does not exist for the caller). */
  async get(actor: Actor, id: number): Promise<WidgetRow> {
    const row = await findWidget(this.db, actor.userId, id);
    if (!row) throw notFound();
    return row;
  }

  async create(actor: Actor, audit: AuditContext, input: WidgetCreate): Promise<WidgetRow> {
    return this.db.transaction(async (tx) => {
      // A dashboard someone builds before ever reading it still starts from the defaults.
      await ensureDashboard(tx, actor.userId, actor.companyId);
      if ((await countWidgets(tx, actor.userId)) >= WIDGETS_PER_USER_MAX)
        throw ValidationError.field('kind', `A dashboard holds at most ${WIDGETS_PER_USER_MAX} widgets.`);
      const created = await insertWidget(
        tx,
        { userId: actor.userId, companyId: actor.companyId },
        { kind: input.kind, size: input.size ?? 'half', settings: input.settings ?? {} },
      );
      await recordChange(tx, audit, audited, { after: created });
      return created;
    });
  }

  async update(actor: Actor, audit: AuditContext, id: number, input: WidgetUpdate): Promise<WidgetRow> {
    return this.db.transaction(async (tx) => {
      const before = await findWidget(tx, actor.userId, id, true);
      if (!before) throw notFound();
      const after = await updateWidget(tx, before, input);
      await recordChange(tx, audit, audited, { before, after });
      return after;
    });
  }

  async remove(actor: Actor, audit: AuditContext, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await findWidget(tx, actor.userId, id, true);
      if (!row) throw notFound();
      await deleteWidget(tx, row);
      await recordChange(tx, audit, audited, { before: row });
    });
  }

  /** Sets the order and sizes of every widget at once; answers the widgets as they are after it. */
  async layout(actor: Actor, audit: AuditContext, input: WidgetLayout): Promise<WidgetRow[]> {
    await this.db.transaction(async (tx) => {
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
        await recordAudit(tx, audit, {
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
    return listWidgets(this.db, actor.userId);
  }

  /** Chart data of one kind over a period, in the caller's scope (or one company of it). */
  async data(actor: Actor, input: WidgetDataRequest): Promise<WidgetData> {
    if (!isKnownTimeZone(input.time_zone))
      throw ValidationError.field('time_zone', `Unknown time zone ${input.time_zone}.`);
    if (input.company_id !== undefined && !inScope(actor.scope, input.company_id))
      throw ValidationError.field('company_id', `No company with id ${input.company_id}.`);
    return widgetData(this.db, actor.scope, input);
  }
}
