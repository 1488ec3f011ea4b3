import { readFileSync } from 'node:fs';
import path from 'node:path';
import { endpointActions, type EndpointEvent } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { ACTION_CATEGORIES, ECS_ACTIONS, FAMILY_NAMES, WINDOWS_ACTIONS, type WindowsFamily } from './actions';
import { parseEndpointLines } from './endpoint';
import * as samples from './fixtures/endpoint';
import { KNOWN_DATA_FIELDS } from './windows-fields';

const ROOT = path.resolve(import.meta.dirname, '../../../../../..');

function one(record: object): EndpointEvent {
  const [result] = parseEndpointLines(JSON.stringify(record));
  if (result === undefined || !result.ok) throw new Error(`expected an event, got ${JSON.stringify(result)}`);
  return result.event;
}

/** The rows of the Markdown tables that follow a heading, as cells without backticks. */
function tableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = markdown.indexOf('\n## ', start + 4);
  return markdown
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[ -]+\|/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
}

/** A Sysmon process creation as flat Windows JSON (NXLog, HELK): the EVTX sample's fields at the top level. */
function flatSysmonProcessCreate(): object {
  const { Event } = samples.SYSMON_PROCESS_CREATE as unknown as { Event: { EventData: Record<string, unknown> } };
  return {
    ...Event.EventData,
    EventID: 1,
    TimeCreated: '2024-03-12 14:12:45.118342',
    SourceName: 'Microsoft-Windows-Sysmon',
    Channel: 'Microsoft-Windows-Sysmon/Operational',
    Hostname: 'WS-FIN-07.corp.example',
    Message: 'Process Create: …',
  };
}

describe('one action vocabulary', () => {
  it('names a Sysmon process creation process-create from EVTX-JSON, Winlogbeat and flat Windows JSON alike', () => {
    const evtx = one(samples.SYSMON_PROCESS_CREATE);
    const winlogbeat = one(samples.WINLOGBEAT_SYSMON);
    const flat = one(flatSysmonProcessCreate());
    for (const event of [evtx, winlogbeat, flat]) {
      expect(event.event).toMatchObject({ action: 'process-create', category: ['process'], code: '1' });
      expect(event.process).toMatchObject({ pid: 7312, name: 'powershell.exe' });
    }
    // The shipper's own word is kept; EVTX and flat JSON carry none.
    expect(winlogbeat.event.shipper_action).toBe('Process Create (rule: ProcessCreate)');
    expect(evtx.event.shipper_action).toBeNull();
    expect(flat.event.shipper_action).toBeNull();
    expect(flat.source_format).toBe('nxlog');
    // Everything the EVTX record says, the flat record says too.
    const { source_format: _a, raw: _b, event_data: _c, ...fromEvtx } = evtx;
    const { source_format: _d, raw: _e, event_data: _f, ...fromFlat } = flat;
    expect(fromFlat).toEqual(fromEvtx);
  });

  it('names 4688 process-create from EVTX-JSON and from Winlogbeat Security ("created-process")', () => {
    expect(one(samples.SECURITY_PROCESS_CREATE).event.action).toBe('process-create');
    const ecs = one({
      '@timestamp': '2024-03-12T14:13:02.000Z',
      host: { name: 'WS-FIN-07' },
      event: { code: '4688', provider: 'Microsoft-Windows-Security-Auditing', action: 'created-process' },
      process: { pid: 7312, executable: 'C:\\Windows\\System32\\cmd.exe' },
    });
    expect(ecs.event).toMatchObject({ action: 'process-create', shipper_action: 'created-process' });
    // Without a Windows provider the sender's word alone decides.
    const plain = one({
      '@timestamp': '2024-03-12T14:13:02Z',
      host: { name: 'h' },
      event: { action: 'created-process' },
    });
    expect(plain.event).toMatchObject({ action: 'process-create', category: ['process'] });
  });

  it('maps Elastic and Auditbeat words by category and outcome, and leaves unknown words out of the vocabulary', () => {
    const at = '2024-03-12T14:13:02Z';
    const action = (event: object) => one({ '@timestamp': at, host: { name: 'h' }, event }).event.action;
    expect(action({ action: 'creation', category: ['file'] })).toBe('file-create');
    expect(action({ action: 'creation', category: ['registry'] })).toBe('registry-key-create');
    expect(action({ action: 'log_on', category: ['authentication'], outcome: 'failure' })).toBe('logon-failure');
    expect(action({ action: 'log_on', category: ['authentication'], outcome: 'success' })).toBe('logon-success');
    expect(action({ action: 'Process Creation' })).toBe('process-create');
    expect(action({ action: 'file-create' })).toBe('file-create');
    expect(action({ action: 'connection-attempted' })).toBe('network-connection');
    expect(action({ action: 'something-else' })).toBeNull();
    expect(action({ action: 'constructor' })).toBeNull();
    expect(action({ action: 'creation' })).toBeNull();
  });

  it('gives Defender 1119, WMI 5858 and PowerShell 4104 an action', () => {
    const windows = (provider: string, channel: string, id: number, data: object) =>
      one({
        EventID: id,
        TimeCreated: '2024-03-12T14:13:02Z',
        SourceName: provider,
        Channel: channel,
        Hostname: 'h',
        ...data,
      });
    const defender = windows(
      'Microsoft-Windows-Windows Defender',
      'Microsoft-Windows-Windows Defender/Operational',
      1119,
      {
        'Threat Name': 'Trojan:Win32/Wacatac',
        Path: 'file:_C:\\Users\\jdoe\\Downloads\\inv.exe;process:_pid:4312',
        'Process Name': 'C:\\Windows\\explorer.exe',
        'Detection User': 'CORP\\jdoe',
      },
    );
    expect(defender).toMatchObject({
      event: { action: 'malware-action-critical-failure', category: ['malware'], outcome: 'failure' },
      file: { path: 'C:\\Users\\jdoe\\Downloads\\inv.exe', name: 'inv.exe' },
      process: { executable: 'C:\\Windows\\explorer.exe' },
      user: { name: 'jdoe', domain: 'CORP' },
    });
    const wmi = windows('Microsoft-Windows-WMI-Activity', 'Microsoft-Windows-WMI-Activity/Operational', 5858, {
      Operation: 'Start IWbemServices::ExecQuery - root\\cimv2 : SELECT * FROM Win32_Process',
      ClientProcessId: 6612,
      User: 'CORP\\jdoe',
      ResultCode: '0x80041032',
    });
    expect(wmi).toMatchObject({
      event: { action: 'wmi-operation-error' },
      process: { pid: 6612 },
      user: { name: 'jdoe', domain: 'CORP' },
    });
    const script = windows('Microsoft-Windows-PowerShell', 'Microsoft-Windows-PowerShell/Operational', 4104, {
      ScriptBlockText: 'IEX (New-Object Net.WebClient).DownloadString($u)',
    });
    expect(script.event.action).toBe('powershell-script-block');
  });

  it('uses only names of the vocabulary, each with its categories', () => {
    const vocabulary = new Set<string>(endpointActions);
    for (const table of Object.values(WINDOWS_ACTIONS)) {
      for (const action of Object.values(table)) expect(vocabulary.has(action), action).toBe(true);
    }
    for (const action of Object.values(ECS_ACTIONS)) expect(vocabulary.has(action), action).toBe(true);
    expect(Object.keys(ACTION_CATEGORIES).sort()).toEqual([...endpointActions].sort());
  });

  it('is documented in docs/endpoint-actions.md exactly as the parsers apply it', () => {
    const markdown = readFileSync(path.join(ROOT, 'docs/endpoint-actions.md'), 'utf8');
    const familyOf = new Map(Object.entries(FAMILY_NAMES).map(([family, name]) => [name, family as WindowsFamily]));
    const documented = tableRows(markdown, 'Windows events').map(([source, id, action]) => [
      familyOf.get(source!) ?? `unknown source ${source}`,
      Number(id),
      action,
    ]);
    const applied = Object.entries(WINDOWS_ACTIONS).flatMap(([family, table]) =>
      Object.entries(table).map(([id, action]) => [family, Number(id), action]),
    );
    expect(documented).toEqual(applied);
    const ecs = tableRows(markdown, 'ECS senders').map(([category, word, action]) => [
      category === 'any' ? word : `${category}:${word}`,
      action,
    ]);
    expect(ecs).toEqual(Object.entries(ECS_ACTIONS));
    const vocabulary = tableRows(markdown, 'The vocabulary').map(([action, categories]) => [
      action,
      categories!.split(', '),
    ]);
    expect(vocabulary).toEqual(Object.entries(ACTION_CATEGORIES));
  });

  it('checks the type of every EventData field the normaliser reads', () => {
    const source = readFileSync(path.join(import.meta.dirname, 'windows-fields.ts'), 'utf8');
    const read = new Set(
      [...source.matchAll(/(?:dataString|dataPid|dataIp|dataPort)\(d, '([^']+)'\)|d\.(?:get|has)\('([^']+)'\)/g)].map(
        (m) => m[1] ?? m[2]!,
      ),
    );
    expect([...KNOWN_DATA_FIELDS].sort()).toEqual([...read].sort());
  });
});
