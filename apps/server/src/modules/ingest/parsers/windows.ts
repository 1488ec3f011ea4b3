import type { EndpointEvent, FileHashes } from '@vigil/contract';
import {
  FieldError,
  baseName,
  describe,
  emptyHashes,
  isObject,
  nullIfEmpty,
  readInteger,
  readIp,
  readPort,
  readString,
  readTimestamp,
  type JsonObject,
} from './values';

/*
 * Windows events as JSON. Exporters differ in how they write XML attributes and text; all of
 * these are read:
 *   evtx_dump (omerbenamram/evtx)   {"Provider": {"#attributes": {"Name": …}}}, EventData as name → value
 *   xmltodict and similar           {"Provider": {"@Name": …}}, {"Data": [{"@Name": "Image", "#text": "…"}]}
 *   xml-js compact                  {"_attributes": {"Name": …}}, {"_text": …}
 *   plain objects                   {"Provider": {"Name": …}}, {"EventID": "4624"}
 *   Winlogbeat / Elastic Agent      winlog.{event_id, provider_name, channel, computer_name, event_data}
 */

export type Scalar = string | number | boolean | null;

/** A Windows event reduced to what the normaliser needs, whatever shape it came in. */
export interface WindowsRecord {
  timestamp: string;
  eventId: number;
  provider: string | null;
  channel: string | null;
  computer: string | null;
  /** EventData (or the fields of UserData's one element) by name. */
  data: Map<string, Scalar>;
}

/** The normalised parts of an endpoint event that a Windows event fills. */
export type WindowsFields = Omit<EndpointEvent, 'timestamp' | 'source_format' | 'event_data' | 'raw'>;

/** Text of an XML element as exporters write it: the value itself, or its #text/_text/#value. */
function textOf(node: unknown): Scalar | undefined {
  if (node === null || typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return node;
  if (Array.isArray(node)) {
    return node.every((item) => typeof item === 'string' || typeof item === 'number') ? node.join('\n') : undefined;
  }
  if (isObject(node)) {
    for (const key of ['#text', '_text', '_', '#value', 'Value', 'value']) {
      if (Object.hasOwn(node, key)) return textOf(node[key]);
    }
    // BadgerFish writes text as "$"; xml2js uses "$" for the attributes.
    if (Object.hasOwn(node, '$') && !isObject(node.$)) return textOf(node.$);
  }
  return undefined;
}

/** An XML attribute as exporters write it. */
function attributeOf(node: unknown, name: string): unknown {
  if (!isObject(node)) return undefined;
  for (const holder of ['#attributes', '@attributes', '_attributes', '$']) {
    const attributes = node[holder];
    if (isObject(attributes) && Object.hasOwn(attributes, name)) return attributes[name];
  }
  if (Object.hasOwn(node, `@${name}`)) return node[`@${name}`];
  if (Object.hasOwn(node, name)) return node[name];
  return undefined;
}

const isMarkup = (key: string): boolean =>
  key.startsWith('#') || key.startsWith('@') || key.startsWith('_') || key === '$';

function setData(into: Map<string, Scalar>, name: string, value: Scalar | undefined): void {
  if (value !== undefined && name !== '__proto__') into.set(name, value);
}

/** One `Data` element: named (`{"@Name": "Image", "#text": …}`) or not (classic events: Data1, Data2…). */
function addDataEntry(into: Map<string, Scalar>, item: unknown, unnamed: { count: number }): void {
  const name = isObject(item) ? attributeOf(item, 'Name') : undefined;
  if (typeof name === 'string') {
    setData(into, name, textOf(item) ?? null);
    return;
  }
  const inner = isObject(item) ? (item['#text'] ?? item._text) : item;
  if (Array.isArray(inner)) for (const part of inner) setData(into, `Data${++unnamed.count}`, textOf(part));
  else setData(into, `Data${++unnamed.count}`, textOf(item));
}

/** EventData in any of the exporters' shapes, flattened to name → value. */
export function flattenEventData(node: unknown, into = new Map<string, Scalar>()): Map<string, Scalar> {
  const unnamed = { count: 0 };
  if (Array.isArray(node)) {
    for (const item of node) addDataEntry(into, item, unnamed);
  } else if (isObject(node)) {
    for (const key in node) {
      if (!Object.hasOwn(node, key) || isMarkup(key)) continue;
      const value = node[key];
      if (key !== 'Data') setData(into, key, textOf(value));
      else if (Array.isArray(value)) for (const item of value) addDataEntry(into, item, unnamed);
      else addDataEntry(into, value, unnamed);
    }
  }
  return into;
}

/** UserData holds one element (LogFileCleared, Operation_ClientFailure…) whose children are the data. */
function flattenUserData(node: unknown, into: Map<string, Scalar>): void {
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (!isMarkup(key) && isObject(value)) flattenEventData(value, into);
  }
}

/** `{"Event": {"System": …}}` or the bare `{"System": …}`; null when the record is neither. */
export function evtxEvent(record: JsonObject): JsonObject | null {
  if (isObject(record.Event) && isObject(record.Event.System)) return record.Event;
  if (isObject(record.System)) return record;
  return null;
}

/** Reads the System block and the data of an exported EVTX event. */
export function readEvtx(event: JsonObject): WindowsRecord {
  const system = event.System as JsonObject;
  const eventId = readInteger(textOf(system.EventID), 'Event.System.EventID', { max: 65_535 });
  if (eventId === null) throw new FieldError('missing Event.System.EventID');
  const created = system.TimeCreated;
  const time = attributeOf(created, 'SystemTime') ?? textOf(created);
  const timestamp = readTimestamp(time, 'Event.System.TimeCreated.SystemTime');
  if (timestamp === null) throw new FieldError('missing Event.System.TimeCreated.SystemTime');
  const provider = system.Provider;
  const data = flattenEventData(event.EventData);
  flattenUserData(event.UserData, data);
  return {
    timestamp,
    eventId,
    provider: readString(
      isObject(provider) ? (attributeOf(provider, 'Name') ?? attributeOf(provider, 'EventSourceName')) : provider,
      'Event.System.Provider.Name',
    ),
    channel: readString(textOf(system.Channel), 'Event.System.Channel'),
    computer: readString(textOf(system.Computer), 'Event.System.Computer'),
    data,
  };
}

type Family = 'sysmon' | 'security' | 'system' | 'taskscheduler' | 'other';

function familyOf(record: WindowsRecord): Family {
  const provider = record.provider?.toLowerCase() ?? '';
  const channel = record.channel?.toLowerCase() ?? '';
  if (provider.includes('sysmon') || channel.includes('sysmon')) return 'sysmon';
  if (channel === 'security' || provider === 'microsoft-windows-security-auditing') return 'security';
  if (channel === 'system') return 'system';
  if (provider === 'microsoft-windows-taskscheduler') return 'taskscheduler';
  return 'other';
}

type Kind = readonly [action: string, category: readonly string[], outcome?: string];

const PROCESS = ['process'] as const;
const FILE = ['file'] as const;
const REGISTRY = ['registry', 'configuration'] as const;
const AUTH = ['authentication'] as const;
const IAM = ['iam'] as const;
const TASK = ['configuration', 'process'] as const;

const SYSMON: Record<number, Kind> = {
  1: ['process-create', PROCESS],
  2: ['file-creation-time-changed', FILE],
  3: ['network-connection', ['network']],
  4: ['sysmon-state-changed', ['configuration']],
  5: ['process-terminate', PROCESS],
  6: ['driver-load', ['driver']],
  7: ['image-load', ['library', 'process']],
  8: ['create-remote-thread', PROCESS],
  9: ['raw-access-read', FILE],
  10: ['process-access', PROCESS],
  11: ['file-create', FILE],
  12: ['registry-key-or-value-create-delete', REGISTRY],
  13: ['registry-value-set', REGISTRY],
  14: ['registry-key-rename', REGISTRY],
  15: ['file-stream-create', FILE],
  16: ['sysmon-config-changed', ['configuration']],
  17: ['pipe-create', PROCESS],
  18: ['pipe-connect', PROCESS],
  19: ['wmi-filter', ['configuration']],
  20: ['wmi-consumer', ['configuration']],
  21: ['wmi-binding', ['configuration']],
  22: ['dns-query', ['network']],
  23: ['file-delete', FILE],
  24: ['clipboard-change', ['process']],
  25: ['process-tampering', PROCESS],
  26: ['file-delete-detected', FILE],
  27: ['file-block-executable', FILE],
  28: ['file-block-shredding', FILE],
  29: ['file-executable-detected', FILE],
};

const SECURITY: Record<number, Kind> = {
  1102: ['audit-log-cleared', ['configuration']],
  4624: ['logon-success', AUTH, 'success'],
  4625: ['logon-failure', AUTH, 'failure'],
  4634: ['logoff', AUTH],
  4647: ['logoff', AUTH],
  4648: ['explicit-credential-logon', AUTH],
  4672: ['special-privileges-logon', AUTH],
  4688: ['process-create', PROCESS],
  4689: ['process-terminate', PROCESS],
  4697: ['service-install', ['configuration']],
  4698: ['scheduled-task-create', TASK],
  4699: ['scheduled-task-delete', TASK],
  4700: ['scheduled-task-enable', TASK],
  4701: ['scheduled-task-disable', TASK],
  4702: ['scheduled-task-update', TASK],
  4720: ['user-account-create', IAM],
  4722: ['user-account-enable', IAM],
  4724: ['password-reset', IAM],
  4725: ['user-account-disable', IAM],
  4726: ['user-account-delete', IAM],
  4728: ['group-member-add', IAM],
  4729: ['group-member-remove', IAM],
  4732: ['group-member-add', IAM],
  4733: ['group-member-remove', IAM],
  4740: ['user-account-lock', IAM],
  4756: ['group-member-add', IAM],
  4757: ['group-member-remove', IAM],
};

const SYSTEM: Record<number, Kind> = {
  104: ['log-cleared', ['configuration']],
  7045: ['service-install', ['configuration']],
};

/** Microsoft-Windows-TaskScheduler/Operational. */
const TASK_SCHEDULER: Record<number, Kind> = {
  106: ['scheduled-task-create', TASK],
  140: ['scheduled-task-update', TASK],
  141: ['scheduled-task-delete', TASK],
  142: ['scheduled-task-disable', TASK],
  200: ['scheduled-task-action-start', TASK],
};

const TABLES: Record<Family, Record<number, Kind>> = {
  sysmon: SYSMON,
  security: SECURITY,
  system: SYSTEM,
  taskscheduler: TASK_SCHEDULER,
  other: {},
};

const SYSMON_REGISTRY_ACTIONS: Record<string, string> = {
  CreateKey: 'registry-key-create',
  DeleteKey: 'registry-key-delete',
  CreateValue: 'registry-value-create',
  DeleteValue: 'registry-value-delete',
  SetValue: 'registry-value-set',
  RenameKey: 'registry-key-rename',
};

/** Sysmon events whose Hashes belong to the process image; for the others they are the file's. */
const SYSMON_PROCESS_HASHES = new Set([1, 5]);
/** Sysmon events whose ImageLoaded/TargetFilename is the file the event is about. */
const SYSMON_FILE_IMAGE = new Set([6, 7]);

/** `SHA1=…,MD5=…,SHA256=…,IMPHASH=…` (Sysmon Hashes); unknown or malformed parts are skipped. */
export function parseSysmonHashes(value: Scalar | undefined): FileHashes {
  const hashes = emptyHashes();
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
const dataString = (d: Map<string, Scalar>, name: string) => readString(d.get(name), name, NONE);
const dataPid = (d: Map<string, Scalar>, name: string) => readInteger(d.get(name), name, { hex: true });
const dataIp = (d: Map<string, Scalar>, name: string) => readIp(d.get(name), name, NONE);
const dataPort = (d: Map<string, Scalar>, name: string) => {
  const value = d.get(name);
  return value === '-' ? null : readPort(value, name);
};

/** Normalises a Windows event (Sysmon, Security, System and others) into the endpoint fields. */
export function normaliseWindows(record: WindowsRecord): WindowsFields {
  const family = familyOf(record);
  const id = record.eventId;
  const d = record.data;

  const kind = TABLES[family][id];
  let action = kind?.[0] ?? null;
  const eventType = dataString(d, 'EventType');
  if (family === 'sysmon' && id >= 12 && id <= 14 && eventType !== null) {
    action = SYSMON_REGISTRY_ACTIONS[eventType] ?? action;
  }

  // The process the event is about, and its parent.
  let executable =
    dataString(d, 'Image') ??
    dataString(d, 'NewProcessName') ??
    dataString(d, 'ProcessName') ??
    dataString(d, 'SourceImage');
  let processId =
    family === 'security' && id === 4688
      ? dataPid(d, 'NewProcessId')
      : (dataPid(d, 'ProcessId') ?? dataPid(d, 'SourceProcessId'));
  let parent = {
    pid: dataPid(d, 'ParentProcessId'),
    name: null as string | null,
    executable: dataString(d, 'ParentImage') ?? dataString(d, 'ParentProcessName'),
    command_line: dataString(d, 'ParentCommandLine'),
  };
  if (family === 'security' && id === 4688) {
    executable = dataString(d, 'NewProcessName');
    parent = { ...parent, pid: dataPid(d, 'ProcessId'), executable: dataString(d, 'ParentProcessName') };
  }
  // Scheduled-task events name the calling process by ClientProcessId (Windows 10 and later).
  processId ??= dataPid(d, 'ClientProcessId');
  parent.name = baseName(parent.executable);
  const processHashes =
    family === 'sysmon' && SYSMON_PROCESS_HASHES.has(id) ? parseSysmonHashes(d.get('Hashes')) : emptyHashes();

  // The file.
  let filePath = dataString(d, 'TargetFilename');
  if (family === 'sysmon' && SYSMON_FILE_IMAGE.has(id)) filePath = dataString(d, 'ImageLoaded');
  const fileHashes =
    family === 'sysmon' && !SYSMON_PROCESS_HASHES.has(id)
      ? parseSysmonHashes(d.get('Hashes') ?? d.get('Hash'))
      : emptyHashes();

  // Accounts: Sysmon's User runs the process; Security names a subject (who acted) and a target.
  const subject = { name: dataString(d, 'SubjectUserName'), domain: dataString(d, 'SubjectDomainName') };
  const target = { name: dataString(d, 'TargetUserName'), domain: dataString(d, 'TargetDomainName') };
  let user = splitAccount(dataString(d, 'User') ?? dataString(d, 'SourceUser'));
  let targetUser = { name: null as string | null, domain: null as string | null };
  let group = { name: null as string | null, domain: null as string | null };
  if (family === 'security') {
    const logon = id === 4624 || id === 4625 || id === 4634 || id === 4672;
    const membership = [4728, 4729, 4732, 4733, 4756, 4757].includes(id);
    if (logon) user = target.name !== null ? target : subject;
    else user = subject.name !== null ? subject : target;
    if (membership) {
      group = target;
      targetUser = { name: dataString(d, 'MemberName') ?? dataString(d, 'MemberSid'), domain: null };
    } else if (!logon && subject.name !== null && target.name !== null && id !== 4688) {
      targetUser = target;
    }
  }
  if (user.name === null && d.has('UserName')) user = splitAccount(dataString(d, 'UserName'));

  // Network: Sysmon 3, and the remote address of logons.
  const network = {
    src_ip: dataIp(d, 'SourceIp') ?? dataIp(d, 'IpAddress'),
    src_port: dataPort(d, 'SourcePort') ?? dataPort(d, 'IpPort'),
    dest_ip: dataIp(d, 'DestinationIp'),
    dest_port: dataPort(d, 'DestinationPort'),
    protocol: dataString(d, 'Protocol')?.toLowerCase() ?? null,
  };
  if (network.src_port === 0 && network.src_ip === null) network.src_port = null;

  // Registry: Sysmon 12, 13, 14.
  const registryPath = dataString(d, 'TargetObject');
  const isValue = eventType === 'SetValue' || eventType === 'CreateValue' || eventType === 'DeleteValue';
  const registry =
    registryPath === null
      ? null
      : {
          path: registryPath,
          ...splitRegistry(registryPath, isValue),
          data: dataString(d, 'Details') ?? dataString(d, 'NewName'),
        };

  const question = dataString(d, 'QueryName');
  return {
    host: { name: record.computer, ip: [], os: 'Windows' },
    event: {
      action,
      category: [...(kind?.[1] ?? [])],
      code: String(id),
      provider: record.provider,
      channel: record.channel,
      outcome: kind?.[2] ?? null,
    },
    process: nullIfEmpty({
      pid: processId,
      name: baseName(executable),
      executable,
      command_line: dataString(d, 'CommandLine'),
      entity_id: dataString(d, 'ProcessGuid') ?? dataString(d, 'SourceProcessGUID'),
      parent: nullIfEmpty(parent),
      hash: processHashes,
      user: dataString(d, 'User'),
    }),
    file: nullIfEmpty({ path: filePath, name: baseName(filePath), hash: fileHashes }),
    user: nullIfEmpty(user),
    target_user: nullIfEmpty(targetUser),
    group: nullIfEmpty(group),
    network: nullIfEmpty(network),
    registry,
    dns: question === null ? null : { question, answers: parseQueryResults(dataString(d, 'QueryResults')) },
  };
}

/** The data map as a plain record for `event_data`. */
export function dataRecord(data: Map<string, Scalar>): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [key, value] of data) {
    out[key] = typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  }
  return out;
}

/** Winlogbeat's `winlog` object (also what Elastic Agent ships), or null when absent or incomplete. */
export function readWinlog(record: JsonObject, timestamp: string): WindowsRecord | null {
  const winlog = record.winlog;
  if (!isObject(winlog)) return null;
  const eventId = readInteger(winlog.event_id, 'winlog.event_id', { max: 65_535 });
  if (eventId === null) return null;
  if (winlog.event_data !== undefined && winlog.event_data !== null && !isObject(winlog.event_data)) {
    throw new FieldError(`winlog.event_data must be an object, found ${describe(winlog.event_data)}`);
  }
  const data = flattenEventData(winlog.event_data);
  flattenEventData(winlog.user_data, data);
  return {
    timestamp,
    eventId,
    provider: readString(winlog.provider_name, 'winlog.provider_name'),
    channel: readString(winlog.channel, 'winlog.channel'),
    computer: readString(winlog.computer_name, 'winlog.computer_name'),
    data,
  };
}
