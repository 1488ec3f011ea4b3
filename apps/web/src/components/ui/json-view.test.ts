import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../test/answers';
import { jsonTokens } from './json-view';

const text = (value: unknown) =>
  jsonTokens(value)
    .map((token) => token.text)
    .join('');

describe('jsonTokens', () => {
  it('prints the same text as JSON.stringify with two spaces', () => {
    const value = { a: 1, b: ['x', true, null, { c: -2.5 }], d: {}, e: [], f: 'quote " and \n newline' };
    expect(text(value)).toBe(JSON.stringify(value, null, 2));
  });

  it('tags keys, strings, numbers and literals with their syntax colours', () => {
    const tokens = jsonTokens({ name: 'dns', port: 53, ok: false });
    const kindOf = (piece: string) => tokens.find((token) => token.text === piece)?.kind;
    expectAnswers(kindOf, [
      ['"name"', 'property'],
      ['"dns"', 'string'],
      ['53', 'number'],
      ['false', 'keyword'],
      ['{', 'punctuation'],
    ]);
  });

  it('keeps markup as text', () => {
    expect(text('<img src=x onerror=alert(1)>')).toBe('"<img src=x onerror=alert(1)>"');
  });
});
