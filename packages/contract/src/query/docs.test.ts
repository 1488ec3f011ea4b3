import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkQuery } from './check';
import { freeTextFields, searchFields, searchKinds } from './fields';
import { parseQuery } from './parse';

const documentation = readFileSync(
  fileURLToPath(new URL('../../../../docs/query-language.md', import.meta.url)),
  'utf8',
);

/** The text of the `### \`kind\`` section, up to the next heading. */
function kindSection(kind: string): string {
  const start = documentation.indexOf(`### \`${kind}\``);
  if (start < 0) return '';
  const rest = documentation.slice(documentation.indexOf('\n', start) + 1);
  const next = rest.search(/^#{2,3} /m);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('docs/query-language.md', () => {
  it.each(searchKinds)('lists every field of %s with its type, and its free-text fields', (kind) => {
    const section = kindSection(kind);
    expect(section, `no section for ${kind}`).not.toBe('');
    const fields: Record<string, { type: string; many?: boolean }> = searchFields[kind];
    for (const [name, field] of Object.entries(fields)) {
      const row = new RegExp(
        `^\\| \`${name.replace('.', '\\.')}\`\\s*\\| ${field.type}\\s*\\| ${field.many ? 'yes' : ''}\\s*\\|$`,
        'm',
      );
      expect(section, `${kind}.${name} (${field.type}${field.many ? ', many' : ''})`).toMatch(row);
    }
    const rows = section.match(/^\| `[^`]+`/gm) ?? [];
    expect(rows, 'a row for a field the kind does not have').toHaveLength(Object.keys(fields).length);
    const freeText = section.match(/^Free text is looked for in: (.*)\.$/m)?.[1] ?? '';
    expect(freeText.split(', ').map((name) => name.replaceAll('`', ''))).toEqual([...freeTextFields[kind]]);
  });

  it('shows example queries that read and check for some kind', () => {
    const examples =
      documentation
        .match(/## What a query looks like\n\n```\n([\s\S]*?)```/)?.[1]
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
