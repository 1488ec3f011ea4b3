import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-web-'));
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>Vigil Managed XDR</title><div id="root"></div>',
  );
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("app")');
  t = await startTestApp({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('health', () => {
  it('reports the database and the migration version', async () => {
    const answer = await t.client().get<{ status: string; database: Record<string, unknown> }>('/api/health/');
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('ok');
    expect(answer.body.database).toEqual({
      reachable: true,
      kind: process.env.TEST_DATABASE_URL ? 'server' : 'embedded',
      migration: expect.stringMatching(/^\d{14}$/),
    });
  });
});

describe('serving the web app', () => {
  it('serves the app shell for deep links so /alerts opens the console', async () => {
    for (const route of ['/', '/alerts', '/settings/users/12']) {
      const answer = await t.client().get<string>(route);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/text\/html/);
      expect(answer.body).toContain('Vigil Managed XDR');
    }
  });

  it('opens the activation screen of the app when a browser follows the link in the mail', async () => {
    const page = await t.client().request<string>('GET', '/api/activate/some-token/', {
      headers: { accept: 'text/html,application/xhtml+xml', 'x-requested-with': '' },
    });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('Vigil Managed XDR');
    const api = await t.client().get<{ detail: string }>('/api/activate/some-token/');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('serves built assets with long caching and the shell without', async () => {
    const asset = await t.client().get('/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    expect((await t.client().get('/alerts')).headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the security headers: no page of the console can be framed, sniffed or load foreign code', async () => {
    const pages = [
      await t.client().get('/'),
      await t.client().get('/alerts'),
      await t.client().get('/settings/users/12'),
      await t.client().request('GET', '/api/activate/some-token/', {
        headers: { accept: 'text/html', 'x-requested-with': '' },
      }),
    ];
    for (const page of pages) {
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
    }
    const asset = await t.client().get('/assets/app-1234.js');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    const api = await t.client().get('/api/health/');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    // The API reference keeps its own, stricter policy.
    const docs = await t.client().get('/api/docs/');
    expect(docs.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
  });

  it('answers JSON 404 for unknown API paths and missing files', async () => {
    for (const route of ['/api/unknown/', '/api/alerts/999/nothing', '/api']) {
      const answer = await t.client().get<{ detail: string }>(route);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/application\/json/);
      expect(answer.body.detail).toBe('Not found.');
    }
    expect((await t.client().get('/assets/missing.js')).status).toBe(404);
  });
});

describe('requests', () => {
  it('gives every answer a request id, keeping a sane one from the caller', async () => {
    const fresh = await t.client().get('/api/health/');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.client().get('/api/health/', { 'x-request-id': 'trace-42' });
    expect(kept.headers.get('x-request-id')).toBe('trace-42');
    const replaced = await t.client().get('/api/health/', { 'x-request-id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});

describe('sign-in and anti-forgery', () => {
  it('sets a readable csrf_token cookie on GET /api/auth/', async () => {
    const client = t.client();
    const answer = await client.get<{ authenticated: boolean }>('/api/auth/');
    expect(answer.body).toEqual({ authenticated: false, user: null, impersonator: null });
    expect(client.cookie('csrf_token')).toBeTruthy();
  });

  it('refuses unsafe requests without a matching X-CSRFToken', async () => {
    const client = await t.admin();
    client.csrf = false;
    const missing = await client.post('/api/companies/', { name: 'No token' });
    expect(missing.status).toBe(403);
    const wrong = await client.request('POST', '/api/companies/', {
      body: { name: 'Wrong token' },
      headers: { 'x-csrftoken': 'forged' },
    });
    expect(wrong.status).toBe(403);
    expect((await client.delete('/api/auth/')).status).toBe(403);
  });

  it('signs in, keeps the session, and signs out', async () => {
    const client = t.client();
    const bad = await client.post<{ errors: Record<string, string[]> }>('/api/auth/', {
      username: 'admin',
      password: 'wrong',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.non_field_errors).toEqual(['The username or password is not correct.']);
    const unknown = await client.post<{ errors: Record<string, string[]> }>('/api/auth/', {
      username: 'ghost',
      password: 'wrong',
    });
    expect(unknown.body).toEqual(bad.body);
    const empty = await client.post<{ errors: Record<string, string[]> }>('/api/auth/', {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['password', 'username']);

    const ok = await client.post<{ authenticated: boolean; user: { username: string } }>('/api/auth/', {
      username: 'ADMIN',
      password: 'Admin-password-1',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user.username).toBe('admin');
    const cookie = ok.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect((await client.get<{ authenticated: boolean }>('/api/auth/')).body.authenticated).toBe(true);

    const session = client.cookie('vigil_session')!;
    const out = await client.delete<{ logout_url: string }>('/api/auth/');
    expect(out.body).toEqual({ logout_url: '/login' });
    // The old session token no longer works even if someone kept it.
    client.setCookie('vigil_session', session);
    expect((await client.get<{ authenticated: boolean }>('/api/auth/')).body.authenticated).toBe(false);
    expect((await client.post('/api/system_logs/check/', {})).status).toBe(401);
  });
});
