import type { NetworkEvent } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { raiseAlerts } from '../src/modules/alerts/raise-alerts';
import { groupNewAlerts } from '../src/modules/incidents/grouping';
import type { BatchInput } from '../src/modules/ingest/batch';
import { parseEveLines } from '../src/modules/ingest/parsers';
import { ALERT, FLOW } from '../src/modules/ingest/parsers/fixtures/eve';
import type { LiveEvent } from '../src/modules/live/live.bus';
import { applyMatchers } from '../src/modules/matchers/apply-matchers';
import type { DetectionStage } from '../src/modules/pipeline/detection-stage';
import { dedupKeyOf, type DetectionSource } from '../src/modules/pipeline/detections';
import { createDetectionPipeline, type DetectionPipeline } from '../src/modules/pipeline/pipeline';
import { suricataStage } from '../src/modules/pipeline/suricata-stage';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function networkEvents(records: object[]): { events: NetworkEvent[]; texts: string[] } {
  const events: NetworkEvent[] = [];
  const texts: string[] = [];
  for (const r of parseEveLines(records.map((record) => JSON.stringify(record)).join('\n'))) {
    if (!r.ok) throw new Error(r.reason);
    events.push(r.event);
    texts.push(r.text);
  }
  return { events, texts };
}

function networkBatch(companyId: number, idempotencyKey: string | null): BatchInput {
  return { kind: 'network', companyId, tokenId: null, idempotencyKey, rejected: [], ...networkEvents([ALERT, FLOW]) };
}

/** A made-up engine: one detection per flow record, as a Sigma or YARA stage would add its own. */
function flowStage(calls: string[], seen: { companyId: number; ids: number[] }[]): DetectionStage {
  return {
    name: 'flows',
    detect: (ctx, events) => {
      calls.push('detect:flows');
      seen.push({ companyId: ctx.companyId, ids: events.map((e) => e.id) });
      return events.flatMap((stored) => {
        if (stored.kind !== 'network' || stored.event.event_type !== 'flow') return [];
        const source: DetectionSource = { type: 'rule', engine: 'sigma', ruleId: 'flow-1', name: 'Any flow' };
        return [
          {
            companyId: ctx.companyId,
            source,
            title: 'Any flow',
            description: 'A flow was seen.',
            severity: 'low' as const,
            mitre: [],
            observables: [{ kind: 'ip' as const, value: stored.event.src_ip ?? '', role: 'src_ip' }],
            event: { kind: 'network' as const, id: stored.id, ts: stored.ts },
            dedupKey: dedupKeyOf(source, [stored.event.src_ip ?? '']),
            occurredAt: stored.event.timestamp,
          },
        ];
      });
    },
  };
}

/** A pipeline wired like the app's, with the flow stage as one more entry and every step recorded. */
function recordedPipeline(
  extra: DetectionStage,
  calls: string[],
  published: LiveEvent[][],
): { pipeline: DetectionPipeline; handed: number[][] } {
  const handed: number[][] = [];
  const pipeline = createDetectionPipeline({
    inventorySteps: [],
    db: t.db,
    detectionStages: [
      { name: 'suricata', detect: (ctx, events) => (calls.push('detect:suricata'), suricataStage.detect(ctx, events)) },
      extra,
    ],
    raise: (tx, detections) => (calls.push('raise'), raiseAlerts(tx, detections, { dedupWindowMinutes: 60 })),
    group: (tx, alerts) => (calls.push('group'), handed.push(alerts.map((a) => a.id)), groupNewAlerts(tx, alerts)),
    match: (tx, alerts) => (calls.push('match'), handed.push(alerts.map((a) => a.id)), applyMatchers(tx, alerts)),
    publish: async (live) => {
      calls.push('publish');
      published.push(live);
    },
  });
  return { pipeline, handed };
}

describe('the detection pipeline', () => {
  it('is the one the app raises every alert through, with its detection stages in order', () => {
    expect(t.app.pipeline.stageNames).toEqual(['suricata', 'sigma', 'indicators']);
  });

  it('runs a batch through store, every detection stage in list order, raise, group, match, then publish', async () => {
    const companyId = await buildCompany(t.db, 'Pipeline Order');
    const calls: string[] = [];
    const seen: { companyId: number; ids: number[] }[] = [];
    const published: LiveEvent[][] = [];
    const { pipeline, handed } = recordedPipeline(flowStage(calls, seen), calls, published);

    const result = await pipeline.runBatch(networkBatch(companyId, 'order-1'));

    expect(calls).toEqual(['detect:suricata', 'detect:flows', 'raise', 'group', 'match', 'publish']);
    expect(result).toMatchObject({ accepted: 2, rejected: [], duplicate: false, detections: 2 });
    // The stages were given the company and the events as stored (their ids are the rows').
    const stored = await t.db.query<{ id: number }>(
      sql`SELECT id FROM network_events WHERE company_id = ${companyId} ORDER BY id`,
    );
    expect(seen).toEqual([{ companyId, ids: stored.rows.map((r) => Number(r.id)) }]);
    // Both engines' detections became alerts; grouping and matchers were handed exactly those.
    const alerts = await t.db.query<{ id: number; title: string }>(
      sql`SELECT id, title FROM alerts WHERE company_id = ${companyId} ORDER BY id`,
    );
    expect(alerts.rows.map((a) => a.title).sort()).toEqual(['Any flow', ALERT.alert.signature].sort());
    const ids = alerts.rows.map((a) => Number(a.id));
    expect([...result.alerts.created].sort()).toEqual(ids);
    expect(handed).toEqual([result.alerts.created, result.alerts.created]);
    // Published once, after commit: the new alerts.
    expect(published).toEqual([
      [{ type: 'alert.created', company_id: companyId, ids: result.alerts.created, count: 2 }],
    ]);
    expect(result.live).toEqual(published[0]);
  });

  it('answers a batch already stored under its Idempotency-Key without running any stage again', async () => {
    const companyId = await buildCompany(t.db, 'Pipeline Retry');
    const calls: string[] = [];
    const published: LiveEvent[][] = [];
    const { pipeline } = recordedPipeline(flowStage(calls, []), calls, published);
    const first = await pipeline.runBatch(networkBatch(companyId, 'retry-1'));
    calls.length = 0;
    const again = await pipeline.runBatch(networkBatch(companyId, 'retry-1'));
    expect(again).toMatchObject({ duplicate: true, batch_id: first.batch_id, accepted: 2, detections: 0, live: [] });
    // The retry's transaction stopped at the batch record: no stage ran, nothing was published again.
    expect(calls).toEqual([]);
    expect(published).toHaveLength(1);
  });

  it('rolls the whole batch back when a detection stage fails, and publishes nothing', async () => {
    const companyId = await buildCompany(t.db, 'Pipeline Failure');
    const calls: string[] = [];
    const published: LiveEvent[][] = [];
    const failing: DetectionStage = {
      name: 'broken',
      detect: async () => {
        throw new Error('engine down');
      },
    };
    const { pipeline } = recordedPipeline(failing, calls, published);
    await expect(pipeline.runBatch(networkBatch(companyId, 'fail-1'))).rejects.toThrow('engine down');
    const counts = await t.db.query<{ events: number; batches: number; alerts: number }>(sql`
      SELECT (SELECT count(*)::int FROM network_events WHERE company_id = ${companyId}) AS events,
             (SELECT count(*)::int FROM ingest_batches WHERE company_id = ${companyId}) AS batches,
             (SELECT count(*)::int FROM alerts WHERE company_id = ${companyId}) AS alerts`);
    expect(counts.rows[0]).toEqual({ events: 0, batches: 0, alerts: 0 });
    expect(calls).toEqual(['detect:suricata']);
    expect(published).toEqual([]);
  });
  it('stores batches of one company that wait together in one transaction, each answered as its own', async () => {
    const companyId = await buildCompany(t.db, 'Pipeline Together');
    const calls: string[] = [];
    const seen: { companyId: number; ids: number[] }[] = [];
    const published: LiveEvent[][] = [];
    const { pipeline } = recordedPipeline(flowStage(calls, seen), calls, published);
    const first = await pipeline.runBatch(networkBatch(companyId, 'together-0'));
    calls.length = 0;
    seen.length = 0;

    // Eight at once: two run at once, and the six that wait go in together.
    const keys = ['together-1', 'together-2', 'together-3', 'together-4', 'together-5', 'together-6', 'together-7'];
    const results = await Promise.all([...keys, null].map((key) => pipeline.runBatch(networkBatch(companyId, key))));
    // Fewer transactions than batches: the detection stages ran fewer times than there were batches.
    expect(seen.length).toBeLessThan(results.length);
    // Each batch has its own record and its own detections (an alert and a flow per batch).
    expect(new Set([first, ...results].map((r) => r.batch_id)).size).toBe(9);
    for (const r of results) expect(r).toMatchObject({ accepted: 2, detections: 2, duplicate: false });

    // A retried key among batches that wait together: the retry gets its first answer, the others theirs.
    const again = await Promise.all(
      ['together-8', 'together-9', 'together-0', 'together-10', 'together-11'].map((key) =>
        pipeline.runBatch(networkBatch(companyId, key)),
      ),
    );
    expect(again[2]).toMatchObject({ duplicate: true, batch_id: first.batch_id, detections: 0 });
    for (const r of [...again.slice(0, 2), ...again.slice(3)])
      expect(r).toMatchObject({ duplicate: false, detections: 2 });
    const counts = await t.db.query<{ events: number; batches: number; flows: number; alerts: number }>(sql`
      SELECT (SELECT count(*)::int FROM network_events WHERE company_id = ${companyId}) AS events,
             (SELECT count(*)::int FROM ingest_batches WHERE company_id = ${companyId}) AS batches,
             (SELECT sum(count)::int FROM alerts WHERE company_id = ${companyId} AND title = 'Any flow') AS flows,
             (SELECT count(*)::int FROM alerts WHERE company_id = ${companyId}) AS alerts`);
    // Nothing stored twice, nothing lost: 13 batches of 2 events; every flow counted in one alert.
    expect(counts.rows[0]).toEqual({ events: 26, batches: 13, flows: 13, alerts: 2 });
    // Another company's batch is never part of this one's transaction.
    const other = await buildCompany(t.db, 'Pipeline Apart');
    seen.length = 0;
    await Promise.all([pipeline.runBatch(networkBatch(other, null)), pipeline.runBatch(networkBatch(companyId, null))]);
    expect(seen.map((s) => s.companyId).sort()).toEqual([companyId, other].sort());
  });
});
