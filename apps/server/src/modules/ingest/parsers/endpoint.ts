import type { EndpointEvent } from '@vigil/contract';
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
import { dataRecord, evtxEvent, normaliseWindows, readEvtx, readWinlog, type WindowsFields } from './windows';

/*
 * Endpoint events, one JSON object per line, in either shape:
 *
 * ECS-like (Elastic Common Schema field names, nested or dotted keys):
 *   @timestamp (or timestamp)            required; ISO 8601 or epoch milliseconds
 *   host.name | host.hostname, host.ip (one or a list), host.os.full | name | family | platform
 *   event.action, event.category (one or a list), event.code, event.provider, event.outcome
 *   process.{pid, name, executable, command_line | args[], entity_id, hash.{md5,sha1,sha256}, user.name}
 *   process.parent.{pid, name, executable, command_line | args[]}
 *   file.{path, name, hash.*}, user.{name, domain}, user.target.{name, domain}, group.{name, domain}
 *   source.{ip, port} | network.{src_ip, src_port}, destination.{ip, port} | network.{dest_ip, dest_port}
 *   network.transport | network.protocol, registry.{path, hive, key, value, data.strings | data}
 *   dns.question.name, dns.answers[].data | dns.resolved_ip[]
 *   winlog.* (Winlogbeat): the Windows event is normalised too; ECS fields given win.
 *
 * Windows events exported from EVTX: {"Event": {"System": …, "EventData": …}} (see windows.ts).
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

/** One endpoint record (ECS-like or EVTX-JSON) → EndpointEvent; throws FieldError. */
export function normaliseEndpoint(record: JsonObject): EndpointEvent {
  const event = evtxEvent(record);
  if (event !== null) {
    const windows = readEvtx(event);
    return {
      timestamp: windows.timestamp,
      source_format: 'evtx',
      ...normaliseWindows(windows),
      event_data: dataRecord(windows.data),
      raw: record,
    };
  }
  const r = expandDottedKeys(record);
  const time = own(r, '@timestamp') ?? own(r, 'timestamp');
  const timestamp = readTimestamp(time, '@timestamp');
  if (timestamp === null) {
    throw new FieldError('missing timestamp (@timestamp); nor is it a Windows event ({"Event": {"System": …}})');
  }
  const ecs = readEcs(r);
  const windows = readWinlog(r, timestamp);
  return {
    timestamp,
    source_format: 'ecs',
    ...(windows === null ? ecs : merge(ecs, normaliseWindows(windows))),
    event_data: windows === null ? {} : dataRecord(windows.data),
    raw: record,
  };
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

/** command_line, or the args joined by spaces when only the list is given. */
function commandLine(process: JsonObject, path: 'process' | 'process.parent'): string | null {
  const line = text(
    process,
    'command_line',
    path === 'process' ? 'process.command_line' : 'process.parent.command_line',
  );
  if (line !== null) return line;
  const args = own(process, 'args');
  if (args === undefined || args === null) return null;
  const list = readStringList(args, `${path}.args`);
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
  return nullIfEmpty({ name: text(owner, 'name', `${path}.name`), domain: text(owner, 'domain', `${path}.domain`) });
}

/** The first of the values that is not null. */
function first(a: string | null, b: string | null, c: string | null = null, d: string | null = null): string | null {
  return a ?? b ?? c ?? d;
}

function readEcs(r: JsonObject): WindowsFields {
  // Logstash and some shippers write host as a plain name.
  const hostValue = own(r, 'host');
  const host = typeof hostValue === 'string' ? { name: hostValue } : child(r, 'host', 'host');
  const os = child(host, 'os', 'host.os');
  const event = child(r, 'event', 'event');
  const process = child(r, 'process', 'process');
  const parent = child(process, 'parent', 'process.parent');
  const file = child(r, 'file', 'file');
  const user = child(r, 'user', 'user');
  const source = child(r, 'source', 'source');
  const destination = child(r, 'destination', 'destination');
  const network = child(r, 'network', 'network');
  const registry = child(r, 'registry', 'registry');
  const dns = child(r, 'dns', 'dns');

  const executable = text(process, 'executable', 'process.executable');
  const parentExecutable = text(parent, 'executable', 'process.parent.executable');
  const filePath = text(file, 'path', 'file.path');
  const registryData = own(registry, 'data');
  const answers = own(dns, 'answers');
  if (answers !== undefined && answers !== null && !Array.isArray(answers)) {
    throw new FieldError(`dns.answers must be a list, found ${describe(answers)}`);
  }
  const dnsAnswers = [
    ...(answers ?? []).map((answer: unknown, i: number) =>
      readString(isObject(answer) ? answer.data : answer, `dns.answers[${i}].data`),
    ),
    ...ipList(own(dns, 'resolved_ip'), 'dns.resolved_ip'),
  ].filter((answer, i, all): answer is string => answer !== null && all.indexOf(answer) === i);

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
      action: text(event, 'action', 'event.action'),
      category: readStringList(own(event, 'category'), 'event.category'),
      code: text(event, 'code', 'event.code'),
      provider: text(event, 'provider', 'event.provider'),
      channel: text(child(r, 'winlog', 'winlog'), 'channel', 'winlog.channel'),
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
      }),
      hash: hashes(process, 'process'),
      user: text(child(process, 'user', 'process.user'), 'name', 'process.user.name'),
    }),
    file: nullIfEmpty({
      path: filePath,
      name: text(file, 'name', 'file.name') ?? baseName(filePath),
      hash: hashes(file, 'file'),
    }),
    user: account(user, 'user'),
    target_user: account(child(user, 'target', 'user.target'), 'user.target'),
    group: account(child(r, 'group', 'group'), 'group'),
    network: nullIfEmpty({
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
    registry: nullIfEmpty({
      path: text(registry, 'path', 'registry.path'),
      hive: text(registry, 'hive', 'registry.hive'),
      key: text(registry, 'key', 'registry.key'),
      value: text(registry, 'value', 'registry.value'),
      // ECS writes registry.data.strings as a list; a plain registry.data string is taken as it is.
      data: isObject(registryData)
        ? readStringList(own(registryData, 'strings'), 'registry.data.strings').join('\n') || null
        : readString(registryData, 'registry.data'),
    }),
    dns: nullIfEmpty({
      question: text(child(dns, 'question', 'dns.question'), 'name', 'dns.question.name'),
      answers: dnsAnswers,
    }),
  };
}
