import { describe, expect, it } from 'vitest';
import { compileSigmaRule } from './compile';
import { SigmaEngine } from './engine';
import { parseSigmaYaml } from './parse';
import { compile, matches, parsed, processCreate, ruleText, sysmon, windowsEvent } from './sigma-test-helpers';
import { SigmaRefusal } from './types';

const SEARCHES = `
selection_img:
    Image|endswith: '\\cmd.exe'
selection_cli:
    CommandLine|contains: 'whoami'
filter_parent:
    ParentImage|endswith: '\\explorer.exe'
_hidden:
    User: 'CORP\\bob'
`;

/** Evaluates a condition over the searches above for a process creation with the given fields. */
const when = (condition: string, data: Record<string, string> = {}): boolean =>
  matches(compile(`${SEARCHES}\ncondition: ${condition}`), processCreate(data));

const refusal = (source: string): string => {
  try {
    compileSigmaRule(source);
  } catch (error) {
    if (error instanceof SigmaRefusal) return error.message;
    throw error;
  }
  throw new Error('the rule compiled');
};

describe('conditions', () => {
  it('and, or, not', () => {
    expect(when('selection_img and selection_cli')).toBe(true);
    expect(when('selection_img and selection_cli', { CommandLine: 'cmd /c dir' })).toBe(false);
    expect(when('selection_img or selection_cli', { CommandLine: 'cmd /c dir' })).toBe(true);
    expect(when('selection_img and not filter_parent')).toBe(false);
    expect(when('selection_img and not filter_parent', { ParentImage: 'C:\\x\\winword.exe' })).toBe(true);
    expect(when('not not selection_img')).toBe(true);
  });

  it('not binds tighter than and, and tighter than or; parentheses group', () => {
    // not filter_parent or selection_img = (not filter_parent) or selection_img
    expect(when('not filter_parent or selection_img')).toBe(true);
    expect(when('not (filter_parent or selection_img)')).toBe(false);
    // selection_cli or selection_img and filter_parent = selection_cli or (selection_img and filter_parent)
    expect(when('selection_cli or selection_img and filter_parent', { ParentImage: 'C:\\x.exe' })).toBe(true);
    expect(when('(selection_cli or selection_img) and filter_parent', { ParentImage: 'C:\\x.exe' })).toBe(false);
  });

  it('1 of and all of a name pattern', () => {
    expect(when('1 of selection_*', { CommandLine: 'cmd /c dir' })).toBe(true);
    expect(when('all of selection_*', { CommandLine: 'cmd /c dir' })).toBe(false);
    expect(when('all of selection_*')).toBe(true);
    expect(when('all of selection_* and not 1 of filter_*')).toBe(false);
  });

  it('1 of them and all of them leave out names starting with an underscore', () => {
    expect(when('all of them')).toBe(true);
    expect(
      when('1 of them', { Image: 'C:\\x.exe', CommandLine: 'x', ParentImage: 'C:\\y.exe', User: 'CORP\\bob' }),
    ).toBe(false);
    expect(when('_hidden', { User: 'CORP\\bob' })).toBe(true);
  });

  it('a list of maps is any of them; a map is all of its fields', () => {
    const rule = compile(
      "selection:\n    - Image|endswith: '\\a.exe'\n    - Image|endswith: '\\cmd.exe'\n      CommandLine|contains: 'whoami'\ncondition: selection",
    );
    expect(matches(rule, processCreate({}))).toBe(true);
    expect(matches(rule, processCreate({ CommandLine: 'dir' }))).toBe(false);
    expect(matches(rule, processCreate({ Image: 'C:\\a.exe', CommandLine: 'dir' }))).toBe(true);
  });

  it('a list of conditions matches when any does', () => {
    const rule = compile(`${SEARCHES}\ncondition:\n    - selection_cli and filter_parent\n    - _hidden`);
    expect(matches(rule, processCreate({ ParentImage: 'C:\\x.exe', User: 'corp\\BOB' }))).toBe(true);
    expect(matches(rule, processCreate({ ParentImage: 'C:\\x.exe' }))).toBe(false);
  });

  it('refuses conditions that do not parse or name unknown searches', () => {
    expect(refusal(ruleText(`${SEARCHES}\ncondition: selection_img and`))).toBe(
      "the condition 'selection_img and' does not parse: it ends too early",
    );
    expect(refusal(ruleText(`${SEARCHES}\ncondition: (selection_img`))).toMatch(/a parenthesis is not closed/);
    expect(refusal(ruleText(`${SEARCHES}\ncondition: selection`))).toBe(
      "the condition 'selection' names 'selection', which is not a search of the detection",
    );
    expect(refusal(ruleText(`${SEARCHES}\ncondition: 1 of sel_*`))).toMatch(/names 'sel_\*', which matches no search/);
    expect(refusal(ruleText(`${SEARCHES}\ncondition: selection_img | count() > 5`))).toMatch(
      /aggregations .* not supported/,
    );
  });
});

describe('keywords', () => {
  const ps = (text: string) =>
    windowsEvent('Microsoft-Windows-PowerShell', 'Microsoft-Windows-PowerShell/Operational', 4104, {
      ScriptBlockText: text,
      Path: '',
    });
  const rule = (detection: string) => compile(detection, 'product: windows\n    category: ps_script');

  it('a list of keywords matches any of them anywhere in the event, ignoring case', () => {
    const r = rule("keywords:\n    - 'Invoke-Mimikatz'\n    - 'sekurlsa::'\ncondition: keywords");
    expect(matches(r, ps('IEX; invoke-mimikatz -DumpCreds'))).toBe(true);
    expect(matches(r, ps('Get-Process'))).toBe(false);
  });

  it("'|all' needs every keyword", () => {
    const r = rule(
      "keywords:\n    '|all':\n        - 'Net.WebClient'\n        - 'DownloadString'\ncondition: keywords",
    );
    expect(matches(r, ps('(New-Object Net.WebClient).DownloadString(u)'))).toBe(true);
    expect(matches(r, ps('(New-Object Net.WebClient).DownloadFile(u)'))).toBe(false);
  });
});

describe('rule metadata', () => {
  const text = [
    'title: Credential dumping via comsvcs',
    'id: 0a1b2c3d-0000-4000-8000-00000000abcd',
    'status: stable',
    'description: Detects MiniDump through comsvcs.dll',
    'author: Jane Doe, John Roe',
    'license: MIT',
    'references:',
    '    - https://example.org/a',
    'tags:',
    '    - attack.credential-access',
    '    - attack.t1003.001',
    '    - attack.T1218.011',
    '    - attack.g0016',
    '    - car.2013-05-009',
    'logsource:',
    '    product: windows',
    '    category: process_creation',
    'detection:',
    '    selection:',
    "        CommandLine|contains: 'MiniDump'",
    '    condition: selection',
    'falsepositives:',
    '    - Unknown',
    'level: HIGH',
  ].join('\n');

  it('reads the descriptive fields and the ATT&CK techniques from the tags', () => {
    const { info } = parseSigmaYaml(text);
    expect(info).toMatchObject({
      id: '0a1b2c3d-0000-4000-8000-00000000abcd',
      title: 'Credential dumping via comsvcs',
      status: 'stable',
      level: 'high',
      author: 'Jane Doe, John Roe',
      license: 'MIT',
      references: ['https://example.org/a'],
      techniques: ['T1003.001', 'T1218.011'],
      tactics: ['credential-access'],
      logsource: { product: 'windows', category: 'process_creation', service: null },
      falsepositives: ['Unknown'],
    });
  });

  it("takes the source's licence when the rule names none", () => {
    const { info } = parseSigmaYaml(text.replace('license: MIT\n', ''), { defaultLicense: 'DRL-1.1' });
    expect(info.license).toBe('DRL-1.1');
  });

  it('quotes the rule in a refusal with its unprintable characters written out', () => {
    expect(refusal(ruleText('selection:\n    "Image|x\\u2028y": \'a\'\ncondition: selection'))).toBe(
      "unknown modifier 'x\\u2028y' in field 'Image|x\\u2028y'",
    );
  });

  it('refuses correlation rules, collections, and logsources Vigil does not receive', () => {
    expect(refusal('title: c\nid: x\ncorrelation:\n    type: event_count')).toBe('correlation rules are not supported');
    expect(refusal(`${text}\n---\n${text}`)).toMatch(/rule collections are not supported/);
    expect(refusal(text.replace('product: windows', 'product: linux'))).toBe(
      "logsource product 'linux' is not an endpoint source Vigil receives",
    );
    expect(refusal(text.replace('category: process_creation', 'category: file_access'))).toMatch(
      /category 'file_access' needs file access events/,
    );
    expect(refusal(text.replace('category: process_creation', 'service: nosuch'))).toBe(
      "logsource service 'nosuch' is not a Windows log Vigil knows the channel of",
    );
  });
});

describe('logsources', () => {
  const imageRule = (logsource: string) =>
    compileSigmaRule(ruleText("selection:\n    Image|endswith: '\\cmd.exe'\ncondition: selection", logsource));

  it('a category applies to the events of its action, whatever their source', () => {
    const engine = new SigmaEngine([imageRule('product: windows\n    category: process_creation')]);
    expect(engine.match(processCreate({}))).toHaveLength(1);
    // A Sysmon image load of the same process is not a process creation.
    expect(engine.match(sysmon(7, { Image: 'C:\\Windows\\System32\\cmd.exe', ImageLoaded: 'C:\\x.dll' }))).toHaveLength(
      0,
    );
    // Security 4688 names the process NewProcessName: the rule reads it as Image.
    const security = windowsEvent('Microsoft-Windows-Security-Auditing', 'Security', 4688, {
      NewProcessName: 'C:\\Windows\\System32\\cmd.exe',
      ParentProcessName: 'C:\\Windows\\explorer.exe',
      CommandLine: 'cmd',
      NewProcessId: '0x1a4',
      ProcessId: '0x10',
    });
    expect(engine.match(security)).toHaveLength(1);
  });

  it('a service applies to the events of its channel', () => {
    const engine = new SigmaEngine([
      compileSigmaRule(
        ruleText(
          "selection:\n    EventID: 7045\n    ImagePath|contains: 'psexesvc'\ncondition: selection",
          'product: windows\n    service: system',
        ),
      ),
    ]);
    const install = (channel: string) =>
      windowsEvent('Service Control Manager', channel, 7045, {
        ServiceName: 'PSEXESVC',
        ImagePath: '%SystemRoot%\\PSEXESVC.exe',
      });
    expect(engine.match(install('System'))).toHaveLength(1);
    expect(engine.match(install('Application'))).toHaveLength(0);
  });

  it('ECS events resolve Sigma field names through the normalised fields', () => {
    const engine = new SigmaEngine([
      compileSigmaRule(
        ruleText(
          "selection:\n    Image|endswith: '\\rundll32.exe'\n    CommandLine|contains: 'comsvcs'\n    ParentImage|endswith: '\\cmd.exe'\n    CurrentDirectory|startswith: 'C:\\Temp'\ncondition: selection",
        ),
      ),
    ]);
    const ecs = (os: string) =>
      parsed({
        '@timestamp': '2026-03-01T10:00:00Z',
        host: { name: 'ws-02', os: { family: os } },
        event: { action: 'start', category: ['process'] },
        process: {
          pid: 10,
          executable: 'C:\\Windows\\System32\\rundll32.exe',
          command_line: 'rundll32.exe C:\\Windows\\System32\\comsvcs.dll, MiniDump 620 out.dmp full',
          working_directory: 'C:\\Temp\\x',
          parent: { executable: 'C:\\Windows\\System32\\cmd.exe' },
        },
      });
    expect(engine.match(ecs('windows'))).toHaveLength(1);
    expect(engine.match(ecs('linux'))).toHaveLength(0);
    // Elastic Defend's library loads name the library dll.path; its connections say their direction.
    const library = parsed({
      '@timestamp': '2026-03-01T10:00:00Z',
      host: { name: 'ws-02', os: { family: 'windows' } },
      event: { action: 'load', category: ['library'] },
      process: { executable: 'C:\\Windows\\System32\\rundll32.exe' },
      dll: { path: 'C:\\Users\\Public\\evil.dll' },
    });
    const loads = new SigmaEngine([
      compileSigmaRule(
        ruleText(
          "selection:\n    ImageLoaded|startswith: 'C:\\Users\\Public\\'\ncondition: selection",
          'product: windows\n    category: image_load',
        ),
      ),
    ]);
    expect(loads.match(library)).toHaveLength(1);
    const outbound = (direction: string) =>
      parsed({
        '@timestamp': '2026-03-01T10:00:00Z',
        host: { name: 'ws-02', os: { family: 'windows' } },
        event: { action: 'connection_attempted', category: ['network'] },
        process: { executable: 'C:\\x.exe' },
        destination: { ip: '203.0.113.9', port: 4444 },
        network: { direction },
      });
    const connections = new SigmaEngine([
      compileSigmaRule(
        ruleText(
          "selection:\n    Initiated: 'true'\n    DestinationPort: 4444\ncondition: selection",
          'product: windows\n    category: network_connection',
        ),
      ),
    ]);
    expect(connections.match(outbound('egress'))).toHaveLength(1);
    expect(connections.match(outbound('ingress'))).toHaveLength(0);
  });
});

describe('the engine', () => {
  const rules = Array.from({ length: 300 }, (_, i) =>
    compileSigmaRule(
      ruleText(`selection:\n    CommandLine|contains: 'tool${i}.exe -run'\ncondition: selection`).replace(
        '5f0b2f8e-0000-4000-8000-000000000001',
        `rule-${i}`,
      ),
    ),
  );

  it('finds exactly the rules that match, among many', () => {
    const engine = new SigmaEngine(rules);
    expect(engine.match(processCreate({ CommandLine: 'C:\\x\\TOOL42.exe -run now' })).map((m) => m.rule.id)).toEqual([
      'rule-42',
    ]);
    expect(engine.match(processCreate({ CommandLine: 'notepad' }))).toEqual([]);
  });

  it('evaluates only the rules whose needles are in the event, and rules without needles always', () => {
    const negated = compileSigmaRule(
      ruleText("filter:\n    Image|endswith: '\\explorer.exe'\ncondition: not filter").replace(
        '5f0b2f8e-0000-4000-8000-000000000001',
        'negated',
      ),
    );
    expect(rules[7]!.needles).toEqual([['tool7.exe -run']]);
    expect(negated.needles).toBeNull();
    const engine = new SigmaEngine([...rules, negated]);
    expect(engine.unfiltered).toBe(1);
    expect(engine.match(processCreate({ CommandLine: 'x tool7.exe -run' })).map((m) => m.rule.id)).toEqual([
      'rule-7',
      'negated',
    ]);
    expect(engine.evaluations).toBe(2);
    expect(engine.match(processCreate({ Image: 'C:\\Windows\\explorer.exe', CommandLine: 'explorer' }))).toEqual([]);
    expect(engine.evaluations).toBe(3);
  });

  it('evaluates a rule only where every clause of its needles has a text present', () => {
    // Many rules share the common text; the rarer one brings the rule in, the common one is checked.
    const common = Array.from({ length: 50 }, (_, i) =>
      compileSigmaRule(
        ruleText(
          `selection:\n    Image|endswith: '\\powershell.exe'\n    CommandLine|contains: 'marker${i}'\ncondition: selection`,
        ).replace('5f0b2f8e-0000-4000-8000-000000000001', `ps-${i}`),
      ),
    );
    expect(common[3]!.needles).toEqual([['\\powershell.exe'], ['marker3']]);
    // A regular expression of one-character texts: no rule is brought in by it, but it is checked.
    const plus = compileSigmaRule(
      ruleText(
        "selection:\n    Image|endswith: '\\powershell.exe'\n    CommandLine|re: '\\+.*\\+.*\\+'\ncondition: selection",
      ).replace('5f0b2f8e-0000-4000-8000-000000000001', 'plus'),
    );
    expect(plus.needles).toEqual([['\\powershell.exe'], ['+']]);
    const engine = new SigmaEngine([...common, plus]);
    const ps = (commandLine: string) =>
      processCreate({
        Image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        CommandLine: commandLine,
      });
    expect(engine.match(ps('powershell -c Get-Date'))).toEqual([]);
    expect(engine.evaluations).toBe(0);
    expect(engine.match(ps('powershell -c marker7')).map((m) => m.rule.id)).toEqual(['ps-7']);
    expect(engine.evaluations).toBe(1);
    expect(engine.match(processCreate({ Image: 'C:\\x\\cmd.exe', CommandLine: 'cmd /c marker7' }))).toEqual([]);
    expect(engine.evaluations).toBe(1);
    expect(engine.match(ps('powershell -c a+b+c+d')).map((m) => m.rule.id)).toEqual(['plus']);
    expect(engine.match(ps('powershell -c a+b')).map((m) => m.rule.id)).toEqual([]);
    expect(engine.evaluations).toBe(3);
  });
});
