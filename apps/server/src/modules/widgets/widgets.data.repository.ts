import {
  alertSeverityValues,
  WIDGET_TOP_DEFAULT,
  type WidgetBucketUnit,
  type WidgetCategoryData,
  type WidgetCategoryItem,
  type WidgetData,
  type WidgetDataRequest,
  type WidgetDurationData,
  type WidgetKind,
  type WidgetSeriesData,
} from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql, type SqlFragment } from '../../db/sql';
import { tenantCondition, type TenantScope } from '../../http/tenancy';

/** Severities from the most to the least urgent, the order every chart lists them in. */
export const severityOrder = [...alertSeverityValues].reverse();
export const openAlertStatuses = ['new', 'in_progress'] as const;
export const openIncidentStatuses = ['open', 'investigating', 'contained'] as const;
export const ingestKinds = ['network', 'endpoint', 'mail'] as const;

/** Hours for a period of up to two days, days beyond. */
export function bucketUnitFor(fromMs: number, toMs: number): WidgetBucketUnit {
  return toMs - fromMs <= 48 * 3_600_000 ? 'hour' : 'day';
}

interface Query {
  scope: TenantScope;
  companyId: number | undefined;
  from: Date;
  to: Date;
  timeZone: string;
  limit: number;
}

/** Rows the caller may see, narrowed to one company when asked. */
function tenant(q: Query, column: SqlFragment): SqlFragment {
  const scoped = tenantCondition(q.scope, column);
  return q.companyId === undefined ? scoped : sql`${scoped} AND ${column} = ${q.companyId}::int8`;
}

/** Bucket start (an instant) of a timestamp column in the caller's zone. */
const bucketOf = (column: SqlFragment, unit: WidgetBucketUnit, tz: string) =>
  sql`(date_trunc(${unit}::text, ${column} AT TIME ZONE ${tz}::text) AT TIME ZONE ${tz}::text)`;

type PointRow = { bucket: Date; key: string; value: number };

async function series(
  db: Queryable,
  q: Query,
  kind: WidgetKind,
  keys: readonly string[],
  select: (unit: WidgetBucketUnit) => SqlFragment,
): Promise<WidgetSeriesData> {
  const unit = bucketUnitFor(q.from.getTime(), q.to.getTime());
  const { rows } = await db.query<PointRow>(select(unit));
  return {
    shape: 'series',
    kind,
    unit,
    time_zone: q.timeZone,
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    keys: [...keys],
    points: rows.map((r) => ({ bucket: r.bucket.toISOString(), key: r.key, value: Number(r.value) })),
  };
}

/** Fixed keys (statuses, severities) in their order, zero where nothing was counted. */
function fixedCategories(kind: WidgetKind, keys: readonly string[], rows: { key: string; value: number }[]) {
  const counts = new Map(rows.map((r) => [r.key, Number(r.value)]));
  const items = keys.map((key) => ({ key, value: counts.get(key) ?? 0 }));
  return categories(kind, items);
}

function categories(kind: WidgetKind, items: WidgetCategoryItem[]): WidgetCategoryData {
  return { shape: 'categories', kind, items, total: items.reduce((sum, i) => sum + i.value, 0) };
}

type TopRow = { key: string; value: number; secondary?: number | null };
const topItems = (rows: TopRow[]): WidgetCategoryItem[] =>
  rows.map((r) => ({
    key: r.key,
    value: Number(r.value),
    ...(r.secondary !== undefined ? { secondary: Number(r.secondary ?? 0) } : {}),
  }));

async function duration(db: Queryable, q: Query, kind: WidgetKind, moment: SqlFragment): Promise<WidgetDurationData> {
  const { rows } = await db.query<{ median: number | null; p90: number | null; measured: number; pending: number }>(sql`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d.seconds) AS median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY d.seconds) AS p90,
           count(d.seconds)::int8 AS measured,
           (count(*) - count(d.seconds))::int8 AS pending
    FROM (SELECT CASE WHEN ${moment} IS NOT NULL
                      THEN GREATEST(0, extract(epoch FROM ${moment} - a.first_seen))::float8 END AS seconds
          FROM alerts a
          WHERE ${tenant(q, sql`a.company_id`)} AND a.first_seen >= ${q.from} AND a.first_seen < ${q.to}) d`);
  const row = rows[0];
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return {
    shape: 'duration',
    kind,
    median_seconds: round(row?.median),
    p90_seconds: round(row?.p90),
    measured: Number(row?.measured ?? 0),
    pending: Number(row?.pending ?? 0),
  };
}

/**
 * Chart data of one widget kind. Every query is bounded by the period on the table's time column
 * (`ts`, the partition key of event tables, so only the period's partitions are read) and by the
 * tenant condition, which leads each table's key.
 */
export async function widgetData(db: Queryable, scope: TenantScope, request: WidgetDataRequest): Promise<WidgetData> {
  const q: Query = {
    scope,
    companyId: request.company_id,
    from: new Date(request.from),
    to: new Date(request.to),
    timeZone: request.time_zone,
    limit: request.limit ?? WIDGET_TOP_DEFAULT,
  };
  const tz = q.timeZone;
  switch (request.kind) {
    case 'alerts_by_severity':
      return series(
        db,
        q,
        request.kind,
        severityOrder,
        (unit) => sql`
          SELECT ${bucketOf(sql`a.first_seen`, unit, tz)} AS bucket, a.severity AS key, count(*)::int8 AS value
          FROM alerts a
          WHERE ${tenant(q, sql`a.company_id`)} AND a.first_seen >= ${q.from} AND a.first_seen < ${q.to}
          GROUP BY 1, 2 ORDER BY 1, 2`,
      );
    case 'ingest_rate':
      return series(
        db,
        q,
        request.kind,
        ingestKinds,
        (unit) => sql`
          SELECT ${bucketOf(sql`b.received_at`, unit, tz)} AS bucket, b.kind AS key, sum(b.accepted)::int8 AS value
          FROM ingest_batches b
          WHERE ${tenant(q, sql`b.company_id`)} AND b.received_at >= ${q.from} AND b.received_at < ${q.to}
          GROUP BY 1, 2 HAVING sum(b.accepted) > 0 ORDER BY 1, 2`,
      );
    case 'open_alerts_by_status': {
      const { rows } = await db.query<{ key: string; value: number }>(sql`
        SELECT a.status AS key, count(*)::int8 AS value FROM alerts a
        WHERE ${tenant(q, sql`a.company_id`)} AND a.status IN ('new', 'in_progress')
        GROUP BY 1`);
      return fixedCategories(request.kind, openAlertStatuses, rows);
    }
    case 'open_incidents_by_severity': {
      const { rows } = await db.query<{ key: string; value: number }>(sql`
        SELECT i.severity AS key, count(*)::int8 AS value FROM incidents i
        WHERE ${tenant(q, sql`i.company_id`)} AND i.status IN ('open', 'investigating', 'contained')
        GROUP BY 1`);
      return fixedCategories(request.kind, severityOrder, rows);
    }
    case 'top_signatures': {
      // Suricata alert records of the period (read through the (company_id, event_type, ts) index), with
      // the alerts of the period titled the same.
      const { rows } = await db.query<TopRow>(sql`
        WITH top AS (
          SELECT n.signature AS key, count(*)::int8 AS value FROM network_events n
          WHERE ${tenant(q, sql`n.company_id`)} AND n.event_type = 'alert' AND n.ts >= ${q.from} AND n.ts < ${q.to}
            AND n.signature IS NOT NULL
          GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${q.limit}
        ), titled AS (
          SELECT a.title AS key, count(*)::int8 AS n FROM alerts a
          WHERE ${tenant(q, sql`a.company_id`)} AND a.first_seen >= ${q.from} AND a.first_seen < ${q.to}
            AND a.title IN (SELECT key FROM top)
          GROUP BY 1
        )
        SELECT top.key, top.value, COALESCE(titled.n, 0)::int8 AS secondary
        FROM top LEFT JOIN titled ON titled.key = top.key
        ORDER BY top.value DESC, top.key`);
      return categories(request.kind, topItems(rows));
    }
    case 'top_hosts': {
      // Hosts named by the period's alerts first, then by endpoint events.
      const { rows } = await db.query<TopRow>(sql`
        WITH al AS (
          SELECT o.value ->> 'value' AS key, count(DISTINCT a.id)::int8 AS n
          FROM alerts a CROSS JOIN LATERAL jsonb_array_elements(a.observables) AS o(value)
          WHERE ${tenant(q, sql`a.company_id`)} AND a.first_seen >= ${q.from} AND a.first_seen < ${q.to}
            AND o.value ->> 'kind' = 'host' AND o.value ->> 'value' <> ''
          GROUP BY 1
        ), ev AS (
          SELECT e.host_name AS key, count(*)::int8 AS n FROM endpoint_events e
          WHERE ${tenant(q, sql`e.company_id`)} AND e.ts >= ${q.from} AND e.ts < ${q.to}
            AND e.host_name IS NOT NULL AND e.host_name <> ''
          GROUP BY 1
        )
        SELECT COALESCE(al.key, ev.key) AS key, COALESCE(al.n, 0)::int8 AS value, COALESCE(ev.n, 0)::int8 AS secondary
        FROM al FULL JOIN ev ON ev.key = al.key
        ORDER BY 2 DESC, 3 DESC, 1 LIMIT ${q.limit}`);
      return categories(request.kind, topItems(rows));
    }
    case 'top_source_ips':
    case 'top_destination_ips': {
      const column = request.kind === 'top_source_ips' ? sql`n.src_ip` : sql`n.dest_ip`;
      const { rows } = await db.query<TopRow>(sql`
        SELECT host(${column}) AS key, count(*)::int8 AS value FROM network_events n
        WHERE ${tenant(q, sql`n.company_id`)} AND n.ts >= ${q.from} AND n.ts < ${q.to} AND ${column} IS NOT NULL
        GROUP BY ${column} ORDER BY 2 DESC, ${column} LIMIT ${q.limit}`);
      return categories(request.kind, topItems(rows));
    }
    case 'time_to_acknowledge':
      return duration(db, q, request.kind, sql`a.acknowledged_at`);
    case 'time_to_resolve':
      return duration(db, q, request.kind, sql`a.resolved_at`);
  }
}
