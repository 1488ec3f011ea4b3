import { createHash } from 'node:crypto';
import type { IngestTokenCreated, ListAnswer, MailDetail, MailListItem } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { pruneEvents } from '../src/modules/events/retention';
import {
  HARVEST_FORM_TARGET,
  htmlAttachmentsMessage,
  longBodiesMessage,
  microsoftAuthenticationMessage,
  oddHeadersMessage,
  splitAuthenticationMessage,
} from '../src/modules/ingest/parsers/fixtures/mail-cases';
import { phishingMessage } from '../src/modules/ingest/parsers/fixtures/mail';
import type { TestClient } from './helpers/http-client';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

/*
 * Mail as real phishing sends it, end to end: what the detail answer says of long bodies, split
 * and Microsoft 365 Authentication-Results, HTML attachments and odd headers; and the original
 * message, kept and served byte for byte under the mail_content privilege.
 */

let t: TestApp;
let alpha: number;
let beta: number;
let reader: TestClient;
let viewer: TestClient;
let betaReader: TestClient;
let alphaKey: string;
let betaKey: string;

const mailPermissions = [{ basename: 'mailing', actions: ['view'] }];

async function ingestMail(key: string, body: Buffer): Promise<void> {
  const response = await fetch(`${t.url}/api/ingest/mail/`, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${key}` },
    body,
  });
  const answer = (await response.json()) as { accepted: number; rejected: unknown[] };
  expect(answer).toMatchObject({ accepted: 1, rejected: [] });
}

/** The id of the caller's newest message with this subject. */
async function mailId(client: TestClient, subject: string): Promise<number> {
  const listed = await client.post<ListAnswer<MailListItem>>('/api/mailing/check/', { subject });
  expect(listed.status).toBe(200);
  return listed.body.results[0]!.id;
}

async function detail(client: TestClient, id: number): Promise<MailDetail> {
  const answer = await client.get<MailDetail>(`/api/mailing/${id}/`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** GET as the client's session, answering the body's bytes untouched. */
async function rawGet(client: TestClient, path: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(`${t.url}${path}`, {
    headers: { cookie: `vigil_session=${client.cookie('vigil_session') ?? ''}` },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

beforeAll(async () => {
  t = await startTestApp();
  alpha = await buildCompany(t.db, 'Alpha Mail');
  beta = await buildCompany(t.db, 'Beta Mail');
  await buildUser(t.db, {
    username: 'rita',
    companyId: alpha,
    permissions: mailPermissions,
    privileged: { mail_content: true },
  });
  await buildUser(t.db, { username: 'vic', companyId: alpha, permissions: mailPermissions });
  await buildUser(t.db, {
    username: 'bea',
    companyId: beta,
    permissions: mailPermissions,
    privileged: { mail_content: true },
  });
  reader = t.client();
  await reader.signIn('rita', 'User-password-1');
  viewer = t.client();
  await viewer.signIn('vic', 'User-password-1');
  betaReader = t.client();
  await betaReader.signIn('bea', 'User-password-1');
  const admin = await t.admin();
  alphaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'alpha', company_id: alpha })).body
    .key;
  betaKey = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'beta', company_id: beta })).body.key;
});

afterAll(async () => {
  await t?.close();
});

describe('mail as real phishing sends it', () => {
  it('finds a link after 32 KB, and says the stored bodies are cut', async () => {
    await ingestMail(alphaKey, longBodiesMessage());
    const found = await reader.post<ListAnswer<MailListItem>>('/api/mailing/check/', {
      url: 'late-html.example-phish.net',
    });
    expect(found.body.results).toHaveLength(1);
    const body = await detail(reader, found.body.results[0]!.id);
    expect(body.urls.map((u) => u.host)).toEqual([
      'early.example-phish.net',
      'late-text.example-phish.net',
      'late-html.example-phish.net',
    ]);
    expect(body.event).toMatchObject({ text_truncated: true, html_truncated: true });
    expect((body.event.text as string).length).toBe(32_768);
  });

  it('gives a summary that agrees with the per-header breakdown of the same answer', async () => {
    await ingestMail(alphaKey, splitAuthenticationMessage());
    const id = await mailId(reader, 'Unusual sign-in');
    const body = await detail(reader, id);
    expect(body.authentication).toMatchObject({ spf: 'fail', dkim: 'fail', dmarc: 'fail' });
    const receiving = body.authentication.headers.filter((h) => h.authserv_id === 'mx.corp.example').slice(0, 3);
    expect(receiving.flatMap((h) => h.results.map((r) => `${r.method}=${r.result}`))).toEqual([
      'spf=fail',
      'dkim=fail',
      'dmarc=fail',
    ]);
    // Each summary value is one the breakdown shows.
    for (const method of ['spf', 'dkim', 'dmarc'] as const) {
      const shown = body.authentication.headers.flatMap((h) => h.results.filter((r) => r.method === method));
      expect(shown.map((r) => r.result)).toContain(body.authentication[method]);
    }
    // The stored columns the list filters on say the same.
    const failing = await reader.post<ListAnswer<MailListItem>>('/api/mailing/check/', { spf: ['fail'] });
    expect(failing.body.results.map((r) => r.id)).toContain(id);

    await ingestMail(alphaKey, microsoftAuthenticationMessage());
    const m365 = await detail(reader, await mailId(reader, 'Password expires today'));
    expect(m365.authentication).toMatchObject({ spf: 'softfail', dkim: 'none', dmarc: 'fail', compauth: 'fail' });
    expect(m365.authentication.headers[0]).toMatchObject({ authserv_id: null });
    expect(m365.authentication.headers[0]!.results.map((r) => r.method)).toEqual(['spf', 'dkim', 'dmarc', 'compauth']);
  });

  it('types HTML attachments, takes their links into the message and flags a double extension', async () => {
    await ingestMail(alphaKey, htmlAttachmentsMessage());
    const body = await detail(reader, await mailId(reader, 'Remittance advice'));
    const harvest = body.attachments.find((a) => a.filename === 'Remittance.Xls.htm')!;
    expect(harvest).toMatchObject({ detected_type: 'html', double_extension: true, urls: [HARVEST_FORM_TARGET] });
    expect(body.urls.map((u) => u.url)).toContain(HARVEST_FORM_TARGET);
    const links = body.attachments.find((a) => a.filename === 'links.html')!;
    expect(links.urls.filter((url) => url.includes('.example-links.net/p'))).toHaveLength(70);
    const listed = await t.db.query<{ n: number }>(
      sql`SELECT cardinality(urls) AS n FROM mail_messages WHERE company_id = ${alpha} AND subject = 'Remittance advice'`,
    );
    expect(Number(listed.rows[0]!.n)).toBeGreaterThanOrEqual(71);
  });

  it('keeps a display name without an address, and a Date with junk after its zone', async () => {
    await ingestMail(alphaKey, oddHeadersMessage());
    const body = await detail(reader, await mailId(reader, 'Claim your airdrop'));
    expect(body.event.from).toEqual({ address: null, name: 'DeBank' });
    expect(body.event.date).toBe('2024-03-13T08:15:30.000Z');
    // Every header arrives in the answer, in order.
    expect((body.event.header_lines as { name: string }[]).map((h) => h.name)).toEqual([
      'From',
      'To',
      'Subject',
      'Date',
      'Message-ID',
      'X-Campaign',
    ]);
  });
});

describe('GET /api/mailing/:id/raw/', () => {
  it('serves the original byte for byte, as message/rfc822, and says so in the detail', async () => {
    // Bytes that are not UTF-8 and bare LF line ends must come back unchanged.
    const original = Buffer.concat([
      Buffer.from('From: a@example-phish.net\nTo: j.doe@corp.example\nSubject: bytes\n'),
      Buffer.from('X-Latin: caf\xe9\n\nBody \xff\xfe\r\nend\n', 'latin1'),
    ]);
    await ingestMail(alphaKey, original);
    const id = await mailId(reader, 'bytes');
    const answer = await rawGet(reader, `/api/mailing/${id}/raw/`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('message/rfc822');
    expect(answer.bytes.equals(original)).toBe(true);
    const body = await detail(reader, id);
    expect(body.original).toEqual({
      size: original.length,
      sha256: createHash('sha256').update(original).digest('hex'),
    });
    // Kept compressed, once however often it arrives.
    await ingestMail(betaKey, original);
    const kept = await t.db.query<{ n: number; stored: number }>(
      sql`SELECT count(*)::int AS n, max(octet_length(content))::int AS stored FROM mail_originals`,
    );
    expect(kept.rows[0]!.n).toBeGreaterThan(0);
    const big = phishingMessage();
    await ingestMail(alphaKey, big);
    const row = await t.db.query<{ stored: number }>(
      sql`SELECT octet_length(content)::int AS stored FROM mail_originals
          WHERE sha256 = ${createHash('sha256').update(big).digest('hex')}`,
    );
    expect(row.rows[0]!.stored).toBeLessThan(big.length);
    const phishId = await mailId(reader, 'Проверка счёта - action required');
    expect((await rawGet(reader, `/api/mailing/${phishId}/raw/`)).bytes.equals(big)).toBe(true);
  });

  it('refuses a caller without the mail_content privilege, and another company’s message is not found', async () => {
    const id = await mailId(reader, 'bytes');
    const refused = await viewer.get<{ detail: string }>(`/api/mailing/${id}/raw/`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('Mail content');
    // The same user may still read the message's detail (mailing view).
    expect((await viewer.get(`/api/mailing/${id}/`)).status).toBe(200);
    expect((await betaReader.get(`/api/mailing/${id}/raw/`)).status).toBe(404);
    expect((await reader.get('/api/mailing/999999999/raw/')).status).toBe(404);
    expect((await reader.get(`/api/mailing/${id}/raw/?ts=2001-01-01T00:00:00Z`)).status).toBe(404);
    expect((await t.client().get(`/api/mailing/${id}/raw/`)).status).toBe(401);
  });

  it('goes with the company’s retention', async () => {
    const gamma = await buildCompany(t.db, 'Gamma Short');
    await t.db.query(sql`UPDATE companies SET retention_days = 10 WHERE id = ${gamma}`);
    const admin = await t.admin();
    const key = (await admin.post<IngestTokenCreated>('/api/ingest/tokens/', { name: 'gamma', company_id: gamma })).body
      .key;
    const message = Buffer.from('From: old@example.net\r\nSubject: kept for ten days\r\n\r\nonly gamma has this\r\n');
    await ingestMail(key, message);
    const sha = createHash('sha256').update(message).digest('hex');
    const held = () => t.db.query(sql`SELECT 1 FROM mail_originals WHERE sha256 = ${sha}`);
    // Today it is within every retention.
    await pruneEvents(t.db, new Date());
    expect((await held()).rows).toHaveLength(1);
    // Twenty days on, Gamma's mail is past its ten days and its original goes; others' stay.
    const result = await pruneEvents(t.db, new Date(Date.now() + 20 * 86_400_000));
    expect(result.deletedOriginals).toBeGreaterThanOrEqual(1);
    expect((await held()).rows).toHaveLength(0);
    const others = await t.db.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM mail_originals`);
    expect(others.rows[0]!.n).toBeGreaterThan(0);
    const id = await mailId(reader, 'bytes');
    expect((await rawGet(reader, `/api/mailing/${id}/raw/`)).status).toBe(200);
  });
});
