import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { endpointEventSchema, isEndpointAction, type EndpointEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { parseEndpointLines } from './endpoint';

/*
 * Flat Windows JSON (NXLog, HELK): EventID, TimeCreated, Hostname and the EventData fields at the
 * top level. Small lines written here, then the public OTRF Security-Datasets recordings when the
 * data folder is present beside the repository.
 */

function results(records: readonly (object | string)[]) {
  return parseEndpointLines(records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n'));
}

function one(record: object): EndpointEvent {
  const [result] = results([record]);
  if (result === undefined || !result.ok) throw new Error(`expected an event, got ${JSON.stringify(result)}`);
  expect(endpointEventSchema.parse(result.event)).toEqual(result.event);
  return result.event;
}

function reason(record: object | string): string {
  const [result] = results([record]);
  if (result === undefined || result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.reason;
}

const SECURITY = { SourceName: 'Microsoft-Windows-Security-Auditing', Channel: 'Security', Hostname: 'WORKSTATION5' };
const SYSMON = {
  SourceName: 'Microsoft-Windows-Sysmon',
  Channel: 'Microsoft-Windows-Sysmon/Operational',
  Hostname: 'WORKSTATION5',
};

describe('flat Windows JSON', () => {
  it('reads TimeCreated without a zone as UTC, and NXLog EventTime', () => {
    const event = one({
      ...SYSMON,
      EventID: 5,
      TimeCreated: '2020-10-19 12:28:35.974',
      ProcessId: '4',
      Image: 'System',
    });
    expect(event).toMatchObject({
      timestamp: '2020-10-19T12:28:35.974Z',
      source_format: 'nxlog',
      host: { name: 'WORKSTATION5', os: 'Windows' },
      event: { action: 'process-terminate', code: '5', channel: 'Microsoft-Windows-Sysmon/Operational' },
      process: { pid: 4, executable: 'System' },
    });
    expect(event.event_data).toEqual({ ProcessId: '4', Image: 'System' });
    expect(one({ ...SYSMON, EventID: 5, EventTime: '2020-10-19 12:28:35', Image: 'System' }).timestamp).toBe(
      '2020-10-19T12:28:35Z',
    );
  });

  it('reads Sysmon 10: the source process, the target process and the access granted', () => {
    const event = one({
      ...SYSMON,
      EventID: 10,
      TimeCreated: '2020-10-18T19:50:09.241Z',
      SourceProcessGUID: '{39e4a257-9c59-5f8c-6f0a-000000000700}',
      SourceProcessId: '5872',
      SourceImage: 'C:\\Windows\\System32\\rundll32.exe',
      TargetProcessGUID: '{39e4a257-f12b-5f8b-0c00-000000000700}',
      TargetProcessId: '684',
      TargetImage: 'C:\\windows\\system32\\lsass.exe',
      GrantedAccess: '0x1FFFFF',
      CallTrace: 'C:\\windows\\SYSTEM32\\ntdll.dll+9c584',
    });
    expect(event).toMatchObject({
      event: { action: 'process-access', category: ['process'] },
      process: { pid: 5872, name: 'rundll32.exe', entity_id: '{39e4a257-9c59-5f8c-6f0a-000000000700}' },
      target_process: {
        pid: 684,
        name: 'lsass.exe',
        executable: 'C:\\windows\\system32\\lsass.exe',
        entity_id: '{39e4a257-f12b-5f8b-0c00-000000000700}',
        granted_access: '0x1fffff',
      },
    });
  });

  it('reads 4688: the creator, the integrity level from the mandatory label, the logon session', () => {
    const event = one({
      ...SECURITY,
      EventID: 4688,
      TimeCreated: '2020-10-23T02:36:43.542Z',
      NewProcessId: '0x242c',
      NewProcessName: 'C:\\Windows\\System32\\bitsadmin.exe',
      ProcessId: '0x273c',
      ParentProcessName: 'C:\\Windows\\System32\\cmd.exe',
      CommandLine: 'bitsadmin.exe /transfer /Download',
      SubjectUserName: 'wardog',
      SubjectDomainName: 'WORKSTATION5',
      SubjectLogonId: '0xC61D9',
      TargetUserName: '-',
      TargetLogonId: '0x0',
      MandatoryLabel: 'S-1-16-12288',
    });
    expect(event).toMatchObject({
      event: { action: 'process-create' },
      process: {
        pid: 0x242c,
        name: 'bitsadmin.exe',
        integrity_level: 'High',
        parent: { pid: 0x273c, name: 'cmd.exe' },
      },
      user: { name: 'wardog', domain: 'WORKSTATION5', logon_id: '0xc61d9' },
    });
  });

  it('reads a 4656 on a process as access to that process, on a key as the key', () => {
    const base = {
      ...SECURITY,
      EventID: 4656,
      TimeCreated: '2020-10-18T19:50:09Z',
      ProcessName: 'C:\\Windows\\System32\\rundll32.exe',
      ProcessId: '0x16f0',
      SubjectUserName: 'wardog',
      SubjectLogonId: '0xc61d9',
      AccessMask: '0x1410',
    };
    expect(
      one({ ...base, ObjectType: 'Process', ObjectName: '\\Device\\HarddiskVolume2\\Windows\\System32\\lsass.exe' }),
    ).toMatchObject({
      event: { action: 'object-handle-request' },
      target_process: { name: 'lsass.exe', granted_access: '0x1410' },
    });
    expect(
      one({ ...base, ObjectType: 'Key', ObjectName: '\\REGISTRY\\MACHINE\\SYSTEM\\ControlSet001\\Control\\Lsa' }),
    ).toMatchObject({
      registry: { path: 'HKLM\\SYSTEM\\ControlSet001\\Control\\Lsa', hive: 'HKLM' },
      target_process: null,
    });
  });

  it('reads a Filtering Platform connection: the application, the addresses, the protocol by name', () => {
    expect(
      one({
        ...SECURITY,
        EventID: 5156,
        TimeCreated: '2020-10-23T02:36:43.764Z',
        Application: '\\device\\harddiskvolume2\\windows\\system32\\svchost.exe',
        ProcessID: '4584',
        SourceAddress: '192.168.2.5',
        SourcePort: '61628',
        DestAddress: '239.255.255.250',
        DestPort: '1900',
        Protocol: '17',
      }),
    ).toMatchObject({
      event: { action: 'network-connection', category: ['network'] },
      process: { pid: 4584, name: 'svchost.exe' },
      network: { src_ip: '192.168.2.5', src_port: 61628, dest_ip: '239.255.255.250', dest_port: 1900, protocol: 'udp' },
    });
  });

  it('refuses a flat line without its id or time, or with them unreadable, saying which', () => {
    expect(reason({ ...SYSMON, EventID: null, TimeCreated: '2020-10-19 12:28:35' })).toBe('line 1: missing EventID');
    expect(reason({ ...SYSMON, EventID: 'one', TimeCreated: '2020-10-19 12:28:35' })).toBe(
      'line 1: EventID must be a whole number from 0 to 65535, found "one"',
    );
    expect(reason({ ...SYSMON, EventID: 1 })).toBe('line 1: missing timestamp (TimeCreated, EventTime or @timestamp)');
    expect(reason({ ...SYSMON, EventID: 1, TimeCreated: 'yesterday' })).toMatch(
      /^line 1: TimeCreated is not a timestamp \("yesterday"\)/,
    );
  });
});

describe('a line of which only the time is read', () => {
  it('is refused with the reason in every shape, never stored empty', () => {
    const only = 'only a timestamp was recognised: no host, event, process, file, user, network, registry or DNS field';
    expect(reason({ '@timestamp': '2024-03-12T14:12:45Z' })).toBe(`line 1: ${only}`);
    expect(reason({ '@timestamp': '2024-03-12T14:12:45Z', message: 'x', event: {}, process: { hash: {} } })).toBe(
      `line 1: ${only}`,
    );
    expect(reason({ timestamp: 1_710_252_765_000, host: { ip: [] }, user: { name: '' } })).toBe(`line 1: ${only}`);
    // One field is enough to be searched by.
    expect(one({ '@timestamp': '2024-03-12T14:12:45Z', host: { name: 'web-01' } }).host.name).toBe('web-01');
  });
});

// The public OTRF Security-Datasets recordings, beside the repository when shared data is present.
const OTRF = path.resolve(import.meta.dirname, '../../../../../../../shared/data/endpoint/otrf');

type Flat = Record<string, unknown>;

/** What an event of this id must carry, given what its line holds: each missing field is named. */
function missingFields(record: Flat, event: EndpointEvent): string[] {
  const missing: string[] = [];
  const need = (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '') missing.push(field);
  };
  const has = (key: string) => typeof record[key] === 'string' && record[key] !== '-' && record[key] !== '';
  const id = record.EventID as number;
  const sysmon = String(record.Channel).includes('Sysmon');
  need('host.name', event.host.name);
  expect(event.event.code).toBe(String(id));
  const executables = ['Image', 'SourceImage', 'NewProcessName', 'ProcessName', 'CallerProcessName', 'Application'];
  const process = () => {
    need('process.pid', event.process?.pid);
    if (executables.some(has)) need('process.executable', event.process?.executable);
  };
  if (sysmon) {
    if (id !== 4 && id !== 16) {
      process();
      need('process.entity_id', event.process?.entity_id);
    }
    if (id === 1) {
      need('process.command_line', event.process?.command_line);
      need('process.hash.sha256', event.process?.hash.sha256);
      need('process.integrity_level', event.process?.integrity_level);
      need('process.original_file_name', event.process?.original_file_name);
      need('process.parent.executable', event.process?.parent?.executable);
      need('process.parent.pid', event.process?.parent?.pid);
      need('process.parent.entity_id', event.process?.parent?.entity_id);
      need('user.name', event.user?.name);
      need('user.logon_id', event.user?.logon_id);
    }
    if (id === 3) {
      need('network.src_ip', event.network?.src_ip);
      need('network.dest_ip', event.network?.dest_ip);
      need('network.dest_port', event.network?.dest_port);
      need('network.protocol', event.network?.protocol);
    }
    if ([7, 9, 11, 18, 23].includes(id)) need('file.path', event.file?.path);
    if (id === 7 && has('Hashes')) need('file.hash.sha256', event.file?.hash.sha256);
    if (id === 7 && has('OriginalFileName')) need('file.original_file_name', event.file?.original_file_name);
    if (id === 10) {
      need('target_process.pid', event.target_process?.pid);
      need('target_process.executable', event.target_process?.executable);
      need('target_process.granted_access', event.target_process?.granted_access);
    }
    if (id === 12 || id === 13) need('registry.path', event.registry?.path);
    if (id === 13) need('registry.data', event.registry?.data);
    if (id === 22) need('dns.question', event.dns?.question);
  } else if (record.Channel === 'Security') {
    if (id >= 4600 && id < 5000 && ![4624, 4627, 4672].includes(id)) process();
    if (id >= 4600 && id < 5000) need('user.name', event.user?.name);
    if (has('SubjectLogonId') && record.SubjectLogonId !== '0x0') need('user.logon_id', event.user?.logon_id);
    if (id === 4688) {
      need('process.command_line', event.process?.command_line);
      need('process.parent.executable', event.process?.parent?.executable);
      need('process.integrity_level', event.process?.integrity_level);
    }
    if (id === 4799) need('group.name', event.group?.name);
    if ((id === 4656 || id === 4663) && record.ObjectType === 'Key') need('registry.path', event.registry?.path);
    if ((id === 4656 || id === 4663) && record.ObjectType === 'Process') {
      need('target_process.executable', event.target_process?.executable);
    }
    if (id === 5156 || id === 5158) {
      process();
      need('network.src_ip', event.network?.src_ip);
      need('network.protocol', event.network?.protocol);
    }
    if (id === 5156) need('network.dest_ip', event.network?.dest_ip);
  }
  // Every event of these logs has an action of the vocabulary, but the NTFS health event of the System log.
  if (record.SourceName !== 'Microsoft-Windows-Ntfs') {
    if (!isEndpointAction(event.event.action)) missing.push('event.action');
  }
  return missing;
}

describe.skipIf(!existsSync(OTRF))('OTRF Security-Datasets recordings (flat Windows JSON)', () => {
  const files = existsSync(OTRF) ? readdirSync(OTRF).filter((f) => f.endsWith('.json')) : [];
  // Lines per file: all accepted, none refused.
  const expected: Record<string, { accepted: number; refused: Record<string, number> }> = {
    'cmd_bitsadmin_download_psh_script_2020-10-2302365189.json': { accepted: 424, refused: {} },
    'cmd_sam_copy_esentutl_2020-10-1900290001.json': { accepted: 915, refused: {} },
    'psh_lsass_memory_dump_comsvcs_2020-10-18T19500924.json': { accepted: 184, refused: {} },
  };

  it('finds the three recordings', () => {
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(files)('%s: every line normalised with the fields its EventID implies, or refused with a reason', (file) => {
    const text = readFileSync(path.join(OTRF, file), 'utf8');
    const lines = text.split('\n');
    const parsed = parseEndpointLines(text);
    expect(parsed).toHaveLength(lines.filter((line) => line.trim() !== '').length);
    let accepted = 0;
    const refused: Record<string, number> = {};
    const incomplete: string[] = [];
    for (const result of parsed) {
      if (!result.ok) {
        const why = result.reason.replace(/^line \d+: /, '');
        refused[why] = (refused[why] ?? 0) + 1;
        continue;
      }
      accepted++;
      endpointEventSchema.parse(result.event);
      const record = JSON.parse(lines[result.line - 1]!) as Flat;
      expect(result.event.source_format).toBe('nxlog');
      const missing = missingFields(record, result.event);
      if (missing.length > 0) incomplete.push(`line ${result.line} (${record.Channel} ${record.EventID}): ${missing}`);
    }
    expect(incomplete).toEqual([]);
    expect({ accepted, refused }).toEqual(expected[file]);
  });
});
