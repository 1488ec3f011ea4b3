import { describe, expect, it } from 'vitest';
import { parseEndpointLines } from './endpoint';
import * as samples from './fixtures/endpoint';
import { KNOWN_DATA_FIELDS } from './windows-fields';

/*
 * A known field of the wrong type refuses its line, with a reason that names the field, in every
 * endpoint shape: ECS, EVTX-JSON, Winlogbeat's winlog and flat Windows JSON.
 */

function reason(record: object): string {
  const [result] = parseEndpointLines(JSON.stringify(record));
  if (result === undefined || result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.reason;
}

/** A copy of `record` with `value` at a dotted path, making the objects on the way. */
function withValue(record: object, dotted: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(record) as Record<string, unknown>;
  const parts = dotted.split('.');
  let node = copy;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node = (typeof next === 'object' && next !== null && !Array.isArray(next) ? next : (node[part] = {})) as Record<
      string,
      unknown
    >;
  }
  node[parts[parts.length - 1]!] = value;
  return copy;
}

const ECS_TEXT = [
  'host.name',
  'host.hostname',
  'host.os.full',
  'host.os.name',
  'host.os.family',
  'host.os.platform',
  'event.action',
  'event.code',
  'event.provider',
  'event.outcome',
  'process.name',
  'process.executable',
  'process.command_line',
  'process.entity_id',
  'process.user.name',
  'process.pe.original_file_name',
  'process.Ext.token.integrity_level_name',
  'process.parent.name',
  'process.parent.executable',
  'process.parent.command_line',
  'process.parent.entity_id',
  'process.parent.user.name',
  'Target.process.name',
  'Target.process.executable',
  'Target.process.entity_id',
  'file.path',
  'file.name',
  'file.pe.original_file_name',
  'user.name',
  'user.domain',
  'user.target.name',
  'user.target.domain',
  'group.name',
  'group.domain',
  'network.transport',
  'network.protocol',
  'registry.path',
  'registry.hive',
  'registry.key',
  'registry.value',
  'dns.question.name',
  'winlog.channel',
  'winlog.logon.id',
];
const ECS_NUMBERS = ['process.pid', 'process.parent.pid', 'Target.process.pid', 'source.port', 'destination.port'];
const ECS_IPS = ['host.ip', 'source.ip', 'destination.ip'];
const ECS_HASHES = [
  'process.hash.md5',
  'process.hash.sha1',
  'process.hash.sha256',
  'file.hash.md5',
  'file.hash.sha256',
];
const ECS_GROUPS = [
  'host',
  'host.os',
  'event',
  'process',
  'process.parent',
  'process.parent.user',
  'process.user',
  'process.hash',
  'process.pe',
  'process.Ext',
  'process.Ext.token',
  'Target',
  'Target.process',
  'file',
  'file.hash',
  'file.pe',
  'user',
  'user.target',
  'group',
  'source',
  'destination',
  'network',
  'registry',
  'dns',
  'dns.question',
  'winlog',
  'winlog.logon',
];

describe('ECS: a known field of the wrong type refuses the line, naming the field', () => {
  it.each(ECS_TEXT)('%s given an object or a list', (field) => {
    expect(reason(withValue(samples.ECS_PROCESS, field, { first: 'j' }))).toBe(
      `line 1: ${field} must be text, found an object`,
    );
    expect(reason(withValue(samples.ECS_PROCESS, field, [{ first: 'j' }]))).toMatch(`line 1: ${field} must be text`);
  });

  it.each(ECS_NUMBERS)('%s given words', (field) => {
    expect(reason(withValue(samples.ECS_PROCESS, field, 'seven'))).toMatch(
      new RegExp(`^line 1: ${field.replaceAll('.', '\\.')} must be a whole number`),
    );
  });

  it.each(ECS_IPS)('%s given something else than an address', (field) => {
    expect(reason(withValue(samples.ECS_PROCESS, field, 'nope'))).toMatch(/is not an IP address \("nope"\)$/);
    expect(reason(withValue(samples.ECS_PROCESS, field, { ip: 1 }))).toMatch(/is not an IP address \(an object\)$/);
  });

  it.each(ECS_HASHES)('%s given something else than a digest', (field) => {
    expect(reason(withValue(samples.ECS_PROCESS, field, 'abc'))).toMatch(new RegExp(`^line 1: ${field} is not an`));
  });

  it.each(ECS_GROUPS)('%s given text instead of an object', (field) => {
    expect(reason(withValue(samples.ECS_PROCESS, field, 'notobj'))).toBe(
      `line 1: ${field} must be an object, found "notobj"`,
    );
  });

  it('lists, the time and the command line arguments', () => {
    expect(reason(withValue(samples.ECS_PROCESS, 'event.category', [{}]))).toBe(
      'line 1: event.category must be text, found an object',
    );
    expect(reason(withValue(samples.ECS_PROCESS, 'process.args', [['a']]))).toBe(
      'line 1: process.args must be text, found a list',
    );
    expect(reason(withValue(samples.ECS_DNS, 'dns.answers', 'x'))).toBe(
      'line 1: dns.answers must be a list, found "x"',
    );
    expect(reason(withValue(samples.ECS_PROCESS, '@timestamp', {}))).toMatch(/^line 1: @timestamp is not a timestamp/);
    expect(reason(withValue(samples.ECS_REGISTRY, 'registry.data.strings', [{}]))).toBe(
      'line 1: registry.data.strings must be text, found an object',
    );
  });
});

const FLAT_SYSMON = {
  EventID: 1,
  TimeCreated: '2020-10-23T02:36:43.547Z',
  SourceName: 'Microsoft-Windows-Sysmon',
  Channel: 'Microsoft-Windows-Sysmon/Operational',
  Hostname: 'WORKSTATION5',
  Image: 'C:\\Windows\\System32\\bitsadmin.exe',
  ProcessId: '9260',
};

describe('Windows shapes: a known field of the wrong type refuses the line, naming the field', () => {
  const names = [...KNOWN_DATA_FIELDS];

  it.each(names)('%s in EVTX EventData, Winlogbeat event_data and flat JSON', (name) => {
    const expected = `line 1: ${name} must be text or a number, found an object`;
    const evtx = structuredClone(samples.SYSMON_PROCESS_CREATE) as { Event: { EventData: Record<string, unknown> } };
    evtx.Event.EventData[name] = { bad: 1 };
    expect(reason(evtx)).toBe(expected);
    const winlog = structuredClone(samples.WINLOGBEAT_SYSMON) as { winlog: { event_data: Record<string, unknown> } };
    winlog.winlog.event_data[name] = { bad: 1 };
    expect(reason(winlog)).toBe(expected);
    expect(reason({ ...FLAT_SYSMON, [name]: { bad: 1 } })).toBe(expected);
    expect(reason({ ...FLAT_SYSMON, [name]: [{ bad: 1 }] })).toBe(
      `line 1: ${name} must be text or a number, found a list`,
    );
  });

  it('the System fields of EVTX-JSON', () => {
    const system = (key: string, value: unknown) => {
      const evtx = structuredClone(samples.SYSMON_FILE_CREATE) as { Event: { System: Record<string, unknown> } };
      evtx.Event.System[key] = value;
      return reason(evtx);
    };
    expect(system('EventID', { x: 1 })).toBe(
      'line 1: Event.System.EventID must be a whole number from 0 to 65535, found an object',
    );
    expect(system('Channel', { x: 1 })).toBe('line 1: Event.System.Channel must be text, found an object');
    expect(system('Computer', ['a', { b: 1 }])).toBe('line 1: Event.System.Computer must be text, found a list');
    expect(system('TimeCreated', { x: 1 })).toMatch(/^line 1: Event.System.TimeCreated.SystemTime is not a timestamp/);
    expect(reason({ Event: 'text' })).toBe('line 1: Event must be an object, found "text"');
    expect(reason({ Event: { EventData: {} } })).toBe('line 1: Event.System must be an object, found null');
    const data = structuredClone(samples.SYSMON_FILE_CREATE) as { Event: { EventData: unknown } };
    data.Event.EventData = 'text';
    expect(reason(data)).toBe('line 1: Event.EventData must be an object or a list, found "text"');
  });

  it("Winlogbeat's winlog", () => {
    expect(reason({ ...samples.WINLOGBEAT_SYSMON, winlog: 'text' })).toBe(
      'line 1: winlog must be an object, found "text"',
    );
    const winlog = (key: string, value: unknown) =>
      reason(withValue(samples.WINLOGBEAT_SYSMON, `winlog.${key}`, value));
    expect(winlog('event_id', 'one')).toMatch(/^line 1: winlog.event_id must be a whole number/);
    expect(winlog('event_data', 'text')).toBe('line 1: winlog.event_data must be an object, found "text"');
    expect(winlog('user_data', 7)).toBe('line 1: winlog.user_data must be an object, found 7');
    expect(winlog('provider_name', {})).toBe('line 1: winlog.provider_name must be text, found an object');
    expect(winlog('computer_name', [])).toBe('line 1: winlog.computer_name must be text, found a list');
  });

  it('the System fields of flat Windows JSON', () => {
    expect(reason({ ...FLAT_SYSMON, EventID: { id: 1 } })).toBe(
      'line 1: EventID must be a whole number from 0 to 65535, found an object',
    );
    expect(reason({ ...FLAT_SYSMON, TimeCreated: { t: 1 } })).toMatch(/^line 1: TimeCreated is not a timestamp/);
    for (const key of ['SourceName', 'Channel', 'Hostname']) {
      expect(reason({ ...FLAT_SYSMON, [key]: { x: 1 } })).toBe(`line 1: ${key} must be text, found an object`);
    }
    expect(reason({ ...FLAT_SYSMON, ProcessId: 'seven' })).toMatch(/^line 1: ProcessId must be a whole number/);
    expect(reason({ ...FLAT_SYSMON, EventID: 3, DestinationIp: '203.0.113' })).toBe(
      'line 1: DestinationIp is not an IP address ("203.0.113")',
    );
  });
});
