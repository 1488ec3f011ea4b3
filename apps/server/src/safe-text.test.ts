import { describe, expect, it } from 'vitest';
import { loggable, printable, unstorableText, unstorableTextErrors } from './safe-text';

describe('unstorableText', () => {
  it('finds NUL and half of a surrogate pair, and nothing in other text', () => {
    expect(unstorableText('a\u0000b')).toBe('nul');
    expect(unstorableText('a\ud800b')).toBe('surrogate');
    expect(unstorableText('\udc00')).toBe('surrogate');
    expect(unstorableText('a\ud83d\ude00b \u0001 \ufffd Проверка')).toBeNull();
  });
});

describe('printable', () => {
  it('writes out control characters, lone surrogates and invisible reordering marks', () => {
    expect(printable('a\u0000b\u001fc\u007f\u0085\ud800\u2028\u202e d')).toBe(
      'a\\x00b\\x1fc\\x7f\\x85\\ud800\\u2028\\u202e d',
    );
    expect(printable('Проверка 😀 "ok"')).toBe('Проверка 😀 "ok"');
  });

  it('cuts long text without splitting a character', () => {
    expect(printable('abcdef', 3)).toBe('abc…');
    expect(printable('ab😀', 3)).toBe('ab…');
    expect(printable('\u0000'.repeat(10), 2)).toBe('\\x00\\x00…');
  });
});

describe('loggable', () => {
  it('writes out NUL and lone surrogates and keeps line breaks', () => {
    expect(loggable('a\u0000b\nc\udc00')).toBe('a\\x00b\nc\\udc00');
  });
});

describe('unstorableTextErrors', () => {
  it('names every key or value that cannot be stored by its path, at any depth', () => {
    const errors = unstorableTextErrors({
      search: 'ok',
      filter: { tags: ['fine', 'b\u0000'], ['k\u0000']: 1 },
      list: [{ deep: '\ud800' }],
    });
    expect(Object.keys(errors ?? {}).sort()).toEqual(['filter.k\\x00', 'filter.tags.1', 'list.0.deep']);
    expect(errors?.['list.0.deep']?.[0]).toMatch(/surrogate/);
    expect(errors?.['filter.tags.1']?.[0]).toMatch(/NUL/);
  });

  it('answers null for clean input, and leaves bytes alone', () => {
    expect(unstorableTextErrors({ a: ['x', 1, null, true, { b: 'y' }] })).toBeNull();
    expect(unstorableTextErrors(Buffer.from([0, 0]))).toBeNull();
    expect(unstorableTextErrors(undefined)).toBeNull();
  });

  it('names a bare string as non_field_errors, and walks objects without a prototype', () => {
    expect(Object.keys(unstorableTextErrors('\u0000') ?? {})).toEqual(['non_field_errors']);
    const query = Object.create(Object.create(null) as object) as Record<string, string>;
    query.ordering = 'name\u0000';
    expect(Object.keys(unstorableTextErrors(query) ?? {})).toEqual(['ordering']);
  });

  it('walks any depth without exhausting the stack, and names at most 20 fields', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(Object.keys(unstorableTextErrors(deep) ?? {})).toEqual([`${'0.'.repeat(32)}…`]);
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, '\u0000']));
    expect(Object.keys(unstorableTextErrors(many) ?? {})).toHaveLength(20);
  });
});
