import type { Widget, WidgetKind, WidgetSettings, WidgetSize } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

export interface WidgetRow {
  id: number;
  company_id: number;
  user_id: number;
  kind: WidgetKind;
  size: WidgetSize;
  position: number;
  settings: WidgetSettings;
  created_at: Date;
  updated_at: Date;
}

export const toWidget = (row: WidgetRow): Widget => ({
  id: Number(row.id),
  kind: row.kind,
  size: row.size,
  position: row.position,
  settings: row.settings,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** What a new user's dashboard starts with: the queue's shape, who is noisy, and how fast the team is. */
export const defaultWidgets: readonly { kind: WidgetKind; size: WidgetSize }[] = [
  { kind: 'alerts_by_severity', size: 'full' },
  { kind: 'open_alerts_by_status', size: 'third' },
  { kind: 'open_incidents_by_severity', size: 'third' },
  { kind: 'time_to_acknowledge', size: 'third' },
  { kind: 'top_signatures', size: 'half' },
  { kind: 'top_hosts', size: 'half' },
  { kind: 'top_source_ips', size: 'half' },
  { kind: 'ingest_rate', size: 'half' },
];

const columns = sql`w.id, w.company_id, w.user_id, w.kind, w.size, w.position, w.settings, w.created_at, w.updated_at`;

/** The user's widgets in dashboard order. */
export async function listWidgets(db: Queryable, userId: number): Promise<WidgetRow[]> {
  const { rows } = await db.query<WidgetRow>(
    sql`SELECT ${columns} FROM widgets w WHERE w.user_id = ${userId} ORDER BY w.position, w.id`,
  );
  return rows;
}

/**
 * Makes the default widgets the first time a user's dashboard is read. Only the caller that
 * marks the dashboard as set up creates them, so two first reads at once make one set.
 */
export async function ensureDashboard(db: Queryable, userId: number, companyId: number): Promise<void> {
  const { rows } = await db.query(
    sql`INSERT INTO dashboards (user_id) VALUES (${userId}) ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
  );
  if (rows.length === 0) return;
  await db.query(sql`
    INSERT INTO widgets (company_id, user_id, kind, size, position)
    SELECT ${companyId}::int8, ${userId}::int8, d.kind, d.size, d.ord - 1
    FROM unnest(${defaultWidgets.map((w) => w.kind)}::text[], ${defaultWidgets.map((w) => w.size)}::text[])
         WITH ORDINALITY AS d(kind, size, ord)`);
}

/** One of the user's widgets, or null (another user's widget does not exist for the caller). */
export async function findWidget(db: Queryable, userId: number, id: number, lock = false): Promise<WidgetRow | null> {
  const { rows } = await db.query<WidgetRow>(sql`
    SELECT ${columns} FROM widgets w WHERE w.user_id = ${userId} AND w.id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`);
  return rows[0] ?? null;
}

export async function countWidgets(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    sql`SELECT count(*)::int4 AS n FROM widgets WHERE user_id = ${userId}`,
  );
  return rows[0]?.n ?? 0;
}

export async function insertWidget(
  db: Queryable,
  owner: { userId: number; companyId: number },
  input: { kind: WidgetKind; size: WidgetSize; settings: WidgetSettings },
): Promise<WidgetRow> {
  const { rows } = await db.query<WidgetRow>(sql`
    INSERT INTO widgets (company_id, user_id, kind, size, position, settings)
    VALUES (${owner.companyId}, ${owner.userId}, ${input.kind}, ${input.size},
            (SELECT COALESCE(max(position) + 1, 0) FROM widgets WHERE user_id = ${owner.userId}),
            ${JSON.stringify(input.settings)}::jsonb)
    RETURNING id`);
  return (await findWidget(db, owner.userId, rows[0]!.id))!;
}

export async function updateWidget(
  db: Queryable,
  row: WidgetRow,
  patch: { size?: WidgetSize; settings?: WidgetSettings },
): Promise<WidgetRow> {
  await db.query(sql`
    UPDATE widgets SET size = ${patch.size ?? row.size}, settings = ${JSON.stringify(patch.settings ?? row.settings)}::jsonb,
      updated_at = now()
    WHERE company_id = ${row.company_id} AND id = ${row.id}`);
  return (await findWidget(db, row.user_id, row.id))!;
}

/** Removes a widget and closes the gap it leaves in the order. */
export async function deleteWidget(db: Queryable, row: WidgetRow): Promise<void> {
  await db.query(sql`DELETE FROM widgets WHERE company_id = ${row.company_id} AND id = ${row.id}`);
  await db.query(sql`
    UPDATE widgets SET position = position - 1 WHERE user_id = ${row.user_id} AND position > ${row.position}`);
}

/** Sets every widget's place and size at once; `order` holds each of the user's widget ids once. */
export async function saveLayout(
  db: Queryable,
  userId: number,
  order: readonly { id: number; size: WidgetSize }[],
): Promise<void> {
  await db.query(sql`
    UPDATE widgets w SET position = l.ord - 1, size = l.size, updated_at = now()
    FROM unnest(${order.map((o) => o.id)}::int8[], ${order.map((o) => o.size)}::text[]) WITH ORDINALITY AS l(id, size, ord)
    WHERE w.user_id = ${userId} AND w.id = l.id
      AND (w.position IS DISTINCT FROM (l.ord - 1)::int4 OR w.size IS DISTINCT FROM l.size)`);
}
