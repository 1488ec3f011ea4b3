import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backtrackingLimit, compileSigmaRegex, regexRisk } from './regex-guard';
import { LinearRegex } from './regex-vm';
import { SigmaRefusal } from './types';

const flags = { i: false, m: false, s: false };

/** Random patterns over a small alphabet, using every construct the automaton reads, groups two deep. */
const atom = fc.constantFrom(
  'a',
  'b',
  'A',
  '-',
  '.',
  '\\d',
  '\\w',
  '\\s',
  '\\W',
  '[ab]',
  '[^a]',
  '[a-c]',
  '[\\d-]',
  '\\n',
  '\\x41',
);
const anchor = fc.constantFrom('^', '$', '\\b', '\\B');
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?', '+?');
const sequenceOf = (unit: fc.Arbitrary<string>) =>
  fc
    .array(
      fc.oneof(
        fc.tuple(unit, quantifier).map(([u, q]) => u + q),
        anchor,
      ),
      { minLength: 1, maxLength: 4 },
    )
    .chain((parts) => fc.boolean().map((alt) => parts.join(alt && parts.length > 1 ? '|' : '')));
const group = (inner: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom('(', '(?:'), inner).map(([open, body]) => `${open}${body})`);
const level1 = sequenceOf(atom);
const level2 = sequenceOf(fc.oneof(atom, group(level1)));
const pattern = sequenceOf(fc.oneof(atom, group(level2)));
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', '1', '-', ' ', '\n', 'c', '_'), maxLength: 10 });

describe('the linear automaton', () => {
  it('finds what JavaScript finds, for random patterns, texts and flags', () => {
    fc.assert(
      fc.property(pattern, text, fc.boolean(), fc.boolean(), fc.boolean(), (source, whole, i, m, s) => {
        // JavaScript is the oracle, and on the patterns the guard calls exponential it backtracks for
        // minutes on ten characters (/\B((?:$|[^a]*|$){2,}){2,}[\d-]{2,}$/): give it a short text there.
        const value = backtrackingLimit(regexRisk(source, i)) < 0 ? whole.slice(0, 4) : whole;
        let expected: boolean;
        try {
          expected = new RegExp(source, `${i ? 'i' : ''}${m ? 'm' : ''}${s ? 's' : ''}`).test(value);
        } catch {
          return; // not a pattern at all
        }
        expect(new LinearRegex(source, { i, m, s }).test(value), `/${source}/ on ${JSON.stringify(value)}`).toBe(
          expected,
        );
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('reads escapes, classes, anchors and counts', () => {
    const t = (source: string, value: string, f = flags) => new LinearRegex(source, f).test(value);
    expect(t('\\\\Windows\\\\Temp\\\\[^\\\\]+\\.exe$', 'C:\\Windows\\Temp\\x.exe')).toBe(true);
    expect(t('\\\\Windows\\\\Temp\\\\[^\\\\]+\\.exe$', 'C:\\Windows\\Temp\\a\\x.exe')).toBe(false);
    expect(t('^-e(nc?)?\\s', '-enc AAAA')).toBe(true);
    expect(t('\\bIEX\\b', 'xIEX')).toBe(false);
    expect(t('\\bIEX\\b', 'x IEX(')).toBe(true);
    expect(t('[a-f0-9]{32}', 'd41d8cd98f00b204e9800998ecf8427e')).toBe(true);
    expect(t('[a-f0-9]{32}', 'd41d8cd98f00b204e9800998ecf8427')).toBe(false);
    expect(t('POWERSHELL', 'powershell', { ...flags, i: true })).toBe(true);
    expect(t('^b', 'a\nb', { ...flags, m: true })).toBe(true);
    expect(t('a.b', 'a\nb', { ...flags, s: true })).toBe(true);
  });

  it('names the literal texts a match must contain', () => {
    expect(new LinearRegex('\\\\AppData\\\\[^\\\\]+\\.exe', flags).needles).toEqual([['\\appdata\\'], ['.exe']]);
    expect(new LinearRegex('(?:invoke-mimikatz|sekurlsa)::', flags).needles).toEqual([
      ['invoke-mimikatz', 'sekurlsa'],
      ['::'],
    ]);
    expect(new LinearRegex('x?(?:ab)*', flags).needles).toBeNull();
  });

  it('refuses what no automaton can run', () => {
    expect(() => new LinearRegex('(a)\\1', flags)).toThrow('uses a backreference, which is not supported');
    expect(() => new LinearRegex('a(?=b)', flags)).toThrow('uses a lookaround, which is not supported');
    expect(() => new LinearRegex('a{2000}', flags)).toThrow('repeats something more than 1000 times');
  });
});

describe('the choice of engine', () => {
  it('keeps patterns that could backtrack exponentially off the backtracking engine', () => {
    expect(regexRisk('(a+)+b', false)).toEqual({ exponential: true, wide: 2 });
    expect(regexRisk('(\\w|\\d)*x', false).exponential).toBe(true);
    expect(regexRisk('(?:.*\\)){1,}', false).exponential).toBe(true);
    expect(regexRisk('(?:who|cmd)+', false).exponential).toBe(false);
    expect(backtrackingLimit(regexRisk('(a+)+b', false))).toBe(-1);
    expect(backtrackingLimit(regexRisk('whoami', false))).toBe(Infinity);
    expect(backtrackingLimit(regexRisk('.+x.+', false))).toBe(125);
  });

  it('answers the worst patterns on long hostile values in little time, and rightly', () => {
    const cases: [string, string, boolean][] = [
      ['(a+)+b', 'a'.repeat(200_000), false],
      ['(a+)+b', `${'a'.repeat(200_000)}b`, true],
      ['.+:assumed-role/aws:.+', 'a'.repeat(200_000), false],
      ['\\w+`(?:\\w+|-|.)`[\\w+|\\s]', 'a'.repeat(200_000), false],
      ['cmd.{0,5}(?:/c|/r).+powershell.+(?:\\$\\{?input\\}?|noexit).+"', 'cmd /c '.repeat(30_000), false],
    ];
    for (const [source, value, expected] of cases) {
      const test = compileSigmaRegex(source, flags).test;
      const start = performance.now();
      expect(test(value), source).toBe(expected);
      expect(performance.now() - start, source).toBeLessThan(2_000);
    }
  });

  it('refuses Python syntax JavaScript reads otherwise, and names the pattern', () => {
    const refusal = (source: string) => {
      try {
        compileSigmaRegex(source, flags);
      } catch (error) {
        if (error instanceof SigmaRefusal) return error.message;
      }
      return null;
    };
    expect(refusal('(?x) a b')).toBe("regular expression '(?x) a b' uses verbose mode (?x), which is not supported");
    expect(refusal('a++')).toMatch(/possessive/);
    expect(refusal('a(?i:b)')).toMatch(/changes flags inside the pattern/);
    expect(refusal('(a')).toMatch(/^regular expression '\(a' does not compile/);
    expect(compileSigmaRegex('(?P<x>ab)\\Z', flags).test('xab')).toBe(true);
  });
});
