import { buildDetectionPipeline } from '../../src/app';
import type { Database } from '../../src/db/database';
import { IndicatorIndex } from '../../src/modules/indicators/indicator-index';
import type { DetectionOutcome } from '../../src/modules/pipeline/pipeline';
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

/**
 * Raises detections in one transaction, as the ingest batch does: through a pipeline wired as the
 * app wires its own (raise, group, match), with the default deduplication window of 60 minutes.
 * The caller publishes `live` if it wants to.
 */
export async function raise(db: Database, detections: Detection[]): Promise<DetectionOutcome> {
  const pipeline = buildDetectionPipeline({
    db,
    indicators: { current: () => new IndicatorIndex() },
    dedupWindowMinutes: 60,
    publish: async () => undefined,
  });
  return db.transaction((tx) => pipeline.raise(tx, detections));
}
