import type { RuleKind, RuleTest, RuleTestAnswer, RuleTestMatch, RuleTestNote } from '@vigil/contract';
import { ValidationError } from '../../http/errors';
import { parseEndpointLine } from '../ingest/parsers/endpoint';
import { parseEveLine } from '../ingest/parsers/eve';
import { compileSigmaRule, EndpointView, SigmaEngine, type CompiledRule } from './sigma';
import { eventKeys } from './sigma/logsource';
import type { RuleCandidate } from './store/rule-candidates';
import { readRuleFile } from './store/rule-candidates';
import { YaraScanError, YaraScanner } from './yara/yara-scanner';

/** A test's file is scanned with these limits: the rule text is the user's, so it may be slow. */
const YARA_TEST_TIMEOUT_MS = 10_000;
const YARA_TEST_START_TIMEOUT_MS = 30_000;
/** Field values shown per matching Sigma rule, and characters of each. */
const MAX_FIELDS_SHOWN = 20;
const MAX_VALUE_CHARS = 300;
/** Rules a test reads from one text. */
const MAX_TEST_RULES = 500;

const TEST_FILE = 'test';

function clip(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/** The rules of the pasted text, as an import would read them, and its refusals. */
function readCandidates(
  kind: RuleKind,
  source: string,
): Pick<RuleTestAnswer, 'rules' | 'problems'> & {
  candidates: RuleCandidate[];
} {
  const reading = readRuleFile(kind, TEST_FILE, source);
  const candidates = reading.rules.slice(0, MAX_TEST_RULES);
  const problems = reading.rejected.map((r) => ({ line: r.line, rule: r.rule, reason: r.reason }));
  if (reading.rules.length > MAX_TEST_RULES)
    problems.push({
      line: reading.rules[MAX_TEST_RULES]!.line,
      rule: reading.rules[MAX_TEST_RULES]!.key,
      reason: `a test reads at most ${MAX_TEST_RULES} rules; the rest of the text is left out`,
    });
  for (const c of candidates) if (c.unsupported) problems.push({ line: c.line, rule: c.key, reason: c.unsupported });
  return {
    candidates,
    rules: candidates.map((c) => ({ rule: c.key, title: c.title, unsupported: c.unsupported })),
    problems,
  };
}

function needField(field: 'event' | 'file', message: string): never {
  throw ValidationError.field(field, message);
}

/** Sigma: the rules compiled as the stage compiles them, run on the one event as the stage runs them. */
function testSigma(input: RuleTest): RuleTestAnswer {
  if (input.event === undefined || input.event.trim() === '')
    needField('event', 'Paste one endpoint event (a JSON object) to try the rule on.');
  const parsed = parseEndpointLine(input.event.trim(), 1);
  if (!parsed.ok) needField('event', `The event cannot be read: ${parsed.reason}.`);
  const read = readCandidates('sigma', input.source);
  const compiled: { candidate: RuleCandidate; rule: CompiledRule }[] = [];
  for (const candidate of read.candidates) {
    if (candidate.unsupported) continue;
    try {
      compiled.push({ candidate, rule: compileSigmaRule(candidate.source) });
    } catch (error) {
      read.problems.push({
        line: candidate.line,
        rule: candidate.key,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const event = parsed.event;
  const keys = eventKeys(event);
  const notes: RuleTestNote[] = [
    {
      kind: 'event_read',
      format: event.source_format,
      action: event.event.action,
      channel: event.event.channel,
      code: event.event.code,
    },
    { kind: 'log_sources', sources: keys },
  ];
  const engine = new SigmaEngine(compiled.map((c) => c.rule));
  const matched = new Set(engine.match(event).map((m) => m.rule));
  const view = new EndpointView(event);
  const matches: RuleTestMatch[] = [];
  for (const { candidate, rule } of compiled) {
    if (!matched.has(rule.info)) {
      if (!keys.includes(rule.target.key) && rule.target.key !== 'product:windows')
        notes.push({
          kind: 'log_source_excludes',
          rule: candidate.key,
          title: candidate.title,
          source: rule.target.key,
        });
      else notes.push({ kind: 'detection_no_match', rule: candidate.key, title: candidate.title });
      continue;
    }
    const details: string[] = [];
    for (const field of rule.fields) {
      if (details.length >= MAX_FIELDS_SHOWN) break;
      const values = view.get(field);
      if (values === undefined || values.length === 0) continue;
      details.push(`${field}: ${clip(values.map((v) => (v === null ? 'null' : String(v))).join(', '))}`);
    }
    matches.push({ rule: candidate.key, title: candidate.title, details });
  }
  return { rules: read.rules, problems: read.problems, matched: matches.length > 0, matches, notes };
}

/**
 * Suricata matches packets on the sensor; what the console can check is the signature itself and
 * whether an EVE alert record is one of its alerts (gid and sid; rev compared).
 */
function testSuricata(input: RuleTest): RuleTestAnswer {
  const read = readCandidates('suricata', input.source);
  const notes: RuleTestNote[] = [];
  const matches: RuleTestMatch[] = [];
  if (input.event !== undefined && input.event.trim() !== '') {
    const parsed = parseEveLine(input.event.trim(), 1);
    if (!parsed.ok) needField('event', `The EVE record cannot be read: ${parsed.reason}.`);
    const alert = parsed.event.alert;
    if (alert === null) needField('event', 'Paste an EVE alert record (event_type "alert") to compare with the rule.');
    const gid = alert.gid ?? 1;
    notes.push({ kind: 'eve_alert', gid, sid: alert.signature_id, rev: alert.rev, signature: clip(alert.signature) });
    for (const candidate of read.candidates) {
      if (candidate.key !== `${gid}:${alert.signature_id}`) continue;
      const rev = typeof candidate.details['rev'] === 'number' ? candidate.details['rev'] : null;
      const details = [`gid ${gid}, sid ${alert.signature_id}${rev !== null ? `, rev ${rev}` : ''}`];
      if (rev !== null && alert.rev !== null && rev !== alert.rev)
        notes.push({ kind: 'other_revision', rule: candidate.key, sensor: alert.rev, text: rev });
      if (alert.signature !== '' && alert.signature !== candidate.title)
        notes.push({ kind: 'other_message', rule: candidate.key, sensor: clip(alert.signature) });
      const classtype = candidate.details['classtype'];
      if (typeof classtype === 'string') details.push(`classtype: ${classtype}`);
      matches.push({ rule: candidate.key, title: candidate.title, details });
    }
    if (matches.length === 0) notes.push({ kind: 'no_rule_for_alert' });
  } else notes.push({ kind: 'parsed_only' });
  return { rules: read.rules, problems: read.problems, matched: matches.length > 0, matches, notes };
}

/** YARA: the text compiled by yara-x and the file scanned in a process of its own, with a timeout. */
async function testYara(input: RuleTest): Promise<RuleTestAnswer> {
  if (input.file === undefined) needField('file', 'Choose a file to scan with the rule.');
  const data = Buffer.from(input.file.content_base64, 'base64');
  const read = readCandidates('yara', input.source);
  const runnable = read.candidates.filter((c) => !c.unsupported);
  const notes: RuleTestNote[] = [{ kind: 'file_scanned', name: input.file.name, bytes: data.length }];
  if (runnable.length === 0) return { ...read, matched: false, matches: [], notes };
  const sets = runnable.map((c, i) => ({ namespace: `rule${i}`, source: c.source }));
  const byNamespace = new Map(sets.map((s, i) => [s.namespace, runnable[i]!]));
  let scanner: YaraScanner | null = null;
  try {
    scanner = await YaraScanner.open(sets, {
      checked: true,
      timeoutMs: YARA_TEST_TIMEOUT_MS,
      startTimeoutMs: YARA_TEST_START_TIMEOUT_MS,
      maxBytes: data.length + 1,
    });
    const found = await scanner.scan(data, { filename: input.file.name, filepath: input.file.name });
    const matches = found.map((m) => {
      const candidate = byNamespace.get(m.namespace);
      const strings = m.strings.slice(0, MAX_FIELDS_SHOWN).map((s) => `${s.identifier} @ ${s.offset} (${s.length})`);
      return {
        rule: candidate ? candidate.key : m.rule,
        title: m.rule,
        details: [...(m.tags.length > 0 ? [`tags: ${m.tags.join(', ')}`] : []), ...strings],
      };
    });
    return { rules: read.rules, problems: read.problems, matched: matches.length > 0, matches, notes };
  } catch (error) {
    if (error instanceof YaraScanError && error.code === 'timeout')
      read.problems.push({
        line: 1,
        rule: '',
        reason: `the scan took longer than ${YARA_TEST_TIMEOUT_MS / 1000} s and was stopped`,
      });
    else read.problems.push({ line: 1, rule: '', reason: error instanceof Error ? error.message : String(error) });
    return { rules: read.rules, problems: read.problems, matched: false, matches: [], notes };
  } finally {
    await scanner?.close();
  }
}

/** Tries a rule text on a sample as the engine of its kind would. Nothing is stored. */
export function testRule(kind: RuleKind, input: RuleTest): Promise<RuleTestAnswer> | RuleTestAnswer {
  if (input.source.includes('\u0000'))
    throw ValidationError.field('source', 'The rule text holds a NUL byte: give the rule as text.');
  if (input.event?.includes('\u0000'))
    throw ValidationError.field('event', 'The event holds a NUL byte: give one JSON object as text.');
  if (kind === 'sigma') return testSigma(input);
  if (kind === 'suricata') return testSuricata(input);
  return testYara(input);
}
