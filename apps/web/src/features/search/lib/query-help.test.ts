import { searchFields, searchKinds } from '@vigil/contract/query';
import { describe, expect, it } from 'vitest';
import { search as en } from '../../../lib/i18n/locales/en/search';
import { search as ru } from '../../../lib/i18n/locales/ru/search';
import { queryProblem } from './query-problems';
import { helpFields, helpSectionIds, helpSections, placeholdersOf, splitPlaceholders } from './query-help';

describe('the query-language help', () => {
  it('has every section once, in order, each with examples', () => {
    expect(helpSections.map((section) => section.id)).toEqual([...helpSectionIds]);
    for (const section of helpSections) expect(section.examples.length, section.id).toBeGreaterThan(0);
  });

  it('shows examples that read and check for some kind of data', () => {
    for (const example of helpSections.flatMap((section) => section.examples)) {
      expect(
        searchKinds.some((kind) => queryProblem(example, [kind]) === null),
        example,
      ).toBe(true);
    }
  });

  it('has a title and a text in both languages, their placeholders the section’s code bits', () => {
    for (const section of helpSections) {
      const codes = Object.keys(section.codes).sort();
      for (const [language, texts] of [
        ['en', en.help.sections],
        ['ru', ru.help.sections],
      ] as const) {
        const { title, text } = texts[section.id];
        expect(title, `${language} ${section.id}`).not.toBe('');
        expect([...new Set(placeholdersOf(text))].sort(), `${language} ${section.id}`).toEqual(codes);
      }
    }
  });

  it('lists every field of every kind from the catalogue, with its type and marks', () => {
    for (const kind of searchKinds) {
      const fields = helpFields(kind);
      expect(fields.map((field) => field.name)).toEqual(Object.keys(searchFields[kind]));
      for (const field of fields) {
        const declared: { type: string; many?: boolean } = searchFields[kind][field.name as never];
        expect(field.type, `${kind}.${field.name}`).toBe(declared.type);
        expect(field.many, `${kind}.${field.name}`).toBe(declared.many === true);
        expect(en.fieldTypes[field.type]).toBeTruthy();
        expect(ru.fieldTypes[field.type]).toBeTruthy();
      }
    }
    expect(helpFields('mail').find((field) => field.name === 'recipient')).toEqual({
      name: 'recipient',
      type: 'keyword',
      many: true,
      freeText: true,
    });
    expect(helpFields('network').find((field) => field.name === 'dest_port')?.freeText).toBe(false);
  });

  it('cuts a text at its placeholders', () => {
    expect(splitPlaceholders('{{not}} binds tightest, then {{ and }}.')).toEqual([
      { code: 'not' },
      { text: ' binds tightest, then ' },
      { code: 'and' },
      { text: '.' },
    ]);
    expect(splitPlaceholders('no code')).toEqual([{ text: 'no code' }]);
  });
});
