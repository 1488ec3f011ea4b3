import type { EndpointEvent } from '@vigil/contract';
import { parseEndpointLines } from '../../ingest/parsers';
import { compileSigmaRule, type CompiledRule } from './compile';
import { EndpointView } from './fields';

/*
 * Helpers of the Sigma engine's tests: rules written as YAML text here, events made by Vigil's
 * own endpoint parser from EVTX-shaped and ECS records.
 */

/** A rule around a detection block (indented by four spaces inside `detection:`). */
export function ruleText(
  detection: string,
  logsource = 'product: windows\n    category: process_creation',
  extra = '',
): string {
  return [
    'title: Test rule',
    'id: 5f0b2f8e-0000-4000-8000-000000000001',
    'status: test',
    'level: high',
    extra,
    'logsource:',
    `    ${logsource}`,
    'detection:',
    detection
      .trim()
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n'),
  ]
    .filter((line) => line !== '')
    .join('\n');
}

export const compile = (detection: string, logsource?: string): CompiledRule =>
  compileSigmaRule(ruleText(detection, logsource));

/** Parses one record with the ingest parser; throws when the parser refuses it. */
export function parsed(record: object): EndpointEvent {
  const [result] = parseEndpointLines(JSON.stringify(record));
  if (result === undefined || !result.ok) throw new Error(result?.ok === false ? result.reason : 'no line');
  return result.event;
}

/** A Sysmon event exported from EVTX. */
export function sysmon(eventId: number, data: Record<string, string | number>): EndpointEvent {
  return parsed({
    Event: {
      System: {
        Provider: { '#attributes': { Name: 'Microsoft-Windows-Sysmon' } },
        EventID: eventId,
        TimeCreated: { '#attributes': { SystemTime: '2026-03-01T10:00:00.000Z' } },
        Channel: 'Microsoft-Windows-Sysmon/Operational',
        Computer: 'ws-01.corp.example',
      },
      EventData: data,
    },
  });
}

/** A Windows event of another channel exported from EVTX. */
export function windowsEvent(
  provider: string,
  channel: string,
  eventId: number,
  data: Record<string, string | number>,
): EndpointEvent {
  return parsed({
    Event: {
      System: {
        Provider: { '#attributes': { Name: provider } },
        EventID: eventId,
        TimeCreated: { '#attributes': { SystemTime: '2026-03-01T10:00:00.000Z' } },
        Channel: channel,
        Computer: 'ws-01.corp.example',
      },
      EventData: data,
    },
  });
}

/** A Sysmon process creation with the given fields over plain defaults. */
export const processCreate = (data: Record<string, string | number>): EndpointEvent =>
  sysmon(1, {
    Image: 'C:\\Windows\\System32\\cmd.exe',
    CommandLine: 'cmd.exe /c whoami',
    ParentImage: 'C:\\Windows\\explorer.exe',
    User: 'CORP\\alice',
    ...data,
  });

/** Whether the rule matches the event, evaluated directly (no engine, no prefilter). */
export const matches = (rule: CompiledRule, event: EndpointEvent): boolean => rule.matches(new EndpointView(event));
