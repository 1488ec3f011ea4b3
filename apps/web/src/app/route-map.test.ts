import { describe, expect, it } from 'vitest';
import { routeMap } from './route-map';

describe('route map permissions', () => {
  // The graph API (GET /api/graph/, POST /api/graph/expand/) answers whoever may view alerts; the
  // page asks the same, so nobody sees a page whose every call is refused.
  it('the graph page asks for alerts view, like its API', () => {
    const graph = routeMap.flatMap((section) => section.routes).find((route) => route.id === 'graph');
    expect(graph?.permission).toEqual({ action: 'view', subject: 'alerts' });
  });
});
