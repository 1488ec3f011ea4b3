import { describe, expect, it } from 'vitest';
import { en } from './locales/en';
import { ru } from './locales/ru';

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [inner, text] of leaves(value, path)) found.set(inner, text);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('translations', () => {
  const languages = { en: leaves(en), ru: leaves(ru) };

  it('English and Russian have exactly the same keys', () => {
    const english = [...languages.en.keys()].sort();
    const russian = [...languages.ru.keys()].sort();
    expect(russian.filter((key) => !languages.en.has(key))).toEqual([]);
    expect(english.filter((key) => !languages.ru.has(key))).toEqual([]);
  });

  it('no text is empty, and both languages use the same placeholders', () => {
    for (const [name, texts] of Object.entries(languages)) {
      for (const [key, text] of texts) expect(text.trim(), `${name}: ${key}`).not.toBe('');
    }
    for (const [key, text] of languages.en) {
      expect(placeholders(languages.ru.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });
});
