/**
 * What a YARA source file says about its rules without compiling it: each rule's name, modifiers,
 * tags and meta, the imports and includes, and the ATT&CK ids its meta or tags name. yara-x
 * reports meta only for rules that match, so the catalogue of a file is read here.
 */

export type YaraMetaValue = string | number | boolean;

export interface YaraRuleInfo {
  name: string;
  /** The line the rule's header starts on. */
  line: number;
  modifiers: ('private' | 'global')[];
  tags: string[];
  /** Every meta entry in order; a key may repeat (several `hash` entries). */
  meta: { key: string; value: YaraMetaValue }[];
  author: string | null;
  description: string | null;
  reference: string | null;
  license: string | null;
  mitreTechniqueIds: string[];
  mitreTacticIds: string[];
}

export interface YaraSourceInfo {
  imports: string[];
  includes: string[];
  rules: YaraRuleInfo[];
}

type Token =
  | { kind: 'ident'; text: string; line: number }
  | { kind: 'string'; text: string; line: number }
  | { kind: 'number'; value: number; line: number }
  | { kind: 'punct'; text: string; line: number }
  | { kind: 'other'; line: number };

function decodeString(raw: string): string {
  return raw.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.startsWith('x') && e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
    return e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
  });
}

function numberOf(text: string): number {
  const m = /^(0x[0-9a-fA-F]+|0o[0-7]+|\d+(?:\.\d+)?)(KB|MB)?$/.exec(text);
  if (!m) return Number.NaN;
  const n = m[1]!.startsWith('0o') ? parseInt(m[1]!.slice(2), 8) : Number(m[1]);
  return m[2] === 'KB' ? n * 1024 : m[2] === 'MB' ? n * 1024 * 1024 : n;
}

/** Splits YARA source into the tokens the catalogue needs; comments, regular expressions and hex strings are skipped. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = source.length;
  const advance = (to: number) => {
    for (let k = i; k < to && k < n; k++) if (source[k] === '\n') line++;
    i = to;
  };
  while (i < n) {
    const c = source[i]!;
    if (c === '\n' || /\s/.test(c)) {
      advance(i + 1);
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      advance(end < 0 ? n : end);
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      advance(end < 0 ? n : end + 2);
      continue;
    }
    const start = line;
    if (c === '"') {
      let j = i + 1;
      while (j < n && source[j] !== '"' && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      tokens.push({ kind: 'string', text: decodeString(source.slice(i + 1, Math.min(j, n))), line: start });
      advance(j + 1);
      continue;
    }
    if (c === '/') {
      // A regular expression: YARA divides with "\", so "/" always opens one.
      let j = i + 1;
      while (j < n && source[j] !== '/' && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      j++;
      while (j < n && /[a-z]/.test(source[j]!)) j++;
      tokens.push({ kind: 'other', line: start });
      advance(j);
      continue;
    }
    const word = /^[A-Za-z_$#@!][A-Za-z0-9_*]*/.exec(source.slice(i, i + 256));
    if (word && /[A-Za-z_]/.test(c)) {
      tokens.push({ kind: 'ident', text: word[0], line: start });
      advance(i + word[0].length);
      continue;
    }
    const num = /^(0x[0-9a-fA-F]+|0o[0-7]+|\d+(?:\.\d+)?)(KB|MB)?/.exec(source.slice(i, i + 64));
    if (num) {
      tokens.push({ kind: 'number', value: numberOf(num[0]), line: start });
      advance(i + num[0].length);
      continue;
    }
    if (word) {
      // $name, #name, @name, !name: pattern references, none of which the catalogue reads.
      tokens.push({ kind: 'other', line: start });
      advance(i + word[0].length);
      continue;
    }
    tokens.push({ kind: 'punct', text: c, line: start });
    advance(i + 1);
  }
  return tokens;
}

const TECHNIQUE = /\bT\d{4}(?:\.\d{3})?\b/g;
const TACTIC = /\bTA\d{4}\b/g;
const ATTACK_KEY = /mitre|att(?:ack|&ck)|technique|tactic/i;

function attackIds(meta: YaraRuleInfo['meta'], tags: string[]): { techniques: string[]; tactics: string[] } {
  const texts = [
    ...meta.filter((m) => ATTACK_KEY.test(m.key) && typeof m.value === 'string').map((m) => String(m.value)),
    ...tags,
  ];
  const techniques = new Set<string>();
  const tactics = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(TECHNIQUE)) techniques.add(m[0]);
    for (const m of text.matchAll(TACTIC)) tactics.add(m[0]);
  }
  return { techniques: [...techniques], tactics: [...tactics] };
}

function firstString(meta: YaraRuleInfo['meta'], key: string): string | null {
  const found = meta.find((m) => m.key.toLowerCase() === key && typeof m.value === 'string');
  return found ? String(found.value) : null;
}

/** Reads the meta section from `k` (just after `meta:`) to the next section; returns the entries and where it stopped. */
function readMeta(tokens: Token[], k: number): { meta: YaraRuleInfo['meta']; next: number } {
  const meta: YaraRuleInfo['meta'] = [];
  while (k < tokens.length) {
    const key = tokens[k]!;
    const eq = tokens[k + 1];
    if (key.kind !== 'ident' || eq?.kind !== 'punct' || eq.text !== '=') break;
    let v = tokens[k + 2];
    let negative = false;
    if (v?.kind === 'punct' && v.text === '-') {
      negative = true;
      v = tokens[k + 3];
      k++;
    }
    if (v?.kind === 'string') meta.push({ key: key.text, value: v.text });
    else if (v?.kind === 'number') meta.push({ key: key.text, value: negative ? -v.value : v.value });
    else if (v?.kind === 'ident' && (v.text === 'true' || v.text === 'false')) {
      meta.push({ key: key.text, value: v.text === 'true' });
    } else break;
    k += 3;
  }
  return { meta, next: k };
}

export function parseYaraSource(source: string): YaraSourceInfo {
  const tokens = tokenize(source);
  const info: YaraSourceInfo = { imports: [], includes: [], rules: [] };
  let k = 0;
  while (k < tokens.length) {
    const t = tokens[k]!;
    if (t.kind === 'ident' && (t.text === 'import' || t.text === 'include') && tokens[k + 1]?.kind === 'string') {
      const target = tokens[k + 1] as { text: string };
      (t.text === 'import' ? info.imports : info.includes).push(target.text);
      k += 2;
      continue;
    }
    if (t.kind !== 'ident' || !['rule', 'private', 'global'].includes(t.text)) {
      k++;
      continue;
    }
    const modifiers: YaraRuleInfo['modifiers'] = [];
    const headerLine = t.line;
    while (tokens[k]?.kind === 'ident' && ['private', 'global'].includes((tokens[k] as { text: string }).text)) {
      modifiers.push((tokens[k] as { text: 'private' | 'global' }).text);
      k++;
    }
    const ruleWord = tokens[k];
    const nameToken = tokens[k + 1];
    if (ruleWord?.kind !== 'ident' || ruleWord.text !== 'rule' || nameToken?.kind !== 'ident') {
      k++;
      continue;
    }
    k += 2;
    const tags: string[] = [];
    if (tokens[k]?.kind === 'punct' && (tokens[k] as { text: string }).text === ':') {
      k++;
      while (tokens[k]?.kind === 'ident') tags.push((tokens[k++] as { text: string }).text);
    }
    if (tokens[k]?.kind !== 'punct' || (tokens[k] as { text: string }).text !== '{') continue;
    // The body runs to the brace that closes the rule; hex strings nest one level of braces.
    let depth = 0;
    let meta: YaraRuleInfo['meta'] = [];
    while (k < tokens.length) {
      const b = tokens[k]!;
      if (b.kind === 'punct' && b.text === '{') depth++;
      else if (b.kind === 'punct' && b.text === '}') {
        depth--;
        if (depth === 0) break;
      } else if (depth === 1 && b.kind === 'ident' && b.text === 'meta' && tokens[k + 1]?.kind === 'punct') {
        const read = readMeta(tokens, k + 2);
        meta = read.meta;
        k = read.next;
        continue;
      }
      k++;
    }
    k++;
    const attack = attackIds(meta, tags);
    info.rules.push({
      name: nameToken.text,
      line: headerLine,
      modifiers,
      tags,
      meta,
      author: firstString(meta, 'author'),
      description: firstString(meta, 'description'),
      reference: firstString(meta, 'reference'),
      license: firstString(meta, 'license'),
      mitreTechniqueIds: attack.techniques,
      mitreTacticIds: attack.tactics,
    });
  }
  return info;
}

/** Meta of each rule as a plain object: the first value of each key. */
export function metaObject(rule: YaraRuleInfo): Record<string, YaraMetaValue> {
  const out: Record<string, YaraMetaValue> = {};
  for (const { key, value } of rule.meta) if (!(key in out)) out[key] = value;
  return out;
}
