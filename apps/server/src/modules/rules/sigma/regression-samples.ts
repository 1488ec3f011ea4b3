import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/*
 * The SigmaHQ regression samples (for tests and benchmarks): per sample folder an info.yml naming
 * the rule and how many of the sample's events it matches, and the events as EVTX JSON.
 */

/** A Windows event as the samples hold it (EVTX rendered as JSON). */
export type EvtxRecord = {
  Event: {
    System: {
      Provider: { '#attributes': { Name: string } };
      EventID: number;
      Channel: string;
      Computer: string;
      TimeCreated: { '#attributes': { SystemTime: string } };
    };
    EventData?: unknown;
    UserData?: Record<string, unknown>;
  };
};

export interface RegressionSample {
  /** The sample's folder under the regression folder, with `/`: `windows/process_creation/…`. */
  sample: string;
  /** The Sigma id of the rule it tests. */
  ruleId: string;
  /** How many of its events the rule matches; undefined: at least one. */
  expected: number | undefined;
  records: EvtxRecord[];
}

/*
 * Samples whose match_count disagrees with the rule as Sigma defines it: the sample file holds
 * more events that the rule matches than the count says. Each was read by hand; the engine's
 * count is the one the rule's text gives.
 */
export const COUNT_DISAGREES: Readonly<Record<string, string>> = {
  'windows/file/file_event/file_event_win_anydesk_artefact':
    "three events' TargetFilename contains \\AppData\\Roaming\\AnyDesk\\user.conf (user.conf.new twice, user.conf~RF….TMP)",
  'windows/file/file_event/file_event_win_cred_dump_tools_dropped_files':
    'TargetFilename ends with \\procdump64.exe, \\procdump64a.exe and \\procdump.exe in three events, each listed by the rule',
  'windows/registry/registry_set/registry_set_change_security_zones':
    'all three events set a ZoneMap\\Domains value to DWORD (0x00000002), which the filter does not exclude',
  'windows/registry/registry_set/registry_set_disable_administrative_share':
    'both events set AutoShareServer and AutoShareWks to DWORD (0x00000000), each listed by the rule',
};

/** The regression files hold one or more pretty-printed JSON objects one after another. */
export function splitObjects(text: string): string[] {
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

/** Every sample under the regression folder, in folder order; none when it is absent. */
export function readRegressionSamples(regression: string): RegressionSample[] {
  if (!existsSync(regression)) return [];
  const infos = readdirSync(regression, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('info.yml'))
    .sort();
  return infos.map((info) => {
    const dir = path.join(regression, path.dirname(info));
    const meta = parse(readFileSync(path.join(dir, 'info.yml'), 'utf8')) as {
      rule_metadata: { id: string }[];
      regression_tests_info: { match_count?: number }[];
    };
    const records = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .flatMap((f) => splitObjects(readFileSync(path.join(dir, f), 'utf8')).map((t) => JSON.parse(t) as EvtxRecord));
    return {
      sample: path.dirname(info).split(path.sep).join('/'),
      ruleId: meta.rule_metadata[0]!.id,
      expected: meta.regression_tests_info[0]!.match_count,
      records,
    };
  });
}
