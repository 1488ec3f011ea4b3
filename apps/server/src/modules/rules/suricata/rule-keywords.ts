import { attackTacticIdPattern, attackTechniqueIdPattern } from '@vigil/contract';
import type { Parsed } from './addresses';
import { decodeContent, unquote } from './options';
import type {
  ContentMatch,
  DetectionFilterSpec,
  FlowbitsCommand,
  FlowbitsOp,
  Reference,
  RuleOption,
  ThresholdSpec,
  Track,
} from './rule-types';

const TRACKS: readonly Track[] = ['by_src', 'by_dst', 'by_rule', 'by_both', 'by_flow'];
const MAX_U32 = 0xffffffff;

export function parseUnsigned(name: string, value: string | null, min: number, max = MAX_U32): Parsed<number> {
  const v = (value ?? '').trim();
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    return { ok: false, reason: `${name} must be a whole number from ${min} to ${max}, not "${v.slice(0, 40)}"` };
  }
  return { ok: true, value: Number(v) };
}

/** `key value, key value`: the pairs of a threshold, detection_filter or threshold.config entry. */
export function keyValuePairs(text: string, what: string): Parsed<Map<string, string>> {
  const pairs = new Map<string, string>();
  for (const part of text.split(',')) {
    const entry = part.trim();
    const m = /^([a-z_]+)\s+(\S+)$/.exec(entry);
    if (!m) return { ok: false, reason: `"${entry}" in ${what} is not a "name value" pair` };
    if (pairs.has(m[1]!)) return { ok: false, reason: `${what} gives "${m[1]}" twice` };
    pairs.set(m[1]!, m[2]!);
  }
  return { ok: true, value: pairs };
}

function trackOf(value: string | undefined, what: string, allowed: readonly Track[] = TRACKS): Parsed<Track> {
  if (value === undefined) return { ok: false, reason: `${what} needs "track" (${allowed.join(', ')})` };
  if (!(allowed as readonly string[]).includes(value)) {
    return { ok: false, reason: `${what} cannot track "${value}": use one of ${allowed.join(', ')}` };
  }
  return { ok: true, value: value as Track };
}

function unknownKeys(pairs: Map<string, string>, known: readonly string[], what: string): Parsed<null> {
  for (const key of pairs.keys()) {
    if (!known.includes(key)) return { ok: false, reason: `${what} has no setting "${key}"` };
  }
  return { ok: true, value: null };
}

export function parseThreshold(value: string): Parsed<ThresholdSpec> {
  const pairs = keyValuePairs(value, 'threshold');
  if (!pairs.ok) return pairs;
  const p = pairs.value;
  const unknown = unknownKeys(p, ['type', 'track', 'count', 'seconds', 'multiplier'], 'threshold');
  if (!unknown.ok) return unknown;
  const type = p.get('type');
  if (type !== 'threshold' && type !== 'limit' && type !== 'both' && type !== 'backoff') {
    return { ok: false, reason: `threshold type must be threshold, limit, both or backoff, not "${type ?? ''}"` };
  }
  const track = trackOf(p.get('track'), 'threshold', type === 'backoff' ? ['by_flow'] : TRACKS);
  if (!track.ok) return track;
  const count = parseUnsigned('threshold count', p.get('count') ?? null, 1);
  if (!count.ok) return count;
  if (type === 'backoff') {
    const multiplier = parseUnsigned('threshold multiplier', p.get('multiplier') ?? null, 1);
    if (!multiplier.ok) return multiplier;
    return {
      ok: true,
      value: { type, track: track.value, count: count.value, seconds: null, multiplier: multiplier.value },
    };
  }
  if (p.has('multiplier')) return { ok: false, reason: 'only threshold type backoff takes a multiplier' };
  const seconds = parseUnsigned('threshold seconds', p.get('seconds') ?? null, 1);
  if (!seconds.ok) return seconds;
  return {
    ok: true,
    value: { type, track: track.value, count: count.value, seconds: seconds.value, multiplier: null },
  };
}

export function parseDetectionFilter(value: string): Parsed<DetectionFilterSpec> {
  const pairs = keyValuePairs(value, 'detection_filter');
  if (!pairs.ok) return pairs;
  const p = pairs.value;
  const unknown = unknownKeys(p, ['track', 'count', 'seconds', 'unique_on'], 'detection_filter');
  if (!unknown.ok) return unknown;
  const track = trackOf(p.get('track'), 'detection_filter');
  if (!track.ok) return track;
  const count = parseUnsigned('detection_filter count', p.get('count') ?? null, 1);
  if (!count.ok) return count;
  const seconds = parseUnsigned('detection_filter seconds', p.get('seconds') ?? null, 1);
  if (!seconds.ok) return seconds;
  const uniqueOn = p.get('unique_on') ?? null;
  if (uniqueOn !== null && uniqueOn !== 'src_port' && uniqueOn !== 'dst_port') {
    return { ok: false, reason: `detection_filter unique_on must be src_port or dst_port, not "${uniqueOn}"` };
  }
  return { ok: true, value: { track: track.value, count: count.value, seconds: seconds.value, uniqueOn } };
}

const FLOWBIT_NAME = /^[A-Za-z0-9_.-]+$/;

export function parseFlowbits(value: string): Parsed<FlowbitsOp> {
  const comma = value.indexOf(',');
  const command = (comma < 0 ? value : value.slice(0, comma)).trim();
  const target = comma < 0 ? '' : value.slice(comma + 1).trim();
  const commands: readonly FlowbitsCommand[] = ['set', 'unset', 'toggle', 'isset', 'isnotset', 'noalert'];
  if (!(commands as readonly string[]).includes(command)) {
    return { ok: false, reason: `flowbits has no command "${command}" (use ${commands.join(', ')})` };
  }
  if (command === 'noalert') {
    if (target !== '') return { ok: false, reason: 'flowbits:noalert takes no flowbit name' };
    return { ok: true, value: { command, names: [], operator: null } };
  }
  if (target === '') return { ok: false, reason: `flowbits:${command} needs a flowbit name` };
  const operator = target.includes('&') ? '&' : target.includes('|') ? '|' : null;
  if (operator === '&' && target.includes('|')) {
    return { ok: false, reason: `flowbits "${target}" mixes "&" and "|"` };
  }
  if (operator === '&' && command !== 'isset' && command !== 'isnotset') {
    return { ok: false, reason: `flowbits:${command} cannot join names with "&"; only isset and isnotset can` };
  }
  const names = operator === null ? [target] : target.split(operator).map((s) => s.trim());
  const bad = names.find((name) => !FLOWBIT_NAME.test(name));
  if (bad !== undefined) return { ok: false, reason: `"${bad}" is not a valid flowbit name` };
  return { ok: true, value: { command: command as FlowbitsCommand, names, operator } };
}

export function parseMetadata(value: string, into: Record<string, string[]>): Parsed<null> {
  for (const part of value.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const m = /^(\S+)\s+(.+)$/.exec(entry);
    if (!m) return { ok: false, reason: `metadata entry "${entry}" has a key but no value (write "key value")` };
    (into[m[1]!] ??= []).push(m[2]!.trim());
  }
  return { ok: true, value: null };
}

/** ATT&CK ids named by metadata keys (`mitre_technique_id T1059`, `mitre_tactic_id TA0002`). */
export function attackIdsOf(metadata: Record<string, string[]>): { techniques: string[]; tactics: string[] } {
  const pick = (keys: readonly string[], pattern: RegExp) => [
    ...new Set(keys.flatMap((key) => metadata[key] ?? []).filter((v) => pattern.test(v))),
  ];
  return {
    techniques: pick(['mitre_technique_id', 'mitre_subtechnique_id'], attackTechniqueIdPattern),
    tactics: pick(['mitre_tactic_id'], attackTacticIdPattern),
  };
}

export function parseReference(value: string): Parsed<Reference> {
  const comma = value.indexOf(',');
  const type = comma < 0 ? '' : value.slice(0, comma).trim();
  const ref = comma < 0 ? '' : value.slice(comma + 1).trim();
  if (type === '' || ref === '') {
    return { ok: false, reason: `reference "${value.slice(0, 60)}" must be written "type,value" (url,example.com/x)` };
  }
  return { ok: true, value: { type, value: ref } };
}

export function parseContent(value: string): Parsed<ContentMatch> {
  let v = value.trim();
  const negated = v.startsWith('!');
  if (negated) v = v.slice(1).trim();
  if (!v.startsWith('"')) return { ok: false, reason: 'the content pattern must be in double quotes' };
  // Check the quoting, then decode the pattern with its escapes still in place.
  const checked = unquote(v);
  if (!checked.ok) return checked;
  const text = v.slice(1, -1);
  if (text === '') return { ok: false, reason: 'content is empty' };
  const bytes = decodeContent(text);
  if (!bytes.ok) return { ok: false, reason: `content "${text.slice(0, 60)}": ${bytes.reason}` };
  return { ok: true, value: { negated, hex: Buffer.from(bytes.value).toString('hex'), text } };
}

/** Options a rule may carry only once. */
export const SINGLE_OPTIONS = [
  'msg',
  'sid',
  'rev',
  'gid',
  'classtype',
  'priority',
  'target',
  'threshold',
  'detection_filter',
] as const;

export function needsValue(option: RuleOption): Parsed<string> {
  if (option.value === null || option.value === '') {
    return { ok: false, reason: `${option.name} needs a value (${option.name}:…;)` };
  }
  return { ok: true, value: option.value };
}
