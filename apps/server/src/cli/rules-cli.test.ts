import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from './run-cli-captured';

const dir = mkdtempSync(path.join(tmpdir(), 'vigil-sigma-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rule = (logsource: string, selection: string) =>
  [
    'title: CLI check',
    'id: 2d7c0a5e-1111-4000-8000-000000000001',
    'logsource:',
    `    ${logsource}`,
    'detection:',
    '    selection:',
    `        ${selection}`,
    '    condition: selection',
  ].join('\n');

async function vigil(...args: string[]) {
  const { code, lines } = await runCliCaptured(args);
  return { code, output: lines };
}

describe('vigil rules check sigma', () => {
  it('says per file whether it compiled or why not, and fails when any was refused', async () => {
    writeFileSync(path.join(dir, 'a-good.yml'), rule('product: windows', "Image|endswith: '\\cmd.exe'"));
    writeFileSync(path.join(dir, 'b-bad.yml'), rule('product: windows', "Image|foo: 'x'"));
    const result = await vigil('rules', 'check', 'sigma', dir);
    expect(result.code).toBe(1);
    expect(result.output).toEqual([
      `compiled  ${path.join(dir, 'a-good.yml')}`,
      `refused   ${path.join(dir, 'b-bad.yml')}: unknown modifier 'foo' in field 'Image|foo'`,
      '1 of 2 rule file(s) compiled, 1 refused.',
      'vigil: 1 of 2 rule file(s) refused',
    ]);
    expect(await vigil('rules', 'check', 'sigma', path.join(dir, 'a-good.yml'))).toEqual({
      code: 0,
      output: [`compiled  ${path.join(dir, 'a-good.yml')}`, '1 of 1 rule file(s) compiled, 0 refused.'],
    });
  });

  it('names a path that does not exist', async () => {
    const result = await vigil('rules', 'check', 'sigma', path.join(dir, 'missing'));
    expect(result.code).toBe(1);
    expect(result.output).toEqual([`vigil: no such file or folder: ${path.join(dir, 'missing')}`]);
  });
});
