import type { Alert, AlertLinkedEvent, AlertLinkedEvents } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import type { AlertRow } from './alerts.repository';

/** How many linked events the alert page shows with their contents. */
export const LINKED_EVENTS_SHOWN = 25;

type Kind = Alert['source'];

/** The resource whose `view` permission lets a caller read events of each kind. */
export const eventBasenames: Record<Kind, string> = {
  network: 'network',
  endpoint: 'eclipse_events',
  mail: 'mailing',
};

interface LinkedRow {
  kind: Kind;
  id: number;
  company_id: number;
  ts: Date;
  event: Record<string, unknown> | null;
  raw: Record<string, unknown> | null;
}

/**
 * The first linked events of an alert (by time) of the given kinds, read from their tables by the
 * full key (company, ts, id) so each is one index probe into its monthly partition. A link whose
 * event has been removed by retention is left out. `hidden` counts links of the other kinds.
 */
export async function linkedEvents(db: Queryable, alert: AlertRow, kinds: readonly Kind[]): Promise<AlertLinkedEvents> {
  const c = alert.company_id;
  const { rows: counts } = await db.query<{ kind: Kind; n: string }>(sql`
    SELECT event_kind AS kind, count(*) AS n FROM alert_events
    WHERE company_id = ${c} AND alert_id = ${alert.id} GROUP BY event_kind`);
  const hidden = counts.filter((row) => !kinds.includes(row.kind)).reduce((sum, row) => sum + Number(row.n), 0);
  if (kinds.length === 0) return { results: [], hidden };
  const { rows } = await db.query<LinkedRow>(sql`
    WITH links AS (
      SELECT event_kind, event_id, ts FROM alert_events
      WHERE company_id = ${c} AND alert_id = ${alert.id} AND event_kind = ANY(${[...kinds]}::text[])
      ORDER BY ts, event_id LIMIT ${LINKED_EVENTS_SHOWN}
    )
    SELECT l.event_kind AS kind, l.event_id AS id, ${c}::int8 AS company_id, l.ts,
           COALESCE(n.event::jsonb, p.event::jsonb, m.event::jsonb - 'text' - 'html') AS event,
           COALESCE(n.raw::jsonb, p.raw::jsonb) AS raw
    FROM links l
    LEFT JOIN network_events n ON l.event_kind = 'network' AND n.company_id = ${c} AND n.ts = l.ts AND n.id = l.event_id
    LEFT JOIN endpoint_events p ON l.event_kind = 'endpoint' AND p.company_id = ${c} AND p.ts = l.ts AND p.id = l.event_id
    LEFT JOIN mail_messages m ON l.event_kind = 'mail' AND m.company_id = ${c} AND m.ts = l.ts AND m.id = l.event_id
    ORDER BY l.ts, l.event_id`);
  const results: AlertLinkedEvent[] = [];
  for (const row of rows) {
    if (!row.event) continue;
    results.push({
      kind: row.kind,
      id: Number(row.id),
      company_id: Number(row.company_id),
      ts: row.ts.toISOString(),
      event: row.event,
      raw: row.raw ?? null,
    });
  }
  return { results, hidden };
}
