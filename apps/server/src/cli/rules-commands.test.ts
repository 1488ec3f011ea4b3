import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from './run-cli-captured';

/** Runs the command line and captures what it prints. */
async function vigil(...args: string[]) {
  const { code, output } = await runCliCaptured(args);
  return { code, output };
}

describe('vigil rules check', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-rules-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks a folder of Suricata rules and its threshold.config, exiting 0 when all are taken', async () => {
    const folder = path.join(dir, 'suricata-ok');
    mkdirSync(folder);
    writeFileSync(
      path.join(folder, 'local.rules'),
      'alert tcp any any -> any any (msg:"a"; sid:1;)\n# alert tcp any any -> any any (sid:2;)\n',
    );
    writeFileSync(path.join(folder, 'threshold.config'), 'suppress gen_id 1, sig_id 1\n');
    writeFileSync(path.join(folder, 'notes.txt'), 'not a rule file');
    const result = await vigil('rules', 'check', 'suricata', folder);
    expect(result).toEqual({
      code: 0,
      output: [
        `${path.join(folder, 'local.rules')}: 1 rules taken, 1 disabled, 0 refused`,
        `${path.join(folder, 'threshold.config')}: 1 entries taken, 0 disabled, 0 refused`,
      ].join('\n'),
    });
  });

  it('prints each refused Suricata rule with its line and exits 1', async () => {
    const file = path.join(dir, 'broken.rules');
    writeFileSync(file, 'alert tcp any any -> any any (sid:1;)\nalert tcp any any => any any (msg:"x";)\n');
    const result = await vigil('rules', 'check', 'suricata', file);
    expect(result).toEqual({
      code: 1,
      output: [
        `${file}: 1 rules taken, 0 disabled, 1 refused`,
        '  line 2: the rule has no sid: every rule needs a unique sid:N;',
        'vigil: 1 of 2 rule(s) or entries refused',
      ].join('\n'),
    });
  });

  it('checks YARA files and names the compiler error of a refused one', async () => {
    const good = path.join(dir, 'good.yar');
    writeFileSync(good, 'rule A { condition: true }\nrule B { condition: A }\n');
    const bad = path.join(dir, 'bad.yar');
    writeFileSync(bad, 'rule C { condition: missing }\n');
    const result = await vigil('rules', 'check', 'yara', good, bad);
    expect(result).toEqual({
      code: 1,
      output: [
        `${good}: compiled, 2 rule(s)`,
        '  warning: line 1: invariant boolean expression',
        `${bad}: refused: line 1: unknown identifier \`missing\``,
        'vigil: 1 of 2 file(s) refused',
      ].join('\n'),
    });
  });

  it('refuses an unknown kind and an empty folder', async () => {
    expect(await vigil('rules', 'check', 'snort', dir)).toEqual({
      code: 1,
      output: 'vigil: unknown rule kind "snort": use suricata, yara or sigma',
    });
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    expect(await vigil('rules', 'check', 'yara', empty)).toEqual({
      code: 1,
      output: 'vigil: no rule files found in the given paths',
    });
  });
});
