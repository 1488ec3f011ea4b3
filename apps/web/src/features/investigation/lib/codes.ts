import { valueLabel } from '../../../lib/i18n';

/** Suricata's event types, offered as a filter. */
export const networkEventTypes = ['alert', 'dns', 'http', 'tls', 'fileinfo', 'flow', 'anomaly'];

/** Endpoint actions offered as filter suggestions (any other can be typed). */
export const endpointActionSuggestions = [
  'process-create',
  'process-terminate',
  'process-access',
  'image-load',
  'network-connection',
  'dns-query',
  'file-create',
  'file-delete',
  'registry-value-set',
  'logon-success',
  'logon-failure',
  'logoff',
  'service-install',
  'scheduled-task-create',
  'user-account-create',
  'group-member-add',
  'start',
];

/** The groups of network codes the console names (`investigation.network.values`). */
export type NetworkCodeKind =
  'eventType' | 'flowState' | 'flowReason' | 'fileState' | 'alertAction' | 'dnsType' | 'anomalyType';

/** A Suricata code (event type, flow state, …) in the interface language; an unknown one as it came. */
export function networkCodeLabel(kind: NetworkCodeKind, code: string): string {
  return valueLabel(`investigation.network.values.${kind}`, code);
}

/** An endpoint event's action (`event.action`) in the interface language; an unknown one as it came. */
export function endpointActionLabel(code: string): string {
  return valueLabel('investigation.endpoint.actions', code);
}

/** An endpoint event's category (`event.category`) in the interface language; an unknown one as it came. */
export function endpointCategoryLabel(code: string): string {
  return valueLabel('investigation.endpoint.categories', code);
}
