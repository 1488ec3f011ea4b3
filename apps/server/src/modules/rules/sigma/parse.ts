import { parseAllDocuments } from 'yaml';
import { SigmaRefusal, type SigmaLogsource, type SigmaRuleInfo } from './types';

/*
 * Reading a Sigma rule file: its YAML, its descriptive fields, and its detection block as it was
 * written. The YAML is read with the YAML 1.1 schema, as the Sigma tools read it (an unquoted
 * `0x10` is a number there too); the detection is compiled elsewhere (compile.ts).
 */

/** The detection block: named searches and the condition over them. */
export interface SigmaDetection {
  readonly searches: ReadonlyMap<string, unknown>;
  readonly conditions: readonly string[];
}

export interface ParsedRule {
  readonly info: SigmaRuleInfo;
  readonly detection: SigmaDetection;
}

/** SigmaHQ's rules are released under the Detection Rule License 1.1 unless a rule says otherwise. */
export const SIGMAHQ_LICENSE = 'DRL-1.1';

export interface ParseOptions {
  /** The licence of rules that do not name their own (the source's licence); none when unknown. */
  readonly defaultLicense?: string | null;
}

type Json = Record<string, unknown>;

const isMap = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function text(rule: Json, key: string): string | null {
  const value = rule[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  throw new SigmaRefusal(`'${key}' must be text`);
}

function textList(rule: Json, key: string): string[] {
  const value = rule[key];
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items
    .filter((item) => item !== null && item !== undefined)
    .map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
}

/** `attack.t1003.001` → `T1003.001`; other tags are not techniques. */
export function techniqueOf(tag: string): string | null {
  const m = /^attack\.(t\d{4}(?:\.\d{3})?)$/i.exec(tag.trim());
  return m ? m[1]!.toUpperCase() : null;
}

/** `attack.credential-access` → `credential-access` (names, not technique, group or software ids). */
function tacticOf(tag: string): string | null {
  const m = /^attack\.([a-z][a-z_-]+)$/i.exec(tag.trim());
  return m ? m[1]!.toLowerCase().replaceAll('_', '-') : null;
}

function logsourceOf(rule: Json): SigmaLogsource {
  const source = rule.logsource;
  if (!isMap(source)) throw new SigmaRefusal("the rule has no 'logsource' section");
  const field = (key: string) => {
    const value = source[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new SigmaRefusal(`logsource '${key}' must be text`);
    return value.trim().toLowerCase() || null;
  };
  return { product: field('product'), category: field('category'), service: field('service') };
}

function detectionOf(rule: Json): SigmaDetection {
  const detection = rule.detection;
  if (!isMap(detection)) throw new SigmaRefusal("the rule has no 'detection' section");
  const condition = detection.condition;
  const conditions = Array.isArray(condition) ? condition : [condition];
  if (condition === undefined || condition === null || conditions.length === 0) {
    throw new SigmaRefusal("the detection has no 'condition'");
  }
  for (const c of conditions) {
    if (typeof c !== 'string' || c.trim() === '') throw new SigmaRefusal('the condition must be text');
  }
  if (Object.hasOwn(detection, 'timeframe')) {
    throw new SigmaRefusal("'timeframe' needs counting events over time: correlation rules are not supported");
  }
  const searches = new Map<string, unknown>();
  for (const [name, value] of Object.entries(detection)) {
    if (name !== 'condition') searches.set(name, value);
  }
  return { searches, conditions: conditions as string[] };
}

/** The rule of one YAML document that is already a map; throws SigmaRefusal. */
export function readRule(rule: Json, options: ParseOptions = {}): ParsedRule {
  if (Object.hasOwn(rule, 'correlation')) throw new SigmaRefusal('correlation rules are not supported');
  if (Object.hasOwn(rule, 'filter') && !Object.hasOwn(rule, 'detection')) {
    throw new SigmaRefusal('filter rules (which change other rules) are not supported');
  }
  if (rule.action === 'global' || rule.action === 'reset' || rule.action === 'repeat') {
    throw new SigmaRefusal(`rule collections ('action: ${String(rule.action)}') are not supported`);
  }
  const title = text(rule, 'title');
  if (title === null) throw new SigmaRefusal("the rule has no 'title'");
  const id = text(rule, 'id');
  if (id === null) throw new SigmaRefusal("the rule has no 'id'");
  const tags = textList(rule, 'tags');
  const techniques = [...new Set(tags.map(techniqueOf).filter((t): t is string => t !== null))];
  const tactics = [...new Set(tags.map(tacticOf).filter((t): t is string => t !== null))];
  const info: SigmaRuleInfo = {
    id,
    title,
    description: text(rule, 'description'),
    status: text(rule, 'status'),
    level: text(rule, 'level')?.toLowerCase() ?? null,
    tags,
    techniques,
    tactics,
    author: text(rule, 'author'),
    references: textList(rule, 'references'),
    license: text(rule, 'license') ?? options.defaultLicense ?? null,
    logsource: logsourceOf(rule),
    falsepositives: textList(rule, 'falsepositives'),
  };
  return { info, detection: detectionOf(rule) };
}

/** Parses the YAML of one rule file; throws SigmaRefusal naming what is wrong. */
export function parseSigmaYaml(source: string, options: ParseOptions = {}): ParsedRule {
  const documents = parseAllDocuments(source, { schema: 'yaml-1.1', uniqueKeys: true });
  if (!Array.isArray(documents)) throw new SigmaRefusal('the file holds no YAML document');
  const present = documents.filter((d) => d.contents !== null);
  if (present.length === 0) throw new SigmaRefusal('the file holds no YAML document');
  if (present.length > 1) {
    throw new SigmaRefusal(`the file holds ${present.length} YAML documents: rule collections are not supported`);
  }
  const document = present[0]!;
  if (document.errors.length > 0) throw new SigmaRefusal(`the YAML does not parse: ${document.errors[0]!.message}`);
  const rule: unknown = document.toJS({ maxAliasCount: 100 });
  if (!isMap(rule)) throw new SigmaRefusal('the YAML document is not a map of rule fields');
  return readRule(rule, options);
}
