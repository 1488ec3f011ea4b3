import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSuricataFiles } from './check';
import { parseRule } from './rule-parser';
import { parseRulesFile } from './rules-file';
import { formatRule, formatRulesFile } from './writer';

describe('rule writer', () => {
  it('writes a rule on one line that parses back to the same rule', () => {
    const text =
      'drop tls [$HOME_NET, !10.0.0.0/8] [1024:,!8080] <> any :1023 (msg:"a \\"b\\" c\\; d"; content:"|41 42|C"; tls.sni; ' +
      'pcre:"/x;y/i"; noalert; sid:42; rev:3; metadata:mitre_technique_id T1071;)';
    const first = parseRule(text);
    if (!first.ok) throw new Error(first.reason);
    const written = formatRule(first.value);
    expect(written).toBe(
      'drop tls [$HOME_NET,!10.0.0.0/8] [1024:,!8080] <> any 0:1023 (msg:"a \\"b\\" c\\; d"; content:"|41 42|C"; tls.sni; ' +
        'pcre:"/x;y/i"; noalert; sid:42; rev:3; metadata:mitre_technique_id T1071;)',
    );
    const again = parseRule(written);
    if (!again.ok) throw new Error(again.reason);
    const { text: _a, ...firstRest } = first.value;
    const { text: _b, ...againRest } = again.value;
    expect(againRest).toEqual(firstRest);
  });

  it('writes disabled rules commented out under a heading, and reads them back disabled', () => {
    const parsed = parseRulesFile('alert tcp any any -> any any (sid:1;)\n# alert tcp any any -> any any (sid:2;)\n');
    const written = formatRulesFile(
      parsed.rules.map((r) => r.rule),
      'Vigil rule set\nexported for sensor one',
    );
    expect(written).toBe(
      '# Vigil rule set\n# exported for sensor one\nalert tcp any any -> any any (sid:1;)\n# alert tcp any any -> any any (sid:2;)\n',
    );
    expect(parseRulesFile(written).rules.map((r) => [r.rule.sid, r.rule.enabled])).toEqual([
      [1, true],
      [2, false],
    ]);
  });
});

describe('checkSuricataFiles', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-suricata-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers per file and per rule, telling threshold files from rules files', async () => {
    const rules = path.join(dir, 'local.rules');
    writeFileSync(
      rules,
      'alert tcp any any -> any any (msg:"one"; sid:1;)\n#alert tcp any any -> any any (msg:"off"; sid:2;)\nalert tcp any any -> any any (msg:"no sid";)\n',
    );
    const threshold = path.join(dir, 'threshold.config');
    writeFileSync(threshold, 'suppress gen_id 1, sig_id 1\nsuppress gen_id 1\n');
    const [rulesResult, thresholdResult, missing] = await checkSuricataFiles([
      rules,
      threshold,
      path.join(dir, 'none.rules'),
    ]);
    expect(rulesResult).toEqual({
      path: rules,
      kind: 'rules',
      ok: false,
      error: null,
      entries: [
        { line: 1, status: 'compiled', sid: 1, gid: 1, msg: 'one', reason: null },
        { line: 2, status: 'disabled', sid: 2, gid: 1, msg: 'off', reason: null },
        {
          line: 3,
          status: 'refused',
          sid: null,
          gid: null,
          msg: null,
          reason: 'the rule has no sid: every rule needs a unique sid:N;',
        },
      ],
    });
    expect(thresholdResult).toMatchObject({
      kind: 'threshold',
      ok: false,
      entries: [
        { line: 1, status: 'compiled', sid: 1 },
        { line: 2, status: 'refused', reason: 'suppress needs sig_id' },
      ],
    });
    expect(missing).toMatchObject({ ok: false, error: 'cannot read the file: ENOENT', entries: [] });
  });
});

// The rules that ship with Suricata, when the shared data folder is beside the repository.
const RULES = path.resolve(import.meta.dirname, '../../../../../../../shared/data/suricata/rules');

describe.skipIf(!existsSync(RULES))('the rules that ship with Suricata', () => {
  const files = existsSync(RULES)
    ? readdirSync(RULES)
        .filter((name) => name.endsWith('.rules'))
        .sort()
        .map((name) => path.join(RULES, name))
    : [];

  it('parses at least 99% of the rules; the rest are printed with their reasons', async () => {
    const results = await checkSuricataFiles(files);
    const entries = results.flatMap((r) => r.entries.map((e) => ({ file: path.basename(r.path), ...e })));
    const refused = entries.filter((e) => e.status === 'refused');
    for (const e of refused) console.log(`${e.file}:${e.line}: ${e.reason}`);
    const enabled = entries.filter((e) => e.status !== 'disabled');
    expect(files.length).toBeGreaterThan(20);
    expect(enabled.length).toBeGreaterThan(400);
    expect(refused.length / enabled.length).toBeLessThanOrEqual(0.01);
    // Commented-out rules in the shipped files come back as disabled rules.
    expect(entries.filter((e) => e.status === 'disabled').length).toBeGreaterThan(10);
  });

  it('every parsed rule carries the sid, rev and msg written in its text, and writes back to the same rule', () => {
    for (const file of files) {
      for (const { rule } of parseRulesFile(readFileSync(file, 'utf8')).rules) {
        expect(rule.text).toContain(`sid:${rule.sid};`);
        if (rule.msg !== null) expect(rule.text).toContain(`msg:"${rule.msg}"`);
        const again = parseRule(formatRule(rule));
        expect(again.ok && again.value.options).toEqual(rule.options);
        expect(again.ok && [again.value.sid, again.value.gid, again.value.rev]).toEqual([rule.sid, rule.gid, rule.rev]);
      }
    }
  });
});
