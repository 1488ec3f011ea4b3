import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseEndpointLines } from '../../ingest/parsers';
import { checkSigmaFiles, type SigmaFileResult } from './check';
import type { CompiledRule } from './compile';
import { SigmaEngine } from './engine';
import { SIGMAHQ_LICENSE } from './parse';
import { COUNT_DISAGREES, readRegressionSamples, type EvtxRecord } from './regression-samples';

// The public SigmaHQ rules and regression samples, when the data folder is present beside the repository.
const SIGMA = path.resolve(import.meta.dirname, '../../../../../../../shared/data/sigma');
const FOLDERS = ['rules', 'rules-emerging-threats', 'rules-threat-hunting'];

/** Refusals grouped by reason (quoted names left out), largest group first, for the report. */
function grouped(results: readonly SigmaFileResult[]): [string, number, string][] {
  const groups = new Map<string, { count: number; example: string }>();
  for (const r of results) {
    if (r.status !== 'refused') continue;
    const key = r.reason.replace(/'[^']*'/g, '…');
    const group = groups.get(key) ?? { count: 0, example: `${path.basename(r.file)}: ${r.reason}` };
    group.count++;
    groups.set(key, group);
  }
  return [...groups].map(([k, g]): [string, number, string] => [k, g.count, g.example]).sort((a, b) => b[1] - a[1]);
}

function report(name: string, results: readonly SigmaFileResult[]): void {
  const compiled = results.filter((r) => r.status === 'compiled').length;
  const lines = [
    `${name}: ${compiled} of ${results.length} rules compile (${((100 * compiled) / results.length).toFixed(1)}%)`,
  ];
  for (const [reason, count, example] of grouped(results)) lines.push(`  ${count} × ${reason}\n      e.g. ${example}`);
  console.log(lines.join('\n'));
}

/** The same Windows event as Winlogbeat ships it (ECS with a `winlog` object). */
function asWinlogbeat(record: EvtxRecord): object {
  const { System, EventData, UserData } = record.Event;
  return {
    '@timestamp': System.TimeCreated['#attributes'].SystemTime,
    host: { name: System.Computer },
    winlog: {
      event_id: System.EventID,
      provider_name: System.Provider['#attributes'].Name,
      channel: System.Channel,
      computer_name: System.Computer,
      event_data: EventData ?? null,
      user_data: UserData === undefined ? null : Object.values(UserData)[0],
    },
  };
}

describe.skipIf(!existsSync(SIGMA))('SigmaHQ rules', () => {
  // Read when the first test runs: a skipped block still runs its body, and the folder may be absent.
  const results = new Map<string, SigmaFileResult[]>();
  // Compiling some 3,000 rules takes seconds, more on a busy machine than the 10 s hooks get.
  beforeAll(() => {
    for (const f of FOLDERS)
      results.set(f, checkSigmaFiles([path.join(SIGMA, f)], { defaultLicense: SIGMAHQ_LICENSE }));
  }, 120_000);

  it('compiles at least 95% of the Windows rules, and says why the others are refused', () => {
    const windows = results.get('rules')!.filter((r) => r.file.includes(`${path.sep}windows${path.sep}`));
    report('rules/windows', windows);
    for (const folder of FOLDERS) report(folder, results.get(folder)!);
    const compiled = windows.filter((r) => r.status === 'compiled').length;
    expect(windows.length).toBeGreaterThan(2000);
    expect(compiled / windows.length).toBeGreaterThanOrEqual(0.95);
    for (const r of windows) if (r.status === 'refused') expect(r.reason).not.toMatch(/undefined|\[object/);
  });

  it('keeps each rule’s author and licence for the alerts it raises', () => {
    const rules = results.get('rules')!.flatMap((r) => (r.status === 'compiled' ? [r.rule] : []));
    expect(rules.filter((r) => r.info.author !== null).length / rules.length).toBeGreaterThan(0.99);
    expect(rules.every((r) => r.info.license !== null)).toBe(true);
    expect(rules.filter((r) => r.info.techniques.length > 0).length).toBeGreaterThan(1500);
  });

  it('runs every regression sample through the endpoint parser and all rules, with the expected matches', () => {
    const regression = path.join(SIGMA, 'regression');
    const rules: CompiledRule[] = [...results.values()].flatMap((list) =>
      list.flatMap((r) => (r.status === 'compiled' ? [r.rule] : [])),
    );
    const engine = new SigmaEngine(rules);
    const samples = readRegressionSamples(regression);
    expect(samples.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let passed = 0;
    for (const { sample, ruleId, expected, records } of samples) {
      const countIn = (shape: (r: EvtxRecord) => object) => {
        const parsed = parseEndpointLines(records.map((r) => JSON.stringify(shape(r))).join('\n'));
        expect(parsed.filter((r) => !r.ok)).toEqual([]);
        let n = 0;
        for (const r of parsed) {
          if (!r.ok) continue;
          const found = engine.match(r.event);
          n += found.filter((m) => m.rule.id === ruleId).length;
          // The prefilter lets through every rule that matches: the same as evaluating them all.
          expect(found.map((m) => m.rule.id)).toEqual(engine.matchEveryRule(r.event).map((m) => m.rule.id));
        }
        return n;
      };
      const count = countIn((r) => r);
      // The same events shipped by Winlogbeat match the same way.
      expect(countIn(asWinlogbeat), `${sample} as Winlogbeat ECS`).toBe(count);
      // A sample without match_count is a positive test: the rule must match.
      const ok = expected === undefined ? count >= 1 : count === expected;
      if (ok) passed++;
      else failures.push(`${sample}: expected ${expected ?? 'a match'}, found ${count}`);
      if (Object.hasOwn(COUNT_DISAGREES, sample)) {
        expect(count, sample).toBeGreaterThan(expected ?? 0);
      } else expect(ok, `${sample}: expected ${expected ?? 'a match'}, found ${count}`).toBe(true);
    }
    console.log(
      `regression samples: ${passed} of ${samples.length} match as expected` +
        failures.map((f) => `\n  ${f} — ${COUNT_DISAGREES[f.split(':')[0]!] ?? 'not explained'}`).join(''),
    );
    expect(failures.map((f) => f.split(':')[0]).sort()).toEqual(Object.keys(COUNT_DISAGREES).sort());
  }, 60_000);
});
