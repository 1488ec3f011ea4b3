import type { Alert, ListAnswer, SavedSearch, SavedSearchRunAnswer, SearchReport } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { sql } from '../src/db/sql';
import { requestSavedSearchRuns, SavedSearchRuns } from '../src/modules/saved-searches/saved-search-runs';
import { pruneReadBatches } from '../src/modules/saved-searches/search-reports.repository';
import type { Detail, Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { ingestNetwork, networkFlow } from './helpers/network-flows';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Saved searches end to end: saved, shared and changed by callers of different companies, run by
 * hand and on schedule over network events ingested through the ingest API, their reports read in
 * each company's scope. A run reads every event once: across runs, and across a restart.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let gamma: number;
let alice: TestClient;
let carol: TestClient;
let bob: TestClient;
let sam: TestClient;
let nora: TestClient;
let admin: TestClient;
let alphaKey: string;
let betaKey: string;

const full = ['view', 'add', 'change', 'delete'];
const eventKinds = ['alerts', 'network', 'eclipse_events', 'mailing'].map((basename) => ({
  basename,
  actions: ['view'],
}));
const analystPermissions = [
  { basename: 'search', actions: full },
  { basename: 'search/reports', actions: ['view'] },
  ...eventKinds,
];

const flow = networkFlow;
const ingest = (key: string, records: readonly object[]) => ingestNetwork(t.url, key, records);

type Answer<T> = T & Errors & Detail;

async function save(client: TestClient, body: Record<string, unknown>): Promise<SavedSearch> {
  const created = await client.post<Answer<SavedSearch>>('/api/search/saved/', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function visibleIds(client: TestClient): Promise<number[]> {
  const page = await client.post<ListAnswer<SavedSearch>>('/api/search/saved/check/?page_size=200', {});
  expect(page.status).toBe(200);
  return page.body.results.map((s) => s.id);
}

async function reportsOf(client: TestClient, savedSearchId: number): Promise<SearchReport[]> {
  const page = await client.post<ListAnswer<SearchReport>>('/api/search/reports/check/?page_size=200', {
    saved_search_id: savedSearchId,
  });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.results;
}

async function runNow(client: TestClient, id: number) {
  return client.post<Answer<SavedSearchRunAnswer>>(`/api/search/saved/${id}/run/`);
}

/** Makes a saved search due and lets the job runner of `app` (this app by default) run it. */
async function scheduledRun(id: number, app = t.app) {
  await t.db.query(sql`UPDATE saved_searches SET next_run_at = now() - interval '1 second' WHERE id = ${id}`);
  await t.db.transaction((tx) => requestSavedSearchRuns(tx));
  const outcomes = await app.jobs.runDueJobs();
  expect(outcomes.filter((o) => o.kind === 'saved_searches.run').every((o) => o.outcome === 'done')).toBe(true);
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  gamma = await buildCompany(t.db, 'Gamma Logistics');
  const provider = (await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!
    .id;
  await buildUser(t.db, { username: 'alice', companyId: alpha, permissions: analystPermissions });
  await buildUser(t.db, {
    username: 'carol',
    companyId: alpha,
    permissions: [{ basename: 'search', actions: ['view', 'add'] }, ...eventKinds],
  });
  await buildUser(t.db, { username: 'bob', companyId: beta, permissions: analystPermissions });
  await buildUser(t.db, {
    username: 'sam',
    companyId: provider,
    permissions: analystPermissions,
    extraCompanies: [alpha, beta],
  });
  await buildUser(t.db, {
    username: 'nora',
    companyId: alpha,
    permissions: [
      { basename: 'search', actions: full },
      { basename: 'network', actions: ['view'] },
    ],
  });
  admin = await t.admin();
  alice = await t.signedIn('alice');
  carol = await t.signedIn('carol');
  bob = await t.signedIn('bob');
  sam = await t.signedIn('sam');
  nora = await t.signedIn('nora');
  alphaKey = await t.ingestToken(admin, alpha);
  betaKey = await t.ingestToken(admin, beta);
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('saving a search', () => {
  it('creates, reads, changes, lists and deletes a saved search', async () => {
    const created = await save(alice, { name: 'SSH out', query: 'dest_port: 22', type: ['network'] });
    expect(created).toMatchObject({
      name: 'SSH out',
      query: 'dest_port: 22',
      type: ['network'],
      enabled: false,
      sharing: 'private',
      company_id: alpha,
      company_ids: [],
      interval_minutes: 15,
      alert: null,
      owner_name: 'alice',
      last_run_at: null,
      last_hits: null,
    });
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const read = await alice.get<SavedSearch>(`/api/search/saved/${created.id}/`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const changed = await alice.patch<Answer<SavedSearch>>(`/api/search/saved/${created.id}/`, {
      name: 'SSH or RDP out',
      query: 'dest_port: 22 or dest_port: 3389',
      interval_minutes: 5,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ name: 'SSH or RDP out', interval_minutes: 5, type: ['network'] });

    const count = await alice.post<{ count: number }>('/api/search/saved/count/', { search: 'rdp' });
    expect(count.body.count).toBe(1);
    const filtered = await alice.post<ListAnswer<SavedSearch>>('/api/search/saved/check/', {
      mine: true,
      type: 'network',
    });
    expect(filtered.body.results.map((s) => s.id)).toContain(created.id);

    const audit = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'saved_search' AND object_id = ${String(created.id)}
          ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'update']);

    expect((await alice.delete(`/api/search/saved/${created.id}/`)).status).toBe(204);
    expect((await alice.get(`/api/search/saved/${created.id}/`)).status).toBe(404);
  });

  it('answers field errors, and a query that does not read with its position', async () => {
    const missing = await alice.post<Answer<object>>('/api/search/saved/', { query: '', type: [] });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['name', 'type']);

    const bad = await alice.post<Answer<object>>('/api/search/saved/', {
      name: 'Broken',
      query: 'dest_port: 22 and (',
      type: ['network'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.query![0]).toMatch(/^At position \d+: /);

    const unknownField = await alice.post<Answer<object>>('/api/search/saved/', {
      name: 'Unknown',
      query: 'subject: invoice',
      type: ['network'],
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors.query![0]).toMatch(/^At position 1: /);

    // Nora may view network events only.
    const kinds = await nora.post<Answer<object>>('/api/search/saved/', {
      name: 'Hosts',
      query: '',
      type: ['network', 'endpoint'],
    });
    expect(kinds.status).toBe(400);
    expect(kinds.body.errors.type![0]).toContain('endpoint');

    const template = await alice.post<Answer<object>>('/api/search/saved/', {
      name: 'Alerting',
      query: '',
      type: ['network'],
      alert: { severity: 'severe', title: '', mitre: ['X1'] },
    });
    expect(template.status).toBe(400);
    expect(Object.keys(template.body.errors).sort()).toEqual(['alert.mitre.0', 'alert.severity', 'alert.title']);

    const own = await save(alice, { name: 'Mine', query: '', type: ['network'] });
    const badChange = await alice.patch<Answer<object>>(`/api/search/saved/${own.id}/`, { query: 'dest_port: >' });
    expect(badChange.status).toBe(400);
    expect(badChange.body.errors.query![0]).toMatch(/^At position \d+: /);
  });
});

describe('who sees and changes a saved search', () => {
  it('shows private ones to their owner, company ones to the company, companies ones to those companies', async () => {
    const personal = await save(alice, { name: 'Private', query: '', type: ['network'] });
    const shared = await save(alice, { name: 'Shared', query: '', type: ['network'], sharing: 'company' });
    const wide = await save(sam, {
      name: 'For alpha',
      query: '',
      type: ['network'],
      sharing: 'companies',
      company_ids: [alpha],
    });
    const betaOwn = await save(bob, { name: 'Beta shared', query: '', type: ['network'], sharing: 'company' });

    const ofAlice = await visibleIds(alice);
    expect(ofAlice).toEqual(expect.arrayContaining([personal.id, shared.id, wide.id]));
    expect(ofAlice).not.toContain(betaOwn.id);

    const ofCarol = await visibleIds(carol);
    expect(ofCarol).toEqual(expect.arrayContaining([shared.id, wide.id]));
    expect(ofCarol).not.toContain(personal.id);
    expect((await carol.get(`/api/search/saved/${personal.id}/`)).status).toBe(404);

    const ofBob = await visibleIds(bob);
    expect(ofBob).toContain(betaOwn.id);
    for (const id of [personal.id, shared.id, wide.id]) {
      expect(ofBob).not.toContain(id);
      expect((await bob.get(`/api/search/saved/${id}/`)).status).toBe(404);
    }
    // Another company's saved search answers 404 whatever the body.
    expect((await bob.patch(`/api/search/saved/${shared.id}/`, { name: 42 })).status).toBe(404);
    expect((await bob.delete(`/api/search/saved/${shared.id}/`)).status).toBe(404);
    expect((await bob.post(`/api/search/saved/${shared.id}/run/`)).status).toBe(404);
  });

  it('lets only provider staff share with companies, and only companies they see', async () => {
    const customer = await alice.post<Answer<object>>('/api/search/saved/', {
      name: 'Wide',
      query: '',
      type: ['network'],
      sharing: 'companies',
      company_ids: [alpha, beta],
    });
    expect(customer.status).toBe(400);
    expect(customer.body.errors).toHaveProperty('sharing');

    const outside = await sam.post<Answer<object>>('/api/search/saved/', {
      name: 'Wide',
      query: '',
      type: ['network'],
      sharing: 'companies',
      company_ids: [alpha, gamma],
    });
    expect(outside.status).toBe(400);
    expect(outside.body.errors.company_ids![0]).toContain(String(gamma));

    const otherCompany = await alice.post<Answer<object>>('/api/search/saved/', {
      name: 'Elsewhere',
      query: '',
      type: ['network'],
      company_id: beta,
    });
    expect(otherCompany.status).toBe(400);
    expect(otherCompany.body.errors).toHaveProperty('company_id');
  });

  it('refuses changes of someone else’s saved search to those who may not make them', async () => {
    const shared = await save(alice, { name: 'Alice’s', query: '', type: ['network'], sharing: 'company' });
    // Carol sees it but holds no `search: change`.
    expect((await carol.patch(`/api/search/saved/${shared.id}/`, { name: 'Carol’s' })).status).toBe(403);
    // Alice sees Sam's saved search, shared with her company, but it belongs to the provider.
    const wide = await save(sam, {
      name: 'Sam’s',
      query: '',
      type: ['network'],
      sharing: 'companies',
      company_ids: [alpha],
    });
    const refused = await alice.patch<Answer<object>>(`/api/search/saved/${wide.id}/`, { name: 'Alice’s now' });
    expect(refused.status).toBe(403);
    expect((await alice.delete(`/api/search/saved/${wide.id}/`)).status).toBe(403);
    // Sam's scope covers alpha: he may change Alice's company saved search.
    const bySam = await sam.patch<Answer<SavedSearch>>(`/api/search/saved/${shared.id}/`, { interval_minutes: 30 });
    expect(bySam.status).toBe(200);
    expect(bySam.body.owner_name).toBe('alice');
    expect((await sam.get<SavedSearch>(`/api/search/saved/${wide.id}/`)).body.name).toBe('Sam’s');
  });
});

describe('runs and reports', () => {
  const alert = { severity: 'high', title: '{{name}}: {{count}} hits', mitre: ['T1071'] };

  it('runs an enabled saved search over what arrived since it was enabled, each event once', async () => {
    // Arrived before it was enabled: never read.
    await ingest(alphaKey, [flow(4444)]);
    const saved = await save(alice, {
      name: 'Beacons',
      query: 'dest_port: 4444',
      type: ['network'],
      enabled: true,
      alert,
    });
    await ingest(alphaKey, [flow(4444), flow(80), flow(4444)]);
    await ingest(betaKey, [flow(4444)]);

    const first = await runNow(alice, saved.id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ hits: 2, reports: 1, alerts: 1 });
    const audited = await t.db.query<{ action: string; changes: unknown }>(
      sql`SELECT action, changes FROM system_logs WHERE object_type = 'saved_search' AND object_id = ${String(saved.id)}
          AND action = 'run'`,
    );
    expect(audited.rows).toHaveLength(1);

    const [report] = await reportsOf(alice, saved.id);
    expect(report).toMatchObject({
      saved_search_id: saved.id,
      saved_search_name: 'Beacons',
      company_id: alpha,
      query: 'dest_port: 4444',
      type: ['network'],
      hit_count: 2,
    });
    expect(report!.first_hits).toHaveLength(2);
    expect(report!.first_hits.every((hit) => hit.kind === 'network' && hit.event.dest_port === 4444)).toBe(true);
    expect(Date.parse(report!.first_hits[0]!.ts)).toBeGreaterThanOrEqual(Date.parse(report!.first_hits[1]!.ts));
    expect(Date.parse(report!.from)).toBeLessThanOrEqual(Date.parse(report!.to));
    const got = await alice.get<SearchReport>(`/api/search/reports/${report!.id}/`);
    expect(got.body).toEqual(report);

    const raised = await alice.get<Alert>(`/api/alerts/${report!.alert_id}/`);
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ title: 'Beacons: 2 hits', severity: 'high', company_id: alpha });
    expect(raised.body.mitre).toEqual(['T1071']);

    // Nothing new: nothing found again.
    expect((await runNow(alice, saved.id)).body).toEqual({ hits: 0, reports: 0, alerts: 0 });
    expect(await reportsOf(alice, saved.id)).toHaveLength(1);

    // What arrives between runs is found by the next scheduled run.
    await ingest(alphaKey, [flow(4444)]);
    await scheduledRun(saved.id);
    const after = await reportsOf(alice, saved.id);
    expect(after.map((r) => r.hit_count)).toEqual([1, 2]);
    const state = (await alice.get<SavedSearch>(`/api/search/saved/${saved.id}/`)).body;
    expect(state.last_hits).toBe(1);
    expect(state.last_run_at).not.toBeNull();

    // A new server on the same database takes over: nothing lost, nothing read twice.
    await ingest(alphaKey, [flow(4444), flow(4444), flow(4444)]);
    const other = await buildApp({ db: t.db, config: t.config, version: 'test', logger: false });
    try {
      await scheduledRun(saved.id, other);
    } finally {
      await other.close();
    }
    await scheduledRun(saved.id);
    expect((await runNow(alice, saved.id)).body.hits).toBe(0);
    const reports = await reportsOf(alice, saved.id);
    expect(reports.map((r) => r.hit_count)).toEqual([3, 1, 2]);
    const ids = reports.flatMap((r) => r.first_hits.map((hit) => hit.id));
    expect(new Set(ids).size).toBe(6);

    // Beta's look-alike was never searched: the saved search belongs to alpha.
    expect(await reportsOf(bob, saved.id)).toEqual([]);
    expect((await bob.get(`/api/search/reports/${report!.id}/`)).status).toBe(404);
  });

  it('reads a batch that committed after a later run, and reads again what a failed run left', async () => {
    const saved = await save(alice, { name: 'Late', query: 'dest_port: 7777', type: ['network'], enabled: true });
    await ingest(alphaKey, [flow(7777)]);
    expect((await runNow(alice, saved.id)).body.hits).toBe(1);
    // A batch received just after the saved search was enabled whose transaction committed only now.
    await ingest(alphaKey, [flow(7777), flow(7777)]);
    await t.db.query(sql`
      UPDATE ingest_batches SET received_at = (SELECT enabled_at + interval '1 millisecond' FROM saved_searches
                                               WHERE id = ${saved.id})
      WHERE id = (SELECT max(id) FROM ingest_batches WHERE company_id = ${alpha})`);
    expect((await runNow(alice, saved.id)).body.hits).toBe(2);

    // A run that fails before it commits leaves no report and no ledger row: the next one reads the same events.
    await ingest(alphaKey, [flow(7777)]);
    await t.db.query(sql`ALTER TABLE search_reports ADD CONSTRAINT test_no_reports CHECK (hit_count < 0) NOT VALID`);
    try {
      expect((await runNow(alice, saved.id)).status).toBe(500);
    } finally {
      await t.db.query(sql`ALTER TABLE search_reports DROP CONSTRAINT test_no_reports`);
    }
    expect((await runNow(alice, saved.id)).body).toEqual({ hits: 1, reports: 1, alerts: 0 });
    expect((await reportsOf(alice, saved.id)).map((r) => r.hit_count)).toEqual([1, 2, 1]);
    const counted = await alice.post<{ count: number }>('/api/search/reports/count/', { saved_search_id: saved.id });
    expect(counted.body.count).toBe(3);
  });

  it('forgets ledger rows no run can need: batches before its look-back, batches retention deleted', async () => {
    const saved = await save(alice, { name: 'Ledger', query: 'dest_port: 6666', type: ['network'], enabled: true });
    await ingest(alphaKey, [flow(6666)]);
    await ingest(alphaKey, [flow(6666)]);
    expect((await runNow(alice, saved.id)).body.hits).toBe(2);
    const ledger = async () =>
      (
        await t.db.query<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM saved_search_batches WHERE saved_search_id = ${saved.id}`,
        )
      ).rows[0]!.n;
    expect(await ledger()).toBe(2);
    await pruneReadBatches(t.db);
    expect(await ledger()).toBe(2);
    // Three days on: the batches were received and read long before the look-back of the saved search.
    const batchIds = (
      await t.db.query<{ batch_id: number }>(
        sql`SELECT batch_id FROM saved_search_batches WHERE saved_search_id = ${saved.id}`,
      )
    ).rows.map((r) => Number(r.batch_id));
    await t.db.query(sql`UPDATE ingest_batches SET received_at = received_at - interval '3 days'
                         WHERE company_id = ${alpha} AND id = ANY(${batchIds}::int8[])`);
    await t.db.query(sql`UPDATE saved_search_batches SET read_at = read_at - interval '3 days'
                         WHERE saved_search_id = ${saved.id}`);
    await t.db.query(sql`UPDATE saved_searches SET enabled_at = enabled_at - interval '3 days',
                         batches_from = now() WHERE id = ${saved.id}`);
    await pruneReadBatches(t.db);
    expect(await ledger()).toBe(0);
    // Nothing is read again: the look-back starts after those batches.
    expect((await runNow(alice, saved.id)).body.hits).toBe(0);

    // A batch retention has deleted is forgotten too, once its reading is a day old.
    await ingest(alphaKey, [flow(6666)]);
    expect((await runNow(alice, saved.id)).body.hits).toBe(1);
    await t.db.query(sql`DELETE FROM ingest_batches WHERE company_id = ${alpha}
                         AND id = (SELECT batch_id FROM saved_search_batches WHERE saved_search_id = ${saved.id})`);
    await pruneReadBatches(t.db);
    expect(await ledger()).toBe(1);
    await t.db.query(sql`UPDATE saved_search_batches SET read_at = read_at - interval '2 days'
                         WHERE saved_search_id = ${saved.id}`);
    await pruneReadBatches(t.db);
    expect(await ledger()).toBe(0);
    expect((await runNow(alice, saved.id)).body.hits).toBe(0);
  });

  it('reads at most so many batches a run, and the next run, due at once, reads on', async () => {
    const saved = await save(alice, { name: 'Backlog', query: 'dest_port: 5555', type: ['network'], enabled: true });
    for (let i = 0; i < 5; i++) await ingest(alphaKey, [flow(5555)]);
    const runs = new SavedSearchRuns(t.db, t.app.pipeline, { warn: () => undefined }, { batchesPerRun: 2 });
    const first = await runs.run(saved.id, 'now');
    expect(first).toEqual({ hits: 2, reports: 1, alerts: 0, more: true });
    const due = await t.db.query<{ due: boolean }>(
      sql`SELECT next_run_at <= now() AS due FROM saved_searches WHERE id = ${saved.id}`,
    );
    expect(due.rows[0]!.due).toBe(true);
    expect(await runs.run(saved.id, 'scheduled')).toEqual({ hits: 2, reports: 1, alerts: 0, more: true });
    expect(await runs.run(saved.id, 'scheduled')).toEqual({ hits: 1, reports: 1, alerts: 0, more: false });
    // Read to the end: the next run waits for its interval.
    expect(await runs.run(saved.id, 'scheduled')).toBeNull();
    expect((await reportsOf(alice, saved.id)).reduce((n, r) => n + r.hit_count, 0)).toBe(5);
  });

  it('writes one report per company for a saved search shared with companies, each seen by its company', async () => {
    const saved = await save(sam, {
      name: 'Port 8081',
      query: 'dest_port: 8081',
      type: ['network'],
      enabled: true,
      sharing: 'companies',
      company_ids: [alpha, beta],
    });
    await ingest(alphaKey, [flow(8081)]);
    await ingest(betaKey, [flow(8081), flow(8081)]);
    expect((await runNow(sam, saved.id)).body).toEqual({ hits: 3, reports: 2, alerts: 0 });

    const all = await reportsOf(sam, saved.id);
    expect(all.map((r) => [r.company_id, r.hit_count]).sort()).toEqual(
      [
        [alpha, 1],
        [beta, 2],
      ].sort(),
    );
    expect(all.every((r) => r.alert_id === null)).toBe(true);
    expect((await reportsOf(alice, saved.id)).map((r) => r.company_id)).toEqual([alpha]);
    expect((await reportsOf(bob, saved.id)).map((r) => r.company_id)).toEqual([beta]);
    const betaReport = all.find((r) => r.company_id === beta)!;
    expect((await alice.get(`/api/search/reports/${betaReport.id}/`)).status).toBe(404);
    for (const report of await reportsOf(bob, saved.id)) {
      expect(report.first_hits.every((hit) => hit.company_id === beta)).toBe(true);
    }
  });

  it('skips alerts in runs, and refuses to run a saved search that is not enabled', async () => {
    const alertsOnly = await save(alice, { name: 'Alerts', query: '', type: ['alerts'], enabled: true, alert });
    await ingest(alphaKey, [flow(4444)]);
    expect((await runNow(alice, alertsOnly.id)).body).toEqual({ hits: 0, reports: 0, alerts: 0 });

    const off = await save(alice, { name: 'Off', query: '', type: ['network'] });
    const refused = await runNow(alice, off.id);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('enabled');

    // Enabled later, it reads only what arrives after that.
    const on = await alice.patch<SavedSearch>(`/api/search/saved/${off.id}/`, { enabled: true });
    expect(on.body.enabled).toBe(true);
    expect((await runNow(alice, off.id)).body.hits).toBe(0);
    await ingest(alphaKey, [flow(9999)]);
    expect((await runNow(alice, off.id)).body).toEqual({ hits: 1, reports: 1, alerts: 0 });

    // Its reports stay when it is deleted, naming it.
    expect((await alice.delete(`/api/search/saved/${off.id}/`)).status).toBe(204);
    const kept = await alice.post<ListAnswer<SearchReport>>('/api/search/reports/check/', { search: 'Off' });
    expect(kept.body.results.some((r) => r.saved_search_name === 'Off' && r.saved_search_id === null)).toBe(true);
  });
});
