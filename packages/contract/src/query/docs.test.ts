import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkQuery } from './check';
import { freeTextFields, searchFields, searchKinds } from './fields';
import { parseQuery } from './parse';

/** The page in each language, with the words its examples heading, many-valued mark and free-text line use. */
const pages = [
  {
    file: 'query-language.md',
    examplesHeading: 'What a query looks like',
    yes: 'yes',
    freeText: 'Free text is looked for in:',
  },
  {
    file: 'query-language.ru.md',
    examplesHeading: 'Как выглядит запрос',
    yes: 'да',
    freeText: 'Свободный текст ищется в полях:',
  },
];

describe.each(pages)('docs/$file', (page) => {
  const documentation = readFileSync(fileURLToPath(new URL(`../../../../docs/${page.file}`, import.meta.url)), 'utf8');

  /** The text of the `### \`kind\`` section, up to the next heading. */
  function kindSection(kind: string): string {
    const start = documentation.indexOf(`### \`${kind}\``);
    if (start < 0) return '';
    const rest = documentation.slice(documentation.indexOf('\n', start) + 1);
    const next = rest.search(/^#{2,3} /m);
    return next < 0 ? rest : rest.slice(0, next);
  }

  it.each(searchKinds)('lists every field of %s with its type, and its free-text fields', (kind) => {
    const section = kindSection(kind);
    expect(section, `no section for ${kind}`).not.toBe('');
    const fields: Record<string, { type: string; many?: boolean }> = searchFields[kind];
    for (const [name, field] of Object.entries(fields)) {
      const row = new RegExp(
        `^\\| \`${name.replace('.', '\\.')}\`\\s*\\| ${field.type}\\s*\\| ${field.many ? page.yes : ''}\\s*\\|$`,
        'm',
      );
      expect(section, `${kind}.${name} (${field.type}${field.many ? ', many' : ''})`).toMatch(row);
    }
    const rows = section.match(/^\| `[^`]+`/gm) ?? [];
    expect(rows, 'a row for a field the kind does not have').toHaveLength(Object.keys(fields).length);
    const freeText = new RegExp(`^${page.freeText} (.*)\\.$`, 'm').exec(section)?.[1] ?? '';
    expect(freeText.split(', ').map((name) => name.replaceAll('`', ''))).toEqual([...freeTextFields[kind]]);
  });

  it('shows example queries that read and check for some kind', () => {
    const examples =
      new RegExp(`## ${page.examplesHeading}\\n\\n\`\`\`\\n([\\s\\S]*?)\`\`\``)
        .exec(documentation)?.[1]
        ?.trim()
        .split('\n') ?? [];
    expect(examples.length).toBeGreaterThan(3);
    for (const example of examples) {
      const result = parseQuery(example);
      expect(result.ok, example).toBe(true);
      if (!result.ok || !result.ast) continue;
      const ast = result.ast;
      expect(
        searchKinds.some((kind) => checkQuery(ast, [kind]).length === 0),
        example,
      ).toBe(true);
    }
  });
});
