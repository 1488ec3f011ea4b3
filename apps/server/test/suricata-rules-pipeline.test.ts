import type { IngestAnswer, IngestTokenCreated } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { sql } from '../src/db/sql';
import { alertRecordFor } from '../src/modules/ingest/parsers/fixtures/eve-suricata7';
import { insertRule, setRuleEnabled, setRuleForCompany } from './helpers/rule-rows';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Suricata alerts checked against the rule store, end to end through POST /api/ingest/network/:
 * the stored rule's text, classtype and ATT&CK ids go with the alert; a company's threshold.config
 * suppressions and thresholds change what the same EVE stream raises, while every event is stored;
 * a disabled stored rule raises nothing.
 */

const STORED_RULE =
  'alert http $EXTERNAL_NET any -> $HOME_NET any (msg:"ET EXPLOIT Example Appliance Path Traversal Attempt"; ' +
  'flow:established,to_server; http.uri; content:"/../../etc/passwd"; classtype:web-application-attack; ' +
  'sid:2059999; rev:2; metadata:mitre_tactic_id TA0001, mitre_technique_id T1190, signature_severity Major;)';
// The sensor's copy carries no metadata: the ATT&CK ids come from the stored rule.
const SENSOR_RULE = STORED_RULE.replace(/metadata:[^;]*;/, '');
const OTHER_RULE =
  'alert dns any any -> any any (msg:"Example DNS query for a test domain"; dns.query; content:"example.test"; ' +
  'classtype:bad-unknown; sid:2000001; rev:1;)';

let t: TestApp;
let alpha: number;
let beta: number;
let provider: number;
const tokens = new Map<number, string>();

/** The same stream every time: four alerts of the stored rule from one source, two of another rule. */
function stream(): string {
  const records = [0, 1, 2, 3].map((i) => alertRecordFor(SENSOR_RULE, `2026-11-20T10:00:0${i}.000000+0000`));
  records.push(alertRecordFor(OTHER_RULE, '2026-11-20T10:00:05.000000+0000'));
  records.push(alertRecordFor(OTHER_RULE, '2026-11-20T10:00:06.000000+0000'));
  return records.map((r) => JSON.stringify(r)).join('\n');
}

async function ingest(companyId: number, text: string, url = t.url): Promise<IngestAnswer> {
  const response = await fetch(`${url}/api/ingest/network/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${tokens.get(companyId)}` },
    body: text,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as IngestAnswer;
}

/** Detections raised so far per sid for a company (its Suricata alerts' counts). */
async function raisedBySid(companyId: number): Promise<Map<string, number>> {
  const { rows } = await t.db.query<{ sid: string; n: string }>(sql`
    SELECT detection->>'ruleId' AS sid, sum(count) AS n FROM alerts
    WHERE company_id = ${companyId} AND detection->>'engine' = 'suricata' GROUP BY 1`);
  return new Map(rows.map((r) => [r.sid, Number(r.n)]));
}

const storedEvents = async (companyId: number) =>
  Number(
    (await t.db.query<{ n: string }>(sql`SELECT count(*) AS n FROM network_events WHERE company_id = ${companyId}`))
      .rows[0]!.n,
  );

/** What the stream raises for each of its two rules, checking every event of it is stored. */
async function send(companyId: number, url = t.url): Promise<{ stored: number; other: number }> {
  const before = await raisedBySid(companyId);
  const eventsBefore = await storedEvents(companyId);
  const answer = await ingest(companyId, stream(), url);
  expect(answer.accepted).toBe(6);
  expect(await storedEvents(companyId)).toBe(eventsBefore + 6);
  const after = await raisedBySid(companyId);
  const diff = (sid: string) => (after.get(sid) ?? 0) - (before.get(sid) ?? 0);
  return { stored: diff('2059999'), other: diff('2000001') };
}

async function setThresholds(companyId: number, entries: readonly string[]): Promise<void> {
  await t.db.query(sql`DELETE FROM suricata_thresholds WHERE company_id = ${companyId}`);
  for (const entry of entries)
    await t.db.query(sql`INSERT INTO suricata_thresholds (company_id, entry) VALUES (${companyId}, ${entry})`);
}

beforeAll(async () => {
  t = await startTestApp();
  const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`);
  provider = Number(rows[0]!.id);
  alpha = await buildCompany(t.db, 'Alpha Suricata');
  beta = await buildCompany(t.db, 'Beta Suricata');
  const admin = await t.admin();
  for (const company of [alpha, beta]) {
    const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'sensor', company_id: company });
    expect(token.status).toBe(201);
    tokens.set(company, token.body.key);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('Suricata alerts and the rule store', () => {
  let ruleId: number;

  it('an alert of a rule the store does not hold is raised as the sensor sent it', async () => {
    expect(await send(alpha)).toEqual({ stored: 4, other: 2 });
  });

  it("an alert of a stored rule carries the rule's text, classtype and ATT&CK ids", async () => {
    ruleId = await insertRule(t.db, {
      companyId: provider,
      kind: 'suricata',
      scope: 'all',
      ruleKey: '1:2059999',
      title: 'ET EXPLOIT Example Appliance Path Traversal Attempt',
      level: 'high',
      techniques: ['TA0001', 'T1190'],
      source: STORED_RULE,
      details: { sid: 2059999, gid: 1, rev: 2, classtype: 'web-application-attack' },
    });
    // Beta's first alerts: their text is the stored rule's.
    expect(await send(beta)).toEqual({ stored: 4, other: 2 });
    const { rows } = await t.db.query<{ description: string; mitre: string[]; detection: Record<string, unknown> }>(
      sql`SELECT description, mitre, detection FROM alerts WHERE company_id = ${beta} AND detection->>'ruleId' = '2059999'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.description).toContain(`Rule: ${STORED_RULE}`);
    expect(rows[0]!.description).toContain('Classtype: web-application-attack');
    expect(rows[0]!.mitre).toEqual(['TA0001', 'T1190']);
    expect(rows[0]!.detection).toMatchObject({ storedRuleId: ruleId, revision: 2 });
    const hits = await t.db.query<{ hits: string }>(
      sql`SELECT sum(hits) AS hits FROM rule_hits WHERE company_id = ${beta} AND rule_id = ${ruleId}`,
    );
    expect(Number(hits.rows[0]!.hits)).toBe(4);
  });

  it("a company's suppression hides the rule's alerts from the suppressed source, for that company only", async () => {
    await setThresholds(alpha, ['suppress gen_id 1, sig_id 2059999, track by_src, ip 203.0.113.0/24']);
    expect(await send(alpha)).toEqual({ stored: 0, other: 2 });
    expect(await send(beta)).toEqual({ stored: 4, other: 2 });
    // A suppression of another source changes nothing.
    await setThresholds(alpha, ['suppress gen_id 1, sig_id 2059999, track by_src, ip 198.51.100.7']);
    expect(await send(alpha)).toEqual({ stored: 4, other: 2 });
  });

  it("a company's threshold limits what the same stream raises", async () => {
    await setThresholds(alpha, ['threshold gen_id 1, sig_id 2059999, type limit, track by_src, count 1, seconds 3600']);
    expect(await send(alpha)).toEqual({ stored: 1, other: 2 });
    // The window is still open: the next stream raises nothing more of the rule.
    expect(await send(alpha)).toEqual({ stored: 0, other: 2 });
    await setThresholds(alpha, ['threshold gen_id 1, sig_id 0, type threshold, track by_rule, count 2, seconds 60']);
    expect(await send(alpha)).toEqual({ stored: 2, other: 1 });
    await setThresholds(alpha, []);
    expect(await send(alpha)).toEqual({ stored: 4, other: 2 });
  });

  it('two server processes count one threshold window together', async () => {
    const other = await buildApp({ db: t.db, config: t.config, version: 'test', logger: false });
    await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = other.server.address();
      const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      await setThresholds(alpha, [
        'threshold gen_id 1, sig_id 2059999, type limit, track by_rule, count 3, seconds 3600',
      ]);
      // Three alerts of the rule in the window, whichever process receives the streams.
      expect(await send(alpha)).toEqual({ stored: 3, other: 2 });
      expect(await send(alpha, otherUrl)).toEqual({ stored: 0, other: 2 });
      expect(await send(alpha)).toEqual({ stored: 0, other: 2 });
      // The same entries for beta count apart from alpha's.
      await setThresholds(beta, [
        'threshold gen_id 1, sig_id 2059999, type limit, track by_rule, count 3, seconds 3600',
      ]);
      expect(await send(beta, otherUrl)).toEqual({ stored: 3, other: 2 });
      await setThresholds(beta, []);
    } finally {
      await other.close();
    }
    await setThresholds(alpha, []);
    expect(await send(alpha)).toEqual({ stored: 4, other: 2 });
  });

  it('a stored rule disabled, or turned off for the company, raises nothing', async () => {
    await setRuleForCompany(t.db, alpha, ruleId, false);
    expect(await send(alpha)).toEqual({ stored: 0, other: 2 });
    expect(await send(beta)).toEqual({ stored: 4, other: 2 });
    await setRuleForCompany(t.db, alpha, ruleId, true);
    await setRuleEnabled(t.db, ruleId, false);
    expect(await send(alpha)).toEqual({ stored: 0, other: 2 });
    expect(await send(beta)).toEqual({ stored: 0, other: 2 });
  });
});
