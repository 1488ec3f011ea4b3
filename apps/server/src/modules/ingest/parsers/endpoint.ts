import type { EndpointEvent } from '@vigil/contract';
import { type LineParseOptions, type LineResult, parseJsonLine, parseJsonLines } from './lines';
import {
  FieldError,
  baseName,
  describe,
  get,
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
  const time = get(record, '@timestamp') ?? get(record, 'timestamp');
  const timestamp = readTimestamp(time, '@timestamp');
  if (timestamp === null) {
    throw new FieldError('missing timestamp (@timestamp); nor is it a Windows event ({"Event": {"System": …}})');
  }
  const ecs = readEcs(record);
  const windows = readWinlog(record, timestamp);
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

function text(record: JsonObject, path: string): string | null {
  return readString(get(record, path), path);
}

function firstText(record: JsonObject, ...paths: string[]): string | null {
  for (const path of paths) {
    const value = text(record, path);
    if (value !== null) return value;
  }
  return null;
}

/** command_line, or the args joined by spaces when only the list is given. */
function commandLine(record: JsonObject, prefix: string): string | null {
  const line = text(record, `${prefix}.command_line`);
  if (line !== null) return line;
  const args = readStringList(get(record, `${prefix}.args`), `${prefix}.args`);
  return args.length > 0 ? args.join(' ') : null;
}

function hashes(record: JsonObject, prefix: string) {
  return {
    md5: readHash(get(record, `${prefix}.md5`), 'md5', `${prefix}.md5`),
    sha1: readHash(get(record, `${prefix}.sha1`), 'sha1', `${prefix}.sha1`),
    sha256: readHash(get(record, `${prefix}.sha256`), 'sha256', `${prefix}.sha256`),
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

function readEcs(r: JsonObject): WindowsFields {
  const executable = text(r, 'process.executable');
  const parentExecutable = text(r, 'process.parent.executable');
  const filePath = text(r, 'file.path');
  const registryPath = text(r, 'registry.path');
  const registryStrings = get(r, 'registry.data.strings');
  const registryData = get(r, 'registry.data');
  const answers = get(r, 'dns.answers');
  if (answers !== undefined && answers !== null && !Array.isArray(answers)) {
    throw new FieldError(`dns.answers must be a list, found ${describe(answers)}`);
  }
  const question = text(r, 'dns.question.name');
  const dnsAnswers = [
    ...(answers ?? []).map((answer: unknown, i: number) =>
      readString(isObject(answer) ? answer.data : answer, `dns.answers[${i}].data`),
    ),
    ...ipList(get(r, 'dns.resolved_ip'), 'dns.resolved_ip'),
  ].filter((answer, i, all): answer is string => answer !== null && all.indexOf(answer) === i);

  return {
    host: {
      name: firstText(r, 'host.name', 'host.hostname'),
      ip: ipList(get(r, 'host.ip'), 'host.ip'),
      os: firstText(r, 'host.os.full', 'host.os.name', 'host.os.family', 'host.os.platform'),
    },
    event: {
      action: text(r, 'event.action'),
      category: readStringList(get(r, 'event.category'), 'event.category'),
      code: text(r, 'event.code'),
      provider: text(r, 'event.provider'),
      channel: text(r, 'winlog.channel'),
      outcome: text(r, 'event.outcome'),
    },
    process: nullIfEmpty({
      pid: readInteger(get(r, 'process.pid'), 'process.pid'),
      name: text(r, 'process.name') ?? baseName(executable),
      executable,
      command_line: commandLine(r, 'process'),
      entity_id: text(r, 'process.entity_id'),
      parent: nullIfEmpty({
        pid: readInteger(get(r, 'process.parent.pid'), 'process.parent.pid'),
        name: text(r, 'process.parent.name') ?? baseName(parentExecutable),
        executable: parentExecutable,
        command_line: commandLine(r, 'process.parent'),
      }),
      hash: hashes(r, 'process.hash'),
      user: text(r, 'process.user.name'),
    }),
    file: nullIfEmpty({
      path: filePath,
      name: text(r, 'file.name') ?? baseName(filePath),
      hash: hashes(r, 'file.hash'),
    }),
    user: nullIfEmpty({ name: text(r, 'user.name'), domain: text(r, 'user.domain') }),
    target_user: nullIfEmpty({ name: text(r, 'user.target.name'), domain: text(r, 'user.target.domain') }),
    group: nullIfEmpty({ name: text(r, 'group.name'), domain: text(r, 'group.domain') }),
    network: nullIfEmpty({
      src_ip: readIp(get(r, 'source.ip') ?? get(r, 'network.src_ip'), 'source.ip'),
      src_port: readPort(get(r, 'source.port') ?? get(r, 'network.src_port'), 'source.port'),
      dest_ip: readIp(get(r, 'destination.ip') ?? get(r, 'network.dest_ip'), 'destination.ip'),
      dest_port: readPort(get(r, 'destination.port') ?? get(r, 'network.dest_port'), 'destination.port'),
      protocol: firstText(r, 'network.transport', 'network.protocol')?.toLowerCase() ?? null,
    }),
    registry: nullIfEmpty({
      path: registryPath,
      hive: text(r, 'registry.hive'),
      key: text(r, 'registry.key'),
      value: text(r, 'registry.value'),
      // ECS writes registry.data.strings as a list; a plain registry.data string is taken as it is.
      data:
        registryStrings !== undefined
          ? readStringList(registryStrings, 'registry.data.strings').join('\n') || null
          : isObject(registryData)
            ? null
            : readString(registryData, 'registry.data'),
    }),
    dns: nullIfEmpty({ question, answers: dnsAnswers }),
  };
}
