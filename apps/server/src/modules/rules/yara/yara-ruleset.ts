import { createHash } from 'node:crypto';
import { checkYaraSource, type YaraCompileCheck } from './yara-compile';
import type { YaraRuleSet } from './yara-scanner';
import { parseYaraSource } from './yara-source';

/** An enabled YARA rule of the store, as the scan job reads it. */
export interface StoredYaraRule {
  id: number;
  companyId: number;
  scope: 'company' | 'all';
  revision: number;
  ruleKey: string;
  title: string;
  level: 'info' | 'low' | 'medium' | 'high' | 'critical';
  techniques: string[];
  /** Shown with every match (attribution licences ask for it); empty when the rule names none. */
  author: string;
  licence: string;
  fileName: string;
  source: string;
}

/** A rule for all companies that one company turned off. */
export interface RuleTurnedOff {
  companyId: number;
  ruleId: number;
}

/** The compiled form of the enabled rules: the units the scanner loads and which stored rule each match is. */
export interface CompiledRuleSet {
  units: YaraRuleSet[];
  /** `${namespace}\0${rule name}` → the stored rule. */
  rules: Map<string, StoredYaraRule>;
  /** Rules left out because they do not compile, with the compiler's reason. */
  skipped: { rule: StoredYaraRule; reason: string }[];
}

/**
 * A digest of what decides the scan results: each enabled rule's id and revision, and each rule
 * turned off for one company. Files scanned under another digest are scanned again.
 */
export function rulesetDigest(
  rules: readonly Pick<StoredYaraRule, 'id' | 'revision'>[],
  turnedOff: readonly RuleTurnedOff[],
): string {
  const hash = createHash('sha256');
  for (const r of [...rules].sort((a, b) => a.id - b.id)) hash.update(`r${r.id}:${r.revision};`);
  const off = [...turnedOff].sort((a, b) => a.ruleId - b.ruleId || a.companyId - b.companyId);
  for (const o of off) hash.update(`o${o.ruleId}:${o.companyId};`);
  return hash.digest('hex').slice(0, 32);
}

/** The rule's own name: a YARA rule key is `<file>:<rule name>`. */
export function ruleNameOf(rule: Pick<StoredYaraRule, 'ruleKey'>): string {
  const at = rule.ruleKey.lastIndexOf(':');
  return at < 0 ? rule.ruleKey : rule.ruleKey.slice(at + 1);
}

/** Whether a stored rule applies to a company: its own rules, and rules for all it did not turn off. */
export function effectiveFor(rule: StoredYaraRule, companyId: number, turnedOff: ReadonlySet<string>): boolean {
  if (rule.scope === 'company') return rule.companyId === companyId;
  return !turnedOff.has(`${companyId}:${rule.id}`);
}

const IMPORT_LINE = /^[ \t]*import[ \t]+"([^"\n]+)"[ \t]*;?[ \t]*$/gm;

/** Rule text without its import lines, and the imports it names. */
function splitImports(source: string): { imports: string[]; body: string } {
  const imports: string[] = [];
  const body = source.replace(IMPORT_LINE, (_, name: string) => {
    imports.push(name);
    return '';
  });
  return { imports, body };
}

interface Group {
  rules: StoredYaraRule[];
  imports: Set<string>;
  body: string;
  names: Set<string>;
  hasGlobal: boolean;
}

/**
 * Builds the units one scanner loads from every enabled rule. Rules of one file (and one owner)
 * compile together, so a rule may use the private rules beside it; a file that does not compile as
 * a whole falls back to each rule on its own, and a rule that does not compile alone is skipped
 * with the compiler's reason. Files are then packed into as few units as compile together (a unit
 * is one pass over the data): never two that declare the same rule name, never one with a
 * `global` rule, which would bind the other files' rules.
 */
export async function buildRuleSet(
  rules: readonly StoredYaraRule[],
  options: {
    maxUnitRules?: number;
    /** How a source is compile-checked: on this thread by default; the scan job uses a thread of its own. */
    check?: (source: string) => YaraCompileCheck | Promise<YaraCompileCheck>;
  } = {},
): Promise<CompiledRuleSet> {
  const maxUnitRules = options.maxUnitRules ?? 5000;
  const check = options.check ?? checkYaraSource;
  const byFile = new Map<string, StoredYaraRule[]>();
  for (const rule of rules) {
    const owner = rule.scope === 'all' ? 'all' : `c${rule.companyId}`;
    const key = `${owner}\0${rule.fileName}`;
    const list = byFile.get(key);
    if (list) list.push(rule);
    else byFile.set(key, [rule]);
  }
  const skipped: CompiledRuleSet['skipped'] = [];
  const units: YaraRuleSet[] = [];
  const map = new Map<string, StoredYaraRule>();
  const compiles = async (members: readonly Group[]): Promise<string | null> => {
    const result = await check(unitSource(members));
    return result.ok ? null : result.reason;
  };
  const emit = (members: readonly Group[]) => {
    if (members.length === 0) return;
    const namespace = `u${units.length + 1}`;
    units.push({ namespace, source: unitSource(members) });
    for (const g of members) {
      for (const rule of g.rules) {
        const name = ruleNameOf(rule);
        if (g.names.has(name)) map.set(`${namespace}\0${name}`, rule);
      }
    }
  };
  // A file that does not compile as a whole: each of its rules on its own, or skipped with the reason.
  const split = async (g: Group): Promise<Group[]> => {
    if (g.rules.length === 1) {
      skipped.push({ rule: g.rules[0]!, reason: (await compiles([g])) ?? 'does not compile with the other rules' });
      return [];
    }
    const out: Group[] = [];
    for (const rule of g.rules) {
      const alone = makeGroup([rule]);
      const reason = await compiles([alone]);
      if (reason) skipped.push({ rule, reason });
      else out.push(alone);
    }
    return out;
  };
  // Optimistic: a pack is compiled once; only when it fails are its files looked at one by one.
  const place = async (pack: readonly Group[]) => {
    if (pack.length === 0) return;
    if ((await compiles(pack)) === null) return emit(pack);
    const good: Group[] = [];
    for (const g of pack) {
      if (pack.length > 1 && (await compiles([g])) === null) good.push(g);
      else for (const part of await split(g)) emit([part]);
    }
    if (good.length === 0) return;
    if ((await compiles(good)) === null) emit(good);
    else for (const g of good) emit([g]);
  };
  let pack: Group[] = [];
  let packNames = new Set<string>();
  let packRules = 0;
  for (const members of byFile.values()) {
    const g = makeGroup(members);
    if (g.hasGlobal) {
      // A global rule binds every rule of its unit: its file stays on its own.
      await place([g]);
      continue;
    }
    const clash = [...g.names].some((n) => packNames.has(n));
    if (clash || packRules + g.names.size > maxUnitRules) {
      await place(pack);
      pack = [];
      packNames = new Set();
      packRules = 0;
    }
    pack.push(g);
    for (const n of g.names) packNames.add(n);
    packRules += g.names.size;
  }
  await place(pack);
  return { units, rules: map, skipped };
}

function makeGroup(members: StoredYaraRule[]): Group {
  const imports = new Set<string>();
  const bodies: string[] = [];
  for (const rule of members) {
    const split = splitImports(rule.source);
    for (const name of split.imports) imports.add(name);
    bodies.push(split.body);
  }
  const body = bodies.join('\n');
  const info = parseYaraSource(body);
  return {
    rules: members,
    imports,
    body,
    names: new Set(info.rules.map((r) => r.name)),
    hasGlobal: info.rules.some((r) => r.modifiers.includes('global')),
  };
}

function unitSource(members: readonly Group[]): string {
  const imports = new Set(members.flatMap((g) => [...g.imports]));
  const head = [...imports].map((name) => `import "${name}"`).join('\n');
  return `${head}\n${members.map((g) => g.body).join('\n')}\n`;
}
