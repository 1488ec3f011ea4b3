import type { Alert, Incident, IncidentDetail, IncidentTask } from '@vigil/contract';
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

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  admin = await t.admin();
  const user = await buildUser(t.db, {
    username: 'alpha-responder',
    companyId: alpha,
    permissions: [
      { basename: 'alerts', actions: ['view', 'change', 'bulk'] },
      { basename: 'incidents', actions: ['view', 'add', 'change'] },
    ],
  });
  analystId = user.id;
  analyst = t.client();
  await analyst.signIn(user.username, user.password);
});
afterAll(async () => {
  await t?.close();
});

describe('incident grouping', () => {
  it('groups new alerts of the same host into one open incident when the company asks for it', async () => {
    const off = await analyst.get<{ enabled: boolean }>(`/api/incidents/grouping/${alpha}/`);
    expect(off.body.enabled).toBe(false);
    const put = await analyst.put(`/api/incidents/grouping/${alpha}/`, {
      enabled: true,
      by_host: true,
      by_user: true,
      window_minutes: 30,
    });
    expect(put.status).toBe(200);
    expect((await analyst.put(`/api/incidents/grouping/${beta}/`, put.body)).status).toBe(404);

    const first = await raise(t.db, [
      buildDetection(alpha, { ruleId: '3001', host: 'WS-01', severity: 'medium' }),
      buildDetection(alpha, { ruleId: '3002', host: 'ws-01', severity: 'high' }),
      buildDetection(alpha, { ruleId: '3003', host: 'ws-02' }),
      buildDetection(alpha, { ruleId: '3004', user: 'j.doe' }),
      buildDetection(beta, { ruleId: '3001', host: 'ws-01' }),
    ]);
    expect(first.live.filter((e) => e.type === 'incident.created').map((e) => [e.company_id, e.count])).toEqual([
      [alpha, 3],
    ]);
    const later = await raise(t.db, [buildDetection(alpha, { ruleId: '3005', host: 'ws-01', severity: 'critical' })]);
    const list = await analyst.post<{ results: Incident[]; count: number }>('/api/incidents/check/', {});
    expect(list.body.count).toBe(3);
    const host = list.body.results.find((i) => i.group_key === 'host:ws-01')!;
    expect(host.alert_count).toBe(3);
    expect(host.severity).toBe('critical');
    const detail = await analyst.get<IncidentDetail>(`/api/incidents/${host.id}/`);
    expect(detail.body.alert_ids).toContain(later.created[0]);
    expect(detail.body.observables).toEqual(
      expect.arrayContaining([
        { kind: 'host', value: 'WS-01' },
        { kind: 'host', value: 'ws-01' },
      ]),
    );
    expect(detail.body.timeline.map((e) => e.kind)).toEqual([
      'created',
      'alert_linked',
      'alert_linked',
      'alert_linked',
    ]);
    const betaAlert = await admin.post<{ results: Alert[] }>('/api/alerts/check/', { company_id: beta });
    expect(betaAlert.body.results[0]?.incident_id).toBeNull();
  });
});

describe('incidents by hand', () => {
  it('creates an incident from alerts of one company and hides it from other tenants', async () => {
    const { created } = await raise(t.db, [
      buildDetection(alpha, { ruleId: '4001', ip: '10.1.1.1', severity: 'low' }),
      buildDetection(alpha, { ruleId: '4002', ip: '10.1.1.2', severity: 'high' }),
    ]);
    const betaRaised = await raise(t.db, [buildDetection(beta, { ruleId: '4003', ip: '10.9.9.9' })]);
    const mixed = await admin.post('/api/incidents/', {
      title: 'Mixed',
      alert_ids: [created[0], betaRaised.created[0]],
    });
    expect(mixed.status).toBe(400);
    const foreign = await analyst.post('/api/incidents/', { title: 'Theirs', alert_ids: betaRaised.created });
    expect(foreign.status).toBe(400);
    const made = await analyst.post<IncidentDetail>('/api/incidents/', {
      title: 'Lateral movement',
      description: '## Scope\n- two hosts',
      severity: 'high',
      alert_ids: created,
    });
    expect(made.status).toBe(201);
    expect(made.body.alert_ids.sort()).toEqual([...created].sort());
    expect(made.body.observables).toHaveLength(2);

    const betaIncident = await admin.post<IncidentDetail>('/api/incidents/', {
      title: 'Beta case',
      alert_ids: betaRaised.created,
    });
    expect((await analyst.get(`/api/incidents/${betaIncident.body.id}/`)).status).toBe(404);
    expect((await analyst.patch(`/api/incidents/${betaIncident.body.id}/`, { status: 'closed' })).status).toBe(404);
    expect((await analyst.post(`/api/incidents/${betaIncident.body.id}/comments/`, { body: 'x' })).status).toBe(404);
    expect((await analyst.post(`/api/incidents/${betaIncident.body.id}/tasks/`, { title: 'x' })).status).toBe(404);
    const listed = await analyst.post<{ results: Incident[] }>('/api/incidents/check/', {});
    expect(listed.body.results.every((i) => i.company_id === alpha)).toBe(true);
    const bulk = await analyst.post<{ updated: number }>('/api/alerts/bulk/', {
      ids: created,
      action: { action: 'add_to_incident', incident_id: betaIncident.body.id },
    });
    expect(bulk.status).toBe(400);
  });

  it('keeps SLA timers, a timeline of changes and comments, and tasks', async () => {
    const { created } = await raise(t.db, [buildDetection(alpha, { ruleId: '5001', ip: '10.2.2.2' })]);
    const made = await analyst.post<IncidentDetail>('/api/incidents/', {
      title: 'Ransomware note',
      severity: 'critical',
      alert_ids: created,
    });
    const id = made.body.id;
    expect(made.body.sla.acknowledge).toMatchObject({ target_minutes: 15, breached: false, done_at: null });
    // Opened two hours ago: the 15-minute acknowledgement target has passed.
    await t.db.query(sql`UPDATE incidents SET created_at = now() - interval '2 hours' WHERE id = ${id}`);
    const late = await analyst.get<IncidentDetail>(`/api/incidents/${id}/`);
    expect(late.body.sla.acknowledge.breached).toBe(true);
    expect(late.body.sla.resolve.breached).toBe(false);

    const ack = await analyst.patch<Incident>(`/api/incidents/${id}/`, {
      status: 'investigating',
      assignee_id: analystId,
    });
    expect(ack.status).toBe(200);
    expect(ack.body.acknowledged_at).not.toBeNull();
    expect(ack.body.sla.acknowledge.done_at).toBe(ack.body.acknowledged_at);
    const comment = await analyst.post<IncidentDetail>(`/api/incidents/${id}/comments/`, {
      body: 'Isolated **ws-07**; see [ticket](https://example.com/1).',
    });
    expect(comment.status).toBe(201);
    const task = await analyst.post<IncidentTask>(`/api/incidents/${id}/tasks/`, {
      title: 'Collect memory image',
      due_at: '2026-12-01T12:00:00Z',
    });
    expect(task.status).toBe(201);
    const done = await analyst.patch<IncidentTask>(`/api/incidents/${id}/tasks/${task.body.id}/`, { status: 'done' });
    expect(done.body.status).toBe('done');
    const resolved = await analyst.patch<Incident>(`/api/incidents/${id}/`, { status: 'resolved' });
    expect(resolved.body.resolved_at).not.toBeNull();
    expect(resolved.body.sla.resolve.breached).toBe(false);
    const detail = await analyst.get<IncidentDetail>(`/api/incidents/${id}/`);
    expect(detail.body.timeline.map((e) => e.kind)).toEqual([
      'created',
      'alert_linked',
      'status',
      'assignment',
      'comment',
      'task',
      'status',
    ]);
    expect(detail.body.timeline.find((e) => e.kind === 'comment')?.body).toBe(
      'Isolated **ws-07**; see [ticket](https://example.com/1).',
    );
    expect(detail.body.tasks).toHaveLength(1);
    const audit = await t.db.query<{ action: string }>(
      sql`SELECT action FROM system_logs WHERE object_type = 'incident' AND object_id = ${String(id)} ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'update', 'comment', 'update']);
  });
});
