// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../lib/http';
import { expectEvery } from '../test/answers';
import { redirectsToSignIn, setUpRequestHandling } from './request-handling';

describe('the 401 redirect to sign-in', () => {
  it('happens on console pages, not on sign-in screens nor under /headless-chrome', () => {
    expectEvery(redirectsToSignIn, ['/alerts', '/', '/headless-chromeX']);
    expectEvery(
      redirectsToSignIn,
      [
        '/login',
        '/activate/abc',
        '/headless-chrome',
        '/headless-chrome/complex-reports/7',
        '/headless-chrome/documentation',
      ],
      false,
    );
  });

  describe('through the HTTP client', () => {
    const fetchMock = vi.fn<typeof fetch>();
    let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

    beforeEach(() => {
      vi.stubGlobal('fetch', fetchMock);
      fetchMock.mockReset();
      fetchMock.mockImplementation(
        async () =>
          new Response(JSON.stringify({ detail: 'Authentication credentials were not provided.' }), {
            status: 401,
            headers: { 'Content-Type': 'application/json' },
          }),
      );
      assign = vi.fn<(url: string | URL) => void>();
      vi.spyOn(window.location, 'assign').mockImplementation(assign);
      setUpRequestHandling();
    });

    afterEach(() => {
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    });

    it('leaves a headless-browser page where it is', async () => {
      window.history.replaceState(null, '', '/headless-chrome/complex-reports/7');
      await http.get('/api/users/me/').catch(() => null);
      expect(assign).not.toHaveBeenCalled();
    });

    it('sends a console page to sign in', async () => {
      window.history.replaceState(null, '', '/alerts?page=2');
      await http.get('/api/alerts/').catch(() => null);
      expect(assign).toHaveBeenCalledWith('/login');
    });
  });
});
