import type { AlertSeverity, AlertStatus, WidgetBucketUnit, WidgetKind } from '@vigil/contract';
import { alertsUrl, endpointEventsUrl, incidentsUrl, mailUrl, networkEventsUrl } from '../../triage';
import { bucketEnd } from './shape';

/** Incident statuses the "open incidents" widget counts. */
export const OPEN_INCIDENT_STATUSES = ['open', 'investigating', 'contained'] as const;

interface PivotContext {
  kind: WidgetKind;
  /** The dashboard's period (ISO instants, `to` exclusive). */
  from: string;
  to: string;
  companyId: number | undefined;
}

/** The last instant before `to`, for filters whose upper bound is inclusive. */
const before = (to: string) => new Date(Date.parse(to) - 1).toISOString();

/** Where a category (a bar of a top list, a donut segment) leads: the list filtered to it. */
export function categoryUrl(context: PivotContext, key: string): string | null {
  const company = context.companyId;
  const window = { ts_from: context.from, ts_to: before(context.to) };
  switch (context.kind) {
    case 'open_alerts_by_status':
      return alertsUrl({ status: key as AlertStatus, company_id: company });
    case 'open_incidents_by_severity':
      return incidentsUrl({ severity: key, status: [...OPEN_INCIDENT_STATUSES], company_id: company });
    case 'top_signatures':
      return alertsUrl({ search: key, company_id: company });
    case 'top_hosts':
      return endpointEventsUrl({ host_name: key, ...window });
    case 'top_source_ips':
      return networkEventsUrl({ src_ip: key, ...window });
    case 'top_destination_ips':
      return networkEventsUrl({ dest_ip: key, ...window });
    default:
      return null;
  }
}

/** Where a segment of a time series leads: the alerts of that severity and bucket, or the events of that source. */
export function seriesUrl(
  context: PivotContext & { unit: WidgetBucketUnit; timeZone: string },
  key: string,
  bucket: string,
): string | null {
  const end = bucketEnd(bucket, context.unit, context.timeZone);
  if (context.kind === 'alerts_by_severity') {
    return alertsUrl({
      severity: key as AlertSeverity,
      first_seen_from: bucket,
      first_seen_to: before(end),
      company_id: context.companyId,
    });
  }
  if (context.kind === 'ingest_rate') {
    const window = { ts_from: bucket, ts_to: before(end) };
    if (key === 'network') return networkEventsUrl(window);
    if (key === 'endpoint') return endpointEventsUrl(window);
    if (key === 'mail') return mailUrl({});
  }
  return null;
}
