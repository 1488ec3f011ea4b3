import { describe, expect, it } from 'vitest';
import { externalsOf, matchesForCompany } from './warehouse-scan';
import type { YaraScanMatch } from './yara-scanner';
import { buildRuleSet, effectiveFor, ruleNameOf, rulesetDigest, type StoredYaraRule } from './yara-ruleset';

let nextId = 1;
function rule(name: string, source: string, extra: Partial<StoredYaraRule> = {}): StoredYaraRule {
  return {
    id: nextId++,
    companyId: 1,
    scope: 'all',
    revision: 1,
    ruleKey: `${extra.fileName ?? 'a.yar'}:${name}`,
    title: name,
    level: 'high',
    techniques: [],
    author: '',
    licence: '',
    fileName: 'a.yar',
    source,
    ...extra,
  };
}
const simple = (name: string, text = name) => `rule ${name} { strings: $a = "${text}" condition: $a }`;

describe('rulesetDigest', () => {
  it('changes with a rule, its revision or a company turning it off, not with the order', () => {
    const a = rulesetDigest(
      [
        { id: 1, revision: 1 },
        { id: 2, revision: 1 },
      ],
      [],
    );
    expect(
      rulesetDigest(
        [
          { id: 2, revision: 1 },
          { id: 1, revision: 1 },
        ],
        [],
      ),
    ).toBe(a);
    expect(
      rulesetDigest(
        [
          { id: 1, revision: 2 },
          { id: 2, revision: 1 },
        ],
        [],
      ),
    ).not.toBe(a);
    expect(rulesetDigest([{ id: 1, revision: 1 }], [])).not.toBe(a);
    expect(
      rulesetDigest(
        [
          { id: 1, revision: 1 },
          { id: 2, revision: 1 },
        ],
        [{ companyId: 3, ruleId: 1 }],
      ),
    ).not.toBe(a);
  });
});

describe('effectiveFor', () => {
  it('keeps a company its own rules and the rules for all it did not turn off', async () => {
    const own = rule('own', simple('own'), { scope: 'company', companyId: 5 });
    const all = rule('shared', simple('shared'));
    const off = new Set([`6:${all.id}`]);
    expect(effectiveFor(own, 5, off)).toBe(true);
    expect(effectiveFor(own, 6, off)).toBe(false);
    expect(effectiveFor(all, 5, off)).toBe(true);
    expect(effectiveFor(all, 6, off)).toBe(false);
  });
});

describe('buildRuleSet', () => {
  it('packs files whose rule names differ into one unit, and keeps a file with a global rule apart', async () => {
    const set = await buildRuleSet([
      rule('one', simple('one'), { fileName: 'a.yar' }),
      rule('two', simple('two'), { fileName: 'b.yar' }),
      rule('gate', 'global rule gate { condition: filesize < 10MB }', { fileName: 'g.yar' }),
    ]);
    expect(set.skipped).toEqual([]);
    expect(set.units).toHaveLength(2);
    expect([...set.rules.keys()].sort()).toEqual(['u1\0gate', 'u2\0one', 'u2\0two']);
  });

  it('puts two files naming the same rule in different units', async () => {
    const set = await buildRuleSet([
      rule('same', simple('same', 'x'), { fileName: 'a.yar' }),
      rule('same', simple('same', 'y'), { fileName: 'b.yar' }),
    ]);
    expect(set.units).toHaveLength(2);
    expect(set.rules.size).toBe(2);
  });

  it('compiles a file with its private rules and hoists the imports', async () => {
    const set = await buildRuleSet([
      rule('helper', 'private rule helper { condition: uint16(0) == 0x5A4D }'),
      rule('uses', 'import "pe"\nrule uses { condition: helper and pe.number_of_sections >= 0 }'),
    ]);
    expect(set.skipped).toEqual([]);
    expect(set.units).toHaveLength(1);
    expect(set.units[0]!.source).toMatch(/^import "pe"\n/);
    expect(set.rules.get('u1\0uses')?.ruleKey).toBe('a.yar:uses');
  });

  it('skips a rule that does not compile, with the reason, and keeps the rest of its file', async () => {
    const set = await buildRuleSet([rule('good', simple('good')), rule('bad', 'rule bad { condition: nothing_here }')]);
    expect(set.skipped.map((s) => s.rule.ruleKey)).toEqual(['a.yar:bad']);
    expect(set.skipped[0]!.reason).toMatch(/nothing_here/);
    expect([...set.rules.keys()]).toEqual(['u1\0good']);
  });

  it('names a rule by the last part of its key', () => {
    expect(ruleNameOf({ ruleKey: 'dir/file.yar:Some_Rule' })).toBe('Some_Rule');
    expect(ruleNameOf({ ruleKey: 'plain' })).toBe('plain');
  });
});

describe('the scan of one file', () => {
  it('gives the externals from the names seen and the detected type', () => {
    expect(externalsOf({ detectedType: 'pe' }, ['', 'C:\\Users\\x\\Invoice.EXE'])).toEqual({
      filename: 'Invoice.EXE',
      filepath: 'C:\\Users\\x\\Invoice.EXE',
      extension: '.exe',
      filetype: 'EXE',
    });
    expect(externalsOf({ detectedType: 'unknown' }, [])).toEqual({ filename: '', filepath: '', extension: '' });
  });

  it('keeps for a company only the matches of rules effective for it, with few strings', async () => {
    const own = rule('own', simple('own'), { scope: 'company', companyId: 5, fileName: 'c.yar' });
    const all = rule('shared', simple('shared'), { fileName: 'd.yar' });
    const set = await buildRuleSet([own, all]);
    const strings = Array.from({ length: 30 }, (_, i) => ({ identifier: '$a', offset: i, length: 3 }));
    const found: YaraScanMatch[] = [
      { namespace: 'u1', rule: 'own', tags: [], meta: {}, strings },
      { namespace: 'u1', rule: 'shared', tags: ['t'], meta: { a: 1 }, strings },
      { namespace: 'u1', rule: 'unknown', tags: [], meta: {}, strings },
    ];
    expect(set.units).toHaveLength(1);
    const five = matchesForCompany(5, 'h', found, set, new Set(), 20);
    expect(five.map((m) => m.rule.id)).toEqual([own.id, all.id]);
    expect(five[1]!.match).toMatchObject({ namespace: 'd.yar', tags: ['t'], meta: { a: 1 } });
    expect(five[0]!.match.strings).toHaveLength(20);
    expect(matchesForCompany(6, 'h', found, set, new Set([`6:${all.id}`]), 20)).toEqual([]);
  });
});
