/**
 * bench/sigma-engine: the Sigma engine's cost per endpoint event, with every Windows rule of a
 * rule folder loaded against none — what the prefilter keeps from growing with the rule count.
 *
 *   npx tsx bench/sigma-engine.ts [rule folder]
 *
 * The folder defaults to the SigmaHQ rules beside the repository (shared/data/sigma/rules/windows).
 * Events: the ECS lines of bench/lib/ingest-lines (process, network and file events) and, when the
 * Sigma regression samples are there, their real Windows events; BENCH_EVENTS events (default
 * 20,000) are matched BENCH_ROUNDS times (default 5). Prints the rules loaded, how many the
 * prefilter cannot narrow, and the median µs per event of each engine.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { EndpointEvent } from '@vigil/contract';
import { parseEndpointLines } from '../apps/server/src/modules/ingest/parsers';
import { SIGMAHQ_LICENSE, SigmaEngine, checkSigmaFiles } from '../apps/server/src/modules/rules/sigma';
import { endpointLine } from './lib/ingest-lines';

const eventCount = Number(process.env.BENCH_EVENTS ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const shared = path.resolve(import.meta.dirname, '../../shared/data/sigma');
const folder = process.argv[2] ?? path.join(shared, 'rules/windows');

function regressionLines(): string[] {
  const dir = path.join(shared, 'regression');
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.json')) continue;
    // The samples are pretty-printed objects one after another; each starts a line with `{`.
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const part of text.split(/\n(?=\{)/)) out.push(JSON.stringify(JSON.parse(part)));
  }
  return out;
}

function events(): EndpointEvent[] {
  const lines = [...regressionLines()];
  for (let i = 0; lines.length < eventCount; i++) lines.push(endpointLine(0, i, eventCount));
  return parseEndpointLines(lines.slice(0, eventCount).join('\n')).flatMap((r) => (r.ok ? [r.event] : []));
}

function time(engine: SigmaEngine, sample: readonly EndpointEvent[]): { usPerEvent: number; matches: number } {
  const perRound: number[] = [];
  let matches = 0;
  // One round untimed, so that the timed ones run compiled code.
  for (const event of sample) engine.match(event);
  for (let round = 0; round < rounds; round++) {
    matches = 0;
    const start = process.hrtime.bigint();
    for (const event of sample) matches += engine.match(event).length;
    perRound.push(Number(process.hrtime.bigint() - start) / 1000 / sample.length);
  }
  perRound.sort((a, b) => a - b);
  return { usPerEvent: perRound[Math.floor(perRound.length / 2)]!, matches };
}

if (!existsSync(folder)) {
  console.error(`No rule folder at ${folder}; give one as the argument.`);
  process.exit(1);
}
const loadStart = Date.now();
const results = checkSigmaFiles([folder], { defaultLicense: SIGMAHQ_LICENSE });
const rules = results.flatMap((r) => (r.status === 'compiled' ? [r.rule] : []));
const all = new SigmaEngine(rules);
const loadMs = Date.now() - loadStart;
const sample = events();
const none = time(new SigmaEngine([]), sample);
const loaded = time(all, sample);
console.log(`rules loaded: ${rules.length} of ${results.length} files (${loadMs} ms to compile and index)`);
console.log(`rules the prefilter cannot narrow: ${all.unfiltered}`);
console.log(`events: ${sample.length}, rounds: ${rounds}`);
console.log(`no rules:  ${none.usPerEvent.toFixed(2)} µs/event`);
console.log(`all rules: ${loaded.usPerEvent.toFixed(2)} µs/event, ${loaded.matches} matches per round`);
console.log(`rules evaluated per event: ${(all.evaluations / (sample.length * (rounds + 1))).toFixed(1)}`);
