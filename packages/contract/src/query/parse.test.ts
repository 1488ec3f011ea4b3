import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueryNode, QueryProblem, Term, TermPart, ValueExpr } from './ast';
import { MAX_QUERY_DEPTH, MAX_QUERY_TERMS, parseQuery } from './parse';
import { printQuery } from './print';

/** The tree without positions, for comparing shapes. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'start' && key !== 'end')
        .map(([key, inner]) => [key, shape(inner)]),
    );
  }
  return value;
}

function ast(text: string): QueryNode | null {
  const result = parseQuery(text);
  if (!result.ok) throw new Error(`${text}: ${result.problem.message}`);
  return result.ast;
}

function problem(text: string): QueryProblem {
  const result = parseQuery(text);
  if (result.ok) throw new Error(`${text} parsed`);
  return result.problem;
}

const bare = (...parts: TermPart[]) => ({ parts, quoted: false });
const literal = (text: string): TermPart => ({ literal: text });
const word = (text: string) => bare(literal(text));
const phrase = (text: string) => ({ parts: [literal(text)], quoted: true });
const text = (term: { parts: TermPart[]; quoted: boolean }) => ({ type: 'text', value: term });
const match = (name: string, value: object) => ({ type: 'match', field: { name }, value });
const value = (term: { parts: TermPart[]; quoted: boolean }) => ({ type: 'value', ...term });

describe('parseQuery: structure', () => {
  it('reads an empty or blank query as null, which finds everything', () => {
    expect(parseQuery('')).toEqual({ ok: true, ast: null });
    expect(parseQuery('  \t\n ')).toEqual({ ok: true, ast: null });
  });

  it('reads free text: bare words and quoted phrases', () => {
    expect(shape(ast('mimikatz'))).toEqual(text(word('mimikatz')));
    expect(shape(ast('"lateral movement"'))).toEqual(text(phrase('lateral movement')));
    expect(ast('  mimikatz ')).toMatchObject({ start: 2, end: 10, value: { start: 2, end: 10 } });
  });

  it('binds not tighter than and, and and tighter than or', () => {
    expect(shape(ast('a or b and c'))).toEqual({
      type: 'or',
      children: [text(word('a')), { type: 'and', children: [text(word('b')), text(word('c'))] }],
    });
    expect(shape(ast('not a and b'))).toEqual({
      type: 'and',
      children: [{ type: 'not', child: text(word('a')) }, text(word('b'))],
    });
    expect(shape(ast('a and b or c and d'))).toEqual({
      type: 'or',
      children: [
        { type: 'and', children: [text(word('a')), text(word('b'))] },
        { type: 'and', children: [text(word('c')), text(word('d'))] },
      ],
    });
    expect(shape(ast('not not a'))).toEqual({ type: 'not', child: { type: 'not', child: text(word('a')) } });
  });

  it('groups with parentheses', () => {
    expect(shape(ast('(a or b) and c'))).toEqual({
      type: 'and',
      children: [{ type: 'or', children: [text(word('a')), text(word('b'))] }, text(word('c'))],
    });
    expect(shape(ast('not (a or b)'))).toEqual({
      type: 'not',
      child: { type: 'or', children: [text(word('a')), text(word('b'))] },
    });
    expect(ast('( a or b )')).toMatchObject({ type: 'or', start: 2, end: 8 });
  });

  it('joins terms side by side with and', () => {
    expect(shape(ast('a b c'))).toEqual(shape(ast('a and b and c')));
    expect(shape(ast('a b or c'))).toEqual(shape(ast('(a and b) or c')));
    expect(shape(ast('a "b c" d: e'))).toEqual({
      type: 'and',
      children: [text(word('a')), text(phrase('b c')), match('d', value(word('e')))],
    });
    expect(shape(ast('(a)(b)'))).toEqual(shape(ast('a and b')));
  });

  it('reads keywords whatever their case, and words that only start like one as words', () => {
    expect(shape(ast('NOT a AND b Or c'))).toEqual(shape(ast('not a and b or c')));
    expect(shape(ast('android order nothing'))).toEqual({
      type: 'and',
      children: [text(word('android')), text(word('order')), text(word('nothing'))],
    });
    expect(shape(ast('"and"'))).toEqual(text(phrase('and')));
    // `to` is a keyword only in a range.
    expect(shape(ast('path to file'))).toEqual({
      type: 'and',
      children: [text(word('path')), text(word('to')), text(word('file'))],
    });
  });

  it('keeps positions of every node', () => {
    const node = ast('src_ip: 10.0.0.1 or not x');
    expect(node).toMatchObject({
      type: 'or',
      start: 0,
      end: 25,
      children: [
        { type: 'match', start: 0, end: 16, field: { name: 'src_ip', start: 0, end: 6 }, value: { start: 8, end: 16 } },
        { type: 'not', start: 20, end: 25, child: { start: 24, end: 25 } },
      ],
    });
  });
});

describe('parseQuery: fields', () => {
  it('reads field: value, a quoted phrase and exists', () => {
    expect(shape(ast('process_name: powershell.exe and command_line: "-enc"'))).toEqual({
      type: 'and',
      children: [match('process_name', value(word('powershell.exe'))), match('command_line', value(phrase('-enc')))],
    });
    expect(shape(ast('process_name:powershell.exe'))).toEqual(match('process_name', value(word('powershell.exe'))));
    expect(shape(ast('process_name : powershell.exe'))).toEqual(match('process_name', value(word('powershell.exe'))));
    expect(shape(ast('file_sha256: *'))).toEqual({ type: 'exists', field: { name: 'file_sha256' } });
    expect(ast('file_sha256: *')).toMatchObject({ start: 0, end: 14 });
    expect(shape(ast('(file_sha256:*)'))).toEqual({ type: 'exists', field: { name: 'file_sha256' } });
    expect(shape(ast('file_sha256: "*"'))).toEqual(match('file_sha256', value(phrase('*'))));
  });

  it('reads values in parentheses with or, and and not', () => {
    expect(shape(ast('dest_ip: 10.0.0.0/8 and not dest_port: (80 or 443)'))).toEqual({
      type: 'and',
      children: [
        match('dest_ip', value(word('10.0.0.0/8'))),
        {
          type: 'not',
          child: match('dest_port', { type: 'valueOr', items: [value(word('80')), value(word('443'))] }),
        },
      ],
    });
    expect(shape(ast('user_name: (admin and not "admin svc")'))).toEqual(
      match('user_name', {
        type: 'valueAnd',
        items: [value(word('admin')), { type: 'valueNot', item: value(phrase('admin svc')) }],
      }),
    );
    expect(shape(ast('x: (a or b c)'))).toEqual(
      match('x', {
        type: 'valueOr',
        items: [value(word('a')), { type: 'valueAnd', items: [value(word('b')), value(word('c'))] }],
      }),
    );
    expect(shape(ast('x: ((a or b) and c)'))).toEqual(
      match('x', {
        type: 'valueAnd',
        items: [{ type: 'valueOr', items: [value(word('a')), value(word('b'))] }, value(word('c'))],
      }),
    );
    expect(shape(ast('x: (a)'))).toEqual(match('x', value(word('a'))));
    const parsed = ast('dest_port: ( 80 or 443 )') as Extract<QueryNode, { type: 'match' }>;
    expect(parsed.value).toMatchObject({ start: 13, end: 22 });
  });

  it('reads comparisons, with or without a colon', () => {
    for (const op of ['>', '>=', '<', '<='] as const) {
      const expected = { type: 'compare', field: { name: 'score' }, op, value: word('50') };
      expect(shape(ast(`score ${op} 50`))).toEqual(expected);
      expect(shape(ast(`score${op}50`))).toEqual(expected);
      expect(shape(ast(`score:${op}50`))).toEqual(expected);
      expect(shape(ast(`score: ${op} 50`))).toEqual(expected);
    }
    expect(shape(ast('ts >= now-24h'))).toEqual({
      type: 'compare',
      field: { name: 'ts' },
      op: '>=',
      value: word('now-24h'),
    });
    expect(shape(ast('ts >= 2026-11-29T10:00:00Z'))).toEqual({
      type: 'compare',
      field: { name: 'ts' },
      op: '>=',
      value: word('2026-11-29T10:00:00Z'),
    });
    expect(shape(ast('ts < "2026-11-29 10:00"'))).toMatchObject({ value: phrase('2026-11-29 10:00') });
  });

  it('reads ranges with open ends', () => {
    expect(shape(ast('ts: [now-7d to now-1d]'))).toEqual({
      type: 'range',
      field: { name: 'ts' },
      from: word('now-7d'),
      to: word('now-1d'),
    });
    expect(shape(ast('dest_port:[1024 TO *]'))).toEqual({
      type: 'range',
      field: { name: 'dest_port' },
      from: word('1024'),
      to: null,
    });
    expect(shape(ast('dest_port: [ * to 1023 ]'))).toEqual({
      type: 'range',
      field: { name: 'dest_port' },
      from: null,
      to: word('1023'),
    });
    expect(shape(ast('ts: ["2026-11-01" to "2026-11-29 12:00"]'))).toMatchObject({
      from: phrase('2026-11-01'),
      to: phrase('2026-11-29 12:00'),
    });
    expect(ast('p: [1 to 2] x')).toMatchObject({ children: [{ type: 'range', start: 0, end: 11 }, { start: 12 }] });
  });

  it('keeps the colons of a value after field: (IPv6, times, Windows paths)', () => {
    expect(shape(ast('src_ip: 2001:db8::1'))).toEqual(match('src_ip', value(word('2001:db8::1'))));
    expect(shape(ast('src_ip: ::1'))).toEqual(match('src_ip', value(word('::1'))));
    expect(shape(ast('src_ip:fe80::1'))).toEqual(match('src_ip', value(word('fe80::1'))));
    expect(shape(ast('src_ip: 2001:db8::/32 and x'))).toEqual({
      type: 'and',
      children: [match('src_ip', value(word('2001:db8::/32'))), text(word('x'))],
    });
    expect(shape(ast('src_ip: ::ffff:10.0.0.1'))).toEqual(match('src_ip', value(word('::ffff:10.0.0.1'))));
    expect(shape(ast('src_ip: 10.0.0.0/8'))).toEqual(match('src_ip', value(word('10.0.0.0/8'))));
    expect(shape(ast('ts: 2026-11-29T10:00:00+03:00'))).toEqual(match('ts', value(word('2026-11-29T10:00:00+03:00'))));
    expect(shape(ast('file_path: C:\\\\Windows\\\\*'))).toEqual(
      match('file_path', value(bare(literal('C:\\Windows\\'), { wildcard: '*' }))),
    );
    expect(shape(ast('src_ip: (10.0.0.1 or 2001:db8::1)'))).toEqual(
      match('src_ip', { type: 'valueOr', items: [value(word('10.0.0.1')), value(word('2001:db8::1'))] }),
    );
  });

  it('takes a colon as a field separator only after a field name at the start of a term', () => {
    // Not field-shaped before the colon (starts with a digit, holds a '-'): the colon belongs to the word.
    expect(shape(ast('2001:db8::1'))).toEqual(text(word('2001:db8::1')));
    expect(shape(ast('10:00'))).toEqual(text(word('10:00')));
    expect(shape(ast('foo-bar:baz'))).toEqual(text(word('foo-bar:baz')));
    // Field-shaped: letters, digits, '_' and '.', starting with a letter or '_'.
    expect(shape(ast('http.host: a'))).toEqual(match('http.host', value(word('a'))));
    expect(shape(ast('_x9: a'))).toEqual(match('_x9', value(word('a'))));
    expect(shape(ast('fe80::1'))).toEqual(match('fe80', value(word(':1'))));
    expect(shape(ast('"fe80::1"'))).toEqual(text(phrase('fe80::1')));
  });

  it('reads Unicode fields and values', () => {
    expect(shape(ast('имя_пользователя: Иванов'))).toEqual(match('имя_пользователя', value(word('Иванов'))));
    expect(shape(ast('пароль "Привет мир"'))).toEqual({
      type: 'and',
      children: [text(word('пароль')), text(phrase('Привет мир'))],
    });
    expect(ast('subject: "Счёт №5" 😀x')).toMatchObject({ children: [{ end: 18 }, { start: 19, end: 22 }] });
  });
});

describe('parseQuery: words, wildcards and escapes', () => {
  it('reads * and ? in bare words as wildcards, not in phrases', () => {
    expect(shape(ast('dns_rrname: *.example.ru'))).toEqual(
      match('dns_rrname', value(bare({ wildcard: '*' }, literal('.example.ru')))),
    );
    expect(shape(ast('svc?ost*'))).toEqual(
      text(bare(literal('svc'), { wildcard: '?' }, literal('ost'), { wildcard: '*' })),
    );
    expect(shape(ast('"svc?ost*"'))).toEqual(text(phrase('svc?ost*')));
    expect(shape(ast('x: **'))).toEqual(match('x', value(bare({ wildcard: '*' }, { wildcard: '*' }))));
  });

  it('resolves escapes of special characters', () => {
    expect(shape(ast('a\\*b'))).toEqual(text(word('a*b')));
    expect(shape(ast('a\\?'))).toEqual(text(word('a?')));
    expect(shape(ast('C\\:\\\\Windows\\\\*'))).toEqual(text(bare(literal('C:\\Windows\\'), { wildcard: '*' })));
    expect(shape(ast('a\\ b'))).toEqual(text(word('a b')));
    expect(shape(ast('\\(x\\)\\[\\]\\{\\}\\<\\>\\"'))).toEqual(text(word('(x)[]{}<>"')));
    expect(shape(ast('"say \\"hi\\" \\\\ there"'))).toEqual(text(phrase('say "hi" \\ there')));
    expect(shape(ast('x: "C:\\\\Windows\\\\system32"'))).toEqual(match('x', value(phrase('C:\\Windows\\system32'))));
    // An escaped keyword character is not possible, but a quoted keyword is a word.
    expect(shape(ast('x: "or"'))).toEqual(match('x', value(phrase('or'))));
  });

  it('ends bare words at special characters', () => {
    expect(shape(ast('abc"def"'))).toEqual({ type: 'and', children: [text(word('abc')), text(phrase('def'))] });
    expect(shape(ast('a(b)'))).toEqual({ type: 'and', children: [text(word('a')), text(word('b'))] });
    expect(shape(ast("'; DROP TABLE x; --"))).toEqual({
      type: 'and',
      children: ["';", 'DROP', 'TABLE', 'x;', '--'].map((part) => text(word(part))),
    });
  });

  it('reads SQL-like text as plain values', () => {
    expect(shape(ast('user_name: "\' OR 1=1 --"'))).toEqual(match('user_name', value(phrase("' OR 1=1 --"))));
    expect(shape(ast("user_name: admin'--"))).toEqual(match('user_name', value(word("admin'--"))));
    expect(shape(ast('x: 1;DELETE%20FROM'))).toEqual(match('x', value(word('1;DELETE%20FROM'))));
  });
});

describe('parseQuery: problems', () => {
  const cases: [string, Partial<QueryProblem>][] = [
    ['src_ip:', { code: 'unexpected_end', position: 7, end: 7, message: "expected a value after 'src_ip:'" }],
    ['src_ip:   ', { code: 'unexpected_end', position: 10, end: 10 }],
    [
      'src_ip: )',
      { code: 'unexpected_token', position: 8, end: 9, message: "unexpected ')': expected a value after 'src_ip:'" },
    ],
    ['src_ip: or b', { code: 'unexpected_token', position: 8, end: 10 }],
    ['ts >=', { code: 'unexpected_end', position: 5, message: "expected a value after 'ts >='" }],
    ['ts > ]', { code: 'unexpected_token', position: 5, end: 6 }],
    ['a and', { code: 'unexpected_end', position: 5, message: "expected a term after 'and'" }],
    ['a or', { code: 'unexpected_end', position: 4, message: "expected a term after 'or'" }],
    ['not', { code: 'unexpected_end', position: 3, message: "expected a term after 'not'" }],
    ['or a', { code: 'unexpected_token', position: 0, end: 2, message: "unexpected 'or': expected a term" }],
    [
      'a and or b',
      { code: 'unexpected_token', position: 6, end: 8, message: "unexpected 'or': expected a term after 'and'" },
    ],
    ['a )', { code: 'unexpected_token', position: 2, end: 3, message: "unexpected ')': no '(' opens it" }],
    [': a', { code: 'unexpected_token', position: 0, end: 1 }],
    ['a ] b', { code: 'unexpected_token', position: 2, end: 3 }],
    ['a {b}', { code: 'unexpected_token', position: 2, end: 3 }],
    [
      'x "abc',
      {
        code: 'unclosed_quote',
        position: 2,
        end: 6,
        message: "unclosed quote starting at 2: a closing '\"' is missing",
      },
    ],
    ['x: "a\\"', { code: 'unclosed_quote', position: 3, end: 7 }],
    ['(a or b', { code: 'unclosed_paren', position: 7, end: 7, message: "')' expected: the '(' at 0 is not closed" }],
    ['x: (a or b', { code: 'unclosed_paren', position: 10, end: 10 }],
    [
      'ts: [1 to 2',
      { code: 'unclosed_paren', position: 11, end: 11, message: "']' expected: the '[' at 4 is not closed" },
    ],
    ['ts: [1 2]', { code: 'unexpected_token', position: 7, end: 8, message: "'to' expected in the range, found '2'" }],
    ['ts: [1 to 2 3]', { code: 'unexpected_token', position: 12, end: 13, message: "']' expected, found '3'" }],
    ['ts: [1 to ]', { code: 'unexpected_token', position: 10, end: 11 }],
    ['ts: [to to 2]', { code: 'unexpected_token', position: 5, end: 7 }],
    ['ts: [', { code: 'unexpected_end', position: 5 }],
    ['x: (a [b])', { code: 'unexpected_token', position: 6, end: 7 }],
    ['a\\', { code: 'bad_escape', position: 1, end: 2 }],
    [
      'C:\\Windows',
      {
        code: 'bad_escape',
        position: 2,
        end: 4,
        message: "'\\W' is not an escape: write '\\\\' for a backslash, or quote the value",
      },
    ],
    ['x: "C:\\Windows"', { code: 'bad_escape', position: 6, end: 8 }],
    ['a\\😀', { code: 'bad_escape', position: 1, end: 4 }],
    ['()', { code: 'empty_query', position: 0, end: 2 }],
    ['x: ( )', { code: 'empty_query', position: 3, end: 6 }],
    ['имя: ', { code: 'unexpected_end', position: 5, message: "expected a value after 'имя:'" }],
    ['Привет )', { code: 'unexpected_token', position: 7, end: 8 }],
  ];
  it.each(cases)('%s', (query, expected) => {
    expect(problem(query)).toMatchObject(expected);
  });

  it('bounds nesting depth', () => {
    const deep = (levels: number) => `${'('.repeat(levels)}a${')'.repeat(levels)}`;
    expect(parseQuery(deep(MAX_QUERY_DEPTH)).ok).toBe(true);
    expect(problem(deep(MAX_QUERY_DEPTH + 1))).toMatchObject({
      code: 'too_complex',
      position: MAX_QUERY_DEPTH,
      end: MAX_QUERY_DEPTH + 1,
    });
    expect(problem('not '.repeat(100_000) + 'a')).toMatchObject({ code: 'too_complex', position: 4 * MAX_QUERY_DEPTH });
    expect(problem(`x: ${'('.repeat(100_000)}`)).toMatchObject({ code: 'too_complex' });
    expect(problem('ts: [1 to 2]'.replace('ts', `${'('.repeat(MAX_QUERY_DEPTH)}ts`))).toMatchObject({
      code: 'too_complex',
    });
  });

  it('bounds the number of terms', () => {
    expect(parseQuery(Array(MAX_QUERY_TERMS).fill('a').join(' ')).ok).toBe(true);
    const many = Array(MAX_QUERY_TERMS + 1)
      .fill('a')
      .join(' ');
    expect(problem(many)).toMatchObject({
      code: 'too_complex',
      position: 2 * MAX_QUERY_TERMS,
      end: 2 * MAX_QUERY_TERMS + 1,
    });
    expect(
      problem(
        `x: (${Array(MAX_QUERY_TERMS + 1)
          .fill('1')
          .join(' or ')})`,
      ),
    ).toMatchObject({ code: 'too_complex' });
  });
});

// ---- properties ----

const specialCharacters = [
  '\\',
  '"',
  '*',
  '?',
  '(',
  ')',
  ':',
  '<',
  '>',
  '[',
  ']',
  '{',
  '}',
  ' ',
  '\t',
  '\n',
  "'",
  ';',
  '-',
  '=',
];
const anyCharacter = fc.oneof(
  fc.constantFrom(...specialCharacters, 'a', 'o', 'r', 'n', 't', 'd', 'x', 'я', '😀', '1', '.', '/', '_'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const queryLike = fc
  .array(
    fc.oneof(
      anyCharacter,
      fc.constantFrom(
        ' and ',
        ' or ',
        ' not ',
        ' to ',
        'src_ip: ',
        'ts >= ',
        'x: [',
        ' to ',
        ']',
        '(',
        ')',
        '"',
        'x: *',
      ),
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(''));

describe('parseQuery: properties', () => {
  it('never throws, and places any problem inside the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), queryLike), (query) => {
        const result = parseQuery(query);
        if (!result.ok) {
          expect(result.problem.position).toBeGreaterThanOrEqual(0);
          expect(result.problem.position).toBeLessThanOrEqual(query.length);
          expect(result.problem.end).toBeGreaterThanOrEqual(result.problem.position);
          expect(result.problem.end).toBeLessThanOrEqual(query.length);
          expect(result.problem.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: Number(process.env.QUERY_RUNS ?? 3_000) },
    );
  });

  it('reads a printed tree back as the same tree', () => {
    fc.assert(
      fc.property(queryLike, (query) => {
        const result = parseQuery(query);
        if (!result.ok || !result.ast) return;
        const printed = printQuery(result.ast);
        const again = parseQuery(printed);
        expect(again.ok, printed).toBe(true);
        if (again.ok) expect(shape(again.ast)).toEqual(shape(result.ast));
      }),
      { numRuns: Number(process.env.QUERY_RUNS ?? 3_000) },
    );
  });

  // Trees built directly, with any characters in their values, print and read back unchanged.
  const literalText = fc.string({
    unit: fc.oneof(anyCharacter, fc.constantFrom('a', 'b', 'c')),
    minLength: 1,
    maxLength: 8,
  });
  const bareParts = fc
    .array(fc.oneof(literalText.map(literal), fc.constantFrom<TermPart>({ wildcard: '*' }, { wildcard: '?' })), {
      minLength: 1,
      maxLength: 4,
    })
    .map(mergeLiterals)
    .filter(
      (parts) =>
        !/^(and|or|not|to)$/i.test(parts.map((part) => ('literal' in part ? part.literal : part.wildcard)).join('')),
    );
  const termArbitrary: fc.Arbitrary<Pick<Term, 'parts' | 'quoted'>> = fc.oneof(
    bareParts.map((parts) => ({ parts, quoted: false })),
    fc.string({ maxLength: 8 }).map((phraseText) => ({ parts: [literal(phraseText)], quoted: true })),
  );
  const notLoneStar = termArbitrary.filter(
    (term) =>
      term.quoted || term.parts.length !== 1 || !('wildcard' in term.parts[0]!) || term.parts[0].wildcard !== '*',
  );
  const fieldName = fc.constantFrom('src_ip', 'ts', 'имя', 'a.b', '_x');
  const position = { start: 0, end: 0 };
  const { valueExpr } = fc.letrec<{ valueExpr: ValueExpr }>((tie) => ({
    valueExpr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      termArbitrary.map((term) => ({ type: 'value' as const, ...term, ...position })),
      fc
        .tuple(
          fc.constantFrom('valueOr' as const, 'valueAnd' as const),
          fc.array(tie('valueExpr'), { minLength: 2, maxLength: 3 }),
        )
        .map(([type, items]) => ({ type, items, ...position })),
      tie('valueExpr').map((item) => ({ type: 'valueNot' as const, item, ...position })),
    ),
  }));
  const { node } = fc.letrec<{ node: QueryNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      termArbitrary.map((term) => ({ type: 'text' as const, value: { ...term, ...position }, ...position })),
      fc.tuple(fieldName, notLoneStar).map(([name, term]) => ({
        type: 'match' as const,
        field: { name, ...position },
        value: { type: 'value' as const, ...term, ...position },
        ...position,
      })),
      fc
        .tuple(fieldName, valueExpr)
        .map(([name, value]) => ({ type: 'match' as const, field: { name, ...position }, value, ...position })),
      fc
        .tuple(fieldName, fc.constantFrom('>' as const, '>=' as const, '<' as const, '<=' as const), termArbitrary)
        .map(([name, op, term]) => ({
          type: 'compare' as const,
          field: { name, ...position },
          op,
          value: { ...term, ...position },
          ...position,
        })),
      fc.tuple(fieldName, fc.option(notLoneStar), fc.option(notLoneStar)).map(([name, from, to]) => ({
        type: 'range' as const,
        field: { name, ...position },
        from: from && { ...from, ...position },
        to: to && { ...to, ...position },
        ...position,
      })),
      fieldName.map((name) => ({ type: 'exists' as const, field: { name, ...position }, ...position })),
      fc
        .tuple(fc.constantFrom('and' as const, 'or' as const), fc.array(tie('node'), { minLength: 2, maxLength: 3 }))
        .map(([type, children]) => ({ type, children, ...position })),
      tie('node').map((child) => ({ type: 'not' as const, child, ...position })),
    ),
  }));

  it('prints any tree as text that reads back as that tree', () => {
    fc.assert(
      fc.property(node, (tree) => {
        const printed = printQuery(tree);
        const result = parseQuery(printed);
        expect(result.ok, printed).toBe(true);
        if (result.ok) expect(shape(result.ast), printed).toEqual(shape(tree));
      }),
      { numRuns: Number(process.env.QUERY_RUNS ?? 2_000) },
    );
  });

  it('reads SQL-injection-like values as plain values', () => {
    const injection = fc.constantFrom(
      "'; DROP TABLE x; --",
      '" OR 1=1 --',
      "' OR '1'='1",
      '1; SELECT pg_sleep(10)',
      "admin'/*",
      '%_!\\',
    );
    fc.assert(
      fc.property(fc.tuple(injection, fc.string({ maxLength: 6 })), ([attack, suffix]) => {
        const valueText = attack + suffix;
        const quotedValue = `"${valueText.replace(/[\\"]/g, '\\$&')}"`;
        const result = parseQuery(`user_name: ${quotedValue}`);
        expect(result.ok).toBe(true);
        if (result.ok) expect(shape(result.ast)).toEqual(match('user_name', value(phrase(valueText))));
      }),
    );
  });
});

function mergeLiterals(parts: TermPart[]): TermPart[] {
  const merged: TermPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if ('literal' in part && last && 'literal' in last)
      merged[merged.length - 1] = { literal: last.literal + part.literal };
    else merged.push(part);
  }
  return merged;
}
