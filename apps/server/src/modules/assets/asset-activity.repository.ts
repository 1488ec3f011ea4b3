import type { AssetActivity } from '@vigil/contract';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { assetRisk } from './asset-risk';
import type { AssetRow } from './assets.repository';
import { ipHostsOfAsset, toIpHost } from './ip-hosts.repository';

const OPEN_ALERT = ['new', 'in_progress'];
const OPEN_INCIDENT = ['open', 'investigating', 'contained'];
const EVENT_DAYS = 7;

const iso = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/** The names an alert may give the asset by: its name, its fully qualified name and their first labels. */
export function hostNamesOf(asset: Pick<AssetRow, 'name' | 'fqdn'>): string[] {
  const names = [asset.name, asset.fqdn]
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '' && !/^[0-9.]+$/.test(n) && !n.includes(':'));
  return [...new Set([...names, ...names.map((n) => n.split('.')[0] ?? n)])].filter((n) => n !== '');
}

/**
 * What the asset's page shows beside its facts, all in the asset's company. An open alert names the
 * asset when one of its observables is an address the asset holds now, an address its IP history
 * gave it during the alert's time, one of its host names (kind `host`), or when one of the alert's
 * endpoint events came from the asset's agent.
 */
export async function assetActivity(db: Queryable, asset: AssetRow, limit: number): Promise<AssetActivity> {
  const company = Number(asset.company_id);
  const id = Number(asset.id);
  const names = hostNamesOf(asset);
  const matches = sql`
    WITH open_alerts AS (
      SELECT a.id, a.first_seen, a.last_seen, a.observables FROM alerts a
      WHERE a.company_id = ${company}::int8 AND a.status = ANY(${OPEN_ALERT}::text[])
    ), matched AS (
      SELECT a.id, o->>'value' AS matched
      FROM open_alerts a CROSS JOIN LATERAL jsonb_array_elements(a.observables) o
      WHERE (o->>'kind' = 'ip' AND (
               o->>'value' = ANY(${asset.ips}::text[])
               OR EXISTS (SELECT 1 FROM asset_ip_hosts h
                          WHERE h.company_id = ${company}::int8 AND h.asset_id = ${id}::int8
                            AND host(h.ip) = o->>'value'
                            AND h.first_seen <= a.last_seen AND h.last_seen >= a.first_seen)))
         OR (o->>'kind' = 'host' AND lower(o->>'value') = ANY(${names}::text[]))
      UNION ALL
      SELECT a.id, ${asset.agent_id}::text AS matched
      FROM open_alerts a
      JOIN alert_events l ON l.company_id = ${company}::int8 AND l.alert_id = a.id AND l.event_kind = 'endpoint'
      JOIN endpoint_events e ON e.company_id = l.company_id AND e.ts = l.ts AND e.id = l.event_id
      WHERE ${asset.agent_id}::text <> '' AND e.raw->'agent'->>'id' = ${asset.agent_id}::text
    ), named AS (
      SELECT id, min(matched) AS matched FROM matched GROUP BY id
    )`;
  const alerts = (
    await db.query<{
      id: number;
      title: string;
      severity: string;
      status: string;
      first_seen: Date;
      last_seen: Date;
      incident_id: number | null;
      matched: string;
    }>(sql`${matches}
      SELECT a.id, a.title, a.severity, a.status, a.first_seen, a.last_seen, a.incident_id, n.matched
      FROM named n JOIN alerts a ON a.company_id = ${company}::int8 AND a.id = n.id
      ORDER BY a.last_seen DESC, a.id DESC LIMIT ${limit}`)
  ).rows;
  const bySeverity = (
    await db.query<{ severity: string; count: number }>(sql`${matches}
      SELECT a.severity, count(*)::int AS count
      FROM named n JOIN alerts a ON a.company_id = ${company}::int8 AND a.id = n.id
      GROUP BY a.severity`)
  ).rows;
  const hostObservables = [
    ...asset.ips.map((value) => sql`observables @> ${JSON.stringify([{ kind: 'ip', value }])}::jsonb`),
    ...names.map(
      (value) => sql`lower(observables::text)::jsonb @> ${JSON.stringify([{ kind: 'host', value }])}::jsonb`,
    ),
  ];
  const incidents = (
    await db.query<{ id: number; title: string; severity: string; status: string; created_at: Date }>(sql`${matches}
      SELECT i.id, i.title, i.severity, i.status, i.created_at FROM incidents i
      WHERE i.company_id = ${company}::int8 AND i.status = ANY(${OPEN_INCIDENT}::text[])
        AND (i.id IN (SELECT a.incident_id FROM named n
                      JOIN alerts a ON a.company_id = ${company}::int8 AND a.id = n.id
                      WHERE a.incident_id IS NOT NULL)
             ${hostObservables.length === 0 ? sql`` : sql`OR ${sql.or(hostObservables)}`})
      ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit}`)
  ).rows;
  return {
    alerts: alerts.map((a) => ({
      ...a,
      id: Number(a.id),
      incident_id: a.incident_id === null ? null : Number(a.incident_id),
      first_seen: iso(a.first_seen) ?? '',
      last_seen: iso(a.last_seen) ?? '',
    })),
    incidents: incidents.map((i) => ({ ...i, id: Number(i.id), created_at: iso(i.created_at) ?? '' })),
    events: await eventCounts(db, asset, names),
    ip_history: (await ipHostsOfAsset(db, company, id, 200)).map(toIpHost),
    software: await softwareOf(db, company, id),
    risk: assetRisk(asset.criticality, Object.fromEntries(bySeverity.map((s) => [s.severity, Number(s.count)]))),
    history: await historyOf(db, company, id),
  };
}

/**
 * Events of the last 7 days of each kind: network events from or to an address the asset held in
 * that time (now or by its IP history), endpoint events of its host names, and mail to or from its
 * owner's addresses.
 */
async function eventCounts(db: Queryable, asset: AssetRow, names: string[]): Promise<AssetActivity['events']> {
  const company = Number(asset.company_id);
  const since = sql`now() - make_interval(days => ${EVENT_DAYS}::int)`;
  const ips = sql`ARRAY(SELECT unnest(${asset.ips}::inet[]) UNION SELECT h.ip FROM asset_ip_hosts h
    WHERE h.company_id = ${company}::int8 AND h.asset_id = ${Number(asset.id)}::int8 AND h.last_seen >= ${since})`;
  const { rows } = await db.query<{ kind: 'network' | 'endpoint' | 'mail'; count: number; newest: Date | null }>(sql`
    SELECT 'network' AS kind, count(*)::int AS count, max(n.ts) AS newest FROM network_events n
    WHERE n.company_id = ${company}::int8 AND n.ts >= ${since}
      AND (n.src_ip = ANY(${ips}) OR n.dest_ip = ANY(${ips}))
    UNION ALL
    SELECT 'endpoint', count(*)::int, max(e.ts) FROM endpoint_events e
    WHERE e.company_id = ${company}::int8 AND e.ts >= ${since} AND lower(e.host_name) = ANY(${names}::text[])
    UNION ALL
    SELECT 'mail', count(*)::int, max(m.ts) FROM mail_messages m
    WHERE m.company_id = ${company}::int8 AND m.ts >= ${since}
      AND EXISTS (SELECT 1 FROM employees p
                  WHERE p.company_id = ${company}::int8 AND p.id = ${asset.owner_employee_id}::int8
                    AND (lower(m.sender) = ANY(p.emails)
                         OR EXISTS (SELECT 1 FROM unnest(m.recipients) r WHERE lower(r) = ANY(p.emails))))`);
  return rows.map((r) => ({ kind: r.kind, count: Number(r.count), newest: iso(r.newest) }));
}

/** The newest records of the audit log about the asset (made, changed, merged, split, archived). */
async function historyOf(db: Queryable, company: number, assetId: number): Promise<AssetActivity['history']> {
  const { rows } = await db.query<{ at: Date; action: string; username: string | null }>(sql`
    SELECT l.date_time AS at, l.action, l.username FROM system_logs l
    WHERE l.company_id = ${company}::int8 AND l.object_type = 'asset' AND l.object_id = ${String(assetId)}
    ORDER BY l.date_time DESC, l.id DESC LIMIT 50`);
  return rows.map((r) => ({ ...r, at: iso(r.at) ?? '' }));
}

/**
 * What the software inventory says is installed on the asset now: installs on hosts whose first label
 * is the asset's short name (as the installs list finds an install's asset).
 */
async function softwareOf(db: Queryable, company: number, assetId: number): Promise<AssetActivity['software']> {
  type Row = Omit<AssetActivity['software'][number], 'first_seen' | 'last_seen'> & {
    first_seen: Date;
    last_seen: Date;
  };
  const { rows } = await db.query<Row>(sql`
    SELECT p.id AS product_id, p.vendor, p.name, v.version, i.first_seen, i.last_seen
    FROM software_installs i
    JOIN software_versions v ON v.id = i.version_id
    JOIN software_products p ON p.id = i.product_id
    JOIN assets a ON a.id = ${assetId}::int8 AND a.company_id = i.company_id
    WHERE i.company_id = ${company}::int8 AND a.name_key IS NOT NULL
      AND split_part(i.host_key, '.', 1) = a.name_key AND i.removed_at IS NULL
    ORDER BY lower(p.name), p.id, v.version LIMIT 1000`);
  return rows.map((r) => ({
    ...r,
    product_id: Number(r.product_id),
    first_seen: iso(r.first_seen) ?? '',
    last_seen: iso(r.last_seen) ?? '',
  }));
}
