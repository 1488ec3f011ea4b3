import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { actionsOf, endpointEntries, findResourceKind, resourceKinds, type AuthState } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import type { GuardedRoute } from '../src/http/actor';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/**
 * The permission matrix: every API route that names a permission is tried by a user who holds
 * exactly that permission (allowed: never 401/403), by a user who holds every other permission
 * but that one (403), and — for routes on one object — by the allowed user on another company's
 * object (404). List routes never show another company's rows. A session that is only half signed
 * in (before its one-time code, or with an expired password) reaches nothing but the reduced app.
 * New routes join automatically.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let provider: number;
const fixtures: Record<'alpha' | 'beta', Record<string, number | string>> = { alpha: {}, beta: {} };

/** Routes open to anyone: each must be meant to be public. */
const expectedPublic = new Set([
  'GET /api/health/',
  'GET /api/auth/',
  'POST /api/auth/',
  'GET /api/activate/:token/',
  'POST /api/activate/:token/',
  'GET /api/sso/providers/',
  'GET /api/sso/login/',
  'GET /api/sso/callback/',
  // Sensors post events with an ingest key (Authorization: Bearer), checked by the routes themselves.
  'POST /api/ingest/network/',
  'POST /api/ingest/endpoint/',
  'POST /api/ingest/mail/',
  // A sensor fetches its company's Suricata ruleset with its ingest key.
  'GET /api/rules/suricata/export/',
  // The API reference, generated from the endpoint declarations.
  'GET /api/openapi.json',
  'GET /api/docs/',
]);

/**
 * The reduced app: what a session answers before its one-time code is given (and while its
 * password is expired) — signing in and out, the code step, the current user, activation links
 * and single sign-on — and what it answers only while the password is expired: the password change.
 */
const reducedApp = new Set([
  'GET /api/auth/',
  'POST /api/auth/',
  'DELETE /api/auth/',
  'POST /api/auth/otp/',
  'DELETE /api/auth/impersonate/',
  'GET /api/users/me/',
  'GET /api/activate/:token/',
  'POST /api/activate/:token/',
  'GET /api/sso/providers/',
  'GET /api/sso/login/',
  'GET /api/sso/callback/',
]);
const whilePasswordExpired = new Set(['POST /api/users/password/change/', 'POST /api/users/sso/password/change/']);

/**
 * Routes that also need the caller to see every company (provider staff): their holder is a
 * provider user with all companies, and a customer user with the permission gets 403.
 */
const providerOnly = new Set(['POST /api/companies/']);

/** Routes whose handler also checks a second action of the same resource (bulk changes need `change`). */
const alsoNeeds: Record<string, string> = { 'POST /api/alerts/bulk/': 'change' };

/** Routes that also need a privileged flag granted by name (the original of a mail is mail content). */
const alsoPrivileged: Record<string, Record<string, boolean>> = {
  'GET /api/mailing/:id/raw/': { mail_content: true },
};

const allPermissions = resourceKinds.map((k) => ({ basename: k.basename, actions: actionsOf(k) }));

function allBut(basename: string, action: string) {
  return allPermissions.map((p) =>
    p.basename === basename ? { ...p, actions: p.actions.filter((a) => a !== action) } : p,
  );
}

/** Which fixture an object route's id stands for, by its path. */
function fixtureKey(url: string): string | null {
  if (url.startsWith('/api/roles/')) return 'role';
  if (url.startsWith('/api/units/')) return 'unit';
  if (url.startsWith('/api/assets/')) return 'asset';
  if (url.startsWith('/api/employees/')) return 'employee';
  if (url.startsWith('/api/software/versions/')) return 'software_version';
  if (url.startsWith('/api/software/')) return 'software_product';
  if (url.startsWith('/api/widgets/')) return 'widget';
  if (url.startsWith('/api/companies/')) return 'company';
  if (url.startsWith('/api/users/')) return 'user';
  if (url.startsWith('/api/alerts/')) return 'alert';
  if (url.startsWith('/api/incidents/grouping/')) return 'company';
  if (url.startsWith('/api/incidents/')) return 'incident';
  if (url.startsWith('/api/matchers/')) return 'matcher';
  if (url.startsWith('/api/indicators/')) return 'indicator';
  if (url.startsWith('/api/ingest/tokens/')) return 'ingest_token';
  if (url.startsWith('/api/rules/suricata/thresholds/')) return 'suricata_threshold';
  const rule = /^\/api\/rules\/(\w+)\//.exec(url);
  if (rule) return `rule_${rule[1]}`;
  if (url.endsWith('/download/') && url.startsWith('/api/warehouse/')) return 'warehouse_sha256';
  if (url.startsWith('/api/warehouse/hashes/') || url.startsWith('/api/warehouse/')) return 'warehouse_hash';
  if (url.startsWith('/api/network/')) return 'network';
  if (url.startsWith('/api/eclipse_events/')) return 'endpoint';
  if (url.startsWith('/api/mailing/')) return 'mail';
  if (url.startsWith('/api/attaches/')) return 'attachment';
  if (url.startsWith('/api/search/saved/')) return 'saved_search';
  if (url.startsWith('/api/search/reports/')) return 'search_report';
  return null;
}

function pathFor(route: GuardedRoute, side: 'alpha' | 'beta'): string | null {
  if (!/:\w+/.test(route.url)) return route.url;
  const key = fixtureKey(route.url);
  if (!key) return null;
  const id = fixtures[side][key];
  return route.url.replace(/:\w+/g, String(id));
}

let counter = 0;
/**
 * Signed-in clients by what they hold: routes that need the same permission share one user (each new
 * user costs a password hash and a sign-in).
 */
const clients = new Map<string, Promise<TestClient>>();
function clientWith(
  permissions: { basename: string; actions: string[] }[],
  companyId: number,
  allCompanies = false,
  privileged: Record<string, boolean> = {},
): Promise<TestClient> {
  const key = JSON.stringify([permissions, companyId, allCompanies, privileged]);
  let client = clients.get(key);
  if (!client) {
    client = newClientWith(permissions, companyId, allCompanies, privileged);
    clients.set(key, client);
  }
  return client;
}

async function newClientWith(
  permissions: { basename: string; actions: string[] }[],
  companyId: number,
  allCompanies: boolean,
  privileged: Record<string, boolean>,
): Promise<TestClient> {
  counter += 1;
  const user = await buildUser(t.db, {
    username: `matrix-${counter}`,
    companyId,
    permissions,
    allCompanies,
    privileged,
  });
  const client = t.client();
  await client.signIn(user.username, user.password);
  return client;
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  provider = (await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!.id;
  for (const [side, company] of [
    ['alpha', alpha],
    ['beta', beta],
  ] as const) {
    fixtures[side].company = company;
    fixtures[side].user = (await buildUser(t.db, { username: `${side}-target`, companyId: company })).id;
    const role = await t.db.query<{ id: number }>(
      sql`INSERT INTO roles (company_id, name, permissions) VALUES (${company}, 'Fixture role', '[]'::jsonb) RETURNING id`,
    );
    fixtures[side].role = role.rows[0]!.id;
    const unit = await t.db.query<{ id: number }>(
      sql`INSERT INTO units (company_id, name) VALUES (${company}, 'Fixture unit') RETURNING id`,
    );
    fixtures[side].unit = unit.rows[0]!.id;
    const asset = await t.db.query<{ id: number }>(
      sql`INSERT INTO assets (company_id, name, ips) VALUES (${company}, 'Fixture asset', '{10.0.0.1}') RETURNING id`,
    );
    fixtures[side].asset = asset.rows[0]!.id;
    const employee = await t.db.query<{ id: number }>(
      sql`INSERT INTO employees (company_id, full_name) VALUES (${company}, 'Fixture employee') RETURNING id`,
    );
    fixtures[side].employee = employee.rows[0]!.id;
    const product = await t.db.query<{ id: number }>(
      sql`INSERT INTO software_products (company_id, name, product_key, first_seen, last_seen)
          VALUES (${company}, 'Fixture product', '	fixture product', now(), now()) RETURNING id`,
    );
    fixtures[side].software_product = product.rows[0]!.id;
    const version = await t.db.query<{ id: number }>(
      sql`INSERT INTO software_versions (company_id, product_id, version, first_seen, last_seen)
          VALUES (${company}, ${product.rows[0]!.id}, '1.0', now(), now()) RETURNING id`,
    );
    fixtures[side].software_version = version.rows[0]!.id;
    // A widget of the company's fixture user: the holder of a widgets permission finds only its own (404).
    const widget = await t.db.query<{ id: number }>(
      sql`INSERT INTO widgets (company_id, user_id, kind, size, position)
          VALUES (${company}, ${fixtures[side].user}, 'top_hosts', 'half', 0) RETURNING id`,
    );
    fixtures[side].widget = widget.rows[0]!.id;
    // A saved search shared with the company, and a report of it.
    const savedSearch = await t.db.query<{ id: number }>(
      sql`INSERT INTO saved_searches (company_id, owner_id, name, query, kinds, sharing)
          VALUES (${company}, ${fixtures[side].user}, 'Fixture search', '', '{network}', 'company') RETURNING id`,
    );
    fixtures[side].saved_search = savedSearch.rows[0]!.id;
    const report = await t.db.query<{ id: number }>(
      sql`INSERT INTO search_reports (company_id, saved_search_id, saved_search_name, ran_at, query, kinds, from_ts,
                                      to_ts, hit_count)
          VALUES (${company}, ${fixtures[side].saved_search}, 'Fixture search', now(), '', '{network}', now(), now(), 1)
          RETURNING id`,
    );
    fixtures[side].search_report = report.rows[0]!.id;
    Object.assign(fixtures[side], await alertFixtures(company));
    await t.db.query(
      sql`INSERT INTO system_logs (company_id, action, object_type, object_repr) VALUES (${company}, 'create', 'alert', ${`${side} row`})`,
    );
    Object.assign(fixtures[side], await eventFixtures(company, side));
  }
});

/** A kept original message (for the mail fixture), by its hash. */
async function mailOriginal(side: string): Promise<string> {
  const original = Buffer.from(`From: ${side}@example.net\r\nSubject: fixture\r\n\r\nbody\r\n`);
  const sha256 = createHash('sha256').update(original).digest('hex');
  await t.db.query(sql`INSERT INTO mail_originals (sha256, size, content)
    VALUES (${sha256}, ${original.length}, decode(${gzipSync(original).toString('hex')}, 'hex'))`);
  return sha256;
}

/** One stored event of each kind, an ingest token and a warehouse file for a company. */
async function eventFixtures(company: number, side: string): Promise<Record<string, number | string>> {
  const one = async (query: ReturnType<typeof sql>) => Number((await t.db.query<{ id: number }>(query)).rows[0]!.id);
  const sha256 = (side === 'alpha' ? 'a' : 'b').repeat(64);
  await t.db.query(sql`INSERT INTO warehouse_files (sha256, md5, sha1, size, detected_type, content)
    VALUES (${sha256}, ${'0'.repeat(32)}, ${'0'.repeat(40)}, 1, 'unknown', '\\x00'::bytea)`);
  return {
    ingest_token: await one(sql`INSERT INTO ingest_tokens (company_id, name, key_hash, key_prefix)
      VALUES (${company}, 'fixture', ${`hash-${side}`}, 'vgi_x') RETURNING id`),
    network: await one(sql`INSERT INTO network_events (company_id, ts, batch_id, event_type, event, raw)
      VALUES (${company}, now(), 1, 'flow', '{}', '{}') RETURNING id`),
    endpoint: await one(sql`INSERT INTO endpoint_events (company_id, ts, batch_id, source_format, event, raw)
      VALUES (${company}, now(), 1, 'ecs', '{}', '{}') RETURNING id`),
    mail: await one(sql`INSERT INTO mail_messages (company_id, ts, batch_id, event, original_sha256)
      VALUES (${company}, now(), 1, '{}', ${await mailOriginal(side)}) RETURNING id`),
    attachment:
      await one(sql`INSERT INTO mail_attachments (company_id, ts, mail_id, content_type, size, md5, sha1, sha256, detected_type)
      VALUES (${company}, now(), 1, 'application/octet-stream', 1, '', '', ${sha256}, 'unknown') RETURNING id`),
    warehouse_hash: await one(sql`INSERT INTO warehouse_hashes (company_id, sha256, sightings, sources)
      VALUES (${company}, ${sha256}, 1, '{mail}') RETURNING id`),
    warehouse_sha256: sha256,
  };
}
/** An alert, an incident and a matcher of a company. */
async function alertFixtures(company: number): Promise<Record<string, number>> {
  const one = async (query: ReturnType<typeof sql>) => Number((await t.db.query<{ id: number }>(query)).rows[0]!.id);
  return {
    alert:
      await one(sql`INSERT INTO alerts (company_id, title, severity, score, source, detection, dedup_key, first_seen, last_seen)
      VALUES (${company}, 'Fixture alert', 'low', 30, 'network', '{}', 'fixture', now(), now()) RETURNING id`),
    incident: await one(
      sql`INSERT INTO incidents (company_id, title, severity) VALUES (${company}, 'Fixture incident', 'low') RETURNING id`,
    ),
    matcher: await one(sql`INSERT INTO matchers (company_id, name, actions)
      VALUES (${company}, 'Fixture matcher', '[{"type":"add_tag","tag":"x"}]') RETURNING id`),
    indicator: await one(
      sql`INSERT INTO indicators (company_id, type, value) VALUES (${company}, 'ip', ${`192.0.2.${company % 250}`}) RETURNING id`,
    ),
    ...Object.fromEntries(
      await Promise.all(
        ['suricata', 'sigma', 'yara'].map(async (kind) => [
          `rule_${kind}`,
          await one(sql`INSERT INTO rules (company_id, kind, rule_key, title, source, source_sha256)
            VALUES (${company}, ${kind}, 'fixture', 'Fixture rule', 'x', 'x') RETURNING id`),
        ]),
      ),
    ),
    suricata_threshold: await one(sql`INSERT INTO suricata_thresholds (company_id, entry)
      VALUES (${company}, 'suppress gen_id 1, sig_id 1') RETURNING id`),
  };
}

afterAll(async () => {
  await t?.close();
});

describe('permission matrix', () => {
  it('knows every route: public ones are the expected few, the rest need a sign-in or a registry permission', () => {
    const routes = t.app.guardedRoutes;
    expect(routes.length).toBeGreaterThan(30);
    const publicRoutes = routes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`);
    for (const route of publicRoutes) expect(expectedPublic, route).toContain(route);
    for (const route of routes.filter((r) => r.permission)) {
      const kind = findResourceKind(route.permission!.basename);
      expect(kind, `${route.method} ${route.url}`).toBeDefined();
      expect(actionsOf(kind!), `${route.method} ${route.url}`).toContain(route.permission!.action);
    }
  });

  it('answers 401 on every non-public route to a caller who is not signed in', async () => {
    const anonymous = t.client();
    for (const route of t.app.guardedRoutes.filter((r) => !r.public)) {
      const path = route.url.replace(/:\w+/g, '1');
      const answer = await anonymous.request(route.method, path, route.method === 'GET' ? {} : { body: {} });
      expect(answer.status, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('declares the reduced app as the short list above, and registers every declared endpoint', () => {
    const declared = endpointEntries().map(({ spec }) => spec);
    const flagged = (state: true | 'password_expired') =>
      declared.filter((spec) => spec.reducedApp === state).map((spec) => `${spec.method} ${spec.path}`);
    expect(new Set(flagged(true))).toEqual(reducedApp);
    expect(new Set(flagged('password_expired'))).toEqual(whilePasswordExpired);
    const registered = new Set(t.app.guardedRoutes.map((r) => `${r.method} ${r.url}`));
    for (const spec of declared)
      expect(registered, `${spec.method} ${spec.path}`).toContain(`${spec.method} ${spec.path}`);
  });

  it('refuses a half-signed-in session everywhere outside the reduced app, whatever it may do otherwise', async () => {
    // A superuser of every company: any refusal is the session's state, never a missing permission.
    const walk = async (state: 'two_factor_required' | 'password_expired', client: TestClient) => {
      const anonymous = t.client();
      const failures: string[] = [];
      for (const { spec } of endpointEntries()) {
        const key = `${spec.method} ${spec.path}`;
        const opens = reducedApp.has(key) || (state === 'password_expired' && whilePasswordExpired.has(key));
        if (opens) continue;
        const path = spec.path.replace(/:\w+/g, '1');
        const options = spec.method === 'GET' ? {} : { body: {} };
        const answer = await client.request<{ code?: string }>(spec.method, path, options);
        if ('public' in spec.access) {
          // Open to anyone: the half-signed-in session gets exactly what a stranger gets.
          const stranger = await anonymous.request(spec.method, path, options);
          if (answer.status !== stranger.status)
            failures.push(`${key}: ${answer.status}, a stranger ${stranger.status}`);
        } else if (answer.status !== 403 || answer.body.code !== state) {
          failures.push(`${key}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
    };

    const pending = await buildUser(t.db, { username: 'matrix-otp-pending', companyId: provider, allCompanies: true });
    await t.db.query(
      sql`UPDATE users SET is_superuser = true, otp_secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' WHERE id = ${pending.id}`,
    );
    const beforeCode = t.client();
    const signIn = await beforeCode.post<AuthState>('/api/auth/', {
      username: pending.username,
      password: pending.password,
    });
    expect(signIn.body.user).toMatchObject({ two_factor_passed: false });
    await walk('two_factor_required', beforeCode);
    // Still half signed in: nothing above let it further.
    expect((await beforeCode.get<AuthState>('/api/auth/')).body.user).toMatchObject({ two_factor_passed: false });

    const expired = await buildUser(t.db, { username: 'matrix-expired', companyId: provider, allCompanies: true });
    await t.db.query(sql`UPDATE users SET is_superuser = true, password_must_change = true WHERE id = ${expired.id}`);
    const mustChange = t.client();
    await mustChange.signIn(expired.username, expired.password);
    expect((await mustChange.get<AuthState>('/api/auth/')).body.user).toMatchObject({ password_expired: true });
    await walk('password_expired', mustChange);
  }, 120_000);

  // Signs in up to three clients per guarded route (180 s limit: room on a loaded machine).
  it('allows the holder of exactly the permission, refuses everyone else with 403, and hides other tenants', async () => {
    const routes = t.app.guardedRoutes.filter((r) => r.permission);
    const covered = new Set<string>();
    const failures: string[] = [];
    const check = (ok: boolean, message: string) => {
      if (!ok) failures.push(message);
    };
    for (const route of routes) {
      const { basename, action } = route.permission!;
      const label = `${route.method} ${route.url} (${basename}:${action})`;
      const alphaPath = pathFor(route, 'alpha');
      expect(alphaPath, `${label}: add a fixture for this object route`).not.toBeNull();
      const body = route.method === 'GET' ? {} : { body: {} };

      const key = `${route.method} ${route.url}`;
      const without = await clientWith(allBut(basename, action), alpha, false, alsoPrivileged[key]);
      const refused = await without.request(route.method, alphaPath!, body);
      check(refused.status === 403, `${label} without the permission: ${refused.status}`);

      const holder = providerOnly.has(key)
        ? await clientWith([{ basename, actions: [action] }], provider, true)
        : await clientWith(
            [{ basename, actions: [action, ...(alsoNeeds[key] ? [alsoNeeds[key]] : [])] }],
            alpha,
            false,
            alsoPrivileged[key],
          );
      const allowed = await holder.request(route.method, alphaPath!, body);
      if (providerOnly.has(key)) {
        const customer = await clientWith([{ basename, actions: [action] }], alpha);
        const byCustomer = await customer.request(route.method, alphaPath!, body);
        check(byCustomer.status === 403, `${label} by a customer: ${byCustomer.status}`);
      }
      check(
        ![401, 403].includes(allowed.status) && allowed.status < 500,
        `${label} with: ${allowed.status} ${JSON.stringify(allowed.body)}`,
      );

      if (/:\w+/.test(route.url)) {
        const foreign = await holder.request(route.method, pathFor(route, 'beta')!, body);
        check(foreign.status === 404, `${label} on another company's object: ${foreign.status}`);
      }
      if (route.url.endsWith('/check/') && allowed.status === 200 && !providerOnly.has(key)) {
        const results = (allowed.body as { results: Record<string, unknown>[] }).results;
        for (const row of results) {
          const company = route.url.startsWith('/api/companies/') ? row.id : row.company_id;
          if (company !== undefined) check(company === alpha, `${label} lists another company's row`);
        }
      }
      covered.add(`${basename}:${action}`);
    }
    expect(failures).toEqual([]);
    // Every resource kind and action of the registry that has a route is now covered.
    const withRoutes = resourceKinds.flatMap((k) =>
      actionsOf(k)
        .map((a) => `${k.basename}:${a}`)
        .filter((pair) => routes.some((r) => `${r.permission!.basename}:${r.permission!.action}` === pair)),
    );
    expect([...covered].sort()).toEqual([...new Set(withRoutes)].sort());
  }, 180_000);
});
