import { existsSync } from 'node:fs';
import type {
  IngestTokenCreated,
  ListAnswer,
  Rule,
  RuleBulkAnswer,
  RuleDetail,
  RuleDiff,
  RuleImportAnswer,
  SuricataExport,
  SuricataThreshold,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import {
  loadEnabledRules,
  loadTurnedOff,
  recordRuleHits,
  ruleSetVersion,
} from '../src/modules/rules/rule-engines.repository';
import { readRuleFilesFrom } from '../src/modules/rules/store/rule-files';
import { checkYaraSource } from '../src/modules/rules/yara/yara-compile';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

const DATA = '/work/shared/data'.replace('/work/shared', process.env.VIGIL_SHARED_DIR ?? '/work/shared');
const suricataDir = `${DATA}/suricata/rules`;
const sigmaDirs = [`${DATA}/sigma/rules/windows/create_remote_thread`, `${DATA}/sigma/rules/windows/dns_query`];
const yaraFiles = ['apt_apt10.yar', 'apt_agent_btz.yar', 'apt_aa19_024a.yar'].map((f) => `${DATA}/yara/${f}`);
const haveData = existsSync(suricataDir) && sigmaDirs.every(existsSync) && yaraFiles.every(existsSync);

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let alphaUser: TestClient;
let betaUser: TestClient;

const allActions = ['view', 'add', 'change', 'delete', 'import', 'export'];
async function userOf(name: string, companyId: number): Promise<TestClient> {
  const user = await buildUser(t.db, {
    username: name,
    companyId,
    permissions: ['rules/suricata', 'rules/sigma', 'rules/yara'].map((basename) => ({
      basename,
      actions: basename === 'rules/suricata' ? allActions : allActions.filter((a) => a !== 'export'),
    })),
  });
  const client = t.client();
  await client.signIn(user.username, user.password);
  return client;
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  admin = await t.admin();
  alphaUser = await userOf('alpha-engineer', alpha);
  betaUser = await userOf('beta-engineer', beta);
});
afterAll(async () => {
  await t?.close();
});

const list = (client: TestClient, kind: string, filters: object = {}, query = '') =>
  client.post<ListAnswer<Rule>>(`/api/rules/${kind}/check/${query}`, filters);
const count = async (client: TestClient, kind: string, filters: object = {}) =>
  (await client.post<{ count: number }>(`/api/rules/${kind}/count/`, filters)).body.count;
const importFiles = (client: TestClient, kind: string, files: { name: string; content: string }[], extra = {}) =>
  client.post<RuleImportAnswer>(`/api/rules/${kind}/import/`, { files, ...extra });
const byKey = async (client: TestClient, kind: string, key: string): Promise<Rule> => {
  const found = (await list(client, kind, { search: key })).body.results.find((r) => r.rule_key === key);
  expect(found, key).toBeDefined();
  return found!;
};

const sigmaRule = (id: string, title: string, extra = '') => `title: ${title}
id: ${id}
status: test
description: Finds ${title}
author: Vigil tests
tags:
  - attack.execution
  - attack.t1059.001
logsource:
  product: windows
  category: process_creation
detection:
  selection:
    Image|endswith: '\\powershell.exe'
    CommandLine|contains: '${title}'
  condition: selection
level: high
${extra}`;

describe.runIf(haveData)('rule store on real rule sets', () => {
  it('imports the Suricata rules, takes the same files again as unchanged, and makes a changed rule a new revision', async () => {
    const files = await readRuleFilesFrom('suricata', [suricataDir]);
    const first = await importFiles(admin, 'suricata', files);
    expect(first.status).toBe(200);
    expect(first.body.created).toBeGreaterThan(100);
    expect(first.body.updated).toBe(0);
    for (const r of first.body.rejected) {
      expect(r.file).toMatch(/\.rules$/);
      expect(r.line).toBeGreaterThan(0);
      expect(r.reason.length).toBeGreaterThan(5);
    }
    expect(await count(admin, 'suricata')).toBe(first.body.created);

    const again = await importFiles(admin, 'suricata', files);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: first.body.created });

    // The rules are for all companies: a customer sees them, read-only.
    expect(await count(alphaUser, 'suricata')).toBe(first.body.created);
    const sample = (await list(admin, 'suricata', { file_name: 'dns-events.rules' }, '?ordering=rule_key')).body
      .results[0]!;
    expect(sample).toMatchObject({ scope: 'all', enabled: true, effective_enabled: true, kind: 'suricata' });
    expect(sample.rule_key).toMatch(/^1:\d+$/);

    // One rule of the file changed (its rev moved on): one new revision, the rest unchanged.
    const dns = files.find((f) => f.name === 'dns-events.rules')!;
    const sid = sample.rule_key.split(':')[1]!;
    const changed = dns.content
      .split('\n')
      .map((line) =>
        new RegExp(`sid:\\s*${sid};`).test(line) && !line.startsWith('#')
          ? line.replace(/msg:"([^"]*)"/, 'msg:"$1 (tuned)"').replace(/rev:\s*\d+;/, 'rev:99;')
          : line,
      )
      .join('\n');
    expect(changed).not.toBe(dns.content);
    const third = await importFiles(admin, 'suricata', [{ name: dns.name, content: changed }]);
    expect(third.body).toMatchObject({ created: 0, updated: 1 });
    const detail = (await admin.get<RuleDetail>(`/api/rules/suricata/${sample.id}/`)).body;
    expect(detail.revision).toBe(2);
    expect(detail.title).toMatch(/\(tuned\)$/);
    expect(detail.details).toMatchObject({ sid: Number(sid), gid: 1, rev: 99 });
    expect(detail.revisions.map((r) => [r.revision, r.changed_by])).toEqual([
      [1, 'admin'],
      [2, 'admin'],
    ]);
    const diff = (await admin.get<RuleDiff>(`/api/rules/suricata/${sample.id}/diff/`)).body;
    expect(diff.from).toBe(1);
    expect(diff.to).toBe(2);
    expect(diff.diff).toMatch(/^--- 1:\d+ revision 1\n\+\+\+ 1:\d+ revision 2\n@@ -1 \+1 @@\n-.*\n\+.*\(tuned\)/);
    const badDiff = await admin.get<Errors>(`/api/rules/suricata/${sample.id}/diff/?from=7`);
    expect(badDiff.status).toBe(400);
    expect(badDiff.body.errors.from?.[0]).toMatch(/no revision 7/);

    // The change is in the system log.
    const { rows } = await t.db.query<{ object_repr: string }>(
      sql`SELECT object_repr FROM system_logs WHERE object_type = 'suricata_rule' AND action = 'import' ORDER BY id`,
    );
    // An import that changed nothing and refused nothing leaves no record.
    const rejected = first.body.rejected.length;
    expect(rows.map((r) => r.object_repr)).toEqual([
      `${first.body.created} created, 0 updated, ${rejected} rejected`,
      ...(rejected > 0 ? [`0 created, 0 updated, ${rejected} rejected`] : []),
      expect.stringMatching(/^0 created, 1 updated/),
    ]);
  }, 120_000);

  it('imports a folder of Sigma rules, keeps rules it cannot run disabled with the reason, and refuses unreadable ones', async () => {
    const files = await readRuleFilesFrom('sigma', sigmaDirs);
    const correlation = `title: Many failed logons
id: 0e95725d-7320-415d-80f7-004da920fc11
correlation:
  type: event_count
  rules: [some-rule]
  group-by: [User]
  timespan: 5m
  condition:
    gte: 10
level: high
`;
    const answer = await importFiles(
      admin,
      'sigma',
      [
        ...files,
        { name: 'correlation.yml', content: correlation },
        { name: 'no-id.yml', content: sigmaRule('x', 'No id').replace(/^id: x\n/m, '') },
        { name: 'broken.yml', content: 'title: Broken\nid: 1\ndetection:\n  selection: [a\n  condition: selection\n' },
      ],
      { licence: 'DRL-1.1' },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBe(files.length + 1);
    expect(answer.body.unsupported).toBeGreaterThanOrEqual(1);
    expect(answer.body.rejected).toEqual([
      { file: 'no-id.yml', line: 1, rule: '', reason: expect.stringMatching(/has no 'id'/) },
      { file: 'broken.yml', line: expect.any(Number), rule: '', reason: expect.stringMatching(/YAML does not parse/) },
    ]);
    expect(answer.body.rejected[1]!.line).toBeGreaterThan(1);

    const stored = await byKey(admin, 'sigma', '0e95725d-7320-415d-80f7-004da920fc11');
    expect(stored).toMatchObject({ enabled: false, effective_enabled: false, level: 'high' });
    expect(stored.unsupported).toMatch(/correlation rules are not supported/);
    // It cannot be turned on.
    const turnOn = await admin.post<RuleBulkAnswer>('/api/rules/sigma/bulk/', { enabled: true, ids: [stored.id] });
    expect(turnOn.body).toEqual({ changed: 0, company_settings: 0, skipped_unsupported: 1 });

    // Parsed fields: level, ATT&CK ids from tags (tactic names mapped to their ids), author.
    const one = (await list(admin, 'sigma', { unsupported: false }, '?page_size=1')).body.results[0]!;
    const detail = (await admin.get<RuleDetail>(`/api/rules/sigma/${one.id}/`)).body;
    expect(detail.source).toMatch(/^title:/m);
    expect(detail.licence).toBe('DRL-1.1');
    expect(detail.details).toHaveProperty('logsource');
    // Tactic names in tags become their ATT&CK ids: twelve of these rules name command and control.
    const c2 = files.filter((f) => /^\s*- attack\.command-and-control\s*$/m.test(f.content)).length;
    expect(c2).toBeGreaterThan(0);
    expect(await count(admin, 'sigma', { technique: 'TA0011' })).toBe(c2);
    expect(await count(admin, 'sigma', { unsupported: true })).toBe(answer.body.unsupported);

    const again = await importFiles(admin, 'sigma', files);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: files.length, rejected: [] });
  }, 120_000);

  it('imports YARA files rule by rule, each stored source compiling on its own', async () => {
    const files = await readRuleFilesFrom('yara', yaraFiles);
    const broken = 'rule Good { condition: true }\n\nrule Bad {\n  strings:\n    $a = "x"\n  condition:\n    $b\n}\n';
    const answer = await importFiles(admin, 'yara', [...files, { name: 'broken.yar', content: broken }]);
    expect(answer.status).toBe(200);
    expect(answer.body.created).toBeGreaterThan(files.length);
    expect(answer.body.rejected).toEqual([
      { file: 'broken.yar', line: 7, rule: 'Bad', reason: expect.stringMatching(/\$b/) },
    ]);
    const rules = (await list(admin, 'yara', {}, '?page_size=500')).body.results;
    expect(rules.map((r) => r.rule_key)).toContain('broken.yar:Good');
    expect(rules.every((r) => /^[\w.-]+\.yara?:\w+$/.test(r.rule_key))).toBe(true);
    for (const rule of rules.slice(0, 20)) {
      const detail = (await admin.get<RuleDetail>(`/api/rules/yara/${rule.id}/`)).body;
      expect(checkYaraSource(detail.source).ok, rule.rule_key).toBe(true);
    }
  }, 120_000);
});

describe('rule store', () => {
  it('asks for a rescan of the warehouse when the YARA set changes, once while one is pending', async () => {
    const pending = async () =>
      Number(
        (
          await t.db.query<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'rules.yara_scan' AND status = 'pending'`,
          )
        ).rows[0]?.n,
      );
    await t.db.query(sql`DELETE FROM jobs WHERE kind = 'rules.yara_scan'`);
    const rule = 'rule Rescan_Probe { strings: $a = "rescan-probe" condition: $a }\n';
    expect((await importFiles(admin, 'yara', [{ name: 'rescan.yar', content: rule }])).body).toMatchObject({
      created: 1,
    });
    expect(await pending()).toBe(1);
    await t.db.query(sql`DELETE FROM jobs WHERE kind = 'rules.yara_scan'`);
    // The same text again changes nothing, so nothing is rescanned.
    expect((await importFiles(admin, 'yara', [{ name: 'rescan.yar', content: rule }])).body).toMatchObject({
      unchanged: 1,
    });
    expect(await pending()).toBe(0);
    const stored = await byKey(admin, 'yara', 'rescan.yar:Rescan_Probe');
    expect((await admin.post('/api/rules/yara/bulk/', { enabled: false, ids: [stored.id] })).status).toBe(200);
    expect((await admin.post('/api/rules/yara/bulk/', { enabled: true, ids: [stored.id] })).status).toBe(200);
    expect(await pending()).toBe(1);
  });

  it('keeps tenants apart: own rules and rules for all companies, turned off for one company only', async () => {
    const shared = await importFiles(admin, 'sigma', [
      { name: 'shared.yml', content: sigmaRule('11111111-0000-4000-8000-000000000001', 'Shared rule') },
    ]);
    expect(shared.body).toMatchObject({ created: 1, rejected: [] });
    const own = await importFiles(alphaUser, 'sigma', [
      { name: 'own.yml', content: sigmaRule('11111111-0000-4000-8000-000000000002', 'Alpha own rule') },
    ]);
    expect(own.body).toMatchObject({ created: 1 });
    const sharedRule = await byKey(admin, 'sigma', '11111111-0000-4000-8000-000000000001');
    const ownRule = await byKey(alphaUser, 'sigma', '11111111-0000-4000-8000-000000000002');
    expect(sharedRule).toMatchObject({ scope: 'all', techniques: ['T1059.001', 'TA0002'], level: 'high' });
    expect(ownRule).toMatchObject({ scope: 'company', company_id: alpha });

    // Beta sees the shared rule, never alpha's.
    expect((await betaUser.get(`/api/rules/sigma/${ownRule.id}/`)).status).toBe(404);
    expect((await list(betaUser, 'sigma', { search: 'Alpha own rule' })).body.count).toBe(0);
    expect((await list(betaUser, 'sigma', { search: 'Shared rule' })).body.count).toBe(1);
    const foreign = await importFiles(alphaUser, 'sigma', [{ name: 'x.yml', content: sigmaRule('a-b', 'X') }], {
      company_id: beta,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ errors: { company_id: ['No such company.'] } });

    // Alpha turns the shared rule off for itself: the rule stays on, for beta too.
    const off = await alphaUser.post<RuleBulkAnswer>('/api/rules/sigma/bulk/', {
      enabled: false,
      ids: [sharedRule.id, ownRule.id],
    });
    expect(off.body).toEqual({ changed: 1, company_settings: 1, skipped_unsupported: 0 });
    expect(await byKey(alphaUser, 'sigma', sharedRule.rule_key)).toMatchObject({
      enabled: true,
      effective_enabled: false,
    });
    expect(await byKey(betaUser, 'sigma', sharedRule.rule_key)).toMatchObject({ effective_enabled: true });
    expect((await admin.get<RuleDetail>(`/api/rules/sigma/${sharedRule.id}/`)).body.disabled_for).toEqual([alpha]);
    expect((await betaUser.get<RuleDetail>(`/api/rules/sigma/${sharedRule.id}/`)).body.disabled_for).toEqual([]);
    expect(await count(alphaUser, 'sigma', { enabled: false, search: 'rule' })).toBeGreaterThanOrEqual(2);

    // What detection stages read: enabled rules, and the companies' turned-off sets.
    const before = await ruleSetVersion(t.db, 'sigma');
    const enabledRules = await loadEnabledRules(t.db, 'sigma');
    expect(enabledRules.map((r) => r.ruleKey)).toContain(sharedRule.rule_key);
    expect(enabledRules.map((r) => r.ruleKey)).not.toContain(ownRule.rule_key);
    expect([...((await loadTurnedOff(t.db, 'sigma')).get(alpha) ?? [])]).toEqual([sharedRule.id]);
    const enabled = enabledRules.find((r) => r.id === sharedRule.id)!;
    expect(enabled).toMatchObject({ companyId: expect.any(Number), scope: 'all', revision: 1, level: 'high' });
    expect(enabled.source).toMatch(/Shared rule/);

    // A changed rule of alpha's own: a new revision, and the diff of the two.
    const changed = await importFiles(alphaUser, 'sigma', [
      {
        name: 'own.yml',
        content: sigmaRule('11111111-0000-4000-8000-000000000002', 'Alpha own rule').replace(
          'level: high',
          'level: low',
        ),
      },
    ]);
    expect(changed.body).toMatchObject({ created: 0, updated: 1 });
    const ownDiff = await alphaUser.get<RuleDiff>(`/api/rules/sigma/${ownRule.id}/diff/?from=1&to=2`);
    expect(ownDiff.body.diff).toContain('\n-level: high\n+level: low\n');
    expect((await betaUser.get(`/api/rules/sigma/${ownRule.id}/diff/`)).status).toBe(404);

    // On again for alpha; the version moves on.
    await alphaUser.post('/api/rules/sigma/bulk/', { enabled: true, ids: [sharedRule.id] });
    expect(await ruleSetVersion(t.db, 'sigma')).not.toBe(before);
    expect(await byKey(alphaUser, 'sigma', sharedRule.rule_key)).toMatchObject({ effective_enabled: true });

    // Staff turn the shared rule off for beta only.
    const forBeta = await admin.post<RuleBulkAnswer>('/api/rules/sigma/bulk/', {
      enabled: false,
      ids: [sharedRule.id],
      company_id: beta,
    });
    expect(forBeta.body).toMatchObject({ changed: 0, company_settings: 1 });
    expect(await byKey(betaUser, 'sigma', sharedRule.rule_key)).toMatchObject({ effective_enabled: false });

    // Hits: counted per company and day, shown in the detail for the caller's companies.
    const now = new Date().toISOString();
    const hit = (companyId: number, hits: number) => ({
      companyId,
      ruleId: sharedRule.id,
      day: now.slice(0, 10),
      hits,
      lastHitAt: now,
    });
    await t.db.transaction((tx) => recordRuleHits(tx, [hit(alpha, 1), hit(alpha, 1), hit(beta, 1)]));
    await t.db.transaction((tx) => recordRuleHits(tx, [hit(alpha, 1)]));
    expect((await alphaUser.get<RuleDetail>(`/api/rules/sigma/${sharedRule.id}/`)).body.hits.total).toBe(3);
    expect((await admin.get<RuleDetail>(`/api/rules/sigma/${sharedRule.id}/`)).body.hits).toMatchObject({
      total: 4,
      days: [{ day: new Date().toISOString().slice(0, 10), hits: 4 }],
    });
  });

  it('switches rules by the list filter, only those the filter gives', async () => {
    await importFiles(admin, 'suricata', [
      {
        name: 'filter-test.rules',
        content: [
          'alert dns any any -> any any (msg:"Filter test one"; dns.query; content:"one.example"; metadata: mitre_technique_id T1071, signature_severity Major; sid:9000001; rev:1;)',
          'alert dns any any -> any any (msg:"Filter test two"; dns.query; content:"two.example"; priority:3; sid:9000002; rev:1;)',
          '# alert dns any any -> any any (msg:"Filter test off"; dns.query; content:"off.example"; sid:9000003; rev:1;)',
        ].join('\n'),
      },
    ]);
    expect(await count(admin, 'suricata', { file_name: 'filter-test.rules', enabled: false })).toBe(1);
    const one = await byKey(admin, 'suricata', '1:9000001');
    expect(one).toMatchObject({ level: 'high', techniques: ['T1071'] });
    expect(await byKey(admin, 'suricata', '1:9000002')).toMatchObject({ level: 'low' });
    expect(await count(admin, 'suricata', { technique: 'T1071', file_name: 'filter-test.rules' })).toBe(1);

    const off = await admin.post<RuleBulkAnswer>('/api/rules/suricata/bulk/', {
      enabled: false,
      filters: { file_name: 'filter-test.rules', search: 'Filter test t' },
    });
    expect(off.body).toEqual({ changed: 1, company_settings: 0, skipped_unsupported: 0 });
    expect(await count(admin, 'suricata', { file_name: 'filter-test.rules', enabled: false })).toBe(2);
    expect(await byKey(admin, 'suricata', '1:9000001')).toMatchObject({ enabled: true });

    const both = await admin.post<Errors>('/api/rules/suricata/bulk/', { enabled: true });
    expect(both.status).toBe(400);
    expect(both.body.errors.ids?.[0]).toBe('Give either ids or filters.');
    const { rows } = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'suricata_rule' AND action = 'disable'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses NUL bytes, binary files and oversized files with 400, storing nothing', async () => {
    const before = await count(admin, 'yara');
    const good = { name: 'ok.yar', content: 'rule Fine { condition: true }\n' };
    const nul = await importFiles(admin, 'yara', [
      good,
      { name: 'nul.yar', content: 'rule A { condition: true }\u0000' },
    ]);
    expect(nul.status).toBe(400);
    expect(Object.keys((nul.body as unknown as Errors).errors)).toEqual(['files.1.content']);

    const random = Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 256))
      .join('')
      .replace(/\0/g, '');
    const binary = await importFiles(admin, 'yara', [good, { name: 'random.bin.yar', content: random }]);
    expect(binary.status).toBe(400);
    expect((binary.body as unknown as Errors).errors['files.1.content']?.[0]).toMatch(/binary data/);

    const huge = await importFiles(admin, 'yara', [
      good,
      { name: 'huge.yar', content: '/*'.padEnd(6 * 1024 * 1024, ' ') },
    ]);
    expect(huge.status).toBe(400);
    expect((huge.body as unknown as Errors).errors['files.1.content']?.[0]).toMatch(
      /huge\.yar is 6\.0 MB, over the 5\.0 MB limit/,
    );
    const tooMuch = await importFiles(
      admin,
      'yara',
      Array.from({ length: 5 }, (_, i) => ({ name: `part${i}.yar`, content: '//'.padEnd(4.5 * 1024 * 1024, ' ') })),
    );
    expect(tooMuch.status).toBe(400);
    expect((tooMuch.body as unknown as Errors).errors.files?.[0]).toMatch(/over the 20\.0 MB limit of one import/);
    const notJson = await admin.request('POST', '/api/rules/yara/import/', {
      rawBody: '\u0001\u0002garbage',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(await count(admin, 'yara')).toBe(before);

    // The good file alone goes in; one revision diffs to nothing; it can be turned off.
    expect((await importFiles(admin, 'yara', [good])).body).toMatchObject({ created: 1, rejected: [] });
    const fine = await byKey(admin, 'yara', 'ok.yar:Fine');
    expect((await admin.get<RuleDiff>(`/api/rules/yara/${fine.id}/diff/`)).body).toEqual({ from: 1, to: 1, diff: '' });
    const off = await admin.post<RuleBulkAnswer>('/api/rules/yara/bulk/', { enabled: false, ids: [fine.id] });
    expect(off.body).toEqual({ changed: 1, company_settings: 0, skipped_unsupported: 0 });
  });

  it('keeps threshold.config entries per company and hands a sensor its ruleset with an ETag', async () => {
    const bad = await alphaUser.post<Errors>('/api/rules/suricata/thresholds/', { entry: 'suppress gen_id 1' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.entry?.[0]).toMatch(/not a threshold.config entry/);
    const created = await alphaUser.post<SuricataThreshold>('/api/rules/suricata/thresholds/', {
      entry: 'suppress  gen_id 1,sig_id 9000001, track by_src, ip 10.0.0.1',
      comment: 'scanner',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      company_id: alpha,
      entry: 'suppress gen_id 1, sig_id 9000001, track by_src, ip 10.0.0.1',
    });
    expect((await betaUser.patch(`/api/rules/suricata/thresholds/${created.body.id}/`, { comment: 'x' })).status).toBe(
      404,
    );
    const listed = await betaUser.post<ListAnswer<SuricataThreshold>>('/api/rules/suricata/thresholds/check/', {});
    expect(listed.body.count).toBe(0);
    expect((await alphaUser.post<{ count: number }>('/api/rules/suricata/thresholds/count/', {})).body.count).toBe(1);

    const key = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'sensor', company_id: alpha }))
      .body.key;
    const sensor = t.client();
    const auth = { authorization: `Bearer ${key}` };
    expect((await sensor.get('/api/rules/suricata/export/')).status).toBe(401);
    const first = await sensor.get<SuricataExport>('/api/rules/suricata/export/', auth);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`"${first.body.version}"`);
    expect(first.body.rules).toMatch(/sid:9000001;/);
    expect(first.body.rules).not.toMatch(/sid:9000002;/); // turned off above
    expect(first.body.threshold_config).toMatch(/^suppress gen_id 1, sig_id 9000001, track by_src, ip 10\.0\.0\.1$/m);
    expect((await sensor.get('/api/rules/suricata/export/', { ...auth, 'if-none-match': etag })).status).toBe(304);

    const updated = await alphaUser.patch<SuricataThreshold>(`/api/rules/suricata/thresholds/${created.body.id}/`, {
      entry: 'threshold gen_id 1, sig_id 9000001, type limit, track by_src, count 1, seconds 60',
    });
    expect(updated.status).toBe(200);
    const after = await sensor.get<SuricataExport>('/api/rules/suricata/export/', { ...auth, 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body.threshold_config).toMatch(/type limit/);
    expect(after.headers.get('etag')).not.toBe(etag);

    expect((await alphaUser.delete(`/api/rules/suricata/thresholds/${created.body.id}/`)).status).toBe(204);
    const { rows } = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'suricata_threshold' ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
  });
});
