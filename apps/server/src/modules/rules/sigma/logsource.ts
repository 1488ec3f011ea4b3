import type { EndpointAction, EndpointEvent } from '@vigil/contract';
import { SigmaRefusal, type SigmaLogsource } from './types';

/*
 * Which endpoint events a rule's logsource applies to. Vigil receives Windows events (EVTX
 * exports, flat Windows JSON, Winlogbeat and Elastic Agent); every event carries one action of
 * the endpoint vocabulary, whatever its source, so a Sigma category is a set of actions (Sysmon's
 * process creation, Security 4688 and an ECS `process start` alike), narrowed by channel where
 * the action alone does not tell the category. A Sigma service is the Windows channel it names.
 */

export interface LogsourceTarget {
  /** The bucket of the engine's index the rule sits in: `category:…`, `service:…` or `product:windows`. */
  readonly key: string;
  /** For a rule naming both a category and a service: the channels the service stands for. */
  readonly channels: readonly string[] | null;
}

interface CategoryDefinition {
  readonly actions: readonly EndpointAction[];
  /** The channel (lower case) the event must come from, where the action is shared. */
  readonly channel?: string;
  /** Events of no action that still belong (Sysmon's error event). */
  readonly test?: (event: EndpointEvent) => boolean;
}

const POWERSHELL = 'microsoft-windows-powershell/operational';
const POWERSHELL_CLASSIC = 'windows powershell';
const REGISTRY: EndpointAction[] = [
  'registry-key-create',
  'registry-key-delete',
  'registry-key-rename',
  'registry-key-or-value-create-delete',
  'registry-value-create',
  'registry-value-delete',
  'registry-value-set',
];

/** Sigma's Windows categories and the events of each. */
export const CATEGORIES: Readonly<Record<string, CategoryDefinition>> = {
  process_creation: { actions: ['process-create'] },
  process_termination: { actions: ['process-terminate'] },
  network_connection: { actions: ['network-connection', 'network-accept'] },
  file_event: { actions: ['file-create'] },
  file_change: { actions: ['file-creation-time-changed'] },
  file_delete: { actions: ['file-delete', 'file-delete-detected'] },
  file_rename: { actions: ['file-rename'] },
  file_executable_detected: { actions: ['file-executable-detected'] },
  file_block_executable: { actions: ['file-block-executable'] },
  file_block_shredding: { actions: ['file-block-shredding'] },
  create_stream_hash: { actions: ['file-stream-create'] },
  image_load: { actions: ['image-load'] },
  driver_load: { actions: ['driver-load'] },
  process_access: { actions: ['process-access'] },
  create_remote_thread: { actions: ['create-remote-thread'] },
  raw_access_thread: { actions: ['raw-access-read'] },
  process_tampering: { actions: ['process-tampering'] },
  pipe_created: { actions: ['pipe-create', 'pipe-connect'] },
  dns_query: { actions: ['dns-query'] },
  wmi_event: { actions: ['wmi-filter', 'wmi-consumer', 'wmi-binding'] },
  clipboard_capture: { actions: ['clipboard-change'] },
  registry_event: { actions: REGISTRY },
  registry_add: { actions: ['registry-key-create'] },
  registry_delete: { actions: ['registry-key-delete', 'registry-value-delete'] },
  registry_set: { actions: ['registry-value-set'] },
  registry_rename: { actions: ['registry-key-rename'] },
  sysmon_status: { actions: ['sysmon-state-changed', 'sysmon-config-changed'] },
  sysmon_error: {
    actions: [],
    test: (e) => e.event.code === '255' && (e.event.provider ?? '').toLowerCase().includes('sysmon'),
  },
  ps_script: { actions: ['powershell-script-block'], channel: POWERSHELL },
  ps_module: { actions: ['powershell-pipeline-execute'], channel: POWERSHELL },
  ps_classic_start: { actions: ['powershell-engine-start'], channel: POWERSHELL_CLASSIC },
  ps_classic_provider_start: { actions: ['powershell-provider-start'], channel: POWERSHELL_CLASSIC },
  ps_classic_script: { actions: ['powershell-pipeline-execute'], channel: POWERSHELL_CLASSIC },
};

/** Categories of Windows sources Vigil has no events of, with what they would need. */
const NOT_RECEIVED: Readonly<Record<string, string>> = {
  file_access: 'file access events (the Microsoft-Windows-Kernel-File trace)',
  webserver: 'web server logs',
  antivirus: 'antivirus detections in the generic Sigma antivirus fields',
};

/** Sigma's Windows services and the channels they name (lower case). */
export const SERVICES: Readonly<Record<string, readonly string[]>> = {
  security: ['security'],
  system: ['system'],
  application: ['application'],
  sysmon: ['microsoft-windows-sysmon/operational'],
  powershell: [POWERSHELL],
  'powershell-classic': [POWERSHELL_CLASSIC],
  taskscheduler: ['microsoft-windows-taskscheduler/operational'],
  wmi: ['microsoft-windows-wmi-activity/operational'],
  windefend: ['microsoft-windows-windows defender/operational'],
  'dns-server': ['dns server'],
  'dns-server-analytic': ['microsoft-windows-dns-server/analytical'],
  'dns-server-audit': ['microsoft-windows-dns-server/audit'],
  'dns-client': ['microsoft-windows-dns client events/operational'],
  'driver-framework': ['microsoft-windows-driverframeworks-usermode/operational'],
  ntlm: ['microsoft-windows-ntlm/operational'],
  dhcp: ['microsoft-windows-dhcp-server/operational'],
  'msexchange-management': ['msexchange management'],
  applocker: [
    'microsoft-windows-applocker/msi and script',
    'microsoft-windows-applocker/exe and dll',
    'microsoft-windows-applocker/packaged app-deployment',
    'microsoft-windows-applocker/packaged app-execution',
  ],
  'printservice-admin': ['microsoft-windows-printservice/admin'],
  'printservice-operational': ['microsoft-windows-printservice/operational'],
  'codeintegrity-operational': ['microsoft-windows-codeintegrity/operational'],
  'smbclient-security': ['microsoft-windows-smbclient/security'],
  'smbclient-connectivity': ['microsoft-windows-smbclient/connectivity'],
  'smbserver-connectivity': ['microsoft-windows-smbserver/connectivity'],
  'firewall-as': ['microsoft-windows-windows firewall with advanced security/firewall'],
  'bits-client': ['microsoft-windows-bits-client/operational'],
  'terminalservices-localsessionmanager': ['microsoft-windows-terminalservices-localsessionmanager/operational'],
  'microsoft-servicebus-client': ['microsoft-servicebus-client'],
  ldap: ['microsoft-windows-ldap-client/debug'],
  'security-mitigations': [
    'microsoft-windows-security-mitigations/kernel mode',
    'microsoft-windows-security-mitigations/user mode',
  ],
  'diagnosis-scripted': ['microsoft-windows-diagnosis-scripted/operational'],
  'shell-core': ['microsoft-windows-shell-core/operational'],
  openssh: ['openssh/operational'],
  bitlocker: ['microsoft-windows-bitlocker/bitlocker management'],
  vhdmp: ['microsoft-windows-vhdmp/operational'],
  'appxdeployment-server': ['microsoft-windows-appxdeploymentserver/operational'],
  'appxpackaging-om': ['microsoft-windows-appxpackaging/operational'],
  'appmodel-runtime': ['microsoft-windows-appmodel-runtime/admin'],
  'lsa-server': ['microsoft-windows-lsa/operational'],
  capi2: ['microsoft-windows-capi2/operational'],
  'certificateservicesclient-lifecycle-system': [
    'microsoft-windows-certificateservicesclient-lifecycle-system/operational',
  ],
  'iis-configuration': ['microsoft-iis-configuration/operational'],
  'kernel-shimengine': ['microsoft-windows-kernel-shimengine/operational'],
  'hyper-v-worker': ['microsoft-windows-hyper-v-worker'],
};

/** Where a rule sits in the index; refuses logsources of events Vigil does not receive. */
export function logsourceTarget(source: SigmaLogsource): LogsourceTarget {
  const { product, category, service } = source;
  if (product !== null && product !== 'windows') {
    throw new SigmaRefusal(`logsource product '${product}' is not an endpoint source Vigil receives`);
  }
  if (category !== null && Object.hasOwn(NOT_RECEIVED, category)) {
    throw new SigmaRefusal(
      `logsource category '${category}' needs ${NOT_RECEIVED[category]}, which Vigil does not receive`,
    );
  }
  if (category !== null && !Object.hasOwn(CATEGORIES, category)) {
    if (product === null)
      throw new SigmaRefusal(`logsource category '${category}' is not an endpoint source Vigil receives`);
    throw new SigmaRefusal(`logsource category '${category}' is not a Windows event category Vigil knows`);
  }
  if (service !== null && !Object.hasOwn(SERVICES, service)) {
    throw new SigmaRefusal(`logsource service '${service}' is not a Windows log Vigil knows the channel of`);
  }
  if (category !== null) return { key: `category:${category}`, channels: service === null ? null : SERVICES[service]! };
  if (service !== null) return { key: `service:${service}`, channels: null };
  if (product === null) throw new SigmaRefusal('the logsource names no product, category or service');
  return { key: 'product:windows', channels: null };
}

const CATEGORIES_BY_ACTION = new Map<string, string[]>();
for (const [name, definition] of Object.entries(CATEGORIES)) {
  for (const action of definition.actions) {
    CATEGORIES_BY_ACTION.set(action, [...(CATEGORIES_BY_ACTION.get(action) ?? []), name]);
  }
}
const SERVICES_BY_CHANNEL = new Map<string, string[]>();
for (const [name, channels] of Object.entries(SERVICES)) {
  for (const channel of channels) SERVICES_BY_CHANNEL.set(channel, [...(SERVICES_BY_CHANNEL.get(channel) ?? []), name]);
}

/**
 * Whether an event is a Windows one: Windows formats and channels are; an ECS event is unless
 * its host says another operating system (an event that does not say is taken as Windows).
 */
export function isWindowsEvent(event: EndpointEvent): boolean {
  if (event.source_format !== 'ecs' || event.event.channel !== null) return true;
  const os = event.host.os;
  return os === null || os.toLowerCase().includes('windows');
}

/** The index buckets an event belongs to. */
export function eventKeys(event: EndpointEvent): string[] {
  if (!isWindowsEvent(event)) return [];
  const keys = ['product:windows'];
  const channel = event.event.channel?.toLowerCase() ?? null;
  const action = event.event.action;
  for (const name of (action === null ? undefined : CATEGORIES_BY_ACTION.get(action)) ?? []) {
    const required = CATEGORIES[name]!.channel;
    if (required === undefined || required === channel) keys.push(`category:${name}`);
  }
  if (CATEGORIES.sysmon_error!.test!(event)) keys.push('category:sysmon_error');
  for (const name of (channel === null ? undefined : SERVICES_BY_CHANNEL.get(channel)) ?? [])
    keys.push(`service:${name}`);
  return keys;
}
