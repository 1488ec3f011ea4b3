import type { EndpointAction, FileHashes } from '@vigil/contract';
import {
  ACTION_CATEGORIES,
  ACTION_OUTCOMES,
  SYSMON_REGISTRY_ACTIONS,
  WINDOWS_ACTIONS,
  lookup,
  windowsFamily,
} from './actions';
import {
  FieldError,
  baseName,
  describe,
  emptyHashes,
  nullIfEmpty,
  readInteger,
  readIp,
  readPort,
  readString,
} from './values';
import type { WindowsFields, WindowsRecord } from './windows';

/*
 * The normalised fields of a Windows event (Sysmon, Security, System, Task Scheduler, Defender,
 * WMI, PowerShell), whichever shape it came in (windows.ts reads the shapes). Which action each
 * event id is: actions.ts.
 */

/** Sysmon events whose Hashes belong to the process image; for the others they are the file's. */
const SYSMON_PROCESS_HASHES = new Set([1, 5]);
/** Sysmon events whose ImageLoaded is the file the event is about (and OriginalFileName the file's). */
const SYSMON_FILE_IMAGE = new Set([6, 7]);
/** Sysmon named-pipe events: the pipe is the file. */
const SYSMON_PIPES = new Set([17, 18]);
/** Security events of a logon session: the account is the target (the one logged on). */
const SECURITY_LOGON = new Set([4624, 4625, 4627, 4634, 4647, 4672]);
/** Security events of a group's membership: the target is the group. */
const SECURITY_MEMBERSHIP = new Set([4728, 4729, 4732, 4733, 4756, 4757, 4799]);
/** Security events of an object's handle or access, whose ObjectType says what the object is. */
const SECURITY_OBJECT = new Set([4656, 4657, 4658, 4660, 4663, 4670]);
/** Windows Filtering Platform events (5152–5159): Application, ProcessID and the addresses. */
const isFilteringPlatform = (id: number) => id >= 5150 && id <= 5159;

/** `SHA1=…,MD5=…,SHA256=…,IMPHASH=…` (Sysmon Hashes); unknown or malformed parts are skipped. */
export function parseSysmonHashes(value: unknown, field = 'Hashes'): FileHashes {
  const hashes = emptyHashes();
  if (value !== null && typeof value === 'object')
    throw new FieldError(`${field} must be text, found ${describe(value)}`);
  if (typeof value !== 'string') return hashes;
  const lengths = { md5: 32, sha1: 40, sha256: 64 } as const;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const algorithm = part.slice(0, eq).trim().toLowerCase();
    const digest = part.slice(eq + 1).trim();
    if (
      (algorithm === 'md5' || algorithm === 'sha1' || algorithm === 'sha256') &&
      digest.length === lengths[algorithm] &&
      /^[0-9a-f]+$/i.test(digest)
    ) {
      hashes[algorithm] = digest.toLowerCase();
    }
  }
  // A bare digest (FileCreateStreamHash with one algorithm configured) is recognised by length.
  if (hashes.md5 === null && hashes.sha1 === null && hashes.sha256 === null && /^[0-9a-f]+$/i.test(value)) {
    if (value.length === 32) hashes.md5 = value.toLowerCase();
    else if (value.length === 40) hashes.sha1 = value.toLowerCase();
    else if (value.length === 64) hashes.sha256 = value.toLowerCase();
  }
  return hashes;
}

/** `DOMAIN\name` → {name, domain}; a bare name → {name}. */
export function splitAccount(account: string | null): { name: string | null; domain: string | null } {
  if (account === null) return { name: null, domain: null };
  const slash = account.indexOf('\\');
  if (slash > 0) return { name: account.slice(slash + 1) || null, domain: account.slice(0, slash) };
  return { name: account, domain: null };
}

/** Registry path → hive, key and value; for a key operation the whole path is the key. */
function splitRegistry(
  path: string | null,
  isValue: boolean,
): { hive: string | null; key: string | null; value: string | null } {
  if (path === null) return { hive: null, key: null, value: null };
  const first = path.indexOf('\\');
  const hive = first < 0 ? path : path.slice(0, first);
  const rest = first < 0 ? '' : path.slice(first + 1);
  if (!isValue) return { hive, key: rest || null, value: null };
  const last = rest.lastIndexOf('\\');
  return { hive, key: last < 0 ? null : rest.slice(0, last), value: (last < 0 ? rest : rest.slice(last + 1)) || null };
}

/** Sysmon QueryResults: `type:  5 cdn.example.net;::ffff:192.0.2.7;192.0.2.8;` → names and addresses. */
function parseQueryResults(value: string | null): string[] {
  if (value === null) return [];
  const out: string[] = [];
  for (const part of value.split(';')) {
    let item = part.trim().replace(/^type:\s*\d+\s+/, '');
    if (item.startsWith('::ffff:')) item = item.slice(7);
    if (item !== '' && item !== '-') out.push(item);
  }
  return out;
}

const NONE = { empty: ['-'] } as const;
type Data = Map<string, unknown>;
const dataString = (d: Data, name: string) => readString(d.get(name), name, NONE);
const dataPid = (d: Data, name: string) => readInteger(d.get(name), name, { hex: true });
const dataIp = (d: Data, name: string) => readIp(d.get(name), name, NONE);
const dataPort = (d: Data, name: string) => {
  const value = d.get(name);
  return value === '-' ? null : readPort(value, name);
};

/**
 * The EventData fields the normaliser reads. Each holds text or a number; anything else refuses the
 * line, naming the field (a test keeps this list equal to the fields read below).
 */
export const KNOWN_DATA_FIELDS: ReadonlySet<string> = new Set([
  'AccessMask',
  'Application',
  'CallerProcessId',
  'CallerProcessName',
  'ClientProcessId',
  'CommandLine',
  'DestAddress',
  'DestPort',
  'DestinationIp',
  'DestinationPort',
  'Details',
  'Detection User',
  'Device',
  'EventType',
  'GrantedAccess',
  'Hash',
  'Hashes',
  'Image',
  'ImageLoaded',
  'IntegrityLevel',
  'IpAddress',
  'IpPort',
  'LogonId',
  'MandatoryLabel',
  'MemberName',
  'MemberSid',
  'NewName',
  'NewProcessId',
  'NewProcessName',
  'NewValue',
  'ObjectName',
  'ObjectType',
  'ObjectValueName',
  'OriginalFileName',
  'ParentCommandLine',
  'ParentImage',
  'ParentProcessGuid',
  'ParentProcessId',
  'ParentProcessName',
  'ParentUser',
  'Path',
  'PipeName',
  'Process Name',
  'ProcessGuid',
  'ProcessID',
  'ProcessId',
  'ProcessName',
  'Protocol',
  'QueryName',
  'QueryResults',
  'SourceAddress',
  'SourceImage',
  'SourceIp',
  'SourcePort',
  'SourceProcessGUID',
  'SourceProcessGuid',
  'SourceProcessId',
  'SourceUser',
  'SubjectDomainName',
  'SubjectLogonId',
  'SubjectUserName',
  'TargetDomainName',
  'TargetFilename',
  'TargetImage',
  'TargetLogonId',
  'TargetObject',
  'TargetProcessGUID',
  'TargetProcessGuid',
  'TargetProcessId',
  'TargetUser',
  'TargetUserName',
  'User',
  'UserName',
]);

/** Refuses a record whose known fields hold an object or a list. */
function checkTypes(d: Data): void {
  for (const [name, value] of d) {
    if (value !== null && typeof value === 'object' && KNOWN_DATA_FIELDS.has(name)) {
      throw new FieldError(`${name} must be text or a number, found ${describe(value)}`);
    }
  }
}

/** A hex value as Windows writes it (`0x1F3FFF`), lower case; other text as it came. */
function hex(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return /^0x[0-9a-f]+$/i.test(trimmed) ? trimmed.toLowerCase() : trimmed || null;
}

/** A logon id in lower-case hex; `0x0` (no session) is none. */
function logonId(value: string | null): string | null {
  const id = hex(value);
  return id === null || /^0x0+$/.test(id) ? null : id;
}

const INTEGRITY_LEVELS: Readonly<Record<string, string>> = {
  'S-1-16-0': 'Untrusted',
  'S-1-16-4096': 'Low',
  'S-1-16-8192': 'Medium',
  'S-1-16-8448': 'MediumPlus',
  'S-1-16-12288': 'High',
  'S-1-16-16384': 'System',
  'S-1-16-20480': 'Protected',
  'S-1-16-28672': 'Secure',
};

/** A mandatory label (`S-1-16-12288`, `Mandatory Label\High Mandatory Level`) as its level's name. */
function integrityLevel(label: string | null): string | null {
  if (label === null) return null;
  const known = lookup(INTEGRITY_LEVELS, label.toUpperCase());
  if (known !== undefined) return known;
  const named = /^(?:Mandatory Label\\)?(\w+) Mandatory Level$/i.exec(label);
  return named ? named[1]! : label;
}

/** IANA protocol numbers (the Filtering Platform writes 6, 17) as names; names lower-cased. */
function protocolName(value: string | null): string | null {
  if (value === null) return null;
  const names: Readonly<Record<string, string>> = { '1': 'icmp', '6': 'tcp', '17': 'udp', '58': 'ipv6-icmp' };
  return lookup(names, value.trim()) ?? value.toLowerCase();
}

/** A kernel registry path (`\REGISTRY\MACHINE\SOFTWARE\…`) in the form Sysmon writes (`HKLM\SOFTWARE\…`). */
function registryPath(objectName: string | null): string | null {
  if (objectName === null) return null;
  const m = /^\\REGISTRY\\(MACHINE|USER)(\\.*)?$/i.exec(objectName);
  if (m === null) return objectName;
  return `${m[1]!.toUpperCase() === 'MACHINE' ? 'HKLM' : 'HKU'}${m[2] ?? ''}`;
}

/** Defender's Path: `file:_C:\x.exe;process:_pid:…` → the first file's path. */
function defenderPath(value: string | null): string | null {
  if (value === null) return null;
  const first = value.split(';')[0]!.trim();
  return first.replace(/^[a-z]+:_/i, '') || null;
}

const noAccount = () => ({ name: null as string | null, domain: null as string | null });

/** Normalises a Windows event into the endpoint fields. */
export function normaliseWindows(record: WindowsRecord): WindowsFields {
  const family = windowsFamily(record.provider, record.channel);
  const id = record.eventId;
  const d = record.data;
  checkTypes(d);
  const sysmon = family === 'sysmon';
  const security = family === 'security';
  const wfp = security && isFilteringPlatform(id);
  const process4688 = security && id === 4688;

  let action: EndpointAction | null = family === null ? null : (WINDOWS_ACTIONS[family][id] ?? null);
  const eventType = dataString(d, 'EventType');
  if (sysmon && id >= 12 && id <= 14 && eventType !== null) {
    action = lookup(SYSMON_REGISTRY_ACTIONS, eventType) ?? action;
  }

  // The process the event is about, and its parent.
  let executable =
    dataString(d, 'Image') ??
    dataString(d, 'NewProcessName') ??
    dataString(d, 'ProcessName') ??
    dataString(d, 'SourceImage') ??
    dataString(d, 'CallerProcessName') ??
    (wfp ? dataString(d, 'Application') : null) ??
    (family === 'defender' ? readString(d.get('Process Name'), 'Process Name', { empty: ['-', 'Unknown'] }) : null);
  let processId = process4688
    ? dataPid(d, 'NewProcessId')
    : (dataPid(d, 'ProcessId') ??
      dataPid(d, 'SourceProcessId') ??
      (wfp ? dataPid(d, 'ProcessID') : null) ??
      dataPid(d, 'CallerProcessId'));
  const parent = {
    pid: dataPid(d, 'ParentProcessId'),
    name: null as string | null,
    executable: dataString(d, 'ParentImage') ?? dataString(d, 'ParentProcessName'),
    command_line: dataString(d, 'ParentCommandLine'),
    entity_id: dataString(d, 'ParentProcessGuid'),
    user: dataString(d, 'ParentUser'),
  };
  if (process4688) {
    executable = dataString(d, 'NewProcessName');
    parent.pid = dataPid(d, 'ProcessId');
    parent.executable = dataString(d, 'ParentProcessName');
  }
  // Scheduled-task and WMI events name the calling process by ClientProcessId.
  processId ??= dataPid(d, 'ClientProcessId');
  parent.name = baseName(parent.executable);
  const processHashes = sysmon && SYSMON_PROCESS_HASHES.has(id) ? parseSysmonHashes(d.get('Hashes')) : emptyHashes();
  const originalName = dataString(d, 'OriginalFileName');
  const fileImage = sysmon && SYSMON_FILE_IMAGE.has(id);

  // What a Security object event is about: a process, a file or a registry key.
  const objectType = security && SECURITY_OBJECT.has(id) ? dataString(d, 'ObjectType') : null;
  const objectName = objectType === null ? null : dataString(d, 'ObjectName');

  // The process acted upon (most events have none: nothing is made for them).
  const targetExecutable = dataString(d, 'TargetImage') ?? (objectType === 'Process' ? objectName : null);
  const target =
    targetExecutable === null && !d.has('TargetProcessId')
      ? null
      : nullIfEmpty({
          pid: dataPid(d, 'TargetProcessId'),
          name: baseName(targetExecutable),
          executable: targetExecutable,
          entity_id: dataString(d, 'TargetProcessGUID') ?? dataString(d, 'TargetProcessGuid'),
          granted_access: hex(
            dataString(d, 'GrantedAccess') ?? (objectType === 'Process' ? dataString(d, 'AccessMask') : null),
          ),
        });

  // The file.
  let filePath = dataString(d, 'TargetFilename');
  if (fileImage) filePath = dataString(d, 'ImageLoaded');
  else if (sysmon && id === 9) filePath = dataString(d, 'Device');
  else if (sysmon && SYSMON_PIPES.has(id)) filePath = dataString(d, 'PipeName');
  else if (objectType === 'File') filePath = objectName;
  else if (family === 'defender') filePath = defenderPath(dataString(d, 'Path'));
  const fileHashes =
    sysmon && !SYSMON_PROCESS_HASHES.has(id)
      ? parseSysmonHashes(d.get('Hashes') ?? d.get('Hash'), d.has('Hashes') ? 'Hashes' : 'Hash')
      : emptyHashes();

  // Accounts: Sysmon's User runs the process; Security names a subject (who acted) and a target.
  const subject = {
    name: dataString(d, 'SubjectUserName'),
    domain: dataString(d, 'SubjectDomainName'),
    logon_id: logonId(dataString(d, 'SubjectLogonId')),
  };
  const targetAccount = {
    name: dataString(d, 'TargetUserName'),
    domain: dataString(d, 'TargetDomainName'),
    logon_id: logonId(dataString(d, 'TargetLogonId')),
  };
  let user = {
    ...splitAccount(dataString(d, 'User') ?? dataString(d, 'SourceUser')),
    logon_id: logonId(dataString(d, 'LogonId')),
  };
  let targetUser = sysmon ? splitAccount(dataString(d, 'TargetUser')) : noAccount();
  let group = noAccount();
  // The event log service writes 1102 (log cleared) with the Security log's subject too.
  if (security || family === 'eventlog') {
    const logon = SECURITY_LOGON.has(id);
    if (logon) user = targetAccount.name !== null ? targetAccount : subject;
    else user = subject.name !== null ? subject : targetAccount;
    if (SECURITY_MEMBERSHIP.has(id)) {
      group = { name: targetAccount.name, domain: targetAccount.domain };
      targetUser = { name: dataString(d, 'MemberName') ?? dataString(d, 'MemberSid'), domain: null };
    } else if (!logon && subject.name !== null && targetAccount.name !== null && id !== 4688) {
      targetUser = { name: targetAccount.name, domain: targetAccount.domain };
    }
  }
  if (family === 'defender' && user.name === null) {
    user = { ...splitAccount(readString(d.get('Detection User'), 'Detection User', NONE)), logon_id: null };
  }
  if (user.name === null && d.has('UserName')) user = { ...splitAccount(dataString(d, 'UserName')), logon_id: null };

  // Network: Sysmon 3, the Filtering Platform, and the remote address of logons.
  const network = {
    src_ip: dataIp(d, 'SourceIp') ?? dataIp(d, 'IpAddress') ?? (wfp ? dataIp(d, 'SourceAddress') : null),
    src_port: dataPort(d, 'SourcePort') ?? dataPort(d, 'IpPort'),
    dest_ip: dataIp(d, 'DestinationIp') ?? (wfp ? dataIp(d, 'DestAddress') : null),
    dest_port: dataPort(d, 'DestinationPort') ?? (wfp ? dataPort(d, 'DestPort') : null),
    protocol: protocolName(dataString(d, 'Protocol')),
  };
  if (network.src_port === 0 && network.src_ip === null) network.src_port = null;

  // Registry: Sysmon 12, 13, 14, and Security object events on keys.
  let registryFull = dataString(d, 'TargetObject');
  let isValue = eventType === 'SetValue' || eventType === 'CreateValue' || eventType === 'DeleteValue';
  let registryData = dataString(d, 'Details') ?? dataString(d, 'NewName');
  if (registryFull === null && objectType === 'Key') {
    registryFull = registryPath(objectName);
    const valueName = dataString(d, 'ObjectValueName');
    if (registryFull !== null && valueName !== null) {
      registryFull = `${registryFull}\\${valueName}`;
      isValue = true;
      registryData = dataString(d, 'NewValue');
    }
  }
  const registry =
    registryFull === null ? null : { path: registryFull, ...splitRegistry(registryFull, isValue), data: registryData };

  const question = dataString(d, 'QueryName');
  return {
    host: { name: record.computer, ip: [], os: 'Windows' },
    event: {
      action,
      shipper_action: null,
      category: action === null ? [] : [...ACTION_CATEGORIES[action]],
      code: String(id),
      provider: record.provider,
      channel: record.channel,
      outcome: action === null ? null : (ACTION_OUTCOMES[action] ?? null),
    },
    process: nullIfEmpty({
      pid: processId,
      name: baseName(executable),
      executable,
      command_line: dataString(d, 'CommandLine'),
      entity_id:
        dataString(d, 'ProcessGuid') ?? dataString(d, 'SourceProcessGUID') ?? dataString(d, 'SourceProcessGuid'),
      parent: nullIfEmpty(parent),
      hash: processHashes,
      user: dataString(d, 'User'),
      original_file_name: fileImage ? null : originalName,
      integrity_level: integrityLevel(dataString(d, 'IntegrityLevel') ?? dataString(d, 'MandatoryLabel')),
    }),
    target_process: target,
    file: nullIfEmpty({
      path: filePath,
      name: baseName(filePath),
      hash: fileHashes,
      original_file_name: fileImage ? originalName : null,
    }),
    user: nullIfEmpty(user),
    target_user: nullIfEmpty(targetUser),
    group: nullIfEmpty(group),
    network: nullIfEmpty(network),
    registry,
    dns: question === null ? null : { question, answers: parseQueryResults(dataString(d, 'QueryResults')) },
  };
}
