import { parseAddress, type AddressExpr, type Parsed } from './addresses';
import { parseUnsigned } from './rule-keywords';

export type SuppressTrack = 'by_src' | 'by_dst' | 'by_either';
export type ConfigTrack = 'by_src' | 'by_dst' | 'by_rule' | 'by_both';
export type RateFilterAction = 'alert' | 'drop' | 'pass' | 'reject';

/** `suppress gen_id G, sig_id S[, track T, ip A]`: no alert for the rule, or none for the addresses in A. */
export interface SuppressEntry {
  kind: 'suppress';
  gid: number;
  sid: number;
  /** Both null when the whole rule is suppressed. */
  track: SuppressTrack | null;
  ip: AddressExpr | null;
  /** The `ip` value as written (a variable, an address, a block or a group). */
  ipText: string | null;
}

/** `threshold` / `event_filter`: replaces the rule's own threshold. */
export interface ThresholdEntry {
  kind: 'threshold';
  keyword: 'threshold' | 'event_filter';
  gid: number;
  sid: number;
  type: 'limit' | 'threshold' | 'both';
  track: ConfigTrack;
  count: number;
  seconds: number;
}

/** `rate_filter`: changes the rule's action for `timeout` seconds once `count` matches came within `seconds`. */
export interface RateFilterEntry {
  kind: 'rate_filter';
  gid: number;
  sid: number;
  track: ConfigTrack;
  count: number;
  seconds: number;
  newAction: RateFilterAction;
  timeout: number;
}

export type ThresholdConfigEntry = SuppressEntry | ThresholdEntry | RateFilterEntry;

export interface ThresholdConfigLine {
  line: number;
  entry: ThresholdConfigEntry;
}

export interface ThresholdConfigResult {
  entries: ThresholdConfigLine[];
  refused: { line: number; reason: string; text: string }[];
}

/** Splits `gen_id 1, sig_id 2, ip [a, b]` at the commas outside brackets into name → value. */
function settings(text: string, keyword: string): Parsed<Map<string, string>> {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  const map = new Map<string, string>();
  for (const part of parts) {
    const m = /^\s*([a-z_]+)\s+(\[.*\]|\S+)\s*$/.exec(part);
    if (!m) return { ok: false, reason: `"${part.trim()}" in ${keyword} is not a "name value" setting` };
    if (map.has(m[1]!)) return { ok: false, reason: `${keyword} gives "${m[1]}" twice` };
    map.set(m[1]!, m[2]!);
  }
  return { ok: true, value: map };
}

function only(map: Map<string, string>, allowed: readonly string[], keyword: string): Parsed<null> {
  for (const key of map.keys()) {
    if (!allowed.includes(key)) {
      return { ok: false, reason: `${keyword} has no setting "${key}" (it takes ${allowed.join(', ')})` };
    }
  }
  for (const key of allowed.filter((k) => k !== 'track' && k !== 'ip')) {
    if (!map.has(key)) return { ok: false, reason: `${keyword} needs ${key}` };
  }
  return { ok: true, value: null };
}

function ids(map: Map<string, string>): Parsed<{ gid: number; sid: number }> {
  const gid = parseUnsigned('gen_id', map.get('gen_id') ?? null, 0);
  if (!gid.ok) return gid;
  const sid = parseUnsigned('sig_id', map.get('sig_id') ?? null, 0);
  if (!sid.ok) return sid;
  return { ok: true, value: { gid: gid.value, sid: sid.value } };
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], what: string): Parsed<T> {
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return { ok: true, value: value as T };
  return { ok: false, reason: `${what} must be one of ${allowed.join(', ')}, not "${value ?? ''}"` };
}

const CONFIG_TRACKS: readonly ConfigTrack[] = ['by_src', 'by_dst', 'by_rule', 'by_both'];

function parseSuppress(map: Map<string, string>): Parsed<SuppressEntry> {
  const allowed = only(map, ['gen_id', 'sig_id', 'track', 'ip'], 'suppress');
  if (!allowed.ok) return allowed;
  const id = ids(map);
  if (!id.ok) return id;
  if (map.has('track') !== map.has('ip')) {
    return { ok: false, reason: 'suppress takes track and ip together, or neither (to suppress the whole rule)' };
  }
  if (!map.has('track'))
    return { ok: true, value: { kind: 'suppress', ...id.value, track: null, ip: null, ipText: null } };
  const track = oneOf(map.get('track'), ['by_src', 'by_dst', 'by_either'] as const, 'suppress track');
  if (!track.ok) return track;
  const ipText = map.get('ip')!;
  const ip = parseAddress(ipText);
  if (!ip.ok) return { ok: false, reason: `suppress ip: ${ip.reason}` };
  return { ok: true, value: { kind: 'suppress', ...id.value, track: track.value, ip: ip.value, ipText } };
}

function parseThresholdEntry(map: Map<string, string>, keyword: 'threshold' | 'event_filter'): Parsed<ThresholdEntry> {
  const allowed = only(map, ['gen_id', 'sig_id', 'type', 'track', 'count', 'seconds'], keyword);
  if (!allowed.ok) return allowed;
  const id = ids(map);
  if (!id.ok) return id;
  const type = oneOf(map.get('type'), ['limit', 'threshold', 'both'] as const, `${keyword} type`);
  if (!type.ok) return type;
  const track = oneOf(map.get('track'), CONFIG_TRACKS, `${keyword} track`);
  if (!track.ok) return track;
  const count = parseUnsigned(`${keyword} count`, map.get('count') ?? null, 1);
  if (!count.ok) return count;
  const seconds = parseUnsigned(`${keyword} seconds`, map.get('seconds') ?? null, 1);
  if (!seconds.ok) return seconds;
  return {
    ok: true,
    value: {
      kind: 'threshold',
      keyword,
      ...id.value,
      type: type.value,
      track: track.value,
      count: count.value,
      seconds: seconds.value,
    },
  };
}

function parseRateFilter(map: Map<string, string>): Parsed<RateFilterEntry> {
  const allowed = only(map, ['gen_id', 'sig_id', 'track', 'count', 'seconds', 'new_action', 'timeout'], 'rate_filter');
  if (!allowed.ok) return allowed;
  const id = ids(map);
  if (!id.ok) return id;
  const track = oneOf(map.get('track'), CONFIG_TRACKS, 'rate_filter track');
  if (!track.ok) return track;
  const count = parseUnsigned('rate_filter count', map.get('count') ?? null, 1);
  if (!count.ok) return count;
  const seconds = parseUnsigned('rate_filter seconds', map.get('seconds') ?? null, 1);
  if (!seconds.ok) return seconds;
  const newAction = oneOf(
    map.get('new_action'),
    ['alert', 'drop', 'pass', 'reject'] as const,
    'rate_filter new_action',
  );
  if (!newAction.ok) return newAction;
  const timeout = parseUnsigned('rate_filter timeout', map.get('timeout') ?? null, 1);
  if (!timeout.ok) return timeout;
  return {
    ok: true,
    value: {
      kind: 'rate_filter',
      ...id.value,
      track: track.value,
      count: count.value,
      seconds: seconds.value,
      newAction: newAction.value,
      timeout: timeout.value,
    },
  };
}

/** Parses one threshold.config entry (continuations joined, no comment). */
export function parseThresholdLine(text: string): Parsed<ThresholdConfigEntry> {
  const m = /^\s*([a-z_]+)(?::\s*\1)?\s+(.*)$/.exec(text);
  const keyword = m?.[1] ?? text.trim().split(/\s+/)[0] ?? '';
  if (!m || !['suppress', 'threshold', 'event_filter', 'rate_filter'].includes(keyword)) {
    return {
      ok: false,
      reason: `"${keyword.slice(0, 40)}" is not a threshold.config entry (use suppress, threshold, event_filter or rate_filter)`,
    };
  }
  const map = settings(m[2]!, keyword);
  if (!map.ok) return map;
  if (keyword === 'suppress') return parseSuppress(map.value);
  if (keyword === 'rate_filter') return parseRateFilter(map.value);
  return parseThresholdEntry(map.value, keyword as 'threshold' | 'event_filter');
}

/** Parses a threshold.config file: `#` comments and blank lines skipped, `\` joins a line with the next. */
export function parseThresholdConfig(content: string): ThresholdConfigResult {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  const result: ThresholdConfigResult = { entries: [], refused: [] };
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!;
    while (text.trimEnd().endsWith('\\') && i + 1 < lines.length) {
      i++;
      text = `${text.trimEnd().slice(0, -1)} ${lines[i]!}`;
    }
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const parsed = parseThresholdLine(trimmed);
    if (parsed.ok) result.entries.push({ line: start + 1, entry: parsed.value });
    else result.refused.push({ line: start + 1, reason: parsed.reason, text: trimmed });
  }
  return result;
}
