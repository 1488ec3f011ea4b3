import { compileCondition, type CompiledSearch } from './condition';
import { compileFieldItem, readKey, type CompileOptions, type CompiledItem } from './field-item';
import { logsourceTarget, type LogsourceTarget } from './logsource';
import { allOf, anyOf, needleOf, type Needles } from './needles';
import { parseSigmaYaml, type ParseOptions, type ParsedRule } from './parse';
import { SigmaRefusal, type EventView, type SigmaRuleInfo } from './types';
import { STAR, longestLiteral, lowerPieces, parseSigmaString, patternMatcher } from './wildcards';

/*
 * A rule compiled once into a matcher: its searches, its condition over them, the events it
 * applies to (logsource.ts) and the needles the engine's prefilter looks for.
 */

export interface CompiledRule {
  readonly info: SigmaRuleInfo;
  readonly target: LogsourceTarget;
  /** Texts of which one appears in every event the rule matches; null when the rule must see all its events. */
  readonly needles: Needles;
  /** The event fields the rule reads. */
  readonly fields: readonly string[];
  matches(view: EventView): boolean;
}

export interface SigmaCompileOptions extends ParseOptions {
  /** Values of `%placeholder%`s for the `expand` modifier; a rule using another placeholder is refused. */
  readonly placeholders?: ReadonlyMap<string, readonly string[]>;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A keyword: found anywhere in the event's text (case ignored unless cased). */
function keywordItem(values: unknown[], modifiers: string, name: string): CompiledItem {
  const { transforms, match, flags } = readKey(`keywords${modifiers}`);
  if (transforms.length > 0 || (match !== null && match !== 'contains')) {
    throw new SigmaRefusal(
      `keyword search '${name}' uses modifiers other than 'all', 'cased' and 'contains', which are not supported`,
    );
  }
  const cased = flags.has('cased');
  const tests = values.map((v) => {
    if (v === null || typeof v === 'object') throw new SigmaRefusal(`keyword search '${name}' must list texts`);
    let pieces = parseSigmaString(String(v));
    if (pieces[0] !== STAR) pieces = [STAR, ...pieces];
    if (pieces.at(-1) !== STAR || pieces.length === 1) pieces = [...pieces, STAR];
    const ready = cased ? pieces : lowerPieces(pieces);
    return { test: patternMatcher(ready), needles: needleOf(longestLiteral(ready)) };
  });
  const found = (view: EventView, test: (t: string) => boolean) => view.texts(cased).some(test);
  if (flags.has('all')) {
    return {
      test: (view) => tests.every((t) => found(view, t.test)),
      needles: allOf(tests.map((t) => t.needles)),
      fields: [],
    };
  }
  return {
    test: (view) => tests.some((t) => found(view, t.test)),
    needles: anyOf(tests.map((t) => t.needles)),
    fields: [],
  };
}

/** A map of field items: all must match. */
function mapSearch(map: Record<string, unknown>, name: string, options: CompileOptions): CompiledItem {
  const items = Object.entries(map).map(([key, value]) =>
    key === '' || key.startsWith('|')
      ? keywordItem(Array.isArray(value) ? value : [value], key, name)
      : compileFieldItem(key, value, options),
  );
  if (items.length === 0) throw new SigmaRefusal(`search '${name}' is empty`);
  return {
    test: (view) => items.every((i) => i.test(view)),
    needles: allOf(items.map((i) => i.needles)),
    fields: items.flatMap((i) => i.fields),
  };
}

function compileSearch(name: string, value: unknown, options: CompileOptions): CompiledItem {
  if (isMap(value)) return mapSearch(value, name, options);
  if (Array.isArray(value)) {
    if (value.length === 0) throw new SigmaRefusal(`search '${name}' is an empty list`);
    if (value.every(isMap)) {
      const maps = value.map((m) => mapSearch(m, name, options));
      return {
        test: (view) => maps.some((m) => m.test(view)),
        needles: anyOf(maps.map((m) => m.needles)),
        fields: maps.flatMap((m) => m.fields),
      };
    }
    if (value.some(isMap) || value.some(Array.isArray)) {
      throw new SigmaRefusal(`search '${name}' mixes field maps and keywords in one list`);
    }
    return keywordItem(value, '', name);
  }
  if (typeof value === 'string' || typeof value === 'number') return keywordItem([value], '', name);
  throw new SigmaRefusal(`search '${name}' is neither a map of fields nor a list`);
}

/** Compiles a parsed rule; throws SigmaRefusal with the reason it cannot run. */
export function compileParsed(parsed: ParsedRule, options: SigmaCompileOptions = {}): CompiledRule {
  const target = logsourceTarget(parsed.info.logsource);
  const itemOptions: CompileOptions = { placeholders: options.placeholders ?? new Map() };
  const searches = new Map<string, CompiledSearch>();
  const fields = new Set<string>();
  for (const [name, value] of parsed.detection.searches) {
    const search = compileSearch(name, value, itemOptions);
    for (const f of search.fields) fields.add(f);
    searches.set(name, search);
  }
  const conditions = parsed.detection.conditions.map((c) => compileCondition(c, searches));
  const matches =
    conditions.length === 1 ? conditions[0]!.test : (view: EventView) => conditions.some((c) => c.test(view));
  return {
    info: parsed.info,
    target,
    needles: anyOf(conditions.map((c) => c.needles)),
    fields: [...fields],
    matches,
  };
}

/** Parses and compiles the YAML of one rule; throws SigmaRefusal. */
export function compileSigmaRule(source: string, options: SigmaCompileOptions = {}): CompiledRule {
  return compileParsed(parseSigmaYaml(source, options), options);
}
