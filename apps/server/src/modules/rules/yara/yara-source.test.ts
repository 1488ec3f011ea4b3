import { describe, expect, it } from 'vitest';
import { checkYaraSource, MAX_YARA_SOURCE_BYTES } from './yara-compile';
import { metaObject, parseYaraSource } from './yara-source';

const SOURCE = String.raw`
import "pe"
include "other.yar"

/* A block comment with rule fake_one { } inside */
rule Web_Shell_A : webshell T1505_003 {
  meta:
    author = "Analyst \"One\""
    description = "Finds a web shell // not a comment"
    reference = "https://example.com/report"
    license = "Detection Rule License 1.1"
    mitre_attack = "T1505.003, TA0003"
    score = 80
    offset = -5
    size = 0x10
    active = true
    hash = "aaa"
    hash = "bbb"
  strings:
    $a = "eval(" // a comment with }
    $b = { 4D 5A [2-4] ( 90 | 00 ) ?? }
    $c = /ba[rz]\/\{x/ nocase
  condition:
    any of them and filesize < 10KB
}

private global rule helper { condition: true }

rule no_meta : tag_only
{
  strings: $x = "}" condition: $x
}
`;

describe('YARA source catalogue', () => {
  it('reads rule names, modifiers, tags and line numbers', () => {
    const info = parseYaraSource(SOURCE);
    expect(info.imports).toEqual(['pe']);
    expect(info.includes).toEqual(['other.yar']);
    expect(info.rules.map((r) => [r.name, r.line, r.modifiers, r.tags])).toEqual([
      ['Web_Shell_A', 6, [], ['webshell', 'T1505_003']],
      ['helper', 27, ['private', 'global'], []],
      ['no_meta', 29, [], ['tag_only']],
    ]);
  });

  it('reads meta of every kind, with repeated keys, and the common fields', () => {
    const [rule] = parseYaraSource(SOURCE).rules;
    expect(rule).toMatchObject({
      author: 'Analyst "One"',
      description: 'Finds a web shell // not a comment',
      reference: 'https://example.com/report',
      license: 'Detection Rule License 1.1',
      mitreTechniqueIds: ['T1505.003'],
      mitreTacticIds: ['TA0003'],
    });
    expect(rule!.meta.filter((m) => m.key === 'hash').map((m) => m.value)).toEqual(['aaa', 'bbb']);
    expect(metaObject(rule!)).toMatchObject({ score: 80, offset: -5, size: 16, active: true, hash: 'aaa' });
  });

  it('finds ATT&CK ids in tags and in meta keys that name them, not elsewhere', () => {
    const info = parseYaraSource(
      'rule a : T1059 { meta: technique = "T1003.001" note = "T1111 is not read here" condition: true }',
    );
    expect(info.rules[0]?.mitreTechniqueIds).toEqual(['T1003.001', 'T1059']);
  });

  it('leaves absent common fields empty', () => {
    const rule = parseYaraSource(SOURCE).rules[2]!;
    expect(rule).toMatchObject({ author: null, description: null, reference: null, license: null, meta: [] });
  });
});

describe('YARA compile check', () => {
  it('takes a source that compiles, with the externals defined', () => {
    expect(
      checkYaraSource(
        'rule a { condition: filename == "x.exe" and extension == ".exe" and filetype == "EXE" and filepath != "" }',
      ),
    ).toEqual({
      ok: true,
      warnings: [],
    });
  });

  it("refuses a source that does not compile with the compiler's reason and line", () => {
    const check = checkYaraSource('rule a {\n  condition:\n    unknown_thing\n}');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.reason).toBe('line 3: unknown identifier `unknown_thing`');
    expect(check.errors[0]).toMatchObject({ code: 'E009', line: 3, column: 5 });
  });

  it('refuses includes: rules come one file at a time', () => {
    const check = checkYaraSource('include "other.yar"\nrule a { condition: true }');
    expect(check.ok).toBe(false);
  });

  it('refuses a source over the size limit before compiling it', () => {
    const big = `rule a { condition: true }\n${'// padding\n'.repeat(Math.ceil(MAX_YARA_SOURCE_BYTES / 11) + 1)}`;
    const check = checkYaraSource(big);
    expect(check).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^the rule file is 5\.0 MB, over the 5\.0 MB limit/),
    });
  });
});
