import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/**
 * The graph page and the graph API ask for the same permission: viewing alerts. A graph is
 * rooted in an alert (an incident's graph and events also need their own view permission,
 * checked by the API), so a user who may view alerts opens the page and its calls answer.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('graph permission', () => {
  // The console's route map asks the same of the graph page (apps/web/src/app/route-map.test.ts).
  it('every graph API route asks for alerts view', () => {
    const api = t.app.guardedRoutes.filter((route) => route.url.startsWith('/api/graph/'));
    expect(api.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
      'GET /api/graph/',
      'POST /api/graph/expand/',
    ]);
    for (const route of api) {
      expect(route.permission).toEqual({ basename: 'alerts', action: 'view' });
    }
  });

  it('a user who may view incidents but not alerts is refused by the API, as the page is hidden from them', async () => {
    const company = await buildCompany(t.db, 'Graph permission');
    await buildUser(t.db, {
      username: 'incidents-only',
      companyId: company,
      permissions: [{ basename: 'incidents', actions: ['view'] }],
    });
    const client = t.client();
    await client.signIn('incidents-only', 'User-password-1');
    expect((await client.get('/api/graph/?alert=1')).status).toBe(403);
  });
});
