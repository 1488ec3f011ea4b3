import { describe, expect, it } from 'vitest';
import { highlightRule, type RuleLanguage, type SyntaxLines } from './rule-syntax';

const text = (lines: SyntaxLines) => lines.map((line) => line.map((token) => token.text).join('')).join('\n');
/** The colour each piece of text is painted with (plain text left out). */
const colours = (lines: SyntaxLines) =>
  lines.flat().flatMap((token) => (token.kind === null ? [] : [[token.text.trim(), token.kind] as const]));

const samples: Record<RuleLanguage, string> = {
  suricata: [
    '# ET rules',
    'alert http $HOME_NET any -> $EXTERNAL_NET [80,443] (msg:"ET MALWARE Beacon; \\"x\\""; flow:established,to_server; \\',
    '  content:"|2f|gate.php"; nocase; sid:2031001; rev:3;)',
  ].join('\n'),
  sigma: [
    'title: Suspicious PowerShell # note',
    'tags:',
    '  - attack.t1059.001',
    'detection:',
    '  selection:',
    "    CommandLine|contains|all: ['-enc', 'bypass']",
    '    Image|endswith: \\powershell.exe',
    '    Count: 3',
    '  condition: selection and not 1 of filter_*',
    'falsepositives: null',
  ].join('\n'),
  yara: [
    'import "pe"',
    '/* multi',
    '   line */',
    'rule APT_Test : tag1 {',
    '  meta:',
    '    author = "x" // who',
    '  strings:',
    '    $a = "evil\\"" wide',
    '    $h = { 4D 5A ?? 90 }',
    '    $r = /ab+c/i',
    '  condition:',
    '    uint16(0) == 0x5A4D and #a > 2 and filesize < 2MB and all of ($a*)',
    '}',
  ].join('\n'),
};

describe('highlightRule', () => {
  it.each(Object.keys(samples) as RuleLanguage[])('%s: the lines join back to the source exactly', (language) => {
    const lines = highlightRule(language, samples[language]);
    expect(text(lines)).toBe(samples[language]);
    expect(lines).toHaveLength(samples[language].split('\n').length);
  });

  it('Suricata: action, protocol, variables, direction, option names, strings and numbers', () => {
    const found = colours(highlightRule('suricata', samples.suricata));
    expect(found).toEqual(
      expect.arrayContaining([
        ['# ET rules', 'comment'],
        ['alert', 'keyword'],
        ['http', 'function'],
        ['$HOME_NET', 'variable'],
        ['->', 'operator'],
        ['80', 'number'],
        ['msg', 'property'],
        ['"ET MALWARE Beacon; \\"x\\""', 'string'],
        ['flow', 'property'],
        ['content', 'property'],
        ['nocase', 'property'],
        ['sid', 'property'],
        ['2031001', 'number'],
      ]),
    );
    // A `;` inside a quoted value does not end the option.
    expect(found).not.toContainEqual(['x\\""', 'property']);
  });

  it('Sigma: keys, modifiers, list items, condition words, literals and comments', () => {
    const found = colours(highlightRule('sigma', samples.sigma));
    expect(found).toEqual(
      expect.arrayContaining([
        ['title', 'property'],
        ['Suspicious PowerShell', 'string'],
        ['# note', 'comment'],
        ['-', 'punctuation'],
        ['attack.t1059.001', 'string'],
        ['CommandLine', 'property'],
        ['|contains|all', 'function'],
        ["'-enc'", 'string'],
        ['3', 'number'],
        ['and', 'keyword'],
        ['not', 'keyword'],
        ['selection', 'variable'],
        ['filter_*', 'variable'],
        ['null', 'keyword'],
      ]),
    );
  });

  it('YARA: comments, keywords, rule name, strings, hex strings, regular expressions, references', () => {
    const found = colours(highlightRule('yara', samples.yara));
    expect(found).toEqual(
      expect.arrayContaining([
        ['import', 'keyword'],
        ['"pe"', 'string'],
        ['/* multi', 'comment'],
        ['line */', 'comment'],
        ['rule', 'keyword'],
        ['APT_Test', 'function'],
        ['meta', 'keyword'],
        ['author', 'property'],
        ['// who', 'comment'],
        ['$a', 'variable'],
        ['"evil\\""', 'string'],
        ['wide', 'keyword'],
        ['{ 4D 5A ?? 90 }', 'number'],
        ['/ab+c/i', 'string'],
        ['uint16', 'function'],
        ['0x5A4D', 'number'],
        ['#a', 'variable'],
        ['2MB', 'number'],
        ['==', 'operator'],
        ['filesize', 'keyword'],
      ]),
    );
  });
});
