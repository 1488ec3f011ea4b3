import { valueLabel } from '../../../lib/i18n';

/** Suricata's event types, offered as a filter. */
export const networkEventTypes = ['alert', 'dns', 'http', 'tls', 'fileinfo', 'flow', 'anomaly'];

/** The groups of network codes the console names (`investigation.network.values`). */
export type NetworkCodeKind =
  'eventType' | 'flowState' | 'flowReason' | 'fileState' | 'alertAction' | 'dnsType' | 'anomalyType';

/** A Suricata code (event type, flow state, …) in the interface language; an unknown one as it came. */
export function networkCodeLabel(kind: NetworkCodeKind, code: string): string {
  return valueLabel(`investigation.network.values.${kind}`, code);
}

/** An endpoint event's action (`event.action`, the one vocabulary) in the interface language; an unknown one as it came. */
export function endpointActionLabel(code: string): string {
  return valueLabel('endpointActions', code);
}

/** An endpoint event's category (`event.category`) in the interface language; an unknown one as it came. */
export function endpointCategoryLabel(code: string): string {
  return valueLabel('investigation.endpoint.categories', code);
}
