import { isEndpointAction, type EndpointAction } from '@vigil/contract';

/*
 * Which action of the one vocabulary (packages/contract/src/endpoint-actions.ts) a source's event
 * is: Windows events by provider or channel and event id, ECS senders by their own `event.action`.
 * docs/endpoint-actions.md shows these tables; a test keeps the two equal.
 */

/** ECS categories of each action: what `event.category` says when the source gives none. */
export const ACTION_CATEGORIES: Record<EndpointAction, readonly string[]> = {
  'process-create': ['process'],
  'process-terminate': ['process'],
  'process-access': ['process'],
  'process-tampering': ['process'],
  'create-remote-thread': ['process'],
  'image-load': ['library', 'process'],
  'driver-load': ['driver'],
  'pipe-create': ['process'],
  'pipe-connect': ['process'],
  'raw-access-read': ['file'],
  'clipboard-change': ['process'],
  'handle-duplicate': ['process'],
  'privileged-service-call': ['iam'],
  'privileged-object-operation': ['iam'],
  'token-rights-adjust': ['iam'],
  'file-create': ['file'],
  'file-modify': ['file'],
  'file-rename': ['file'],
  'file-delete': ['file'],
  'file-delete-detected': ['file'],
  'file-creation-time-changed': ['file'],
  'file-stream-create': ['file'],
  'file-block-executable': ['file'],
  'file-block-shredding': ['file'],
  'file-executable-detected': ['file'],
  'object-handle-request': ['file'],
  'object-access': ['file'],
  'object-handle-close': ['file'],
  'object-delete': ['file'],
  'object-permissions-change': ['file', 'configuration'],
  'registry-key-create': ['registry', 'configuration'],
  'registry-key-delete': ['registry', 'configuration'],
  'registry-key-rename': ['registry', 'configuration'],
  'registry-key-or-value-create-delete': ['registry', 'configuration'],
  'registry-value-create': ['registry', 'configuration'],
  'registry-value-delete': ['registry', 'configuration'],
  'registry-value-set': ['registry', 'configuration'],
  'network-connection': ['network'],
  'network-connection-blocked': ['network'],
  'network-accept': ['network'],
  'network-disconnect': ['network'],
  'network-listen': ['network'],
  'network-bind': ['network'],
  'dns-query': ['network'],
  'logon-success': ['authentication'],
  'logon-failure': ['authentication'],
  logoff: ['authentication'],
  'explicit-credential-logon': ['authentication'],
  'special-privileges-logon': ['authentication'],
  'logon-group-membership': ['authentication'],
  'credential-validation': ['authentication'],
  'kerberos-tgt-request': ['authentication'],
  'kerberos-service-ticket-request': ['authentication'],
  'kerberos-preauth-failure': ['authentication'],
  'user-account-create': ['iam'],
  'user-account-enable': ['iam'],
  'user-account-disable': ['iam'],
  'user-account-delete': ['iam'],
  'user-account-change': ['iam'],
  'user-account-lock': ['iam'],
  'user-account-unlock': ['iam'],
  'password-change': ['iam'],
  'password-reset': ['iam'],
  'group-member-add': ['iam'],
  'group-member-remove': ['iam'],
  'group-membership-enumerate': ['iam'],
  'user-groups-enumerate': ['iam'],
  'audit-log-cleared': ['configuration'],
  'log-cleared': ['configuration'],
  'event-log-service-shutdown': ['configuration'],
  'audit-policy-change': ['configuration'],
  'security-source-register': ['configuration'],
  'security-source-unregister': ['configuration'],
  'system-time-change': ['configuration'],
  'service-install': ['configuration'],
  'service-start-type-change': ['configuration'],
  'service-state-change': ['process'],
  'service-crash': ['process'],
  'scheduled-task-create': ['configuration', 'process'],
  'scheduled-task-delete': ['configuration', 'process'],
  'scheduled-task-enable': ['configuration', 'process'],
  'scheduled-task-disable': ['configuration', 'process'],
  'scheduled-task-update': ['configuration', 'process'],
  'scheduled-task-action-start': ['configuration', 'process'],
  'sysmon-state-changed': ['configuration'],
  'sysmon-config-changed': ['configuration'],
  'wmi-filter': ['configuration'],
  'wmi-consumer': ['configuration'],
  'wmi-binding': ['configuration'],
  'wmi-provider-load': ['process'],
  'wmi-operation-error': ['process'],
  'wmi-event-query': ['configuration'],
  'wmi-temporary-subscription': ['configuration'],
  'wmi-permanent-subscription': ['configuration'],
  'powershell-engine-start': ['process'],
  'powershell-engine-stop': ['process'],
  'powershell-provider-start': ['process'],
  'powershell-pipeline-execute': ['process'],
  'powershell-script-block': ['process'],
  'powershell-script-start': ['process'],
  'powershell-script-stop': ['process'],
  'powershell-console-start': ['process'],
  'malware-detected': ['malware'],
  'malware-action-taken': ['malware'],
  'malware-action-failed': ['malware'],
  'malware-action-critical-failure': ['malware'],
  'suspicious-behaviour-detected': ['malware'],
  'exploit-guard-block': ['intrusion_detection'],
  'exploit-guard-audit': ['intrusion_detection'],
  'controlled-folder-access-block': ['intrusion_detection'],
  'antivirus-scan-start': ['malware'],
  'antivirus-scan-finish': ['malware'],
  'antivirus-protection-disabled': ['configuration'],
  'antivirus-configuration-change': ['configuration'],
};

/** Outcomes an action implies by itself. */
export const ACTION_OUTCOMES: Partial<Record<EndpointAction, 'success' | 'failure'>> = {
  'logon-success': 'success',
  'logon-failure': 'failure',
  'kerberos-preauth-failure': 'failure',
  'malware-action-failed': 'failure',
  'malware-action-critical-failure': 'failure',
};

/** Groups of Windows events, told apart by provider or channel: the same id means different things in each. */
export type WindowsFamily =
  | 'sysmon'
  | 'eventlog'
  | 'security'
  | 'system'
  | 'taskscheduler'
  | 'defender'
  | 'wmi'
  | 'powershell'
  | 'powershell-classic';

/** The Windows sources of the vocabulary: what a person reads in the table of docs/endpoint-actions.md. */
export const FAMILY_NAMES: Record<WindowsFamily, string> = {
  sysmon: 'Sysmon (Microsoft-Windows-Sysmon/Operational)',
  eventlog: 'Event log service (Microsoft-Windows-Eventlog)',
  security: 'Security (Microsoft-Windows-Security-Auditing)',
  system: 'System (Service Control Manager)',
  taskscheduler: 'Task Scheduler (Microsoft-Windows-TaskScheduler/Operational)',
  defender: 'Microsoft Defender (Microsoft-Windows-Windows Defender/Operational)',
  wmi: 'WMI (Microsoft-Windows-WMI-Activity/Operational)',
  powershell: 'PowerShell (Microsoft-Windows-PowerShell/Operational)',
  'powershell-classic': 'Windows PowerShell (classic log)',
};

export const WINDOWS_ACTIONS: Record<WindowsFamily, Readonly<Record<number, EndpointAction>>> = {
  sysmon: {
    1: 'process-create',
    2: 'file-creation-time-changed',
    3: 'network-connection',
    4: 'sysmon-state-changed',
    5: 'process-terminate',
    6: 'driver-load',
    7: 'image-load',
    8: 'create-remote-thread',
    9: 'raw-access-read',
    10: 'process-access',
    11: 'file-create',
    12: 'registry-key-or-value-create-delete',
    13: 'registry-value-set',
    14: 'registry-key-rename',
    15: 'file-stream-create',
    16: 'sysmon-config-changed',
    17: 'pipe-create',
    18: 'pipe-connect',
    19: 'wmi-filter',
    20: 'wmi-consumer',
    21: 'wmi-binding',
    22: 'dns-query',
    23: 'file-delete',
    24: 'clipboard-change',
    25: 'process-tampering',
    26: 'file-delete-detected',
    27: 'file-block-executable',
    28: 'file-block-shredding',
    29: 'file-executable-detected',
  },
  eventlog: {
    104: 'log-cleared',
    1100: 'event-log-service-shutdown',
    1102: 'audit-log-cleared',
  },
  security: {
    1102: 'audit-log-cleared',
    4616: 'system-time-change',
    4624: 'logon-success',
    4625: 'logon-failure',
    4627: 'logon-group-membership',
    4634: 'logoff',
    4647: 'logoff',
    4648: 'explicit-credential-logon',
    4656: 'object-handle-request',
    4657: 'registry-value-set',
    4658: 'object-handle-close',
    4660: 'object-delete',
    4663: 'object-access',
    4670: 'object-permissions-change',
    4672: 'special-privileges-logon',
    4673: 'privileged-service-call',
    4674: 'privileged-object-operation',
    4688: 'process-create',
    4689: 'process-terminate',
    4690: 'handle-duplicate',
    4697: 'service-install',
    4698: 'scheduled-task-create',
    4699: 'scheduled-task-delete',
    4700: 'scheduled-task-enable',
    4701: 'scheduled-task-disable',
    4702: 'scheduled-task-update',
    4703: 'token-rights-adjust',
    4719: 'audit-policy-change',
    4720: 'user-account-create',
    4722: 'user-account-enable',
    4723: 'password-change',
    4724: 'password-reset',
    4725: 'user-account-disable',
    4726: 'user-account-delete',
    4728: 'group-member-add',
    4729: 'group-member-remove',
    4732: 'group-member-add',
    4733: 'group-member-remove',
    4738: 'user-account-change',
    4740: 'user-account-lock',
    4756: 'group-member-add',
    4757: 'group-member-remove',
    4767: 'user-account-unlock',
    4768: 'kerberos-tgt-request',
    4769: 'kerberos-service-ticket-request',
    4771: 'kerberos-preauth-failure',
    4776: 'credential-validation',
    4798: 'user-groups-enumerate',
    4799: 'group-membership-enumerate',
    4904: 'security-source-register',
    4905: 'security-source-unregister',
    5154: 'network-listen',
    5156: 'network-connection',
    5157: 'network-connection-blocked',
    5158: 'network-bind',
  },
  system: {
    104: 'log-cleared',
    7034: 'service-crash',
    7036: 'service-state-change',
    7040: 'service-start-type-change',
    7045: 'service-install',
  },
  taskscheduler: {
    106: 'scheduled-task-create',
    140: 'scheduled-task-update',
    141: 'scheduled-task-delete',
    142: 'scheduled-task-disable',
    200: 'scheduled-task-action-start',
  },
  defender: {
    1000: 'antivirus-scan-start',
    1001: 'antivirus-scan-finish',
    1006: 'malware-detected',
    1007: 'malware-action-taken',
    1008: 'malware-action-failed',
    1015: 'suspicious-behaviour-detected',
    1116: 'malware-detected',
    1117: 'malware-action-taken',
    1118: 'malware-action-failed',
    1119: 'malware-action-critical-failure',
    1121: 'exploit-guard-block',
    1122: 'exploit-guard-audit',
    1123: 'controlled-folder-access-block',
    5001: 'antivirus-protection-disabled',
    5004: 'antivirus-configuration-change',
    5007: 'antivirus-configuration-change',
    5010: 'antivirus-protection-disabled',
    5012: 'antivirus-protection-disabled',
  },
  wmi: {
    5857: 'wmi-provider-load',
    5858: 'wmi-operation-error',
    5859: 'wmi-event-query',
    5860: 'wmi-temporary-subscription',
    5861: 'wmi-permanent-subscription',
  },
  powershell: {
    4103: 'powershell-pipeline-execute',
    4104: 'powershell-script-block',
    4105: 'powershell-script-start',
    4106: 'powershell-script-stop',
    40961: 'powershell-console-start',
  },
  'powershell-classic': {
    400: 'powershell-engine-start',
    403: 'powershell-engine-stop',
    600: 'powershell-provider-start',
    800: 'powershell-pipeline-execute',
  },
};

/** The family of a Windows event by its provider and channel; null for sources outside the vocabulary. */
export function windowsFamily(provider: string | null, channel: string | null): WindowsFamily | null {
  const p = provider?.toLowerCase() ?? '';
  const c = channel?.toLowerCase() ?? '';
  if (p.includes('sysmon') || c.includes('sysmon')) return 'sysmon';
  if (p === 'microsoft-windows-eventlog') return 'eventlog';
  if (c === 'security' || p === 'microsoft-windows-security-auditing') return 'security';
  if (p === 'microsoft-windows-taskscheduler' || c.startsWith('microsoft-windows-taskscheduler/')) {
    return 'taskscheduler';
  }
  if (p === 'microsoft-windows-windows defender' || c.startsWith('microsoft-windows-windows defender/')) {
    return 'defender';
  }
  if (p === 'microsoft-windows-wmi-activity' || c.startsWith('microsoft-windows-wmi-activity/')) return 'wmi';
  if (p === 'microsoft-windows-powershell' || c.startsWith('microsoft-windows-powershell/')) return 'powershell';
  if (p === 'powershell' || c === 'windows powershell') return 'powershell-classic';
  if (p === 'service control manager' || (c === 'system' && p === '')) return 'system';
  return null;
}

/** Sysmon 12–14's EventType: the registry operation, finer than the event id. */
export const SYSMON_REGISTRY_ACTIONS: Readonly<Record<string, EndpointAction>> = {
  CreateKey: 'registry-key-create',
  DeleteKey: 'registry-key-delete',
  CreateValue: 'registry-value-create',
  DeleteValue: 'registry-value-delete',
  SetValue: 'registry-value-set',
  RenameKey: 'registry-key-rename',
};

/*
 * ECS senders' own actions. Words that mean different things in different categories (`creation`
 * of a file or a registry key) are read with the category: `category:action`.
 */
export const ECS_ACTIONS: Readonly<Record<string, EndpointAction>> = {
  // Elastic Defend and Elastic Agent
  'process:start': 'process-create',
  'process:exec': 'process-create',
  'process:fork': 'process-create',
  'process:end': 'process-terminate',
  'file:creation': 'file-create',
  'file:modification': 'file-modify',
  'file:overwrite': 'file-modify',
  'file:rename': 'file-rename',
  'file:deletion': 'file-delete',
  'registry:creation': 'registry-key-create',
  'registry:modification': 'registry-value-set',
  'registry:deletion': 'registry-value-delete',
  'library:load': 'image-load',
  'driver:load': 'driver-load',
  connection_attempted: 'network-connection',
  connection_accepted: 'network-accept',
  disconnect_received: 'network-disconnect',
  lookup_requested: 'dns-query',
  lookup_result: 'dns-query',
  log_off: 'logoff',
  // Auditbeat
  process_started: 'process-create',
  process_stopped: 'process-terminate',
  executed: 'process-create',
  ssh_login: 'logon-success',
  ssh_login_failed: 'logon-failure',
  user_logout: 'logoff',
  // Winlogbeat's Security module
  'logged-in': 'logon-success',
  'logon-failed': 'logon-failure',
  'logged-out': 'logoff',
  'logged-in-explicit': 'explicit-credential-logon',
  'logged-in-special': 'special-privileges-logon',
  'created-process': 'process-create',
  'exited-process': 'process-terminate',
  'added-user-account': 'user-account-create',
  'enabled-user-account': 'user-account-enable',
  'disabled-user-account': 'user-account-disable',
  'deleted-user-account': 'user-account-delete',
  'modified-user-account': 'user-account-change',
  'locked-out-user-account': 'user-account-lock',
  'unlocked-user-account': 'user-account-unlock',
  'changed-password': 'password-change',
  'reset-password': 'password-reset',
  'added-member-to-group': 'group-member-add',
  'removed-member-from-group': 'group-member-remove',
  'audit-log-cleared': 'audit-log-cleared',
  // Winlogbeat's Sysmon module (the part before " (rule: …)")
  'process creation': 'process-create',
  'process create': 'process-create',
  'process terminated': 'process-terminate',
  'network connection detected': 'network-connection',
  'driver loaded': 'driver-load',
  'image loaded': 'image-load',
  'createremotethread detected': 'create-remote-thread',
  'rawaccessread detected': 'raw-access-read',
  'process accessed': 'process-access',
  'file created': 'file-create',
  'file creation time changed': 'file-creation-time-changed',
  'registry value set': 'registry-value-set',
  'registry object renamed': 'registry-key-rename',
  'registry object added or deleted': 'registry-key-or-value-create-delete',
  'file stream created': 'file-stream-create',
  'pipe created': 'pipe-create',
  'pipe connected': 'pipe-connect',
  'dns query': 'dns-query',
  'file delete archived': 'file-delete',
  'file delete logged': 'file-delete-detected',
  'clipboard changed': 'clipboard-change',
  'process tampering': 'process-tampering',
};

/** Actions whose outcome decides the name (`log_on` that failed is a logon failure). */
const ECS_BY_OUTCOME: Readonly<Record<string, { success: EndpointAction; failure: EndpointAction }>> = {
  log_on: { success: 'logon-success', failure: 'logon-failure' },
  user_login: { success: 'logon-success', failure: 'logon-failure' },
  logon: { success: 'logon-success', failure: 'logon-failure' },
};

/** The entry of a table under a key the sender wrote: own entries only (`constructor` is no action). */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** An ECS sender's action in the vocabulary, or null when it is not known. */
export function ecsAction(
  action: string,
  categories: readonly string[],
  outcome: string | null,
): EndpointAction | null {
  // No known action is long; a long one is not searched (nor made to cost time).
  if (action.length > 100) return null;
  const word = action
    .trim()
    .replace(/\s*\(rule:[^)]*\)$/i, '')
    .toLowerCase();
  if (isEndpointAction(word)) return word;
  for (const category of categories) {
    const found = lookup(ECS_ACTIONS, `${category.toLowerCase()}:${word}`);
    if (found !== undefined) return found;
  }
  const plain = lookup(ECS_ACTIONS, word) ?? lookup(ECS_ACTIONS, word.replaceAll('-', '_'));
  if (plain !== undefined) return plain;
  const byOutcome = lookup(ECS_BY_OUTCOME, word);
  if (byOutcome !== undefined && (outcome === 'success' || outcome === 'failure')) return byOutcome[outcome];
  return null;
}
