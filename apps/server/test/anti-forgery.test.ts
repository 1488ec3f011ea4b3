import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from './helpers/http-client';
import { startTestApp, type TestApp } from './helpers/test-app';

/**
 * Anti-forgery: the server hands out one secret in two readable cookies (`csrf_token` and
 * `XSRF-TOKEN`) and accepts it back in either header (`X-CSRFToken` or `X-XSRF-TOKEN`).
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A signed-in client that sends anti-forgery headers only when told to. */
async function signedIn(): Promise<TestClient> {
  const client = await t.admin();
  client.csrf = false;
  return client;
}

/** A harmless unsafe request that needs a signed-in caller: a profile change. */
function change(client: TestClient, headers: Record<string, string>) {
  return client.request('PUT', '/api/users/me/', { body: { first_name: 'Ada' }, headers });
}

describe('anti-forgery cookie pairs', () => {
  it('sets XSRF-TOKEN with the same value as csrf_token', async () => {
    const client = t.client();
    await client.get('/api/auth/');
    expect(client.cookie('csrf_token')).toBeTruthy();
    expect(client.cookie('XSRF-TOKEN')).toBe(client.cookie('csrf_token'));
    // Signing in issues a fresh secret; both cookies carry it.
    const admin = await t.admin();
    expect(admin.cookie('XSRF-TOKEN')).toBe(admin.cookie('csrf_token'));
  });

  it('gives XSRF-TOKEN to a browser that only has csrf_token', async () => {
    const client = await signedIn();
    const secret = client.cookie('csrf_token')!;
    client.setCookie('XSRF-TOKEN', '');
    const answer = await client.get('/api/users/me/');
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie().some((line) => line.startsWith(`XSRF-TOKEN=${secret};`))).toBe(true);
  });

  it('accepts X-CSRFToken matching csrf_token', async () => {
    const client = await signedIn();
    const answer = await change(client, { 'x-csrftoken': client.cookie('csrf_token')! });
    expect(answer.status).toBe(200);
  });

  it('accepts X-XSRF-TOKEN matching XSRF-TOKEN', async () => {
    const client = await signedIn();
    const answer = await change(client, { 'x-xsrf-token': client.cookie('XSRF-TOKEN')! });
    expect(answer.status).toBe(200);
  });

  it('accepts both headers when both match', async () => {
    const client = await signedIn();
    const secret = client.cookie('csrf_token')!;
    const answer = await change(client, { 'x-csrftoken': secret, 'x-xsrf-token': secret });
    expect(answer.status).toBe(200);
  });

  it('refuses a mismatch in either pair with 403', async () => {
    const client = await signedIn();
    const secret = client.cookie('csrf_token')!;
    const cases: Record<string, string>[] = [
      {},
      { 'x-csrftoken': 'forged' },
      { 'x-xsrf-token': 'forged' },
      // One right header does not excuse a wrong one.
      { 'x-csrftoken': secret, 'x-xsrf-token': 'forged' },
      { 'x-csrftoken': 'forged', 'x-xsrf-token': secret },
    ];
    for (const headers of cases) {
      const answer = await change(client, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.body).toMatchObject({ code: 'csrf_failed' });
    }
  });

  it('refuses X-XSRF-TOKEN when the XSRF-TOKEN cookie is missing', async () => {
    const client = await signedIn();
    const secret = client.cookie('csrf_token')!;
    client.setCookie('XSRF-TOKEN', '');
    const answer = await change(client, { 'x-xsrf-token': secret });
    expect(answer.status).toBe(403);
  });
});
