import { parseRule } from './rule-parser';
import { RULE_ACTIONS, type SuricataRule } from './rule-types';

/** A rule the parser took, with the line its text starts on. */
export interface ParsedRuleLine {
  line: number;
  rule: SuricataRule;
}

/** A rule the parser refused: the line it starts on, why, and its text. */
export interface RefusedRule {
  line: number;
  reason: string;
  text: string;
}

export interface RulesFileResult {
  rules: ParsedRuleLine[];
  refused: RefusedRule[];
}

/** One logical entry of a rules file: lines ending in `\` joined with the next. */
interface Entry {
  line: number;
  text: string;
}

function entriesOf(content: string): Entry[] {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  const entries: Entry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!;
    const commented = text.trimStart().startsWith('#');
    while (text.trimEnd().endsWith('\\') && i + 1 < lines.length) {
      i++;
      let next = lines[i]!;
      // A commented-out rule over several lines has its mark on each of them.
      if (commented) next = next.replace(/^\s*#/, '');
      text = `${text.trimEnd().slice(0, -1)}${next}`;
    }
    entries.push({ line: start + 1, text });
  }
  return entries;
}

const ACTION_START = new RegExp(`^(?:${RULE_ACTIONS.join('|')})\\s`);

/**
 * Parses a rules file. Blank lines and comments are skipped. A comment that parses as a whole
 * rule (`# alert …`) is a disabled rule: kept with `enabled: false`, so an export writes it back
 * commented out; a comment that only starts like one (`# alert on …` prose) stays a comment.
 * A rule whose gid and sid repeat an enabled rule's earlier in the file is refused, as Suricata
 * loads only the first.
 */
export function parseRulesFile(content: string): RulesFileResult {
  const rules: ParsedRuleLine[] = [];
  const refused: RefusedRule[] = [];
  const firstLine = new Map<string, number>();
  for (const entry of entriesOf(content)) {
    const trimmed = entry.text.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      const inner = trimmed.replace(/^#+\s*/, '');
      if (!ACTION_START.test(inner)) continue;
      const parsed = parseRule(inner);
      if (parsed.ok) rules.push({ line: entry.line, rule: { ...parsed.value, enabled: false } });
      continue;
    }
    const parsed = parseRule(trimmed);
    if (!parsed.ok) {
      refused.push({ line: entry.line, reason: parsed.reason, text: trimmed });
      continue;
    }
    const key = `${parsed.value.gid}:${parsed.value.sid}`;
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      refused.push({
        line: entry.line,
        reason: `sid ${parsed.value.sid} (gid ${parsed.value.gid}) is already used by the rule on line ${earlier}`,
        text: trimmed,
      });
      continue;
    }
    firstLine.set(key, entry.line);
    rules.push({ line: entry.line, rule: parsed.value });
  }
  return { rules, refused };
}
