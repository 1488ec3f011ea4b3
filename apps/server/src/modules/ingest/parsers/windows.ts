import type { EndpointEvent } from '@vigil/contract';
import { FieldError, describe, isObject, readInteger, readString, readTimestamp, type JsonObject } from './values';

/*
 * Windows events as JSON. Exporters differ in how they write XML attributes and text; all of
 * these are read:
 *   evtx_dump (omerbenamram/evtx)   {"Provider": {"#attributes": {"Name": …}}}, EventData as name → value
 *   xmltodict and similar           {"Provider": {"@Name": …}}, {"Data": [{"@Name": "Image", "#text": "…"}]}
 *   xml-js compact                  {"_attributes": {"Name": …}}, {"_text": …}
 *   plain objects                   {"Provider": {"Name": …}}, {"EventID": "4624"}
 *   Winlogbeat / Elastic Agent      winlog.{event_id, provider_name, channel, computer_name, event_data}
 *   flat (NXLog, HELK)              EventID, TimeCreated | EventTime | @timestamp, SourceName, Channel,
 *                                   Hostname and the EventData fields, all at the top level
 */

export type Scalar = string | number | boolean | null;

/** A Windows event reduced to what the normaliser needs, whatever shape it came in. */
export interface WindowsRecord {
  timestamp: string;
  eventId: number;
  provider: string | null;
  channel: string | null;
  computer: string | null;
  /**
   * EventData (or the fields of UserData's one element) by name. A value that is not text, a
   * number or a flag is kept as it came, so that reading it as a known field refuses the line.
   */
  data: Map<string, unknown>;
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

/** An XML element's text, or the element itself when it has none (so that reading it fails with its name). */
const valueOf = (node: unknown): unknown => textOf(node) ?? node;

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

function setData(into: Map<string, unknown>, name: string, value: unknown): void {
  if (value !== undefined && name !== '__proto__') into.set(name, value);
}

/** One `Data` element: named (`{"@Name": "Image", "#text": …}`) or not (classic events: Data1, Data2…). */
function addDataEntry(into: Map<string, unknown>, item: unknown, unnamed: { count: number }): void {
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
export function flattenEventData(node: unknown, into = new Map<string, unknown>()): Map<string, unknown> {
  const unnamed = { count: 0 };
  if (Array.isArray(node)) {
    for (const item of node) addDataEntry(into, item, unnamed);
  } else if (isObject(node)) {
    for (const key in node) {
      if (!Object.hasOwn(node, key) || isMarkup(key)) continue;
      const value = node[key];
      if (key !== 'Data') setData(into, key, valueOf(value));
      else if (Array.isArray(value)) for (const item of value) addDataEntry(into, item, unnamed);
      else addDataEntry(into, value, unnamed);
    }
  }
  return into;
}

/** UserData holds one element (LogFileCleared, Operation_ClientFailure…) whose children are the data. */
function flattenUserData(node: unknown, into: Map<string, unknown>): void {
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (!isMarkup(key) && isObject(value)) flattenEventData(value, into);
  }
}

/** `{"Event": {"System": …}}` or the bare `{"System": …}`; null when the record is neither. */
export function evtxEvent(record: JsonObject): JsonObject | null {
  if (Object.hasOwn(record, 'Event') && record.Event !== null && record.Event !== undefined) {
    if (!isObject(record.Event)) throw new FieldError(`Event must be an object, found ${describe(record.Event)}`);
    if (!isObject(record.Event.System)) {
      throw new FieldError(`Event.System must be an object, found ${describe(record.Event.System ?? null)}`);
    }
    return record.Event;
  }
  if (Object.hasOwn(record, 'System') && record.System !== null && record.System !== undefined) {
    if (!isObject(record.System)) throw new FieldError(`System must be an object, found ${describe(record.System)}`);
    return record;
  }
  return null;
}

/** Reads the System block and the data of an exported EVTX event. */
export function readEvtx(event: JsonObject): WindowsRecord {
  const system = event.System as JsonObject;
  const eventId = readInteger(valueOf(system.EventID), 'Event.System.EventID', { max: 65_535 });
  if (eventId === null) throw new FieldError('missing Event.System.EventID');
  const created = system.TimeCreated;
  const time = attributeOf(created, 'SystemTime') ?? valueOf(created);
  const timestamp = readTimestamp(time, 'Event.System.TimeCreated.SystemTime');
  if (timestamp === null) throw new FieldError('missing Event.System.TimeCreated.SystemTime');
  const provider = system.Provider;
  if (event.EventData !== undefined && event.EventData !== null && typeof event.EventData !== 'object') {
    throw new FieldError(`Event.EventData must be an object or a list, found ${describe(event.EventData)}`);
  }
  const data = flattenEventData(event.EventData);
  flattenUserData(event.UserData, data);
  return {
    timestamp,
    eventId,
    provider: readString(
      isObject(provider) ? (attributeOf(provider, 'Name') ?? attributeOf(provider, 'EventSourceName')) : provider,
      'Event.System.Provider.Name',
    ),
    channel: readString(valueOf(system.Channel), 'Event.System.Channel'),
    computer: readString(valueOf(system.Computer), 'Event.System.Computer'),
    data,
  };
}

/** Winlogbeat's `winlog` object (also what Elastic Agent ships), or null when absent or without an event id. */
export function readWinlog(record: JsonObject, timestamp: string): WindowsRecord | null {
  const winlog = Object.hasOwn(record, 'winlog') ? record.winlog : undefined;
  if (winlog === undefined || winlog === null) return null;
  if (!isObject(winlog)) throw new FieldError(`winlog must be an object, found ${describe(winlog)}`);
  const eventId = readInteger(winlog.event_id, 'winlog.event_id', { max: 65_535 });
  if (eventId === null) return null;
  for (const key of ['event_data', 'user_data'] as const) {
    const value = winlog[key];
    if (value !== undefined && value !== null && !isObject(value)) {
      throw new FieldError(`winlog.${key} must be an object, found ${describe(value)}`);
    }
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

/** Whether a record is flat Windows JSON: an `EventID` at the top level. */
export function isFlatWindows(record: JsonObject): boolean {
  return Object.hasOwn(record, 'EventID');
}

/** Keys of flat Windows JSON that describe the event rather than carry its data. */
const FLAT_SYSTEM_KEYS = new Set([
  'EventID',
  'TimeCreated',
  'EventTime',
  '@timestamp',
  '@version',
  'SourceName',
  'ProviderName',
  'ProviderGuid',
  'Channel',
  'Hostname',
  'Computer',
  'Message',
  'Task',
  'Level',
  'Keywords',
  'Opcode',
  'OpcodeValue',
  'Version',
  'RecordNumber',
  'EventRecordID',
  'ExecutionProcessID',
  'ExecutionThreadID',
  'ThreadID',
  'Severity',
  'SeverityValue',
  'EventReceivedTime',
  'SourceModuleName',
  'SourceModuleType',
]);

/** The first of these keys the record has (with a value), and its value. */
function firstOf(record: JsonObject, keys: readonly string[]): [string, unknown] | null {
  for (const key of keys) {
    if (Object.hasOwn(record, key) && record[key] !== null && record[key] !== '') return [key, record[key]];
  }
  return null;
}

/**
 * Flat Windows JSON, as NXLog (im_msvistalog with to_json) and HELK write it: the System fields
 * and the EventData fields side by side at the top level. Times without a zone are UTC.
 */
export function readFlat(record: JsonObject): WindowsRecord {
  const eventId = readInteger(record.EventID, 'EventID', { max: 65_535 });
  if (eventId === null) throw new FieldError('missing EventID');
  const time = firstOf(record, ['TimeCreated', 'EventTime', '@timestamp']);
  if (time === null) throw new FieldError('missing timestamp (TimeCreated, EventTime or @timestamp)');
  const timestamp = readTimestamp(time[1], time[0]);
  if (timestamp === null) throw new FieldError(`missing timestamp (${time[0]})`);
  const provider = firstOf(record, ['SourceName', 'ProviderName']);
  const computer = firstOf(record, ['Hostname', 'Computer']);
  const data = new Map<string, unknown>();
  for (const key in record) {
    if (Object.hasOwn(record, key) && !FLAT_SYSTEM_KEYS.has(key)) setData(data, key, record[key]);
  }
  return {
    timestamp,
    eventId,
    provider: provider === null ? null : readString(provider[1], provider[0]),
    channel: readString(record.Channel, 'Channel'),
    computer: computer === null ? null : readString(computer[1], computer[0]),
    data,
  };
}

/** The data map as a plain record for `event_data`: its text, numbers and flags (NUL made U+FFFD). */
export function dataRecord(data: Map<string, unknown>): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [key, value] of data) {
    if (typeof value === 'string') {
      out[key] = value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
    } else if (value === null || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}
