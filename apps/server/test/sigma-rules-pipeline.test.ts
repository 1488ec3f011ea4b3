import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { IngestAnswer, IngestTokenCreated } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { parseEndpointLines } from '../src/modules/ingest/parsers';
import { SigmaEngine, compileSigmaRule } from '../src/modules/rules/sigma';
import {
  COUNT_DISAGREES,
  readRegressionSamples,
  type RegressionSample,
} from '../src/modules/rules/sigma/regression-samples';
import { insertRule, setRuleEnabled, setRuleForCompany, sigmaRuleRow } from './helpers/rule-rows';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Sigma rules of the rule store on endpoint events, end to end: every SigmaHQ regression sample
 * sent through POST /api/ingest/endpoint/ raises exactly the alerts its rule gives, and none when
 * the rule is disabled, turned off for the company or belongs to another company.
 */

const SIGMA = path.resolve(import.meta.dirname, '../../../../shared/data/sigma');
const FOLDERS = ['rules', 'rules-emerging-threats', 'rules-threat-hunting'];
const samples = readRegressionSamples(path.join(SIGMA, 'regression'));

/** The rule files of the samples' rules, by Sigma id. */
function ruleSources(ids: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const folder of FOLDERS) {
    const dir = path.join(SIGMA, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!/\.ya?ml$/.test(file)) continue;
      const text = readFileSync(path.join(dir, file), 'utf8');
      const id = /^id:\s*['"]?([0-9a-f-]{36})/m.exec(text)?.[1];
      if (id && ids.has(id)) out.set(id, text);
    }
  }
  return out;
}

const body = (sample: RegressionSample) => sample.records.map((r) => JSON.stringify(r)).join('\n');

let t: TestApp;
const tokens = new Map<number, string>();
let alpha: number;
let beta: number;
let provider: number;
/** The stored all-companies rule of each sample's Sigma id. */
const stored = new Map<string, number>();
const sources = new Map<string, string>();

async function ingest(companyId: number, text: string): Promise<IngestAnswer> {
  const response = await fetch(`${t.url}/api/ingest/endpoint/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${tokens.get(companyId)}` },
    body: text,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as IngestAnswer;
}

/** Detections raised so far per stored rule for a company: the counts of its Sigma alerts. */
async function raisedByRule(companyId: number): Promise<Map<number, number>> {
  const { rows } = await t.db.query<{ rule: string; n: string }>(sql`
    SELECT detection->>'storedRuleId' AS rule, sum(count) AS n FROM alerts
    WHERE company_id = ${companyId} AND detection->>'engine' = 'sigma' GROUP BY 1`);
  return new Map(rows.map((r) => [Number(r.rule), Number(r.n)]));
}

/** What sending the text raised for the rule, from the change in its alerts' counts. */
async function raisedFor(companyId: number, text: string, ruleIds: readonly number[]): Promise<number[]> {
  const before = await raisedByRule(companyId);
  await ingest(companyId, text);
  const after = await raisedByRule(companyId);
  return ruleIds.map((id) => (after.get(id) ?? 0) - (before.get(id) ?? 0));
}

/** How many events of the sample its rule matches by the rule's text (the engine in this process). */
function engineCount(sample: RegressionSample): number {
  const engine = new SigmaEngine([compileSigmaRule(sources.get(sample.ruleId)!)]);
  return parseEndpointLines(body(sample)).reduce((n, r) => n + (r.ok ? engine.match(r.event).length : 0), 0);
}

describe.skipIf(samples.length === 0)('Sigma rules in the detection pipeline', () => {
  beforeAll(async () => {
    t = await startTestApp();
    // Rules for all companies belong to the provider company, whose staff import them.
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`);
    provider = Number(rows[0]!.id);
    alpha = await buildCompany(t.db, 'Alpha Sigma');
    beta = await buildCompany(t.db, 'Beta Sigma');
    const admin = await t.admin();
    for (const company of [alpha, beta]) {
      const token = await admin.post<IngestTokenCreated>('/api/ingest/tokens/', {
        name: 'winlog',
        company_id: company,
      });
      expect(token.status).toBe(201);
      tokens.set(company, token.body.key);
    }
    for (const [id, text] of ruleSources(new Set(samples.map((s) => s.ruleId)))) sources.set(id, text);
    for (const id of new Set(samples.map((s) => s.ruleId))) {
      const text = sources.get(id);
      expect(text, `the rule file of ${id}`).toBeDefined();
      stored.set(id, await insertRule(t.db, sigmaRuleRow(text!, provider, 'all')));
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every regression sample raises exactly the alerts its rule gives', async () => {
    const failures: string[] = [];
    for (const sample of samples) {
      const ruleId = stored.get(sample.ruleId)!;
      const [raised] = await raisedFor(alpha, body(sample), [ruleId]);
      // The samples whose match_count is short of what the rule's text matches (read by hand) count as the rule says.
      const expected = Object.hasOwn(COUNT_DISAGREES, sample.sample) ? engineCount(sample) : sample.expected;
      if (expected === undefined ? raised! < 1 : raised !== expected)
        failures.push(`${sample.sample}: expected ${expected ?? 'a match'}, raised ${raised}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('shows the rule, its level, ATT&CK ids and author with the alert, and counts its hits', async () => {
    const sample = samples.find((s) => (s.expected ?? 1) >= 1)!;
    const ruleId = stored.get(sample.ruleId)!;
    const row = sigmaRuleRow(sources.get(sample.ruleId)!, provider, 'all');
    const { rows } = await t.db.query<{
      title: string;
      severity: string;
      description: string;
      detection: Record<string, unknown>;
      mitre: string[];
      observables: { kind: string }[];
    }>(sql`SELECT title, severity, description, detection, mitre, observables FROM alerts
           WHERE company_id = ${alpha} AND detection->>'storedRuleId' = ${String(ruleId)} LIMIT 1`);
    const alert = rows[0]!;
    expect(alert.title).toBe(row.title);
    expect(alert.severity).toBe(row.level);
    expect(alert.mitre).toEqual(row.techniques);
    expect(alert.detection).toMatchObject({
      type: 'rule',
      engine: 'sigma',
      ruleId: sample.ruleId,
      storedRuleId: ruleId,
      revision: 1,
      author: row.author,
      licence: 'DRL-1.1',
    });
    expect(row.author).not.toBe('');
    expect(alert.description).toContain(`Author: ${row.author}`);
    expect(alert.observables.map((o) => o.kind)).toContain('host');
    const hits = await t.db.query<{ hits: string }>(
      sql`SELECT sum(hits) AS hits FROM rule_hits WHERE company_id = ${alpha} AND rule_id = ${ruleId}`,
    );
    expect(Number(hits.rows[0]!.hits)).toBeGreaterThanOrEqual(1);
  });

  // Samples whose rule matches them (and no other sample's rule is the same).
  const firing = () =>
    samples.filter((s) => (s.expected ?? 1) >= 1 && samples.filter((o) => o.ruleId === s.ruleId).length === 1);

  it('raises nothing from a disabled rule', async () => {
    const chosen = firing().slice(0, 5);
    const ids = chosen.map((s) => stored.get(s.ruleId)!);
    for (const id of ids) await setRuleEnabled(t.db, id, false);
    const raised = await raisedFor(alpha, chosen.map(body).join('\n'), ids);
    expect(raised).toEqual(ids.map(() => 0));
    // Enabled again, the same events raise again.
    for (const id of ids) await setRuleEnabled(t.db, id, true);
    const again = await raisedFor(alpha, chosen.map(body).join('\n'), ids);
    for (const n of again) expect(n).toBeGreaterThanOrEqual(1);
  });

  it('raises nothing for a company that turned an all-companies rule off, and still for the others', async () => {
    const sample = firing()[5]!;
    const id = stored.get(sample.ruleId)!;
    await setRuleForCompany(t.db, alpha, id, false);
    expect(await raisedFor(alpha, body(sample), [id])).toEqual([0]);
    expect((await raisedFor(beta, body(sample), [id]))[0]).toBeGreaterThanOrEqual(1);
    await setRuleForCompany(t.db, alpha, id, true);
    expect((await raisedFor(alpha, body(sample), [id]))[0]).toBeGreaterThanOrEqual(1);
  });

  it("fires a company's own rule for that company only", async () => {
    const sample = firing()[6]!;
    const shared = stored.get(sample.ruleId)!;
    await setRuleEnabled(t.db, shared, false);
    const own = await insertRule(t.db, sigmaRuleRow(sources.get(sample.ruleId)!, alpha, 'company'));
    const expected = engineCount(sample);
    expect(await raisedFor(alpha, body(sample), [own, shared])).toEqual([expected, 0]);
    expect(await raisedFor(beta, body(sample), [own, shared])).toEqual([0, 0]);
  });

  it('skips a stored rule that does not compile, and the others still fire', async () => {
    const sample = firing()[7]!;
    await insertRule(t.db, {
      companyId: alpha,
      kind: 'sigma',
      ruleKey: 'broken',
      title: 'Broken',
      source:
        'title: Broken\nlogsource: {product: windows}\ndetection: {sel: {Image|nosuchmodifier: x}, condition: sel}\n',
    });
    const [raised] = await raisedFor(alpha, body(sample), [stored.get(sample.ruleId)!]);
    expect(raised).toBeGreaterThanOrEqual(1);
  });
});
