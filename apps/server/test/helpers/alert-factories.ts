import type { Database } from '../../src/db/database';
import { raiseAlerts, type RaiseResult } from '../../src/modules/alerts/raise-alerts';
import {
  dedupKeyOf,
  type Detection,
  type DetectionSource,
  type Observable,
} from '../../src/modules/pipeline/detections';

let nextEventId = 1;

/** Factory: a hand-built detection, as the detection stage hands it over. */
export function buildDetection(
  companyId: number,
  options: {
    ruleId?: string;
    title?: string;
    severity?: Detection['severity'];
    host?: string;
    user?: string;
    ip?: string;
    at?: Date;
    kind?: Detection['event']['kind'];
    source?: DetectionSource;
  } = {},
): Detection {
  const source: DetectionSource = options.source ?? {
    type: 'rule',
    engine: 'suricata',
    ruleId: options.ruleId ?? '2000001',
    revision: 1,
    name: options.title ?? 'ET POLICY Suspicious outbound connection',
  };
  const observables: Observable[] = [];
  if (options.ip) observables.push({ kind: 'ip', value: options.ip, role: 'src_ip' });
  if (options.host) observables.push({ kind: 'host', value: options.host });
  if (options.user) observables.push({ kind: 'user', value: options.user });
  const at = (options.at ?? new Date()).toISOString();
  return {
    companyId,
    source,
    title: options.title ?? 'ET POLICY Suspicious outbound connection',
    description: 'Seen by the sensor.',
    severity: options.severity ?? 'medium',
    mitre: ['T1071'],
    observables,
    event: { kind: options.kind ?? 'network', id: nextEventId++, ts: at },
    dedupKey: dedupKeyOf(
      source,
      observables.map((o) => `${o.kind}:${o.value}`),
    ),
    occurredAt: at,
  };
}

/** Raises detections in one transaction, as the ingest batch does. */
export async function raise(db: Database, detections: Detection[]): Promise<RaiseResult> {
  return db.transaction((tx) => raiseAlerts(tx, detections));
}
