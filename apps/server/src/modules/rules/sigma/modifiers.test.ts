import { describe, expect, it } from 'vitest';
import { compileSigmaRule } from './compile';
import { compile, matches, processCreate, ruleText, sysmon } from './sigma-test-helpers';
import { base64Offsets } from './transforms';
import { SigmaRefusal } from './types';

/** Whether a one-selection rule matches a process creation with the given fields. */
const check = (selection: string, data: Record<string, string | number>): boolean =>
  matches(compile(`selection:\n${selection.replace(/^/gm, '    ')}\ncondition: selection`), processCreate(data));

const refusal = (detection: string, logsource?: string): string => {
  try {
    compileSigmaRule(ruleText(detection, logsource));
  } catch (error) {
    if (error instanceof SigmaRefusal) return error.message;
    throw error;
  }
  throw new Error('the rule compiled');
};

describe('plain values', () => {
  it('compare the whole value, ignoring case', () => {
    expect(check("Image: 'C:\\Windows\\System32\\CMD.EXE'", {})).toBe(true);
    expect(check("Image: 'C:\\Windows\\System32\\cmd'", {})).toBe(false);
  });

  it('match any value of a list', () => {
    expect(check("Image:\n  - 'x'\n  - 'c:\\windows\\system32\\cmd.exe'", {})).toBe(true);
    expect(check("Image:\n  - 'x'\n  - 'y'", {})).toBe(false);
  });

  it('compare numbers with the text of the field', () => {
    expect(check('ProcessId: 4242', { ProcessId: 4242 })).toBe(true);
    expect(check('ProcessId: 4243', { ProcessId: 4242 })).toBe(false);
    expect(matches(compile('selection:\n    EventID: 1\ncondition: selection'), processCreate({}))).toBe(true);
  });

  it('null means the field is absent; an empty text means an empty value', () => {
    expect(check('OriginalFileName: null', {})).toBe(true);
    expect(check('OriginalFileName: null', { OriginalFileName: 'Cmd.Exe' })).toBe(false);
    expect(check("OriginalFileName: ''", { OriginalFileName: '' })).toBe(true);
    expect(check("OriginalFileName: ''", { OriginalFileName: 'x' })).toBe(false);
    expect(check("OriginalFileName: ''", {})).toBe(false);
  });

  it('read a field that is not there as no match', () => {
    expect(check("Company: 'Microsoft'", {})).toBe(false);
  });
});

describe('wildcards', () => {
  it('* matches any run and ? one character', () => {
    expect(check("CommandLine: 'cmd.exe /c *'", {})).toBe(true);
    expect(check("CommandLine: 'cmd.exe /? whoami'", {})).toBe(true);
    expect(check("CommandLine: 'cmd.exe /?? whoami'", {})).toBe(false);
    expect(check("CommandLine: '*/c*am?'", {})).toBe(true);
    expect(check("CommandLine: '*/c*am'", {})).toBe(false);
  });

  it('\\* and \\? are the characters themselves, \\\\ a backslash, other backslashes plain', () => {
    expect(check("CommandLine: 'run \\*'", { CommandLine: 'run *' })).toBe(true);
    expect(check("CommandLine: 'run \\*'", { CommandLine: 'run x' })).toBe(false);
    expect(check("CommandLine: 'what\\?'", { CommandLine: 'what?' })).toBe(true);
    expect(check("CommandLine: 'what\\?'", { CommandLine: 'whatx' })).toBe(false);
    expect(check("CommandLine: 'a\\\\*'", { CommandLine: 'a\\anything' })).toBe(true);
    expect(check("Image|endswith: '\\cmd.exe'", {})).toBe(true);
  });
});

describe('contains, startswith, endswith', () => {
  it('look for the value inside, at the start, at the end', () => {
    expect(check("CommandLine|contains: 'WHOAMI'", {})).toBe(true);
    expect(check("CommandLine|startswith: 'CMD.exe '", {})).toBe(true);
    expect(check("CommandLine|startswith: '/c'", {})).toBe(false);
    expect(check("Image|endswith: '\\System32\\cmd.exe'", {})).toBe(true);
    expect(check("Image|endswith: '\\System32'", {})).toBe(false);
  });

  it('keep wildcards inside the value', () => {
    expect(check("CommandLine|contains: '/c who*'", {})).toBe(true);
    expect(check("CommandLine|contains: '/x who*'", {})).toBe(false);
  });

  it('all: every value must be found', () => {
    expect(check("CommandLine|contains|all:\n  - 'cmd'\n  - 'whoami'", {})).toBe(true);
    expect(check("CommandLine|contains|all:\n  - 'cmd'\n  - 'net user'", {})).toBe(false);
  });

  it('cased: case counts', () => {
    expect(check("CommandLine|contains|cased: 'whoami'", {})).toBe(true);
    expect(check("CommandLine|contains|cased: 'WHOAMI'", {})).toBe(false);
    expect(check("Image|cased: 'C:\\Windows\\System32\\cmd.exe'", {})).toBe(true);
  });
});

describe('re', () => {
  it('is case-sensitive unless i is given', () => {
    expect(check("CommandLine|re: 'cmd\\.exe\\s+/c\\s+who'", {})).toBe(true);
    expect(check("CommandLine|re: 'CMD\\.EXE'", {})).toBe(false);
    expect(check("CommandLine|re|i: 'CMD\\.EXE'", {})).toBe(true);
    expect(check("CommandLine|re: '(?i)CMD\\.EXE'", {})).toBe(true);
  });

  it('m makes ^ and $ match at line breaks, s lets . match them', () => {
    const data = { CommandLine: 'first\nsecond line' };
    expect(check("CommandLine|re: '^second'", data)).toBe(false);
    expect(check("CommandLine|re|m: '^second'", data)).toBe(true);
    expect(check("CommandLine|re: 'first.second'", data)).toBe(false);
    expect(check("CommandLine|re|s: 'first.second'", data)).toBe(true);
  });

  it('runs patterns that could backtrack catastrophically, on the linear automaton', () => {
    expect(check("CommandLine|re: '(a+)+b'", { CommandLine: `${'a'.repeat(50_000)}!` })).toBe(false);
    expect(check("CommandLine|re: '(a+)+b'", { CommandLine: `${'a'.repeat(50_000)}b` })).toBe(true);
    expect(check("CommandLine|re: '(?:who|cmd)+'", {})).toBe(true);
    expect(check("CommandLine|re: '(?:ab){2,3}|whoami'", {})).toBe(true);
  });

  it('refuses what JavaScript would read differently, and patterns that do not compile', () => {
    expect(refusal("selection:\n    CommandLine|re: 'a(?>b)'\ncondition: selection")).toMatch(/atomic groups/);
    expect(refusal("selection:\n    CommandLine|re: '(a)\\1'\ncondition: selection")).toMatch(/backreference/);
    expect(refusal("selection:\n    CommandLine|re: 'a(b'\ncondition: selection")).toMatch(/does not compile/);
    expect(refusal("selection:\n    CommandLine|i: 'a'\ncondition: selection")).toBe(
      "modifier 'i' in 'CommandLine|i' is a flag of 're' and needs it",
    );
  });
});

describe('encodings', () => {
  const encoded = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('base64');

  it('base64 matches the encoded value', () => {
    const data = { CommandLine: `powershell -enc ${encoded('IEX (New-Object Net.WebClient)')}` };
    expect(check(`CommandLine|base64|contains: 'IEX (New-Object Net.WebClient)'`, data)).toBe(true);
    expect(check(`CommandLine|base64|contains: 'IEX (New-Object Net.WebClient'`, data)).toBe(false);
  });

  it('base64offset finds the value at any offset within encoded text', () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const data = { CommandLine: `x ${encoded(`${prefix}Invoke-Mimikatz -Dump`)}` };
      expect(check("CommandLine|base64offset|contains: 'Invoke-Mimikatz'", data)).toBe(true);
    }
    expect(
      check("CommandLine|base64offset|contains: 'Invoke-Mimikatz'", { CommandLine: encoded('Invoke-Other') }),
    ).toBe(false);
    expect(base64Offsets(Buffer.from('abc'))).toEqual(['YWJj', 'FiY', 'hYm']);
    // With all, each value must be there at some offset.
    const both = "CommandLine|base64offset|contains|all:\n  - 'Invoke-Mimikatz'\n  - 'DumpCreds'";
    expect(check(both, { CommandLine: encoded('xInvoke-Mimikatz -DumpCreds') })).toBe(true);
    expect(check(both, { CommandLine: encoded('xInvoke-Mimikatz -Dump') })).toBe(false);
  });

  it('wide (utf16le), utf16be and utf16 encode as UTF-16 before base64', () => {
    const data = { CommandLine: `powershell -e ${encoded('Get-Process whoami', 'utf16le')}` };
    expect(check("CommandLine|wide|base64offset|contains: 'whoami'", data)).toBe(true);
    expect(check("CommandLine|utf16le|base64offset|contains: 'whoami'", data)).toBe(true);
    expect(check("CommandLine|base64offset|contains: 'whoami'", data)).toBe(false);
    const be = Buffer.from('hi', 'utf16le').swap16().toString('base64');
    expect(check("CommandLine|utf16be|base64: 'hi'", { CommandLine: be })).toBe(true);
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi', 'utf16le')]).toString('base64');
    expect(check("CommandLine|utf16|base64: 'hi'", { CommandLine: bom })).toBe(true);
  });

  it('refuses to encode a value with wildcards', () => {
    expect(refusal("selection:\n    CommandLine|base64: 'a*'\ncondition: selection")).toBe(
      "the value of 'CommandLine|base64' holds wildcards, which cannot be encoded by 'base64'",
    );
  });
});

describe('windash', () => {
  it('matches an option written with any dash or a slash', () => {
    for (const dash of ['-', '/', '\u2013', '\u2014', '\u2015']) {
      expect(
        check("CommandLine|windash|contains: ' -exec bypass'", { CommandLine: `powershell ${dash}exec bypass` }),
      ).toBe(true);
    }
    expect(check("CommandLine|windash|contains: ' -exec bypass'", { CommandLine: 'powershell +exec bypass' })).toBe(
      false,
    );
  });

  it('with all, needs each value in one of its forms', () => {
    const rule = "CommandLine|windash|contains|all:\n  - ' -nop'\n  - ' -enc '";
    expect(check(rule, { CommandLine: 'powershell /nop \u2013enc AAAA' })).toBe(true);
    expect(check(rule, { CommandLine: 'powershell /nop AAAA' })).toBe(false);
  });

  it('leaves dashes inside words alone', () => {
    expect(check("CommandLine|windash|contains: 'Invoke-Expression'", { CommandLine: 'Invoke/Expression' })).toBe(
      false,
    );
  });
});

describe('cidr, exists, numbers, fieldref, expand', () => {
  const connection = (ip: string) =>
    sysmon(3, { Image: 'C:\\x.exe', DestinationIp: ip, DestinationPort: 445, Initiated: 'true' });
  const network = (selection: string) =>
    compile(`selection:\n    ${selection}\ncondition: selection`, 'product: windows\n    category: network_connection');

  it('cidr matches addresses in the ranges, IPv4 and IPv6', () => {
    const rule = network("DestinationIp|cidr:\n        - '10.0.0.0/8'\n        - 'fe80::/10'");
    expect(matches(rule, connection('10.20.30.40'))).toBe(true);
    expect(matches(rule, connection('fe80::1'))).toBe(true);
    expect(matches(rule, connection('11.0.0.1'))).toBe(false);
    expect(refusal("selection:\n    DestinationIp|cidr: '10.0.0.0/40'\ncondition: selection")).toMatch(
      /not a network address range/,
    );
  });

  it('lt, lte, gt, gte compare numbers', () => {
    expect(matches(network('DestinationPort|lt: 446'), connection('1.2.3.4'))).toBe(true);
    expect(matches(network('DestinationPort|lt: 445'), connection('1.2.3.4'))).toBe(false);
    expect(matches(network('DestinationPort|lte: 445'), connection('1.2.3.4'))).toBe(true);
    expect(matches(network('DestinationPort|gt: 445'), connection('1.2.3.4'))).toBe(false);
    expect(matches(network('DestinationPort|gte: 445'), connection('1.2.3.4'))).toBe(true);
    expect(refusal("selection:\n    DestinationPort|gt: 'high'\ncondition: selection")).toMatch(/needs one number/);
  });

  it('exists tells whether the event has the field', () => {
    expect(check('OriginalFileName|exists: true', { OriginalFileName: 'x' })).toBe(true);
    expect(check('OriginalFileName|exists: true', {})).toBe(false);
    expect(check('OriginalFileName|exists: false', {})).toBe(true);
  });

  it('fieldref compares two fields of the event', () => {
    expect(check("ParentImage|fieldref: 'Image'", { ParentImage: 'C:\\Windows\\System32\\CMD.exe' })).toBe(true);
    expect(check("ParentImage|fieldref: 'Image'", {})).toBe(false);
    expect(check("CommandLine|fieldref|contains: 'OriginalFileName'", { OriginalFileName: 'CMD.EXE' })).toBe(true);
    expect(check("CommandLine|fieldref|endswith: 'OriginalFileName'", { OriginalFileName: 'CMD.EXE' })).toBe(false);
  });

  it('expand fills a placeholder with its configured values, and refuses one without', () => {
    const text = ruleText("selection:\n    Image|expand|endswith: '%admin_tools%'\ncondition: selection");
    const rule = compileSigmaRule(text, { placeholders: new Map([['admin_tools', ['\\psexec.exe', '\\cmd.exe']]]) });
    expect(matches(rule, processCreate({}))).toBe(true);
    expect(() => compileSigmaRule(text)).toThrow(
      "placeholder '%admin_tools%' in 'Image|expand|endswith' has no value configured",
    );
  });
});

describe('refused modifiers', () => {
  it('name the modifier and the field', () => {
    expect(refusal("selection:\n    CommandLine|foo: 'x'\ncondition: selection")).toBe(
      "unknown modifier 'foo' in field 'CommandLine|foo'",
    );
    expect(refusal("selection:\n    CommandLine|contains|startswith: 'x'\ncondition: selection")).toBe(
      "'CommandLine|contains|startswith' combines the modifiers 'contains' and 'startswith'; only one comparison can apply",
    );
  });
});
