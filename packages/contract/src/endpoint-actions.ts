/*
 * The one vocabulary of endpoint actions: what an endpoint event says happened, whichever shipper
 * sent it (Sysmon or Windows events as EVTX-JSON, flat Windows JSON from NXLog or HELK, Winlogbeat,
 * Elastic Agent and other ECS senders). The ingest parsers map every source onto these names and
 * keep the shipper's own word in `event.shipper_action`; docs/endpoint-actions.md lists which
 * Windows event ids and ECS actions become which name. The console translates each name.
 */

export const endpointActions = [
  // Processes
  'process-create',
  'process-terminate',
  'process-access',
  'process-tampering',
  'create-remote-thread',
  'image-load',
  'driver-load',
  'pipe-create',
  'pipe-connect',
  'raw-access-read',
  'clipboard-change',
  'handle-duplicate',
  'privileged-service-call',
  'privileged-object-operation',
  'token-rights-adjust',
  // Files and other objects
  'file-create',
  'file-modify',
  'file-rename',
  'file-delete',
  'file-delete-detected',
  'file-creation-time-changed',
  'file-stream-create',
  'file-block-executable',
  'file-block-shredding',
  'file-executable-detected',
  'object-handle-request',
  'object-access',
  'object-handle-close',
  'object-delete',
  'object-permissions-change',
  // Registry
  'registry-key-create',
  'registry-key-delete',
  'registry-key-rename',
  'registry-key-or-value-create-delete',
  'registry-value-create',
  'registry-value-delete',
  'registry-value-set',
  // Network
  'network-connection',
  'network-connection-blocked',
  'network-accept',
  'network-disconnect',
  'network-listen',
  'network-bind',
  'dns-query',
  // Sign-in
  'logon-success',
  'logon-failure',
  'logoff',
  'explicit-credential-logon',
  'special-privileges-logon',
  'logon-group-membership',
  'credential-validation',
  'kerberos-tgt-request',
  'kerberos-service-ticket-request',
  'kerberos-preauth-failure',
  // Accounts and groups
  'user-account-create',
  'user-account-enable',
  'user-account-disable',
  'user-account-delete',
  'user-account-change',
  'user-account-lock',
  'user-account-unlock',
  'password-change',
  'password-reset',
  'group-member-add',
  'group-member-remove',
  'group-membership-enumerate',
  'user-groups-enumerate',
  // Configuration, services and scheduled tasks
  'audit-log-cleared',
  'log-cleared',
  'event-log-service-shutdown',
  'audit-policy-change',
  'security-source-register',
  'security-source-unregister',
  'system-time-change',
  'service-install',
  'service-start-type-change',
  'service-state-change',
  'service-crash',
  'scheduled-task-create',
  'scheduled-task-delete',
  'scheduled-task-enable',
  'scheduled-task-disable',
  'scheduled-task-update',
  'scheduled-task-action-start',
  'sysmon-state-changed',
  'sysmon-config-changed',
  // WMI
  'wmi-filter',
  'wmi-consumer',
  'wmi-binding',
  'wmi-provider-load',
  'wmi-operation-error',
  'wmi-event-query',
  'wmi-temporary-subscription',
  'wmi-permanent-subscription',
  // PowerShell
  'powershell-engine-start',
  'powershell-engine-stop',
  'powershell-provider-start',
  'powershell-pipeline-execute',
  'powershell-script-block',
  'powershell-script-start',
  'powershell-script-stop',
  'powershell-console-start',
  // Antivirus (Microsoft Defender and others)
  'malware-detected',
  'malware-action-taken',
  'malware-action-failed',
  'malware-action-critical-failure',
  'suspicious-behaviour-detected',
  'exploit-guard-block',
  'exploit-guard-audit',
  'controlled-folder-access-block',
  'antivirus-scan-start',
  'antivirus-scan-finish',
  'antivirus-protection-disabled',
  'antivirus-configuration-change',
] as const;

export type EndpointAction = (typeof endpointActions)[number];

const known: ReadonlySet<string> = new Set(endpointActions);

/** Whether a stored action is a name of the vocabulary (events stored before it may hold others). */
export function isEndpointAction(value: string | null | undefined): value is EndpointAction {
  return typeof value === 'string' && known.has(value);
}
