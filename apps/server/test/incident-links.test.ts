import type { Alert, IncidentDetail } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let alpha: number;
let beta: number;
let analyst: TestClient;
let reader: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  const responder = await buildUser(t.db, {
    username: 'alpha-responder',
    companyId: alpha,
    permissions: [
      { basename: 'alerts', actions: ['view', 'change'] },
      { basename: 'incidents', actions: ['view', 'add', 'change'] },
    ],
  });
  analyst = t.client();
  await analyst.signIn(responder.username, responder.password);
  const viewer = await buildUser(t.db, {
    username: 'alpha-viewer',
    companyId: alpha,
    permissions: [{ basename: 'incidents', actions: ['view'] }],
  });
  reader = t.client();
  await reader.signIn(viewer.username, viewer.password);
});
afterAll(async () => {
  await t?.close();
});

async function incidentOf(ruleBase: number, count: number): Promise<{ id: number; alerts: number[] }> {
  const { created } = await raise(
    t.db,
    Array.from({ length: count }, (_, i) =>
      buildDetection(alpha, { ruleId: String(ruleBase + i), ip: `10.7.0.${i + 1}` }),
    ),
  );
  const made = await analyst.post<IncidentDetail>('/api/incidents/', { title: `Case ${ruleBase}`, alert_ids: created });
  expect(made.status).toBe(201);
  return { id: made.body.id, alerts: created };
}

describe('unlinking alerts from an incident', () => {
  it('sends alerts back to the queue, records it in the timeline and the audit log', async () => {
    const { id, alerts } = await incidentOf(7100, 3);
    const [first, second, third] = alerts as [number, number, number];
    const patched = await analyst.patch(`/api/incidents/${id}/`, { remove_alert_ids: [second] });
    expect(patched.status).toBe(200);
    expect((patched.body as { alert_count: number }).alert_count).toBe(2);
    const detail = await analyst.get<IncidentDetail>(`/api/incidents/${id}/`);
    expect(detail.body.alert_ids).toEqual([first, third]);
    expect(detail.body.observables.map((o) => o.value)).not.toContain('10.7.0.2');
    expect(detail.body.timeline.filter((e) => e.kind === 'alert_unlinked').map((e) => e.data.alert_id)).toEqual([
      second,
    ]);
    const alert = await analyst.get<Alert>(`/api/alerts/${second}/`);
    expect(alert.body.incident_id).toBeNull();
    const audit = await t.db.query<{ changes: Record<string, { before: unknown; after: unknown }> }>(
      sql`SELECT changes FROM system_logs WHERE object_type = 'incident' AND object_id = ${String(id)}
          AND action = 'update' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]?.changes.unlinked_alert_ids?.after).toEqual([second]);
    expect(audit.rows[0]?.changes.alert_count).toEqual({ before: 3, after: 2 });
  });

  it('leaves alerts of other incidents alone and refuses to link and unlink the same alert', async () => {
    const one = await incidentOf(7200, 1);
    const two = await incidentOf(7300, 1);
    const untouched = await analyst.patch(`/api/incidents/${one.id}/`, { remove_alert_ids: two.alerts });
    expect(untouched.status).toBe(200);
    const other = await analyst.get<IncidentDetail>(`/api/incidents/${two.id}/`);
    expect(other.body.alert_ids).toEqual(two.alerts);
    const both = await analyst.patch<{ errors: Record<string, string[]> }>(`/api/incidents/${one.id}/`, {
      add_alert_ids: two.alerts,
      remove_alert_ids: two.alerts,
    });
    expect(both.status).toBe(400);
    expect(both.body.errors.remove_alert_ids).toBeDefined();
  });

  it("refuses to link alerts that are not the incident company's", async () => {
    const { id } = await incidentOf(7400, 1);
    const foreign = await raise(t.db, [buildDetection(beta, { ruleId: '7401', ip: '10.8.0.1' })]);
    const refused = await analyst.patch<{ errors: Record<string, string[]> }>(`/api/incidents/${id}/`, {
      add_alert_ids: foreign.created,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.add_alert_ids).toBeDefined();
    const missing = await analyst.patch(`/api/incidents/${id}/`, { add_alert_ids: [987654321] });
    expect(missing.status).toBe(400);
  });

  it('needs the change permission', async () => {
    const { id, alerts } = await incidentOf(7500, 1);
    expect((await reader.patch(`/api/incidents/${id}/`, { remove_alert_ids: alerts })).status).toBe(403);
  });
});

describe('the incident workflow', () => {
  it('moves forward, reopens only into investigation, never back to open, and names what is allowed', async () => {
    const { id } = await incidentOf(7800, 1);
    const move = (status: string) =>
      analyst.patch<{ status: string; errors: Record<string, string[]> }>(`/api/incidents/${id}/`, { status });
    expect((await move('open')).status).toBe(200);
    expect((await move('contained')).status).toBe(200);
    expect((await move('investigating')).status).toBe(200);
    const back = await move('open');
    expect(back.status).toBe(400);
    expect(back.body.errors.status?.[0]).toBe(
      'An incident that is investigating can move to: contained, resolved, closed.',
    );
    expect((await move('closed')).status).toBe(200);
    expect((await move('resolved')).status).toBe(400);
    expect((await move('investigating')).status).toBe(200);
    const detail = await analyst.get<IncidentDetail>(`/api/incidents/${id}/`);
    expect(detail.body.status).toBe('investigating');
    const steps = detail.body.timeline.filter((e) => e.kind === 'status').map((e) => e.data);
    expect(steps).toEqual([
      { before: 'open', after: 'contained' },
      { before: 'contained', after: 'investigating' },
      { before: 'investigating', after: 'closed' },
      { before: 'closed', after: 'investigating' },
    ]);
  });
});

describe('a summary with a change of status', () => {
  it('keeps the resolution summary in the status entry of the timeline', async () => {
    const { id } = await incidentOf(7600, 1);
    const closed = await analyst.patch(`/api/incidents/${id}/`, {
      status: 'resolved',
      summary: 'False alarm: **backup job** of the finance share.',
    });
    expect(closed.status).toBe(200);
    const detail = await analyst.get<IncidentDetail>(`/api/incidents/${id}/`);
    const entry = detail.body.timeline.find((e) => e.kind === 'status');
    expect(entry?.body).toBe('False alarm: **backup job** of the finance share.');
    expect(entry?.data).toEqual({ before: 'open', after: 'resolved' });
  });

  it('refuses a summary without a change of status, and an overlong one', async () => {
    const { id } = await incidentOf(7700, 1);
    const alone = await analyst.patch<{ errors: Record<string, string[]> }>(`/api/incidents/${id}/`, {
      summary: 'Nothing changes',
    });
    expect(alone.status).toBe(400);
    expect(alone.body.errors.summary).toBeDefined();
    const long = await analyst.patch<{ errors: Record<string, string[]> }>(`/api/incidents/${id}/`, {
      status: 'closed',
      summary: 'x'.repeat(5001),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors.summary).toBeDefined();
    const detail = await analyst.get<IncidentDetail>(`/api/incidents/${id}/`);
    expect(detail.body.status).toBe('open');
  });
});
