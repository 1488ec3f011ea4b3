import type { Alert, AlertDetail } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let admin: TestClient;
let analyst: TestClient;
let analystId: number;

type List = { results: Alert[]; count: number };

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  admin = await t.admin();
  const user = await buildUser(t.db, {
    username: 'alpha-analyst',
    companyId: alpha,
    permissions: [{ basename: 'alerts', actions: ['view', 'change', 'bulk'] }],
  });
  analystId = user.id;
  analyst = t.client();
  await analyst.signIn(user.username, user.password);
});
afterAll(async () => {
  await t?.close();
});

describe('raising alerts', () => {
  it('raises one alert per key and folds repeats within the window into it', async () => {
    const at = new Date(Date.now() - 30 * 60_000);
    const first = await raise(t.db, [
      buildDetection(alpha, { ruleId: '1001', ip: '10.0.0.5', at }),
      buildDetection(alpha, { ruleId: '1001', ip: '10.0.0.5', at: new Date(at.getTime() + 1000) }),
      buildDetection(alpha, { ruleId: '1002', ip: '10.0.0.5', at, severity: 'high' }),
    ]);
    expect(first.created).toHaveLength(2);
    expect(first.updated).toEqual([]);
    const second = await raise(t.db, [buildDetection(alpha, { ruleId: '1001', ip: '10.0.0.5' })]);
    expect(second.created).toEqual([]);
    expect(second.updated).toEqual([first.created[0]]);
    const detail = await admin.get<AlertDetail>(`/api/alerts/${first.created[0]}/`);
    expect(detail.status).toBe(200);
    expect(detail.body.count).toBe(3);
    expect(detail.body.events).toHaveLength(3);
    expect(detail.body.history.map((h) => h.action)).toContain('raise');
    expect(detail.body.observables).toEqual([{ kind: 'ip', value: '10.0.0.5', role: 'src_ip' }]);
    const audit = await t.db.query<{ changes: { alerts: { after: number } } }>(
      sql`SELECT changes FROM system_logs WHERE action = 'deduplicate' AND company_id = ${alpha}`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(second.live).toEqual([{ type: 'alert.updated', company_id: alpha, ids: second.updated, count: 1 }]);
  });

  it('raises a new alert when the open one is closed, in another company, or outside the window', async () => {
    const at = new Date(Date.now() - 10 * 60_000);
    const { created } = await raise(t.db, [buildDetection(alpha, { ruleId: '1003', ip: '10.0.0.9', at })]);
    await t.db.query(sql`UPDATE alerts SET status = 'closed', resolution = 'benign' WHERE id = ${created[0]}`);
    const again = await raise(t.db, [buildDetection(alpha, { ruleId: '1003', ip: '10.0.0.9' })]);
    expect(again.created).toHaveLength(1);
    const other = await raise(t.db, [buildDetection(beta, { ruleId: '1003', ip: '10.0.0.9' })]);
    expect(other.created).toHaveLength(1);
    const later = await raise(t.db, [
      buildDetection(alpha, { ruleId: '1003', ip: '10.0.0.9', at: new Date(Date.now() + 3 * 3600_000) }),
    ]);
    expect(later.created).toHaveLength(1);
  });

  it('raises one alert when two batches with the same key commit at once', async () => {
    const results = await Promise.all([
      raise(t.db, [buildDetection(alpha, { ruleId: '1005', ip: '10.0.0.11' })]),
      raise(t.db, [buildDetection(alpha, { ruleId: '1005', ip: '10.0.0.11' })]),
    ]);
    expect(results.flatMap((r) => r.created)).toHaveLength(1);
    expect(results.flatMap((r) => r.updated)).toHaveLength(1);
  });

  it('keeps at most 100 linked events while counting every detection', async () => {
    const batch = Array.from({ length: 130 }, () => buildDetection(alpha, { ruleId: '1004', ip: '10.0.0.7' }));
    const { created } = await raise(t.db, batch);
    await raise(t.db, [buildDetection(alpha, { ruleId: '1004', ip: '10.0.0.7' })]);
    const detail = await admin.get<AlertDetail>(`/api/alerts/${created[0]}/`);
    expect(detail.body.count).toBe(131);
    expect(detail.body.events).toHaveLength(100);
  });
});

describe('alert API', () => {
  it('lists with filters and orderings, only the caller’s companies', async () => {
    await raise(t.db, [
      buildDetection(beta, { ruleId: '2001', ip: '192.0.2.1', severity: 'critical', title: 'Beta only' }),
    ]);
    const all = await admin.post<List>('/api/alerts/check/?ordering=-severity', {});
    expect(all.status).toBe(200);
    expect(all.body.results[0]?.severity).toBe('critical');
    const mine = await analyst.post<List>('/api/alerts/check/', {});
    expect(mine.body.count).toBeGreaterThan(0);
    expect(mine.body.results.every((a) => a.company_id === alpha)).toBe(true);
    const high = await analyst.post<List>('/api/alerts/check/', { severity: ['high'], status: 'new' });
    expect(high.body.results.map((a) => a.severity)).toEqual(['high']);
    const search = await analyst.post<List>('/api/alerts/check/', { search: '10.0.0.7' });
    expect(search.body.count).toBe(1);
    const hidden = await analyst.post<List>('/api/alerts/check/', { search: 'Beta only' });
    expect(hidden.body.count).toBe(0);
    const count = await analyst.post<{ count: number }>('/api/alerts/count/', { unassigned: true });
    expect(count.body.count).toBe(mine.body.count);
    const bad = await analyst.post('/api/alerts/check/', { severity: 'severe' });
    expect(bad.status).toBe(400);
    // Rows re-read by id (a page refreshing what someone else changed): never another company's.
    const betaAlert = all.body.results.find((a) => a.company_id === beta)!;
    const byId = await analyst.post<List>('/api/alerts/check/', { id: [mine.body.results[0]!.id, betaAlert.id] });
    expect(byId.body.results.map((a) => a.id)).toEqual([mine.body.results[0]!.id]);
    const badId = await analyst.post<{ errors: Record<string, string[]> }>('/api/alerts/check/', { id: ['x'] });
    expect(badId.status).toBe(400);
  });

  it('answers 404 for another company’s alert on every object route', async () => {
    const betaAlert = (await admin.post<List>('/api/alerts/check/', { company_id: beta })).body.results[0]!;
    expect((await analyst.get(`/api/alerts/${betaAlert.id}/`)).status).toBe(404);
    expect((await analyst.patch(`/api/alerts/${betaAlert.id}/`, { status: 'in_progress' })).status).toBe(404);
    expect((await analyst.post(`/api/alerts/${betaAlert.id}/comments/`, { body: 'x' })).status).toBe(404);
    const bulk = await analyst.post<{ updated: number }>('/api/alerts/bulk/', {
      ids: [betaAlert.id],
      action: { action: 'add_tags', tags: ['x'] },
    });
    expect(bulk.body.updated).toBe(0);
  });

  it('changes status, resolution, assignee, severity and tags, audited, and takes comments', async () => {
    const alert = (await analyst.post<List>('/api/alerts/check/', { severity: 'high' })).body.results[0]!;
    const missing = await analyst.patch(`/api/alerts/${alert.id}/`, { status: 'resolved' });
    expect(missing.status).toBe(400);
    const changed = await analyst.patch<Alert>(`/api/alerts/${alert.id}/`, {
      status: 'resolved',
      resolution: 'true_positive',
      assignee_id: analystId,
      severity: 'critical',
      tags: ['phishing'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'resolved', resolution: 'true_positive', score: 95 });
    const comment = await analyst.post(`/api/alerts/${alert.id}/comments/`, { body: '**Checked** with the owner.' });
    expect(comment.status).toBe(201);
    const detail = await analyst.get<AlertDetail>(`/api/alerts/${alert.id}/`);
    expect(detail.body.comments[0]?.body).toBe('**Checked** with the owner.');
    const update = detail.body.history.find((h) => h.action === 'update');
    expect(update?.changes.status).toEqual({ before: 'new', after: 'resolved' });
    const reopened = await analyst.patch<Alert>(`/api/alerts/${alert.id}/`, { status: 'in_progress' });
    expect(reopened.body.resolution).toBeNull();
    const stranger = await analyst.patch(`/api/alerts/${alert.id}/`, { assignee_id: 999999 });
    expect(stranger.status).toBe(400);
  });

  it('applies bulk actions by ids and by filter in the caller’s scope, with one audit record', async () => {
    const ids = (await analyst.post<List>('/api/alerts/check/', {})).body.results.map((a) => a.id);
    const tagged = await analyst.post<{ updated: number }>('/api/alerts/bulk/', {
      ids,
      action: { action: 'add_tags', tags: ['triage'] },
    });
    expect(tagged.body.updated).toBe(ids.length);
    const closed = await analyst.post<{ updated: number }>('/api/alerts/bulk/', {
      filter: { tags: 'triage', status: ['new', 'in_progress'] },
      action: { action: 'set_status', status: 'closed', resolution: 'false_positive' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.updated).toBeGreaterThan(0);
    const open = await analyst.post<{ count: number }>('/api/alerts/count/', { status: ['new', 'in_progress'] });
    expect(open.body.count).toBe(0);
    const betaOpen = await admin.post<{ count: number }>('/api/alerts/count/', { company_id: beta, status: 'new' });
    expect(betaOpen.body.count).toBeGreaterThan(0);
    const logs = await t.db.query<{ company_id: number; changes: { count: { after: number } } }>(
      sql`SELECT company_id, changes FROM system_logs WHERE action = 'bulk_update' ORDER BY id`,
    );
    expect(logs.rows).toHaveLength(2);
    expect(logs.rows.every((r) => Number(r.company_id) === alpha)).toBe(true);
    expect(logs.rows[1]?.changes.count.after).toBe(closed.body.updated);
    const detail = await analyst.get<AlertDetail>(`/api/alerts/${ids[0]}/`);
    expect(detail.body.history.filter((h) => h.action === 'bulk_update')).toHaveLength(2);
    const removed = await analyst.post<{ updated: number }>('/api/alerts/bulk/', {
      ids,
      action: { action: 'remove_tags', tags: ['triage'] },
    });
    expect(removed.body.updated).toBe(ids.length);
    // Alerts go only to a user who works on their company, as they do one at a time (PATCH).
    const toStranger = await admin.post<{ updated: number }>('/api/alerts/bulk/', {
      filter: { company_id: beta },
      action: { action: 'assign', assignee_id: analystId },
    });
    expect(toStranger.body.updated).toBe(0);
    const assigned = await admin.post<{ updated: number }>('/api/alerts/bulk/', {
      filter: {},
      action: { action: 'assign', assignee_id: analystId },
    });
    expect(assigned.body.updated).toBeGreaterThan(0);
    const byCompany = await t.db.query<{ company_id: number; n: number }>(
      sql`SELECT company_id, count(*)::int AS n FROM alerts WHERE assignee_id = ${analystId} GROUP BY company_id`,
    );
    expect(byCompany.rows.map((r) => Number(r.company_id))).toEqual([alpha]);
    expect(
      (await analyst.post('/api/alerts/bulk/', { ids, filter: {}, action: { action: 'add_tags', tags: ['x'] } }))
        .status,
    ).toBe(400);
  });

  it('refuses bulk without the bulk permission', async () => {
    const user = await buildUser(t.db, {
      username: 'alpha-no-bulk',
      companyId: alpha,
      permissions: [{ basename: 'alerts', actions: ['view', 'change'] }],
    });
    const client = t.client();
    await client.signIn(user.username, user.password);
    const answer = await client.post('/api/alerts/bulk/', { ids: [1], action: { action: 'add_tags', tags: ['x'] } });
    expect(answer.status).toBe(403);
  });
});
