import type { Alert, ListAnswer } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { buildDetection, raise } from './helpers/alert-factories';
import type { TestClient } from './helpers/http-client';
import { listEndpointGroups } from './helpers/list-endpoints';
import { buildCompany, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Text PostgreSQL cannot hold — U+0000, or half of a surrogate pair — sent in a JSON body or a
 * query string is refused with 400 and field errors naming where it was, on every route, before
 * it reaches a handler, the database or a message.
 */

type Errors = { errors: Record<string, string[]>; detail?: string };

let t: TestApp;
let admin: TestClient;
let companyId: number;
let alertId: number;

beforeAll(async () => {
  t = await startTestApp();
  companyId = await buildCompany(t.db, 'Delta Freight');
  admin = await t.admin();
  const raised = await raise(t.db, [buildDetection(companyId, { host: 'ws-17' })]);
  alertId = raised.created[0]!;
});
afterAll(async () => {
  await t?.close();
});

/** The admin's session and anti-forgery token, for requests sent without the test client. */
const sessionHeaders = () => ({
  cookie: `csrf_token=${admin.cookie('csrf_token')}; vigil_session=${admin.cookie('vigil_session')}`,
  'x-csrftoken': admin.cookie('csrf_token')!,
});

describe('U+0000 in a JSON body or a query is a 400 naming the field, never a 500', () => {
  const lists = listEndpointGroups();

  it('finds every list of the contract', () => {
    expect(lists.length).toBeGreaterThanOrEqual(18);
  });

  for (const { name, group } of lists) {
    it(`refuses it in the search of ${name} (list and count)`, async () => {
      for (const endpoint of [group.list, group.count]) {
        const answer = await admin.post<Errors>(endpoint.path, { search: 'evil\u0000.exe' });
        expect(answer.status, endpoint.path).toBe(400);
        expect(answer.body.errors.search?.[0]).toMatch(/NUL character/);
      }
    });
  }

  it('refuses it in a query string, by the parameter', async () => {
    const answer = await admin.post<Errors>('/api/units/check/?ordering=name%00', {});
    expect(answer.status).toBe(400);
    expect(answer.body.errors.ordering?.[0]).toMatch(/NUL character/);
  });

  it('refuses it in an alert comment and keeps nothing', async () => {
    const answer = await admin.post<Errors>(`/api/alerts/${alertId}/comments/`, { body: 'looks fine\u0000' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.body?.[0]).toMatch(/NUL character/);
    const { rows } = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM alert_comments WHERE alert_id = ${alertId}`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('refuses it in an ingest key name', async () => {
    const answer = await admin.post<Errors>('/api/ingest/tokens/', { name: 'sensor\u0000', company_id: companyId });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.name?.[0]).toMatch(/NUL character/);
  });

  it('names the path at any depth, arrays included', async () => {
    const answer = await admin.post<Errors>('/api/alerts/bulk/', {
      filter: { search: 'a', tags: ['ok', 'b\u0000'] },
      action: { action: 'add_tags', tags: ['\u0000'] },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors).sort()).toEqual(['action.tags.0', 'filter.tags.1']);
  });

  it('names a key holding NUL without echoing the NUL', async () => {
    const answer = await admin.request<Errors>('POST', '/api/units/check/', {
      rawBody: '{"na\\u0000me": "x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual(['na\\x00me']);
  });

  it('refuses half of a surrogate pair the same way', async () => {
    const answer = await admin.request<Errors>('POST', `/api/alerts/${alertId}/comments/`, {
      rawBody: '{"body": "a\\ud800b"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.body?.[0]).toMatch(/surrogate/);
    const search = await admin.request<Errors>('POST', '/api/alerts/check/', {
      rawBody: '{"search": "\\udc00"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(search.status).toBe(400);
    expect(search.body.errors.search).toBeDefined();
  });

  it('answers malformed JSON holding a raw NUL without the NUL', async () => {
    const response = await fetch(`${t.url}/api/units/check/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sessionHeaders() },
      body: '{"search": \u0000}',
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('\u0000');
    expect(text).not.toContain('\\u0000');
  });

  it('still takes the same text without the NUL', async () => {
    const answer = await admin.post<ListAnswer<Alert>>('/api/alerts/check/', { search: 'ws-17' });
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(1);
  });
});
