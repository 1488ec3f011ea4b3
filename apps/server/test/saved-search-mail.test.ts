import type { ListAnswer, SavedSearch, SavedSearchRunAnswer, SearchReport } from '@vigil/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { MAIL_JOB_KIND } from '../src/modules/mail/mail.queue';
import type { Detail, Errors } from './helpers/auth-helpers';
import type { TestClient } from './helpers/http-client';
import { ingestNetwork, networkFlow } from './helpers/network-flows';
import { smtpEnv, startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from './helpers/smtp-server';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * The reports of a saved search mailed to its subscribers: each subscriber who may read a report gets
 * it once, through the job queue and a real SMTP server, in their language; events read once are
 * never mailed again; subscribers are users who see the saved search, and each sees only the
 * subscribers of their own companies.
 */

const PUBLIC_URL = 'https://vigil.example.com';

let t: TestApp;
let smtp: TestSmtpServer;
let alpha: number;
let beta: number;
let alphaKey: string;
let betaKey: string;
const ids: Record<string, number> = {};
const clients: Record<string, TestClient> = {};

const full = ['view', 'add', 'change', 'delete'];
const analyst = [
  { basename: 'search', actions: full },
  { basename: 'search/reports', actions: ['view'] },
  ...['alerts', 'network', 'eclipse_events', 'mailing'].map((basename) => ({ basename, actions: ['view'] })),
];
/** Sees saved searches, reads no reports. */
const searcher = [
  { basename: 'search', actions: ['view'] },
  { basename: 'network', actions: ['view'] },
];

type Answer<T> = T & Errors & Detail;

async function person(
  username: string,
  companyId: number,
  options: { email?: string | null; locale?: string; permissions?: typeof analyst; extraCompanies?: number[] } = {},
) {
  const user = await buildUser(t.db, {
    username,
    companyId,
    permissions: options.permissions ?? analyst,
    ...(options.extraCompanies ? { extraCompanies: options.extraCompanies } : {}),
  });
  await t.db.query(sql`
    UPDATE users SET email = ${options.email === undefined ? `${username}@example.com` : options.email},
                     first_name = ${username[0]!.toUpperCase() + username.slice(1)}, locale = ${options.locale ?? 'en'}
    WHERE id = ${user.id}`);
  ids[username] = Number(user.id);
  clients[username] = await t.signedIn(username);
}

const flow = networkFlow;
const ingest = (key: string, records: readonly object[]) => ingestNetwork(t.url, key, records);

async function save(client: TestClient, body: Record<string, unknown>): Promise<SavedSearch> {
  const created = await client.post<Answer<SavedSearch>>('/api/search/saved/', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function runNow(client: TestClient, id: number): Promise<SavedSearchRunAnswer> {
  const ran = await client.post<Answer<SavedSearchRunAnswer>>(`/api/search/saved/${id}/run/`);
  expect(ran.status, JSON.stringify(ran.body)).toBe(200);
  return ran.body;
}

/** Sends what is queued; the messages that arrived, each recipient's in order. */
async function deliver(): Promise<ReceivedMail[]> {
  const outcomes = await t.app.jobs.runDueJobs();
  expect(outcomes.every((o) => o.outcome === 'done')).toBe(true);
  return [...smtp.received].sort((a, b) => a.envelopeTo.join().localeCompare(b.envelopeTo.join()));
}

async function reportsOf(client: TestClient, savedSearchId: number): Promise<SearchReport[]> {
  const page = await client.post<ListAnswer<SearchReport>>('/api/search/reports/check/', {
    saved_search_id: savedSearchId,
  });
  expect(page.status).toBe(200);
  return page.body.results;
}

const to = (mails: readonly ReceivedMail[]) => mails.map((m) => m.envelopeTo.join());

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await startTestApp({
    ...smtpEnv(smtp),
    PUBLIC_URL,
  });
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  const provider = (await t.db.query<{ id: number }>(sql`SELECT id FROM companies WHERE kind = 'provider'`)).rows[0]!
    .id;
  await person('alice', alpha);
  await person('anna', alpha, { locale: 'ru' });
  await person('carl', alpha, { email: null });
  await person('dora', alpha);
  await person('owen', alpha);
  await person('ivan', alpha);
  await t.db.query(sql`UPDATE users SET archived_at = now() WHERE id = ${ids.ivan!}`);
  await person('vera', alpha, { permissions: searcher });
  await person('bob', beta);
  await person('sam', provider, { extraCompanies: [alpha, beta] });
  const admin = await t.admin();
  alphaKey = await t.ingestToken(admin, alpha);
  betaKey = await t.ingestToken(admin, beta);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

beforeEach(() => smtp.reset());

describe('subscribers of a saved search', () => {
  it('mails each subscriber who may read a report once, and never again for the same events', async () => {
    const { alice, anna, dora, owen, vera, bob } = clients as Record<string, TestClient>;
    const saved = await save(alice!, {
      name: 'SSH out',
      query: 'dest_port: 22',
      type: ['network'],
      enabled: true,
      sharing: 'company',
      subscriber_ids: [ids.owen, ids.anna, ids.alice, ids.carl, ids.anna],
    });
    expect(saved.subscriber_ids).toEqual([ids.alice, ids.anna, ids.carl, ids.owen].sort((a, b) => a! - b!));
    expect(saved.subscribed).toBe(true);

    // One leaves, one joins and is then deactivated; subscribing twice changes nothing.
    const left = await owen!.post<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/unsubscribe/`);
    expect(left.status).toBe(200);
    expect(left.body.subscribed).toBe(false);
    expect(left.body.subscriber_ids).not.toContain(ids.owen);
    for (let i = 0; i < 2; i++) {
      const joined = await dora!.post<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/subscribe/`);
      expect(joined.status).toBe(200);
      expect(joined.body.subscribed).toBe(true);
    }
    await t.db.query(sql`UPDATE users SET archived_at = now() WHERE id = ${ids.dora!}`);

    // Who may not read reports, or does not see the saved search, is refused.
    expect((await vera!.post<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/subscribe/`)).status).toBe(403);
    expect((await bob!.post<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/subscribe/`)).status).toBe(404);
    const refused = await alice!.patch<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/`, {
      subscriber_ids: [ids.alice, ids.vera, ids.bob, ids.ivan, 987654],
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['subscriber_ids']);
    const problems = refused.body.errors.subscriber_ids!.join(' ');
    expect(problems).toContain(`No users with ids ${ids.bob}, 987654.`);
    expect(problems).toContain('Deactivated users get no mail: ivan.');
    expect(problems).toContain('These users may not read search reports: vera.');
    const malformed = await alice!.patch<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/`, {
      subscriber_ids: [0, 'x'],
    });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.errors).sort()).toEqual(['subscriber_ids.0', 'subscriber_ids.1']);
    // A refused change changes nothing; a subscriber deactivated since may stay.
    const read = await anna!.get<SavedSearch>(`/api/search/saved/${saved.id}/`);
    expect(read.body.subscriber_ids).toEqual(
      [ids.alice, ids.anna, ids.carl, ids.dora].map(Number).sort((a, b) => a - b),
    );
    expect(read.body.subscribed).toBe(true);
    const kept = await alice!.patch<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/`, {
      name: 'SSH out',
      subscriber_ids: read.body.subscriber_ids,
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.subscriber_ids).toEqual(read.body.subscriber_ids);

    await ingest(alphaKey, [flow(22), flow(22), flow(22), flow(80)]);
    expect(await runNow(alice!, saved.id)).toMatchObject({ hits: 3, reports: 1 });
    const [report] = await reportsOf(alice!, saved.id);
    const mails = await deliver();
    // Carl has no address, Dora is deactivated, Owen left.
    expect(to(mails)).toEqual(['alice@example.com', 'anna@example.com']);
    const [english, russian] = mails as [ReceivedMail, ReceivedMail];
    expect(english.subject).toBe('Saved search "SSH out": 3 hits');
    expect(english.text).toContain('Hello Alice,');
    expect(english.text).toContain('found 3 hits in Alpha Bank');
    expect(english.text).toContain('Query: dest_port: 22');
    expect(english.text).toContain('Data: network');
    expect(english.text).toMatch(/flow {2}10\.20\.1\.15:\d+ → 192\.0\.2\.44:22/);
    expect(english.text).toContain(`${PUBLIC_URL}/searches/reports/${report!.id}`);
    expect(russian.subject).toBe('Сохранённый поиск «SSH out»: 3 совпадения');
    expect(russian.text).toContain('Здравствуйте, Anna!');
    expect(russian.text).toContain('нашёл 3 совпадения в компании «Alpha Bank»');
    expect(russian.text).toContain(`${PUBLIC_URL}/searches/reports/${report!.id}`);

    // The same events are never reported, nor mailed, again; a run without hits mails nothing.
    const jobs = async () =>
      Number(
        (await t.db.query<{ n: number }>(sql`SELECT count(*)::int8 AS n FROM jobs WHERE kind = ${MAIL_JOB_KIND}`))
          .rows[0]!.n,
      );
    const queued = await jobs();
    smtp.reset();
    expect(await runNow(alice!, saved.id)).toMatchObject({ hits: 0, reports: 0 });
    await ingest(alphaKey, [flow(80)]);
    expect(await runNow(alice!, saved.id)).toMatchObject({ hits: 0, reports: 0 });
    expect(await deliver()).toEqual([]);
    expect(await jobs()).toBe(queued);

    // Turning subscription off and on is recorded as a change of the saved search.
    const audit = await t.db.query<{ action: string; n: number }>(sql`
      SELECT action, count(*)::int8 AS n FROM system_logs
      WHERE object_type = 'saved_search' AND object_id = ${String(saved.id)} GROUP BY action ORDER BY action`);
    expect(audit.rows.map((r) => [r.action, Number(r.n)])).toEqual([
      ['create', 1],
      ['run', 3],
      ['update', 3],
    ]);
  });

  it('mails each company’s report to the subscribers who see that company, and shows each caller only its own', async () => {
    const { alice, bob, sam } = clients as Record<string, TestClient>;
    const saved = await save(sam!, {
      name: 'RDP in',
      query: 'dest_port: 3389',
      type: ['network'],
      enabled: true,
      sharing: 'companies',
      company_ids: [alpha, beta],
      subscriber_ids: [ids.sam, ids.alice, ids.bob],
    });
    expect(saved.subscriber_ids).toHaveLength(3);
    const seenByAlice = await alice!.get<SavedSearch>(`/api/search/saved/${saved.id}/`);
    expect(seenByAlice.body).toMatchObject({ subscriber_ids: [ids.alice], subscribed: true });
    const seenByBob = await bob!.post<ListAnswer<SavedSearch>>('/api/search/saved/check/', { id: saved.id });
    expect(seenByBob.body.results).toMatchObject([{ subscriber_ids: [ids.bob], subscribed: true }]);

    await ingest(alphaKey, [flow(3389)]);
    await ingest(betaKey, [flow(3389), flow(3389)]);
    expect(await runNow(sam!, saved.id)).toMatchObject({ hits: 3, reports: 2 });
    const mails = await deliver();
    expect(to(mails)).toEqual(['alice@example.com', 'bob@example.com', 'sam@example.com', 'sam@example.com']);
    const byRecipient = (address: string) => mails.filter((m) => m.envelopeTo.includes(address));
    expect(byRecipient('alice@example.com')[0]!.subject).toBe('Saved search "RDP in": 1 hit');
    const bobs = byRecipient('bob@example.com')[0]!;
    expect(bobs.subject).toBe('Saved search "RDP in": 2 hits');
    expect(bobs.text).toContain('Beta Retail');
    expect(bobs.text).not.toContain('Alpha');
    const [betaReport] = await reportsOf(bob!, saved.id);
    expect(bobs.text).toContain(`${PUBLIC_URL}/searches/reports/${betaReport!.id}`);
    expect(
      byRecipient('sam@example.com')
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['Saved search "RDP in": 1 hit', 'Saved search "RDP in": 2 hits']);

    // Who no longer sees it is no longer a subscriber.
    const narrowed = await sam!.patch<Answer<SavedSearch>>(`/api/search/saved/${saved.id}/`, {
      sharing: 'private',
      subscriber_ids: saved.subscriber_ids,
    });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(narrowed.body.subscriber_ids).toEqual([ids.sam]);
    expect((await alice!.post(`/api/search/saved/${saved.id}/unsubscribe/`)).status).toBe(404);
  });
});
