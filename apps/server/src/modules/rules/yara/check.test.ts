import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkYaraFiles } from './check';
import { checkYaraSource } from './yara-compile';
import { parseYaraSource } from './yara-source';

describe('checkYaraFiles', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-yara-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers per file: compiled with its rules, or refused with the reason', async () => {
    const good = path.join(dir, 'good.yar');
    writeFileSync(good, 'rule One : t { meta: author = "A" condition: true }\nrule Two { condition: One }\n');
    const bad = path.join(dir, 'bad.yar');
    writeFileSync(bad, 'rule Broken {\n  strings: $a = "x"\n  condition: true\n}\n');
    const huge = path.join(dir, 'huge.yar');
    writeFileSync(huge, Buffer.alloc(5 * 1024 * 1024 + 1, 0x20));
    const [g, b, h, missing] = await checkYaraFiles([good, bad, huge, path.join(dir, 'none.yar')]);
    expect(g).toMatchObject({ path: good, status: 'compiled', reason: null, errors: [] });
    expect(g!.rules.map((r) => [r.name, r.author, r.tags])).toEqual([
      ['One', 'A', ['t']],
      ['Two', null, []],
    ]);
    expect(b).toMatchObject({ status: 'refused', reason: 'line 2: unused pattern `$a`', rules: [{ name: 'Broken' }] });
    expect(h).toMatchObject({
      status: 'refused',
      reason: 'the rule file is 5.0 MB, over the 5.0 MB limit; split it into smaller files',
      rules: [],
    });
    expect(missing).toMatchObject({ status: 'refused', reason: 'cannot read the file: ENOENT' });
  });
});

// Public YARA rules (signature-base), when the shared data folder is beside the repository.
const YARA = path.resolve(import.meta.dirname, '../../../../../../../shared/data/yara');

describe.skipIf(!existsSync(YARA))('public YARA rules', () => {
  const files = existsSync(YARA)
    ? readdirSync(YARA)
        .filter((name) => /\.yara?$/.test(name))
        .sort()
        .map((name) => path.join(YARA, name))
    : [];

  it('compiles at least 98% of the files; the rest are printed with their reasons', { timeout: 120_000 }, async () => {
    const results = await checkYaraFiles(files);
    const refused = results.filter((r) => r.status === 'refused');
    for (const r of refused) console.log(`${path.basename(r.path)}: ${r.reason}`);
    expect(files.length).toBeGreaterThan(700);
    expect(refused.length / results.length).toBeLessThanOrEqual(0.02);
    const rules = results.flatMap((r) => r.rules);
    expect(rules.length).toBeGreaterThan(3000);
    // Nearly every public rule credits its author.
    expect(rules.filter((r) => r.author !== null).length / rules.length).toBeGreaterThan(0.9);
  });

  it('reads the names of real rules exactly: a rule that references every name compiles', { timeout: 120_000 }, () => {
    let checked = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      if (!checkYaraSource(source).ok) continue;
      const names = parseYaraSource(source).rules.map((r) => r.name);
      expect(new Set(names).size, file).toBe(names.length);
      // A file may hold only commented-out rules.
      if (names.length === 0) continue;
      const probe = `${source}\nrule vigil_probe_all_names { condition: ${names.map((n) => `${n} or `).join('')}false }\n`;
      const result = checkYaraSource(probe);
      expect(result.ok ? null : result.reason, file).toBeNull();
      checked++;
    }
    expect(checked).toBeGreaterThan(700);
  });
});
