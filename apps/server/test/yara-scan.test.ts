import { createHash } from 'node:crypto';
import type { FileYara, IngestTokenCreated, YaraScanProgress } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { WarehouseScan } from '../src/modules/rules/yara/warehouse-scan';
import { requestYaraRescan, YARA_SCAN_JOB } from '../src/modules/rules/yara/yara-scan.service';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let provider: number;
let alpha: number;
let beta: number;
let alphaUser: TestClient;
let betaUser: TestClient;
let alphaKey: string;

const permissions = ['mailing', 'attaches', 'warehouse', 'warehouse/hashes'].map((basename) => ({
  basename,
  actions: ['view'],
}));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const silent = { warn: () => undefined, info: () => undefined };

/** Test-only: a YARA rule straight into the store (the import API belongs to the rule store). */
async function insertYaraRule(rule: {
  companyId: number;
  scope: 'company' | 'all';
  name: string;
  source: string;
  enabled?: boolean;
  level?: string;
}): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(sql`
    INSERT INTO rules (company_id, kind, scope, rule_key, title, level, source, source_sha256, file_name, enabled)
    VALUES (${rule.companyId}, 'yara', ${rule.scope}, ${`test.yar:${rule.name}`}, ${`Test rule ${rule.name}`},
            ${rule.level ?? 'high'}, ${rule.source}, ${sha256(Buffer.from(rule.source))}, 'test.yar',
            ${rule.enabled ?? true})
    RETURNING id`);
  return Number(rows[0]!.id);
}

const markerRule = (name: string, marker: string) =>
  `rule ${name} : demo {\n  meta:\n    author = "Vigil tests"\n  strings:\n    $m = "${marker}"\n  condition:\n    $m\n}\n`;

/** An RFC 5322 mail with one attachment. */
function mailWith(filename: string, content: Buffer, id: string): Buffer {
  return Buffer.from(
    [
      'From: sender@outside.example',
      'To: victim@corp.example',
      `Subject: ${filename}`,
      'Date: Tue, 12 Mar 2024 09:00:00 +0000',
      `Message-ID: <${id}@outside.example>`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'See the attachment.',
      '--b',
      `Content-Type: application/octet-stream; name="${filename}"`,
      `Content-Disposition: attachment; filename="${filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      content.toString('base64').replace(/.{76}/g, '$&\r\n'),
      '--b--',
      '',
    ].join('\r\n'),
  );
}

async function ingestMail(key: string, body: Buffer): Promise<void> {
  const response = await fetch(`${t.url}/api/ingest/mail/`, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${key}` },
    body,
  });
  const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(answer.rejected).toEqual([]);
  expect(answer.accepted).toBe(1);
}

async function yaraAlerts(companyId: number): Promise<{ rule_id: string; count: number; observables: unknown }[]> {
  const { rows } = await t.db.query<{ rule_id: string; count: string; observables: unknown }>(sql`
    SELECT detection ->> 'ruleId' AS rule_id, count, observables FROM alerts
    WHERE company_id = ${companyId} AND detection ->> 'engine' = 'yara' ORDER BY id`);
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

async function pendingScanJobs(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    sql`SELECT count(*)::int4 AS n FROM jobs WHERE kind = ${YARA_SCAN_JOB} AND status = 'pending'`,
  );
  return rows[0]!.n;
}

const payload = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(64, 0x20),
  Buffer.from('VIGIL-YARA-MARKER-ONE'),
  Buffer.alloc(32, 0x20),
  Buffer.from('VIGIL-YARA-MARKER-TWO'),
]);
const fileHash = sha256(payload);

let ruleOne: number;
let ruleTwo: number;

beforeAll(async () => {
  t = await startTestApp();
  const { rows } = await t.db.query<{ id: number }>(
    sql`SELECT id FROM companies WHERE kind = 'provider' ORDER BY id LIMIT 1`,
  );
  provider = Number(rows[0]!.id);
  alpha = await buildCompany(t.db, 'Alpha Yara');
  beta = await buildCompany(t.db, 'Beta Yara');
  await buildUser(t.db, { username: 'yara-alpha', companyId: alpha, permissions });
  await buildUser(t.db, { username: 'yara-beta', companyId: beta, permissions });
  alphaUser = t.client();
  await alphaUser.signIn('yara-alpha', 'User-password-1');
  betaUser = t.client();
  await betaUser.signIn('yara-beta', 'User-password-1');
  const admin = await t.admin();
  const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'alpha', company_id: alpha });
  alphaKey = token.body.key;

  ruleOne = await insertYaraRule({
    companyId: provider,
    scope: 'all',
    name: 'marker_one',
    source: markerRule('marker_one', 'VIGIL-YARA-MARKER-ONE'),
  });
  ruleTwo = await insertYaraRule({
    companyId: provider,
    scope: 'all',
    name: 'marker_two',
    source: markerRule('marker_two', 'VIGIL-YARA-MARKER-TWO'),
    enabled: false,
  });
  // Beta's own rule matches the same bytes, but alpha saw the file: it must not count for alpha.
  await insertYaraRule({
    companyId: beta,
    scope: 'company',
    name: 'beta_one',
    source: markerRule('beta_one', 'VIGIL-YARA-MARKER-ONE'),
  });
  // A rule for all companies that alpha turned off.
  const off = await insertYaraRule({
    companyId: provider,
    scope: 'all',
    name: 'alpha_off',
    source: markerRule('alpha_off', 'VIGIL-YARA-MARKER-ONE'),
  });
  await t.db.query(
    sql`INSERT INTO rule_company_settings (company_id, rule_id, enabled) VALUES (${alpha}, ${off}, false)`,
  );
  // A rule that does not compile is left out, the others still scan.
  await insertYaraRule({
    companyId: provider,
    scope: 'all',
    name: 'broken',
    source: 'rule broken { condition: nothing_here }',
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('YARA on warehouse files', () => {
  it('a mail attachment matching an enabled rule raises an alert once the scan job has run', async () => {
    await ingestMail(alphaKey, mailWith('invoice.exe', payload, 'one'));
    // The ingest batch only queued the scan: nothing was scanned on the ingest path.
    expect(await pendingScanJobs()).toBe(1);
    expect(await yaraAlerts(alpha)).toEqual([]);
    // A second batch with new files does not queue a second job.
    await ingestMail(alphaKey, mailWith('notes.txt', Buffer.from('plain text, nothing to see'), 'two'));
    expect(await pendingScanJobs()).toBe(1);

    const outcomes = await t.app.jobs.runDueJobs();
    expect(outcomes.filter((o) => o.kind === YARA_SCAN_JOB).map((o) => o.outcome)).toEqual(['done']);

    const alerts = await yaraAlerts(alpha);
    expect(alerts.map((a) => a.rule_id)).toEqual([String(ruleOne)]);
    expect(alerts[0]!.observables).toEqual(
      expect.arrayContaining([
        { kind: 'hash', value: fileHash, role: 'file.hash.sha256' },
        { kind: 'file', value: 'invoice.exe', role: 'file.name' },
        { kind: 'email', value: 'victim@corp.example', role: 'mail.to' },
      ]),
    );
    expect(await yaraAlerts(beta)).toEqual([]);

    const seen = await alphaUser.get<FileYara>(`/api/warehouse/${fileHash}/yara/`);
    expect(seen.status).toBe(200);
    expect(seen.body.status).toBe('scanned');
    expect(seen.body.matches).toHaveLength(1);
    expect(seen.body.matches[0]).toMatchObject({
      rule_id: ruleOne,
      rule_name: 'marker_one',
      namespace: 'test.yar',
      tags: ['demo'],
      metadata: { author: 'Vigil tests' },
      strings: [{ identifier: '$m', offset: 66, length: 21 }],
    });
    // Another company never saw the file.
    expect((await betaUser.get(`/api/warehouse/${fileHash}/yara/`)).status).toBe(404);
    expect((await alphaUser.get('/api/warehouse/not-a-hash/yara/')).status).toBe(404);

    const progress = await alphaUser.get<YaraScanProgress>('/api/warehouse/yara-scan/');
    expect(progress.body).toMatchObject({ state: 'idle', total: 2, scanned: 2, skipped: 0, enabled_rules: 4 });
  });

  it('enabling another rule rescans the warehouse and raises only the new match', async () => {
    await t.db.query(sql`UPDATE rules SET enabled = true WHERE id = ${ruleTwo}`);
    await t.db.transaction((tx) => requestYaraRescan(tx));
    const before = await alphaUser.get<YaraScanProgress>('/api/warehouse/yara-scan/');
    expect(before.body).toMatchObject({ state: 'pending', total: 2, scanned: 0 });

    await t.app.jobs.runDueJobs();
    const alerts = await yaraAlerts(alpha);
    expect(alerts.map((a) => a.rule_id).sort()).toEqual([String(ruleOne), String(ruleTwo)].sort());
    // The first rule's match was stored already: its alert was not raised again.
    expect(alerts.find((a) => a.rule_id === String(ruleOne))!.count).toBe(1);
    const seen = await alphaUser.get<FileYara>(`/api/warehouse/${fileHash}/yara/`);
    expect(seen.body.matches.map((m) => m.rule_name).sort()).toEqual(['marker_one', 'marker_two']);
    const after = await alphaUser.get<YaraScanProgress>('/api/warehouse/yara-scan/');
    expect(after.body).toMatchObject({ state: 'idle', total: 2, scanned: 2 });
  });

  it('scans a file held already for a company that sees it later, raising only that company’s matches', async () => {
    const admin = await t.admin();
    const betaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'beta', company_id: beta }))
      .body.key;
    const alphaBefore = await yaraAlerts(alpha);
    // Alpha sees the file again: nothing new for anyone, and no scan is asked for.
    await ingestMail(alphaKey, mailWith('invoice-copy.exe', payload, 'three'));
    expect(await pendingScanJobs()).toBe(0);
    // Beta sees it for the first time: the bytes are held already, the scan runs for beta.
    await ingestMail(betaKey, mailWith('statement.exe', payload, 'four'));
    expect(await pendingScanJobs()).toBe(1);
    await t.app.jobs.runDueJobs();
    const forBeta = await yaraAlerts(beta);
    // The rules for all companies, and beta's own; not the rule alpha turned off for itself only.
    expect(forBeta).toHaveLength(4);
    expect((await yaraAlerts(alpha)).map((a) => [a.rule_id, a.count])).toEqual(
      alphaBefore.map((a) => [a.rule_id, a.count]),
    );
    expect((await betaUser.get<FileYara>(`/api/warehouse/${fileHash}/yara/`)).body.matches).toHaveLength(4);
    const { rows } = await t.db.query<{ hits: string }>(
      sql`SELECT coalesce(sum(hits), 0) AS hits FROM rule_hits WHERE company_id = ${beta}`,
    );
    expect(Number(rows[0]!.hits)).toBe(4);
  });

  it('skips a file over the size limit and stops a scan that runs too long, with their reasons', async () => {
    // Quadratic in the file's size: on 20 KB it runs for tens of seconds.
    await insertYaraRule({
      companyId: provider,
      scope: 'all',
      name: 'slow_loop',
      source:
        'rule slow_loop { condition: for all i in (0..filesize-1) : ( for all j in (0..filesize-1) : ( uint8(i) + uint8(j) >= 0 ) ) }',
    });
    const big = Buffer.alloc(80 * 1024, 0x42);
    const slow = Buffer.alloc(20 * 1024, 0x43);
    await ingestMail(alphaKey, mailWith('big.bin', big, 'big'));
    await ingestMail(alphaKey, mailWith('slow.bin', slow, 'slow'));
    const scan = new WarehouseScan(t.db, t.app.pipeline, silent, { maxFileBytes: 64 * 1024, timeoutMs: 1500 });
    try {
      const started = Date.now();
      const result = await scan.run();
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(result.more).toBe(false);
      expect(result.skipped).toBe(2);
    } finally {
      await scan.close();
    }
    const bigScan = await alphaUser.get<FileYara>(`/api/warehouse/${sha256(big)}/yara/`);
    expect(bigScan.body.status).toBe('skipped');
    expect(bigScan.body.reason).toMatch(/^too_large: the file is 81920 bytes, over the scan limit of 65536 bytes/);
    const slowScan = await alphaUser.get<FileYara>(`/api/warehouse/${sha256(slow)}/yara/`);
    expect(slowScan.body.status).toBe('skipped');
    expect(slowScan.body.reason).toMatch(/^timeout: /);
    // The small files were scanned with the slow rule too, within the time, and kept their matches.
    const seen = await alphaUser.get<FileYara>(`/api/warehouse/${fileHash}/yara/`);
    expect(seen.body.status).toBe('scanned');
    expect(seen.body.matches.map((m) => m.rule_name)).toContain('slow_loop');
    const progress = await alphaUser.get<YaraScanProgress>('/api/warehouse/yara-scan/');
    expect(progress.body).toMatchObject({ total: 4, scanned: 4, skipped: 2 });
  }, 90_000);
});
