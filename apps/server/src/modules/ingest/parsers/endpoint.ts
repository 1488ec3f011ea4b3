import { ACTION_CATEGORIES, ACTION_OUTCOMES, WINDOWS_ACTIONS, ecsAction, windowsFamily } from './actions';
import { isEndpointAction, type EndpointAction, type EndpointEvent } from '@vigil/contract';
import { type LineParseOptions, type LineResult, parseJsonLine, parseJsonLines } from './lines';
import {
  FieldError,
  baseName,
  describe,
  expandDottedKeys,
  isObject,
  nullIfEmpty,
  readHash,
  readInteger,
  readIp,
  readPort,
  readString,
  readStringList,
  readTimestamp,
  type JsonObject,
} from './values';
import {
  dataRecord,
  evtxEvent,
  isFlatWindows,
  readEvtx,
  readFlat,
  readWinlog,
  type WindowsFields,
  type WindowsRecord,
} from './windows';
import { normaliseWindows } from './windows-fields';

/*
 * Endpoint events, one JSON object per line, in any of three shapes:
 *
 * ECS-like (Elastic Common Schema field names, nested or dotted keys):
 *   @timestamp (or timestamp)            required; ISO 8601 or epoch milliseconds
 *   host.name | host.hostname, host.ip (one or a list), host.os.full | name | family | platform
 *   event.action, event.category (one or a list), event.code, event.provider, event.outcome
 *   process.{pid, name, executable, command_line | args[], entity_id, hash.{md5,sha1,sha256}, user.name,
 *            pe.original_file_name, Ext.token.integrity_level_name}
 *   process.parent.{pid, name, executable, command_line | args[], entity_id, user.name}
 *   Target.process.{pid, name, executable, entity_id} (Elastic Defend: the process acted upon)
 *   file.{path, name, hash.*, pe.original_file_name}, user.{name, domain}, user.target.{name, domain},
 *   group.{name, domain}, source.{ip, port} | network.{src_ip, src_port},
 *   destination.{ip, port} | network.{dest_ip, dest_port}, network.transport | network.protocol,
 *   registry.{path, hive, key, value, data.strings | data}, dns.question.name,
 *   dns.answers[].data | dns.resolved_ip[], winlog.logon.id
 *   winlog.* (Winlogbeat): the Windows event is normalised too; ECS fields given win.
 *
 * Windows events exported from EVTX: {"Event": {"System": …, "EventData": …}} (see windows.ts).
 *
 * Flat Windows JSON (NXLog, HELK): EventID, TimeCreated | EventTime | @timestamp, SourceName,
 * Channel, Hostname and the EventData fields at the top level (see windows.ts).
 *
 * Every shape's action is one name of the vocabulary (actions.ts); an ECS sender's own word stays in
 * event.shipper_action. A known field of the wrong type refuses the line, naming the field; so does
 * a line of which nothing but its time could be read.
 */

/** Parses endpoint events, one JSON object per line. Never throws. */
export function parseEndpointLines(
  body: string | Uint8Array,
  options: LineParseOptions = {},
): LineResult<EndpointEvent>[] {
  return parseJsonLines(body, options, normaliseEndpoint);
}

/** Parses one endpoint line (without its line break). Never throws. */
export function parseEndpointLine(text: string, line: number): LineResult<EndpointEvent> {
  return parseJsonLine(text, line, normaliseEndpoint);
}

/** One endpoint record (ECS-like, EVTX-JSON or flat Windows JSON) → EndpointEvent; throws FieldError. */
export function normaliseEndpoint(record: JsonObject): EndpointEvent {
  const event = evtxEvent(record);
  const normalised =
    event !== null
      ? fromWindows('evtx', readEvtx(event), record)
      : isFlatWindows(record)
        ? fromWindows('nxlog', readFlat(record), record)
        : normaliseEcs(record);
  if (onlyTime(normalised)) {
    throw new FieldError(
      'only a timestamp was recognised: no host, event, process, file, user, network, registry or DNS field',
    );
  }
  return normalised;
}

function fromWindows(format: 'evtx' | 'nxlog', windows: WindowsRecord, record: JsonObject): EndpointEvent {
  return {
    timestamp: windows.timestamp,
    source_format: format,
    ...normaliseWindows(windows),
    event_data: dataRecord(windows.data),
    raw: record,
  };
}

function normaliseEcs(record: JsonObject): EndpointEvent {
  const r = expandDottedKeys(record);
  const timeKey = own(r, '@timestamp') !== undefined || own(r, 'timestamp') === undefined ? '@timestamp' : 'timestamp';
  const timestamp = readTimestamp(own(r, timeKey), timeKey);
  if (timestamp === null) {
    throw new FieldError(
      'missing timestamp (@timestamp); nor is it a Windows event ({"Event": {"System": …}}, or flat with EventID)',
    );
  }
  const ecs = readEcs(r);
  const shipperAction = ecs.event.action;
  const windows = readWinlog(r, timestamp);
  const fromWinlog = windows === null ? null : normaliseWindows(windows);
  const fields = fromWinlog === null ? ecs : merge(ecs, fromWinlog);
  // This runs for every ECS event: the event group is completed in place rather than copied.
  const event = fields.event;
  const action = vocabularyAction(ecs, fromWinlog?.event.action ?? null);
  event.action = action;
  event.shipper_action = shipperAction;
  if (action !== null) {
    if (event.category.length === 0) event.category = [...ACTION_CATEGORIES[action]];
    event.outcome ??= ACTION_OUTCOMES[action] ?? null;
  }
  return {
    timestamp,
    source_format: 'ecs',
    host: fields.host,
    event,
    process: fields.process,
    target_process: fields.target_process,
    file: fields.file,
    user: fields.user,
    target_user: fields.target_user,
    group: fields.group,
    network: fields.network,
    registry: fields.registry,
    dns: fields.dns,
    event_data: windows === null ? {} : dataRecord(windows.data),
    raw: record,
  };
}

/**
 * The vocabulary's action of an ECS record: the Windows event's when Winlogbeat sent one (by
 * winlog.event_id, else by event.code from a Windows provider), else the sender's own word mapped.
 */
function vocabularyAction(ecs: WindowsFields, windowsAction: string | null): EndpointAction | null {
  if (windowsAction !== null && isEndpointAction(windowsAction)) return windowsAction;
  const family = windowsFamily(ecs.event.provider, ecs.event.channel);
  const code = ecs.event.code;
  if (family !== null && code !== null && /^\d{1,5}$/.test(code)) {
    const byCode = WINDOWS_ACTIONS[family][Number(code)];
    if (byCode !== undefined) return byCode;
  }
  const own = ecs.event.action;
  return own === null ? null : ecsAction(own, ecs.event.category, ecs.event.outcome);
}

/** Whether nothing but the time of an event was read (groups of nothing are null already). */
function onlyTime(e: EndpointEvent): boolean {
  const { host, event } = e;
  return (
    host.name === null &&
    host.ip.length === 0 &&
    host.os === null &&
    event.action === null &&
    event.shipper_action === null &&
    event.category.length === 0 &&
    event.code === null &&
    event.provider === null &&
    event.channel === null &&
    event.outcome === null &&
    e.process === null &&
    e.target_process === null &&
    e.file === null &&
    e.user === null &&
    e.target_user === null &&
    e.group === null &&
    e.network === null &&
    e.registry === null &&
    e.dns === null
  );
}

/** The fields of `winner` where it has them, of `other` where it does not; groups merged field by field. */
function merge<T>(winner: T, other: T): T {
  if (winner === null || winner === undefined) return other;
  if (other === null || other === undefined) return winner;
  if (Array.isArray(winner)) return (winner.length > 0 ? winner : other) as T;
  if (isObject(winner) && isObject(other)) {
    const out: JsonObject = {};
    for (const key of Object.keys(winner)) out[key] = merge(winner[key], other[key]);
    return out as T;
  }
  return winner;
}

const EMPTY: JsonObject = Object.freeze({});

/** The object under `key` (or an empty one); present but not an object is an error. */
function child(parent: JsonObject, key: string, path: string): JsonObject {
  const value = Object.hasOwn(parent, key) ? parent[key] : undefined;
  if (value === undefined || value === null) return EMPTY;
  if (!isObject(value)) throw new FieldError(`${path} must be an object, found ${describe(value)}`);
  return value;
}

function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function text(obj: JsonObject, key: string, path: string): string | null {
  return readString(own(obj, key), path);
}

/** command_line, or the args joined by spaces when only the list is given (the list is checked either way). */
function commandLine(process: JsonObject, path: 'process' | 'process.parent'): string | null {
  const line = text(
    process,
    'command_line',
    path === 'process' ? 'process.command_line' : 'process.parent.command_line',
  );
  const args = own(process, 'args');
  const list = args === undefined || args === null ? [] : readStringList(args, `${path}.args`);
  if (line !== null) return line;
  return list.length > 0 ? list.join(' ') : null;
}

/** Field names of the hash groups, made once rather than for every event. */
const hashFields = Object.fromEntries(
  ['process', 'file'].map((path) => [
    path,
    { hash: `${path}.hash`, md5: `${path}.hash.md5`, sha1: `${path}.hash.sha1`, sha256: `${path}.hash.sha256` },
  ]),
) as Record<'process' | 'file', { hash: string; md5: string; sha1: string; sha256: string }>;

function hashes(owner: JsonObject, path: 'process' | 'file') {
  const fields = hashFields[path];
  const hash = child(owner, 'hash', fields.hash);
  return {
    md5: readHash(own(hash, 'md5'), 'md5', fields.md5),
    sha1: readHash(own(hash, 'sha1'), 'sha1', fields.sha1),
    sha256: readHash(own(hash, 'sha256'), 'sha256', fields.sha256),
  };
}

function ipList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  items.forEach((item, i) => {
    const ip = readIp(item, Array.isArray(value) ? `${field}[${i}]` : field);
    if (ip !== null && !out.includes(ip)) out.push(ip);
  });
  return out;
}

function account(owner: JsonObject, path: string) {
  return { name: text(owner, 'name', `${path}.name`), domain: text(owner, 'domain', `${path}.domain`) };
}

/** An account group, or null when the record has none. */
function accountOf(owner: JsonObject, path: string) {
  return owner === EMPTY ? null : nullIfEmpty(account(owner, path));
}

/** The first of the values that is not null. */
function first(a: string | null, b: string | null, c: string | null = null, d: string | null = null): string | null {
  return a ?? b ?? c ?? d;
}

/** Elastic writes integrity levels in lower case (`high`); Windows and Sysmon capitalise them. */
function capitalised(value: string | null): string | null {
  return value === null ? null : value.charAt(0).toUpperCase() + value.slice(1);
}

function readEcs(r: JsonObject): WindowsFields {
  const host = child(r, 'host', 'host');
  const os = child(host, 'os', 'host.os');
  const event = child(r, 'event', 'event');
  const process = child(r, 'process', 'process');
  const parent = child(process, 'parent', 'process.parent');
  const target = child(child(r, 'Target', 'Target'), 'process', 'Target.process');
  const file = child(r, 'file', 'file');
  const user = child(r, 'user', 'user');
  const source = child(r, 'source', 'source');
  const destination = child(r, 'destination', 'destination');
  const network = child(r, 'network', 'network');
  const registry = child(r, 'registry', 'registry');
  const dns = child(r, 'dns', 'dns');
  const winlog = child(r, 'winlog', 'winlog');
  const token = child(child(process, 'Ext', 'process.Ext'), 'token', 'process.Ext.token');

  const executable = text(process, 'executable', 'process.executable');
  const parentExecutable = text(parent, 'executable', 'process.parent.executable');
  const targetExecutable = text(target, 'executable', 'Target.process.executable');
  const filePath = text(file, 'path', 'file.path');
  const registryData = own(registry, 'data');
  const answers = own(dns, 'answers');
  if (answers !== undefined && answers !== null && !Array.isArray(answers)) {
    throw new FieldError(`dns.answers must be a list, found ${describe(answers)}`);
  }
  const dnsAnswers = [
    ...(answers ?? []).map((answer: unknown, i: number) =>
      readString(isObject(answer) ? own(answer, 'data') : answer, `dns.answers[${i}].data`),
    ),
    ...ipList(own(dns, 'resolved_ip'), 'dns.resolved_ip'),
  ].filter((answer, i, all): answer is string => answer !== null && all.indexOf(answer) === i);
  const logonId = text(child(winlog, 'logon', 'winlog.logon'), 'id', 'winlog.logon.id');

  return {
    host: {
      name: first(text(host, 'name', 'host.name'), text(host, 'hostname', 'host.hostname')),
      ip: ipList(own(host, 'ip'), 'host.ip'),
      os: first(
        text(os, 'full', 'host.os.full'),
        text(os, 'name', 'host.os.name'),
        text(os, 'family', 'host.os.family'),
        text(os, 'platform', 'host.os.platform'),
      ),
    },
    event: {
      // The sender's own word; normaliseEcs puts the vocabulary's here and this in shipper_action.
      action: text(event, 'action', 'event.action'),
      shipper_action: null,
      category: readStringList(own(event, 'category'), 'event.category'),
      code: text(event, 'code', 'event.code'),
      provider: text(event, 'provider', 'event.provider'),
      channel: text(winlog, 'channel', 'winlog.channel'),
      outcome: text(event, 'outcome', 'event.outcome'),
    },
    process: nullIfEmpty({
      pid: readInteger(own(process, 'pid'), 'process.pid'),
      name: text(process, 'name', 'process.name') ?? baseName(executable),
      executable,
      command_line: commandLine(process, 'process'),
      entity_id: text(process, 'entity_id', 'process.entity_id'),
      parent: nullIfEmpty({
        pid: readInteger(own(parent, 'pid'), 'process.parent.pid'),
        name: text(parent, 'name', 'process.parent.name') ?? baseName(parentExecutable),
        executable: parentExecutable,
        command_line: commandLine(parent, 'process.parent'),
        entity_id: text(parent, 'entity_id', 'process.parent.entity_id'),
        user: text(child(parent, 'user', 'process.parent.user'), 'name', 'process.parent.user.name'),
      }),
      hash: hashes(process, 'process'),
      user: text(child(process, 'user', 'process.user'), 'name', 'process.user.name'),
      original_file_name: text(
        child(process, 'pe', 'process.pe'),
        'original_file_name',
        'process.pe.original_file_name',
      ),
      integrity_level: capitalised(text(token, 'integrity_level_name', 'process.Ext.token.integrity_level_name')),
    }),
    // Most events act on no process: nothing to read then.
    target_process:
      target === EMPTY
        ? null
        : nullIfEmpty({
            pid: readInteger(own(target, 'pid'), 'Target.process.pid'),
            name: text(target, 'name', 'Target.process.name') ?? baseName(targetExecutable),
            executable: targetExecutable,
            entity_id: text(target, 'entity_id', 'Target.process.entity_id'),
            granted_access: null,
          }),
    // Groups the record does not have are null at once: most events have only a few.
    file:
      file === EMPTY
        ? null
        : nullIfEmpty({
            path: filePath,
            name: text(file, 'name', 'file.name') ?? baseName(filePath),
            hash: hashes(file, 'file'),
            original_file_name: text(child(file, 'pe', 'file.pe'), 'original_file_name', 'file.pe.original_file_name'),
          }),
    user: nullIfEmpty({
      ...account(user, 'user'),
      logon_id: logonId === null ? null : logonId.toLowerCase(),
    }),
    target_user: accountOf(child(user, 'target', 'user.target'), 'user.target'),
    group: accountOf(child(r, 'group', 'group'), 'group'),
    network:
      source === EMPTY && destination === EMPTY && network === EMPTY
        ? null
        : nullIfEmpty({
            src_ip: readIp(own(source, 'ip') ?? own(network, 'src_ip'), 'source.ip'),
            src_port: readPort(own(source, 'port') ?? own(network, 'src_port'), 'source.port'),
            dest_ip: readIp(own(destination, 'ip') ?? own(network, 'dest_ip'), 'destination.ip'),
            dest_port: readPort(own(destination, 'port') ?? own(network, 'dest_port'), 'destination.port'),
            protocol:
              first(
                text(network, 'transport', 'network.transport'),
                text(network, 'protocol', 'network.protocol'),
              )?.toLowerCase() ?? null,
          }),
    registry:
      registry === EMPTY
        ? null
        : nullIfEmpty({
            path: text(registry, 'path', 'registry.path'),
            hive: text(registry, 'hive', 'registry.hive'),
            key: text(registry, 'key', 'registry.key'),
            value: text(registry, 'value', 'registry.value'),
            // ECS writes registry.data.strings as a list; a plain registry.data string is taken as it is.
            data: isObject(registryData)
              ? readStringList(own(registryData, 'strings'), 'registry.data.strings').join('\n') || null
              : readString(registryData, 'registry.data'),
          }),
    dns:
      dns === EMPTY
        ? null
        : nullIfEmpty({
            question: text(child(dns, 'question', 'dns.question'), 'name', 'dns.question.name'),
            answers: dnsAnswers,
          }),
  };
}
