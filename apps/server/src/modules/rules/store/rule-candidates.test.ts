import { describe, expect, it } from 'vitest';
import { checkYaraSource } from '../yara/yara-compile';
import { readRuleFile, readRuleFiles } from './rule-candidates';

const yara = `import "pe"

private rule IsPE { condition: uint16(0) == 0x5A4D }

rule NeedsPrivate { condition: IsPE and pe.number_of_sections > 2 }

rule Alone : tag1 {
  meta:
    author = "Vigil tests"
    severity = "High"
    mitre_attack = "T1059.001"
  strings:
    $a = "evil"
  condition:
    $a
}

rule Scored { meta: score = 95 condition: filesize < 10 }
`;

describe('reading imported rule files', () => {
  it('gives each YARA rule a source that compiles alone, or the whole file when it needs its neighbours', () => {
    const { rules, rejected } = readRuleFile('yara', 'sets/demo.yar', yara);
    expect(rejected).toEqual([]);
    const by = Object.fromEntries(rules.map((r) => [r.key, r]));
    expect(Object.keys(by)).toEqual(['demo.yar:IsPE', 'demo.yar:NeedsPrivate', 'demo.yar:Alone', 'demo.yar:Scored']);
    expect(by['demo.yar:NeedsPrivate']!.source).toBe(yara);
    expect(by['demo.yar:NeedsPrivate']!.details.whole_file).toBe(true);
    const alone = by['demo.yar:Alone']!;
    expect(alone.source.startsWith('import "pe"\n\nrule Alone : tag1 {')).toBe(true);
    expect(alone.source).not.toMatch(/Scored|IsPE/);
    expect(alone).toMatchObject({ level: 'high', author: 'Vigil tests', tags: ['tag1'], line: 7 });
    expect(alone.techniques).toContain('T1059.001');
    expect(by['demo.yar:Scored']!.level).toBe('critical');
    expect(by['demo.yar:IsPE']!.level).toBe('medium');
    for (const rule of rules) expect(checkYaraSource(rule.source).ok, rule.key).toBe(true);
  });

  it('keeps the YARA rules of a broken file that compile alone and refuses the others at their line', () => {
    const broken = 'rule Fine { condition: true }\n\nrule Broken {\n  condition:\n    nothing_here\n}\n';
    const { rules, rejected } = readRuleFile('yara', 'b.yar', broken);
    expect(rules.map((r) => r.key)).toEqual(['b.yar:Fine']);
    expect(rejected).toEqual([
      { file: 'b.yar', line: 5, rule: 'Broken', reason: expect.stringMatching(/nothing_here/) },
    ]);
  });

  it('maps Suricata severity and priority to levels and refuses malformed rules with their line', () => {
    const { rules, rejected } = readRuleFile(
      'suricata',
      'x.rules',
      [
        'alert tcp any any -> any any (msg:"crit"; metadata: signature_severity Critical; sid:1;)',
        'alert tcp any any -> any any (msg:"p1"; priority:1; gid:3; sid:2;)',
        '',
        'alert tcp any any -> any any (msg:"bad"; sid:3',
        'alert tcp any any -> any any (msg:"plain"; sid:4;)',
      ].join('\n'),
    );
    expect(rules.map((r) => [r.key, r.level])).toEqual([
      ['1:1', 'critical'],
      ['3:2', 'high'],
      ['1:4', 'medium'],
    ]);
    expect(rejected).toEqual([{ file: 'x.rules', line: 4, rule: '1:3', reason: expect.any(String) }]);
  });

  it('stores a Sigma rule the engine cannot run as unsupported, and refuses one without id', () => {
    const unsupported = readRuleFile(
      'sigma',
      'u.yml',
      'title: Odd\nid: u-1\nlevel: informational\ntags: [attack.defense-evasion, attack.t1562]\nlogsource: {product: windows}\ndetection:\n  sel:\n    Image|nonsense: x\n  condition: sel\n',
    );
    expect(unsupported.rules).toEqual([
      expect.objectContaining({
        key: 'u-1',
        level: 'info',
        enabled: false,
        techniques: ['T1562', 'TA0005'],
        unsupported: expect.stringMatching(/nonsense/),
      }),
    ]);
    const noId = readRuleFile('sigma', 'n.yml', 'title: No id\ndetection: {sel: {a: 1}, condition: sel}\n');
    expect(noId.rejected[0]).toMatchObject({ file: 'n.yml', line: 1, reason: expect.stringMatching(/no 'id'/) });
  });

  it('keeps the first of two rules with one key and gives the default licence to rules without one', () => {
    const rule = (title: string, extra = '') =>
      `title: ${title}\nid: same\n${extra}logsource: {product: windows}\ndetection: {sel: {a: 1}, condition: sel}\n`;
    const { rules, rejected } = readRuleFiles(
      'sigma',
      [
        { name: 'a.yml', content: rule('First') },
        { name: 'b.yml', content: rule('Second') },
        { name: 'c.yml', content: rule('Own licence', 'license: MIT\n').replace('id: same', 'id: other') },
      ],
      'DRL-1.1',
    );
    expect(rules.map((r) => [r.title, r.licence])).toEqual([
      ['First', 'DRL-1.1'],
      ['Own licence', 'MIT'],
    ]);
    expect(rejected).toEqual([
      {
        file: 'b.yml',
        line: 1,
        rule: 'same',
        reason: 'the same rule (same) is at a.yml line 1 already; only that one is imported',
      },
    ]);
  });
});
