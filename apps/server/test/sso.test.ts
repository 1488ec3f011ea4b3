import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SsoPasswordResetAnswer, SsoProvidersAnswer, SsoSettings } from '@vigil/contract';
import Provider, { type ClientMetadata, type JWK } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { ssoAuthorizeUrlFor } from '../src/modules/sso/sso.service';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

// ── A real OpenID provider (oidc-provider) on a loopback port ──────────────────────────────────

interface TestAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

/** Accounts of the test provider by subject; tests add and change them. */
const accounts = new Map<string, TestAccount>();

/** A cookie jar for the provider's own cookies (paths ignored: the names do not clash). */
class ProviderBrowser {
  private readonly cookies = new Map<string, string>();

  async fetch(url: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const index = pair.indexOf('=');
      if (index < 0) continue;
      const value = pair.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, index));
      else this.cookies.set(pair.slice(0, index), value);
    }
    await response.arrayBuffer();
    return response;
  }
}

interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

/**
 * Starts oidc-provider with the given clients. Sign-in needs no browser: the interaction page
 * `POST /interaction/<uid>/login` with `account=<sub>` logs that account in, and
 * `POST /interaction/<uid>/abort` cancels as a user would. Consent is implied for every client.
 */
async function startProvider(clients: ClientMetadata[]): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys: [{ ...(key as JWK), kid: 'test-key', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['test-provider-cookie-key'] },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account }) };
    },
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([^/]+)\/(login|abort)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      void handle(req, res);
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const finish =
        match[2] === 'login'
          ? { login: { accountId: new URLSearchParams(body).get('account') ?? '' } }
          : { error: 'access_denied', error_description: 'The user cancelled.' };
      provider.interactionFinished(req, res, finish, { mergeWithLastSubmission: false }).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ── The application, companies, users ─────────────────────────────────────────────────────────

let t: TestApp;
let op: TestProvider;
let admin: TestClient;
let alpha: number;
let beta: number;
let gamma: number;
let alphaRole: number;
let alice: { id: number };
let carol: { id: number };
let alphaAdmin: TestClient;
let gammaUser: TestClient;

const ALPHA_SECRET = 'alpha-client-secret-0123456789abcdef';
const BETA_SECRET = 'beta-client-secret-0123456789abcdef';

async function setEmail(userId: number, email: string) {
  await t.db.query(sql`UPDATE users SET email = ${email} WHERE id = ${userId}`);
}

beforeAll(async () => {
  t = await startTestApp();
  const redirect = `${t.url}/api/sso/callback/`;
  op = await startProvider([
    {
      client_id: 'vigil-alpha',
      client_secret: ALPHA_SECRET,
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: 'vigil-beta',
      client_secret: BETA_SECRET,
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ]);
  admin = await t.admin();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  gamma = await buildCompany(t.db, 'Gamma Energy');
  const role = async (companyId: number, name: string) =>
    (
      await t.db.query<{ id: number }>(sql`
        INSERT INTO roles (company_id, name, permissions)
        VALUES (${companyId}, ${name}, '[{"basename": "alerts", "actions": ["view"]}]'::jsonb) RETURNING id`)
    ).rows[0]!.id;
  alphaRole = await role(alpha, 'Analyst');

  alice = await buildUser(t.db, { username: 'alice', companyId: alpha, permissions: [] });
  await setEmail(alice.id, 'Alice@Alpha.test');
  carol = await buildUser(t.db, { username: 'carol', companyId: alpha });
  await setEmail(carol.id, 'carol@alpha.test');
  await t.db.query(sql`UPDATE users SET archived_at = now() WHERE id = ${carol.id}`);
  const bob = await buildUser(t.db, { username: 'bob', companyId: beta });
  await setEmail(bob.id, 'bob@beta.test');
  await buildUser(t.db, {
    username: 'alpha-admin',
    companyId: alpha,
    permissions: [
      { basename: 'companies', actions: ['view', 'change'] },
      { basename: 'users', actions: ['view', 'reset_sso_password'] },
    ],
  });
  alphaAdmin = t.client();
  await alphaAdmin.signIn('alpha-admin', 'User-password-1');
  await buildUser(t.db, {
    username: 'gina',
    companyId: gamma,
    permissions: [{ basename: 'companies', actions: ['view'] }],
  });
  gammaUser = t.client();
  await gammaUser.signIn('gina', 'User-password-1');

  accounts.set('alice-sub', { email: 'alice@alpha.test', email_verified: true });
  accounts.set('bob-sub', { email: 'bob@beta.test', email_verified: true });
  accounts.set('carol-sub', { email: 'carol@alpha.test', email_verified: true });
  accounts.set('newbie-sub', { email: 'New.Person@alpha.test', given_name: 'New', family_name: 'Person' });
  accounts.set('stranger-sub', { email: 'stranger@beta.test', email_verified: true });
  accounts.set('unverified-sub', { email: 'alice@alpha.test', email_verified: false });
  accounts.set('no-mail-sub', {});
  accounts.set('alice-twin-sub', { email: 'alice@alpha.test', email_verified: true });

  const configured = await admin.put(`/api/companies/${alpha}/sso/`, {
    issuer: op.issuer,
    client_id: 'vigil-alpha',
    client_secret: ALPHA_SECRET,
  });
  expect(configured.status).toBe(200);
  expect(
    (
      await admin.put(`/api/companies/${beta}/sso/`, {
        issuer: op.issuer,
        client_id: 'vigil-beta',
        client_secret: BETA_SECRET,
      })
    ).status,
  ).toBe(200);
});

afterAll(async () => {
  await t?.close();
  await op?.close();
});

/** Walks a sign-in: Vigil → provider → the account logs in → Vigil's callback. */
async function providerRoundTrip(
  client: TestClient,
  companyId: number,
  account: string,
  options: { next?: string; abort?: boolean } = {},
): Promise<{ callbackUrl: string }> {
  const next = options.next === undefined ? '' : `&next=${encodeURIComponent(options.next)}`;
  const start = await client.get(`/api/sso/login/?company=${companyId}${next}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location') ?? '');
  expect(authorize.origin).toBe(op.issuer);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('nonce')).toBeTruthy();
  expect(authorize.searchParams.get('state')).toBeTruthy();
  const browser = new ProviderBrowser();
  const toInteraction = await browser.fetch(authorize.href);
  expect(toInteraction.status).toBe(303);
  const interaction = new URL(toInteraction.headers.get('location') ?? '', op.issuer);
  const finished = await browser.fetch(`${interaction.href}/${options.abort ? 'abort' : 'login'}`, {
    method: 'POST',
    body: new URLSearchParams({ account }),
  });
  expect(finished.status).toBe(303);
  const resumed = await browser.fetch(new URL(finished.headers.get('location') ?? '', op.issuer).href);
  expect(resumed.status).toBe(303);
  const callbackUrl = new URL(resumed.headers.get('location') ?? '', op.issuer).href;
  expect(callbackUrl.startsWith(`${t.url}/api/sso/callback/?`)).toBe(true);
  return { callbackUrl };
}

/** A whole sign-in; answers where Vigil finally sends the browser. */
async function ssoSignIn(
  client: TestClient,
  companyId: number,
  account: string,
  options: { next?: string; abort?: boolean } = {},
): Promise<string> {
  const { callbackUrl } = await providerRoundTrip(client, companyId, account, options);
  const landed = await client.get(callbackUrl);
  expect(landed.status).toBe(302);
  return landed.headers.get('location') ?? '';
}

interface AuthState {
  authenticated: boolean;
  user: { id: number; username: string; company_id: number; two_factor_passed: boolean } | null;
}

// ── Settings ─────────────────────────────────────────────────────────────────────────────────

describe('SSO settings', () => {
  it('answers defaults for a company without settings, with the redirect URI to register', async () => {
    const answer = await admin.get<SsoSettings>(`/api/companies/${gamma}/sso/`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      company_id: gamma,
      configured: false,
      enabled: false,
      issuer: null,
      client_secret_set: false,
      scopes: 'openid email profile',
      redirect_uri: `${t.url}/api/sso/callback/`,
    });
  });

  it('never answers the client secret, only that one is set', async () => {
    const answer = await admin.get<SsoSettings>(`/api/companies/${alpha}/sso/`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ configured: true, enabled: true, issuer: op.issuer, client_secret_set: true });
    expect(answer.body).not.toHaveProperty('client_secret');
    expect(JSON.stringify(answer.body)).not.toContain(ALPHA_SECRET);
    const logs = await t.db.query<{ changes: string }>(
      sql`SELECT changes::text AS changes FROM system_logs WHERE object_type = 'company_sso'`,
    );
    expect(logs.rows.length).toBeGreaterThanOrEqual(2);
    for (const row of logs.rows) {
      expect(row.changes).not.toContain(ALPHA_SECRET);
      expect(row.changes).not.toContain(BETA_SECRET);
    }
  });

  it('keeps the secret and other fields when a change leaves them out', async () => {
    const answer = await admin.put<SsoSettings>(`/api/companies/${alpha}/sso/`, {
      scopes: '  openid   email profile ',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      client_id: 'vigil-alpha',
      client_secret_set: true,
      scopes: 'openid email profile',
    });
    const { rows } = await t.db.query<{ client_secret: string }>(
      sql`SELECT client_secret FROM company_sso WHERE company_id = ${alpha}`,
    );
    expect(rows[0]?.client_secret).toBe(ALPHA_SECRET);
  });

  it('refuses bad settings with field errors and changes nothing', async () => {
    const missing = await admin.put<{ errors: Record<string, string[]> }>(`/api/companies/${gamma}/sso/`, {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['client_id', 'issuer']);

    const bad = await admin.put<{ errors: Record<string, string[]> }>(`/api/companies/${gamma}/sso/`, {
      issuer: 'http://idp.example.com',
      client_id: 'has space',
      scopes: 'email profile',
      password_change_url: 'javascript:alert(1)',
      enabled: 'yes',
      surprise: 1,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(
      ['client_id', 'enabled', 'issuer', 'password_change_url', 'scopes', 'surprise'].sort(),
    );
    expect(bad.body.errors.issuer?.[0]).toMatch(/https/);
    expect(bad.body.errors.scopes?.[0]).toMatch(/openid/);

    const otherRole = await admin.put<{ errors: Record<string, string[]> }>(`/api/companies/${gamma}/sso/`, {
      issuer: 'https://idp.example.com',
      client_id: 'gamma',
      default_role_id: alphaRole,
    });
    expect(otherRole.status).toBe(400);
    expect(otherRole.body.errors.default_role_id).toEqual(['Choose a role of this company.']);

    const jitWithoutRole = await admin.put<{ errors: Record<string, string[]> }>(`/api/companies/${gamma}/sso/`, {
      issuer: 'https://idp.example.com',
      client_id: 'gamma',
      jit_create: true,
    });
    expect(jitWithoutRole.status).toBe(400);
    expect(Object.keys(jitWithoutRole.body.errors)).toEqual(['default_role_id']);

    const { rows } = await t.db.query(sql`SELECT 1 FROM company_sso WHERE company_id = ${gamma}`);
    expect(rows).toHaveLength(0);
  });

  it("answers 404 for another company's settings and 403 without the permission", async () => {
    expect((await alphaAdmin.get(`/api/companies/${beta}/sso/`)).status).toBe(404);
    expect((await alphaAdmin.put(`/api/companies/${beta}/sso/`, { enabled: false })).status).toBe(404);
    expect((await alphaAdmin.get(`/api/companies/${alpha}/sso/`)).status).toBe(200);
    expect((await gammaUser.get(`/api/companies/${gamma}/sso/`)).status).toBe(200);
    expect((await gammaUser.put(`/api/companies/${gamma}/sso/`, { enabled: false })).status).toBe(403);
    expect((await t.client().get(`/api/companies/${alpha}/sso/`)).status).toBe(401);
    expect((await alphaAdmin.get('/api/companies/not-a-number/sso/')).status).toBe(404);
  });
});

// ── Before sign-in ───────────────────────────────────────────────────────────────────────────

describe('SSO discovery for the login screen and the current user', () => {
  it('offers single sign-on to users of a company that uses it, by username or e-mail', async () => {
    const client = t.client();
    const expected = `/api/sso/login/?company=${alpha}`;
    for (const username of ['alice', 'ALICE', 'alice@alpha.test']) {
      const answer = await client.get<SsoProvidersAnswer>(
        `/api/sso/providers/?username=${encodeURIComponent(username)}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ sso_authorize_url: expected });
    }
  });

  it('answers null alike for unknown users, archived users and companies without SSO', async () => {
    const client = t.client();
    for (const username of ['nobody-here', 'carol', 'gina']) {
      const answer = await client.get<SsoProvidersAnswer>(`/api/sso/providers/?username=${username}`);
      expect(answer.body).toEqual({ sso_authorize_url: null });
    }
    const missing = await client.get<{ errors: Record<string, string[]> }>('/api/sso/providers/');
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['username']);
  });

  it('computes sso_authorize_url for the current user', async () => {
    expect(await ssoAuthorizeUrlFor(t.db, t.config, alice.id)).toBe(`/api/sso/login/?company=${alpha}`);
    expect(await ssoAuthorizeUrlFor(t.db, { publicUrl: 'https://vigil.example' }, alice.id)).toBe(
      `https://vigil.example/api/sso/login/?company=${alpha}`,
    );
    const { rows } = await t.db.query<{ id: number }>(sql`SELECT id FROM users WHERE username = 'gina'`);
    expect(await ssoAuthorizeUrlFor(t.db, t.config, rows[0]!.id)).toBeNull();
    expect(await ssoAuthorizeUrlFor(t.db, t.config, carol.id)).toBeNull();
  });
});

// ── Sign-in ──────────────────────────────────────────────────────────────────────────────────

describe('SSO sign-in', () => {
  it('signs an existing user in by e-mail, as the password sign-in does', async () => {
    const client = t.client();
    expect(await ssoSignIn(client, alpha, 'alice-sub')).toBe('/');
    expect(client.cookie('vigil_session')).toBeTruthy();
    expect(client.cookie('csrf_token')).toBeTruthy();
    expect(client.cookie('vigil_sso_state')).toBeUndefined();
    const auth = await client.get<AuthState>('/api/auth/');
    expect(auth.body).toMatchObject({
      authenticated: true,
      user: { id: alice.id, username: 'alice', company_id: alpha, two_factor_passed: true },
    });
    // The session works for unsafe requests too (csrf cookie set like the password sign-in).
    expect((await client.delete('/api/auth/')).status).toBe(200);

    const { rows } = await t.db.query<{ sso_subject: string | null }>(
      sql`SELECT sso_subject FROM users WHERE id = ${alice.id}`,
    );
    expect(rows[0]?.sso_subject).toBe('alice-sub');
    const logins = await t.db.query<{ changes: { via?: { after: unknown } } }>(sql`
      SELECT changes FROM system_logs WHERE action = 'login' AND object_type = 'user' AND object_id = ${String(alice.id)}`);
    expect(logins.rows.some((r) => r.changes.via?.after === 'sso')).toBe(true);
  });

  it('keeps recognising a linked user by its subject when its e-mail changes at the provider', async () => {
    accounts.set('alice-sub', { email: 'alice.renamed@alpha.test', email_verified: true });
    try {
      const client = t.client();
      expect(await ssoSignIn(client, alpha, 'alice-sub')).toBe('/');
      expect((await client.get<AuthState>('/api/auth/')).body.user?.id).toBe(alice.id);
    } finally {
      accounts.set('alice-sub', { email: 'alice@alpha.test', email_verified: true });
    }
  });

  it('refuses another identity with the e-mail of an already linked user', async () => {
    const client = t.client();
    expect(await ssoSignIn(client, alpha, 'alice-twin-sub')).toBe('/login?sso_error=subject_mismatch');
    expect(client.cookie('vigil_session')).toBeUndefined();
  });

  it('returns to a path of the console saved at the start, never to another site', async () => {
    expect(await ssoSignIn(t.client(), alpha, 'alice-sub', { next: '/alerts/?severity=high#top' })).toBe(
      '/alerts/?severity=high#top',
    );
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      expect(await ssoSignIn(t.client(), alpha, 'alice-sub', { next })).toBe('/');
    }
  });

  it('creates an unknown user with the default role when the company asks for it', async () => {
    const refused = t.client();
    expect(await ssoSignIn(refused, alpha, 'newbie-sub')).toBe('/login?sso_error=no_account');
    expect(refused.cookie('vigil_session')).toBeUndefined();

    const enabled = await admin.put(`/api/companies/${alpha}/sso/`, { jit_create: true, default_role_id: alphaRole });
    expect(enabled.status).toBe(200);
    const client = t.client();
    expect(await ssoSignIn(client, alpha, 'newbie-sub')).toBe('/');
    const auth = await client.get<AuthState>('/api/auth/');
    expect(auth.body).toMatchObject({
      authenticated: true,
      user: { username: 'new.person@alpha.test', company_id: alpha },
    });
    const { rows } = await t.db.query<{ email: string; first_name: string; sso_subject: string; roles: number[] }>(sql`
      SELECT u.email, u.first_name, u.sso_subject,
             (SELECT array_agg(role_id) FROM user_roles WHERE user_id = u.id) AS roles
      FROM users u WHERE u.id = ${auth.body.user!.id}`);
    expect(rows[0]).toEqual({
      email: 'New.Person@alpha.test',
      first_name: 'New',
      sso_subject: 'newbie-sub',
      roles: [alphaRole],
    });
    const created = await t.db.query(sql`
      SELECT 1 FROM system_logs WHERE action = 'create' AND object_type = 'user' AND object_id = ${String(auth.body.user!.id)}`);
    expect(created.rows).toHaveLength(1);
  });

  it('refuses an unknown user when the company does not create users', async () => {
    const client = t.client();
    expect(await ssoSignIn(client, beta, 'stranger-sub')).toBe('/login?sso_error=no_account');
    expect(client.cookie('vigil_session')).toBeUndefined();
    const { rows } = await t.db.query(sql`SELECT 1 FROM users WHERE lower(email) = 'stranger@beta.test'`);
    expect(rows).toHaveLength(0);
  });

  it("never signs in a user through another company's provider, even with user creation on", async () => {
    // Alpha creates users at first sign-in (previous test); bob@beta.test is a Beta user.
    const client = t.client();
    expect(await ssoSignIn(client, alpha, 'bob-sub')).toBe('/login?sso_error=no_account');
    expect(client.cookie('vigil_session')).toBeUndefined();
    expect(await ssoSignIn(client, beta, 'alice-sub')).toBe('/login?sso_error=no_account');
    const { rows } = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM users WHERE lower(email) IN ('bob@beta.test', 'alice@alpha.test')`,
    );
    expect(rows[0]?.n).toBe(2);
  });

  it('refuses archived users, unverified e-mail and identities without e-mail', async () => {
    expect(await ssoSignIn(t.client(), alpha, 'carol-sub')).toBe('/login?sso_error=account_disabled');
    expect(await ssoSignIn(t.client(), alpha, 'unverified-sub')).toBe('/login?sso_error=email_missing');
    expect(await ssoSignIn(t.client(), alpha, 'no-mail-sub')).toBe('/login?sso_error=email_missing');
  });

  it('reports a sign-in the user cancelled at the provider', async () => {
    const client = t.client();
    expect(await ssoSignIn(client, alpha, 'alice-sub', { abort: true })).toBe('/login?sso_error=denied');
    expect(client.cookie('vigil_session')).toBeUndefined();
  });

  it('refuses a state that does not match, comes from another browser, or was used already', async () => {
    const tampered = t.client();
    const { callbackUrl } = await providerRoundTrip(tampered, alpha, 'alice-sub');
    const url = new URL(callbackUrl);
    url.searchParams.set('state', `${url.searchParams.get('state')}x`);
    const answer = await tampered.get(url.href);
    expect(answer.headers.get('location')).toBe('/login?sso_error=invalid_state');
    expect(tampered.cookie('vigil_session')).toBeUndefined();

    const starter = t.client();
    const started = await providerRoundTrip(starter, alpha, 'alice-sub');
    const otherBrowser = t.client();
    const stolen = await otherBrowser.get(started.callbackUrl);
    expect(stolen.headers.get('location')).toBe('/login?sso_error=invalid_state');
    expect(otherBrowser.cookie('vigil_session')).toBeUndefined();

    const replayer = t.client();
    const first = await providerRoundTrip(replayer, alpha, 'alice-sub');
    const stateCookie = replayer.cookie('vigil_sso_state')!;
    expect((await replayer.get(first.callbackUrl)).headers.get('location')).toBe('/');
    const replay = t.client();
    replay.setCookie('vigil_sso_state', stateCookie);
    expect((await replay.get(first.callbackUrl)).headers.get('location')).toBe('/login?sso_error=invalid_state');
    expect(replay.cookie('vigil_session')).toBeUndefined();
  });

  it('refuses to start for a company without enabled single sign-on', async () => {
    const client = t.client();
    for (const query of [`company=${gamma}`, 'company=999999', 'company=abc', '']) {
      const answer = await client.get(`/api/sso/login/?${query}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe('/login?sso_error=unavailable');
    }
    expect((await admin.put(`/api/companies/${beta}/sso/`, { enabled: false })).status).toBe(200);
    const disabled = await client.get(`/api/sso/login/?company=${beta}`);
    expect(disabled.headers.get('location')).toBe('/login?sso_error=unavailable');
    expect(
      (await client.get<SsoProvidersAnswer>('/api/sso/providers/?username=bob')).body.sso_authorize_url,
    ).toBeNull();
    expect((await admin.put(`/api/companies/${beta}/sso/`, { enabled: true })).status).toBe(200);
  });
});

// ── Passwords at the provider ────────────────────────────────────────────────────────────────

describe('SSO passwords', () => {
  it("answers the provider's password page for a signed-in SSO user", async () => {
    const client = t.client();
    await ssoSignIn(client, alpha, 'alice-sub');
    const fallback = await client.post<{ url: string }>('/api/users/sso/password/change/');
    expect(fallback.status).toBe(200);
    expect(fallback.body).toEqual({ url: `${op.issuer}/account` });

    await admin.put(`/api/companies/${alpha}/sso/`, { password_change_url: 'https://id.alpha.test/password' });
    const configured = await client.post<{ url: string }>('/api/users/sso/password/change/');
    expect(configured.body).toEqual({ url: 'https://id.alpha.test/password' });

    const noSso = await gammaUser.post<{ errors: Record<string, string[]> }>('/api/users/sso/password/change/');
    expect(noSso.status).toBe(400);
    expect(noSso.body.errors.non_field_errors).toEqual(['Your company does not use single sign-on.']);
    expect((await t.client().post('/api/users/sso/password/change/')).status).toBe(401);
  });

  it("resets another user's SSO link: signs it out, unlinks it, audits it", async () => {
    const client = t.client();
    await ssoSignIn(client, alpha, 'alice-sub');
    expect((await client.get<AuthState>('/api/auth/')).body.authenticated).toBe(true);

    const reset = await alphaAdmin.post<SsoPasswordResetAnswer>(`/api/users/${alice.id}/sso/password/reset/`);
    expect(reset.status).toBe(200);
    expect(reset.body.unlinked).toBe(true);
    expect(reset.body.sessions_ended).toBeGreaterThanOrEqual(1);
    expect(reset.body.url).toBe('https://id.alpha.test/password');
    expect(reset.body.messages[0]?.type).toBe('success');
    expect((await client.get<AuthState>('/api/auth/')).body.authenticated).toBe(false);
    const { rows } = await t.db.query<{ sso_subject: string | null }>(
      sql`SELECT sso_subject FROM users WHERE id = ${alice.id}`,
    );
    expect(rows[0]?.sso_subject).toBeNull();
    const audit = await t.db.query(sql`
      SELECT 1 FROM system_logs WHERE action = 'reset_sso_password' AND object_id = ${String(alice.id)}`);
    expect(audit.rows).toHaveLength(1);

    // Unlinked, the user maps by e-mail again; so does a re-created identity at the provider.
    expect(await ssoSignIn(t.client(), alpha, 'alice-twin-sub')).toBe('/');
    const relinked = await t.db.query<{ sso_subject: string | null }>(
      sql`SELECT sso_subject FROM users WHERE id = ${alice.id}`,
    );
    expect(relinked.rows[0]?.sso_subject).toBe('alice-twin-sub');
  });

  it("answers 404 for another company's user, 403 without the permission, 400 without SSO", async () => {
    const { rows } = await t.db.query<{ id: number; username: string }>(
      sql`SELECT id, username FROM users WHERE username IN ('bob', 'gina', 'alice')`,
    );
    const id = (name: string) => rows.find((r) => r.username === name)!.id;
    expect((await alphaAdmin.post(`/api/users/${id('bob')}/sso/password/reset/`)).status).toBe(404);
    expect((await alphaAdmin.post('/api/users/999999/sso/password/reset/')).status).toBe(404);
    expect((await gammaUser.post(`/api/users/${id('alice')}/sso/password/reset/`)).status).toBe(403);
    const noSso = await admin.post<{ errors: Record<string, string[]> }>(
      `/api/users/${id('gina')}/sso/password/reset/`,
    );
    expect(noSso.status).toBe(400);
  });

  it('unlinks the users of a company whose provider changes', async () => {
    await ssoSignIn(t.client(), alpha, 'alice-sub');
    const before = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${alpha} AND sso_subject IS NOT NULL`,
    );
    expect(before.rows[0]?.n).toBeGreaterThan(0);
    const moved = await admin.put(`/api/companies/${alpha}/sso/`, { issuer: 'https://login.alpha.test' });
    expect(moved.status).toBe(200);
    const after = await t.db.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${alpha} AND sso_subject IS NOT NULL`,
    );
    expect(after.rows[0]?.n).toBe(0);
    expect((await admin.delete(`/api/companies/${alpha}/sso/`)).status).toBe(204);
    expect((await admin.get<SsoSettings>(`/api/companies/${alpha}/sso/`)).body.configured).toBe(false);
  });
});
