import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ru } from './locales/ru';

/*
 * The Russian dictionary against the glossary (docs/glossary.md): one term for each English one, and no
 * English left untranslated. Both lists are read from the glossary itself, so the document and the check
 * cannot drift apart.
 */

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

const glossary = readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/glossary.md'), 'utf8');

/** The text of a `##`/`###` section, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = glossary.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`the glossary has no section "${heading}"`);
  const level = heading.split(' ')[0]!;
  const rest = glossary.slice(start + heading.length + 1);
  const next = rest.search(new RegExp(`^#{2,${level.length}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

/** Rows of the terms table: the English term, the Russian one, and the variants not used. */
const terms = section('## Terms')
  .split('\n')
  .filter((line) => line.startsWith('|'))
  .map((line) => line.split('|').map((cell) => cell.trim()))
  .filter((cells) => cells[1] !== 'English' && !/^-+$/.test(cells[1] ?? ''))
  .map((cells) => ({
    english: cells[1]!,
    russian: cells[2]!,
    variants: (cells[3] ?? '')
      .split(',')
      .map((variant) => variant.trim())
      .filter(Boolean),
  }));

/** Latin-letter words the Russian texts may hold: brands, protocols, standards, technical tokens. */
const tokens = [...section('### Tokens').matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A variant as a pattern: whole words, `*` any ending, any space between words, any case. */
function variantPattern(variant: string): RegExp {
  const words = variant.split(/\s+/).map((word) => word.split('*').map(escape).join('\\p{L}*'));
  return new RegExp(`(?<!\\p{L})${words.join('\\s+')}(?!\\p{L})`, 'iu');
}

/** What is left of a text once placeholders and the allowed tokens are taken out: its English words. */
function englishWords(text: string): string[] {
  let rest = text.replace(/\{\{\s*\w+\s*\}\}/g, ' ');
  for (const token of [...tokens].sort((a, b) => b.length - a.length)) {
    rest = rest.replace(new RegExp(`(?<![A-Za-z])${escape(token)}(?![A-Za-z])`, 'g'), ' ');
  }
  return rest.match(/[A-Za-z]+/g) ?? [];
}

const russian = leaves(ru as unknown as Tree);

describe('the glossary', () => {
  it('is read: terms with their variants, and the tokens kept in Latin letters', () => {
    expect(terms.length).toBeGreaterThan(40);
    expect(terms.find((term) => term.english === 'alert')).toEqual({
      english: 'alert',
      russian: 'алерт',
      variants: ['оповещени*'],
    });
    expect(tokens).toEqual(expect.arrayContaining(['DNS', 'TLS', 'URL', 'SHA-256', 'MITRE ATT&CK', 'IP']));
  });

  it('finds variants as whole words, in any form and case', () => {
    expect(variantPattern('оповещени*').test('Новые оповещения')).toBe(true);
    expect(variantPattern('тег').test('Категория')).toBe(false);
    expect(variantPattern('тег').test('Добавить тег')).toBe(true);
    expect(variantPattern('конечн* точ*').test('События конечных точек')).toBe(true);
    expect(englishWords('Открыть {{count}} алертов в MITRE ATT&CK')).toEqual([]);
    expect(englishWords('closed · timeout')).toEqual(['closed', 'timeout']);
    expect(englishWords('API-токен и file-create')).toEqual(['file', 'create']);
  });
});

describe('the Russian dictionary', () => {
  it('uses one term for each English one: no variant the glossary rules out', () => {
    const found: string[] = [];
    for (const term of terms) {
      for (const variant of term.variants) {
        const pattern = variantPattern(variant);
        for (const [key, text] of russian) {
          if (pattern.test(text))
            found.push(`${key}: "${text}" says "${variant}" for ${term.english} (use ${term.russian})`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('leaves no English word untranslated', () => {
    const found = russian
      .map(([key, text]) => [key, englishWords(text)] as const)
      .filter(([, words]) => words.length > 0)
      .map(([key, words]) => `${key}: ${words.join(' ')}`);
    expect(found).toEqual([]);
  });
});
