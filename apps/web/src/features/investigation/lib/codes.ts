import { valueLabel } from '../../../lib/i18n';

/** Suricata's event types, offered as a filter. */
export const networkEventTypes = ['alert', 'dns', 'http', 'tls', 'fileinfo', 'flow', 'anomaly', 'ssh', 'dhcp', 'smtp'];

/** The groups of network codes the console names (`investigation.network.values`). */
export type NetworkCodeKind =
  'eventType' | 'flowState' | 'flowReason' | 'fileState' | 'alertAction' | 'dnsType' | 'anomalyType' | 'dhcpType';

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

/**
 * Why a file was not scanned with YARA: the server's reason starts with its code (`too_large: …`,
 * `timeout: …`, `failed: …`); the code is named in the interface language, an unknown one as it came.
 */
export function yaraSkipReason(reason: string | null): string {
  const code = reason?.split(':')[0]?.trim() ?? '';
  return valueLabel('investigation.files.yara.reasons', code);
}
