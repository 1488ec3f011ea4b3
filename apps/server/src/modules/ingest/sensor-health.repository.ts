import type { EveStats, NetworkEvent } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';

/*
 * Sensor health: the latest EVE `stats` record of each sensor of a company (sensor_health). A
 * stats record is the engine's counters, not something that happened on the network, so it is
 * kept here instead of among the network events: one row per sensor, replaced by newer reports.
 */

/** The counters of eveStatsSchema, each a column of sensor_health of the same name. */
export const sensorHealthCounters = [
  'uptime',
  'capture_kernel_packets',
  'capture_kernel_drops',
  'capture_errors',
  'decoder_pkts',
  'decoder_bytes',
  'decoder_invalid',
  'flows',
  'tcp_sessions',
  'tcp_reassembly_gaps',
  'detect_alerts',
  'detect_alert_queue_overflows',
  'rules_loaded',
  'rules_failed',
  'app_layer_errors',
] as const satisfies readonly (keyof EveStats)[];

/** A stats record as the batch brought it: its normalised form and its line. */
export interface StatsReport {
  event: NetworkEvent;
  /** The line it was read from (its `stats` object is stored with the exact digits); else `event.raw` is. */
  text?: string;
}

/** Whether an event is a sensor's stats record rather than something seen on the network. */
export function isStatsRecord(event: NetworkEvent): boolean {
  return event.stats !== null && event.event_type === 'stats';
}

/**
 * Splits a network batch into the events to store and the stats records (which are the sensors'
 * health). A batch without stats records (the usual case) comes back as it is, without copies.
 */
export function separateStats(
  events: NetworkEvent[],
  texts: string[] | undefined,
): { events: NetworkEvent[]; texts: string[] | undefined; stats: StatsReport[] } {
  if (!events.some(isStatsRecord)) return { events, texts, stats: [] };
  const kept: NetworkEvent[] = [];
  const keptTexts: string[] = [];
  const stats: StatsReport[] = [];
  events.forEach((event, i) => {
    const text = texts?.[i];
    if (isStatsRecord(event)) stats.push(text === undefined ? { event } : { event, text });
    else {
      kept.push(event);
      if (text !== undefined) keptTexts.push(text);
    }
  });
  return { events: kept, texts: texts === undefined ? undefined : keptTexts, stats };
}

/**
 * Keeps the latest report of each sensor of a company in one statement, in the caller's
 * transaction. A sensor is the record's EVE `host`, or the name of the ingest key that sent it when
 * the record has none. A report older than the stored one changes nothing (batches may arrive out
 * of order).
 */
export async function storeSensorHealth(
  tx: Queryable,
  companyId: number,
  tokenId: number | null,
  reports: readonly StatsReport[],
): Promise<void> {
  if (reports.length === 0) return;
  const counters = sensorHealthCounters.map((name) => {
    const values = reports.map(({ event }) => {
      const value = event.stats?.[name];
      return value === null || value === undefined ? null : String(value);
    });
    return sql`${values}::text[]`;
  });
  const counterColumns = sensorHealthCounters.map((name) => sql.ident(name));
  const counterValues = sensorHealthCounters.map((name) => sql.raw(`u.${name}::int8`));
  const updates = sensorHealthCounters.map((name) => sql.raw(`${name} = EXCLUDED.${name}`));
  await tx.query(sql`
    INSERT INTO sensor_health (company_id, sensor, reported_at, received_at, token_id, ${sql.join(counterColumns)}, stats)
    SELECT DISTINCT ON (r.sensor) ${companyId}::int8, r.sensor, r.reported_at, now(), ${tokenId}::int8,
           ${sql.join(sensorHealthCounters.map((name) => sql.raw(`r.${name}`)))}, r.stats
      FROM (
        SELECT coalesce(u.host, t.name, '') AS sensor, u.reported_at, u.ord, ${sql.join(counterValues)},
               u.line::jsonb -> 'stats' AS stats
          FROM unnest(${reports.map(({ event }) => event.host)}::text[],
                      ${reports.map(({ event }) => event.timestamp)}::timestamptz[],
                      ${reports.map(({ event, text }) => text ?? JSON.stringify(event.raw))}::text[],
                      ${reports.map((_, i) => i)}::int4[],
                      ${sql.join(counters)})
               AS u(host, reported_at, line, ord, ${sql.join(counterColumns)})
          LEFT JOIN ingest_tokens t ON t.company_id = ${companyId}::int8 AND t.id = ${tokenId}::int8
      ) r
     ORDER BY r.sensor, r.reported_at DESC, r.ord DESC
    ON CONFLICT (company_id, sensor) DO UPDATE
       SET reported_at = EXCLUDED.reported_at, received_at = EXCLUDED.received_at, token_id = EXCLUDED.token_id,
           ${sql.join(updates)}, stats = EXCLUDED.stats
     WHERE sensor_health.reported_at <= EXCLUDED.reported_at`);
}
