import type { NetworkEvent } from '@vigil/contract';
import type { DetectionStage } from './detection-stage';
import { dedupKeyOf, type Detection, type DetectionSource, type Observable } from './detections';
import type { StoredEvent } from './stored-events';

function observablesOf(e: NetworkEvent): Observable[] {
  const out: Observable[] = [];
  const add = (kind: Observable['kind'], value: string | null | undefined, role: string) => {
    if (value) out.push({ kind, value, role });
  };
  add('ip', e.src_ip, 'src_ip');
  add('ip', e.dest_ip, 'dest_ip');
  add('host', e.host, 'sensor');
  add('domain', e.http?.hostname, 'http.hostname');
  add('url', e.http?.url, 'http.url');
  add('domain', e.dns?.rrname, 'dns.rrname');
  add('domain', e.tls?.sni, 'tls.sni');
  add('hash', e.fileinfo?.md5, 'fileinfo.md5');
  add('hash', e.fileinfo?.sha1, 'fileinfo.sha1');
  add('hash', e.fileinfo?.sha256, 'fileinfo.sha256');
  add('file', e.fileinfo?.filename, 'fileinfo.filename');
  return out;
}

/** The detection of one Suricata EVE `alert` record; null for any other event. */
export function suricataDetection(stored: StoredEvent): Detection | null {
  if (stored.kind !== 'network') return null;
  const e = stored.event;
  const alert = e.alert;
  if (e.event_type !== 'alert' || !alert) return null;
  const source: DetectionSource = {
    type: 'rule',
    engine: 'suricata',
    ruleId: String(alert.signature_id),
    ...(alert.rev === null ? {} : { revision: alert.rev }),
    name: alert.signature,
    ...(Object.keys(alert.metadata).length > 0 ? { metadata: alert.metadata } : {}),
  };
  const flow = `${e.src_ip ?? '?'}${e.src_port === null ? '' : `:${e.src_port}`} → ${e.dest_ip ?? '?'}${e.dest_port === null ? '' : `:${e.dest_port}`}`;
  return {
    companyId: stored.companyId,
    source,
    title: alert.signature,
    description: [
      `Suricata signature ${alert.signature_id}${alert.rev === null ? '' : ` rev ${alert.rev}`}: ${alert.signature}`,
      alert.category ? `Category: ${alert.category}` : null,
      `Flow: ${flow}${e.proto ? ` (${e.proto})` : ''}`,
      e.host ? `Sensor: ${e.host}` : null,
    ]
      .filter((line): line is string => line !== null)
      .join('\n'),
    severity: e.severity ?? 'low',
    mitre: [...alert.mitre_tactic_ids, ...alert.mitre_technique_ids],
    observables: observablesOf(e),
    event: { kind: 'network', id: stored.id, ts: stored.ts },
    dedupKey: dedupKeyOf(source, [e.src_ip ?? '', e.dest_ip ?? '']),
    occurredAt: e.timestamp,
  };
}

/** Suricata EVE `alert` records become rule detections, one per record. */
export function suricataDetections(events: readonly StoredEvent[]): Detection[] {
  const detections: Detection[] = [];
  for (const stored of events) {
    const detection = suricataDetection(stored);
    if (detection) detections.push(detection);
  }
  return detections;
}

/** The Suricata detection stage: the sensor's own signature matches, as they arrived. */
export const suricataStage: DetectionStage = {
  name: 'suricata',
  detect: (_ctx, events) => suricataDetections(events),
};
