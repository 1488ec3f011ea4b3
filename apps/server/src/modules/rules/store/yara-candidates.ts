import path from 'node:path';
import type { AlertSeverity } from '../../pipeline/detections';
import { checkYaraSource } from '../yara/yara-compile';
import { metaObject, parseYaraSource, type YaraRuleInfo } from '../yara/yara-source';
import { distinct, levelOfScore, levelOfWord, type FileReading } from './candidate-fields';

/** A YARA rule's level: its meta `severity` (a word or a 0–100 score), else `score`, else medium. */
export function yaraLevel(rule: YaraRuleInfo): AlertSeverity {
  const meta = metaObject(rule);
  const severity = meta.severity;
  if (typeof severity === 'string') {
    const word = levelOfWord(severity);
    if (word) return word;
    if (/^\d+$/.test(severity.trim())) return levelOfScore(Number(severity));
  }
  if (typeof severity === 'number') return levelOfScore(severity);
  const score = meta.score;
  if (typeof score === 'number') return levelOfScore(score);
  if (typeof score === 'string' && /^\d+$/.test(score.trim())) return levelOfScore(Number(score));
  return 'medium';
}

/**
 * The rules of a YARA file, each stored with a source that compiles on its own: the file's imports
 * and the rule's text. A rule that needs other rules of its file (private rules it names, rule sets
 * in its condition) is stored with the whole file text instead (`details.whole_file`). A file that
 * does not compile has each rule tried alone: those that compile are kept, the others refused with
 * the compiler's reason and line.
 */
export function yaraCandidates(file: string, content: string): FileReading {
  const name = path.basename(file);
  const info = parseYaraSource(content);
  if (info.includes.length > 0) {
    return {
      rules: [],
      rejected: [
        {
          file,
          line: 1,
          rule: '',
          reason: `the file includes other files (${info.includes.join(', ')}); put the included rules in the imported files instead`,
        },
      ],
    };
  }
  const whole = checkYaraSource(content);
  if (info.rules.length === 0) {
    const line = whole.ok ? 1 : (whole.errors[0]?.line ?? 1);
    return {
      rules: [],
      rejected: [{ file, line, rule: '', reason: whole.ok ? 'the file holds no YARA rule' : whole.reason }],
    };
  }
  const lines = content.split('\n');
  const header = info.imports.map((m) => `import "${m}"`).join('\n');
  const headerLines = header === '' ? 0 : info.imports.length + 1;
  const reading: FileReading = { rules: [], rejected: [] };
  info.rules.forEach((rule, i) => {
    const end = info.rules[i + 1]?.line ?? lines.length + 1;
    const text = lines
      .slice(rule.line - 1, end - 1)
      .join('\n')
      .trimEnd();
    const piece = header === '' ? `${text}\n` : `${header}\n\n${text}\n`;
    const alone = checkYaraSource(piece);
    let source: string;
    if (alone.ok) source = piece;
    else if (whole.ok) source = content;
    else {
      const at = alone.errors[0]?.line;
      // Lines of the piece after the imports are the rule's own lines in the file.
      const line = at !== null && at !== undefined && at > headerLines ? rule.line + at - headerLines - 1 : rule.line;
      const reason = alone.reason.replace(/^line \d+: /, '');
      reading.rejected.push({ file, line, rule: rule.name, reason });
      return;
    }
    const meta = metaObject(rule);
    reading.rules.push({
      file,
      line: rule.line,
      key: `${name}:${rule.name}`,
      title: rule.name,
      description: rule.description ?? '',
      level: yaraLevel(rule),
      tags: distinct(rule.tags),
      techniques: distinct([...rule.mitreTechniqueIds, ...rule.mitreTacticIds]),
      author: rule.author ?? '',
      references: rule.reference ? [rule.reference] : [],
      licence: rule.license ?? '',
      details: {
        name: rule.name,
        file: name,
        modifiers: rule.modifiers,
        imports: info.imports,
        meta,
        whole_file: source === content,
      },
      source,
      enabled: true,
      unsupported: null,
    });
  });
  return reading;
}
