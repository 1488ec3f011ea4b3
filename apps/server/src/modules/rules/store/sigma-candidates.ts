import { parseAllDocuments } from 'yaml';
import { printable } from '../../../safe-text';
import { compileSigmaRule } from '../sigma/compile';
import { techniqueOf } from '../sigma/parse';
import { SigmaRefusal } from '../sigma/types';
import { ATTACK_TACTICS, distinct, levelOfWord, type FileReading } from './candidate-fields';

type Json = Record<string, unknown>;
const isMap = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field as one text: strings as they are, numbers and dates written out, anything else empty. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return '';
}

function textsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return distinct(items.map(textOf));
}

/** `attack.credential-access` → TA0006, for the tactics ATT&CK names. */
function tacticIdOf(tag: string): string | null {
  const m = /^attack\.([a-z][a-z_-]+)$/i.exec(tag.trim());
  return m ? (ATTACK_TACTICS[m[1]!.toLowerCase().replaceAll('_', '-')] ?? null) : null;
}

/** Dates (YAML 1.1 reads `2023/01/02` as one) as `YYYY-MM-DD`, everything else as JSON has it. */
function plain(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, function (this: Json, key: string, v: unknown) {
      const raw = this[key];
      return raw instanceof Date ? raw.toISOString().slice(0, 10) : v;
    }),
  ) as unknown;
}

/**
 * The rule of a Sigma file (one YAML document). A file that is not YAML, not one rule, or has no
 * `id` or `title` is refused; a rule the engine cannot run (a correlation rule, an unknown
 * modifier) is kept, disabled, with the engine's reason.
 */
export function sigmaCandidates(file: string, content: string): FileReading {
  const reject = (line: number, reason: string, rule = ''): FileReading => ({
    rules: [],
    rejected: [{ file, line, rule, reason }],
  });
  let documents;
  try {
    documents = parseAllDocuments(content, { schema: 'yaml-1.1', uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    return reject(1, `the YAML does not parse: ${printable(String(error), 300)}`);
  }
  if (!Array.isArray(documents)) return reject(1, 'the file holds no YAML document');
  const present = documents.filter((d) => d.contents !== null);
  if (present.length === 0) return reject(1, 'the file holds no YAML document');
  for (const document of present) {
    const error = document.errors[0];
    if (error) {
      const line = content.slice(0, error.pos[0]).split('\n').length;
      return reject(line, `the YAML does not parse: ${printable(error.message.split('\n')[0] ?? '', 300)}`);
    }
  }
  if (present.length > 1) {
    return reject(
      1,
      `the file holds ${present.length} YAML documents: a rule collection is not supported; give each rule its own file`,
    );
  }
  const rule = present[0]!.toJS({ maxAliasCount: 100 }) as unknown;
  if (!isMap(rule)) return reject(1, 'the file is not a Sigma rule: its YAML is not a map of fields');
  const id = textOf(rule.id);
  const title = textOf(rule.title);
  if (id === '')
    return reject(1, "the rule has no 'id': every rule needs its own id (a UUID) to be stored and updated");
  if (title === '') return reject(1, "the rule has no 'title'", id);
  if (id.length > 200) return reject(1, "the rule's 'id' is longer than 200 characters", printable(id, 60));

  let unsupported: string | null = null;
  try {
    compileSigmaRule(content);
  } catch (error) {
    if (!(error instanceof SigmaRefusal)) throw error;
    unsupported = error.message;
  }
  const tags = textsOf(rule.tags);
  const logsource = isMap(rule.logsource) ? rule.logsource : {};
  const levelWord = textOf(rule.level);
  return {
    rejected: [],
    rules: [
      {
        file,
        line: 1,
        key: id,
        title,
        description: textOf(rule.description),
        level: levelOfWord(levelWord) ?? 'medium',
        tags,
        techniques: distinct([
          ...tags.map(techniqueOf).filter((t): t is string => t !== null),
          ...tags.map(tacticIdOf).filter((t): t is string => t !== null),
        ]),
        author: textOf(rule.author),
        references: textsOf(rule.references),
        licence: textOf(rule.license),
        details: plain({
          status: textOf(rule.status) || null,
          level: levelWord || null,
          date: textOf(rule.date) || null,
          modified: textOf(rule.modified) || null,
          logsource: {
            product: textOf(logsource.product) || null,
            category: textOf(logsource.category) || null,
            service: textOf(logsource.service) || null,
          },
          falsepositives: textsOf(rule.falsepositives),
          correlation: isMap(rule.correlation),
        }) as Record<string, unknown>,
        source: content,
        enabled: unsupported === null,
        unsupported,
      },
    ],
  };
}
