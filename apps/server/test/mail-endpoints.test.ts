import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MailData, MailSendAnswer, SystemLog, ListAnswer, VersionsListAnswer } from '@vigil/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { sql } from '../src/db/sql';
import { MAIL_JOB_KIND } from '../src/modules/mail/mail.queue';
import { TestClient } from './helpers/http-client';
import { smtpEnv, startTestSmtpServer, type TestSmtpServer } from './helpers/smtp-server';
import { buildCompany, buildUser, startTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let smtp: TestSmtpServer;
let alpha: number;
let beta: number;
let gamma: number;
const ids: Record<string, number> = {};
let admin: TestClient;
let alphaAdmin: TestClient;
let alphaPlain: TestClient;
let anonymous: TestClient;

const mailPermissions = [
  { basename: 'users', actions: ['view', 'send_custom_mail', 'mass_changelog'] },
  { basename: 'system_logs', actions: ['view'] },
];

async function person(
  username: string,
  companyId: number,
  options: {
    email?: string | null;
    archived?: boolean;
    releaseNotes?: boolean;
    permissions?: typeof mailPermissions;
  } = {},
) {
  const user = await buildUser(t.db, { username, companyId, permissions: options.permissions ?? [] });
  await t.db.query(sql`
    UPDATE users SET email = ${options.email === undefined ? `${username}@example.com` : options.email},
                     archived_at = ${options.archived ? new Date() : null},
                     mailing_setting = ${JSON.stringify(options.releaseNotes === false ? { release_notes: false } : {})}::jsonb
    WHERE id = ${user.id}`);
  ids[username] = user.id;
  return user;
}

/** Sends what is queued and returns the messages that arrived, as [recipient, subject]. */
async function deliver(): Promise<string[][]> {
  await t.app.jobs.runDueJobs();
  return smtp.received.map((m) => [m.envelopeTo.join(','), m.subject]).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

async function mailJobCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    sql`SELECT count(*)::int8 AS n FROM jobs WHERE kind = ${MAIL_JOB_KIND}`,
  );
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await startTestApp({
    ...smtpEnv(smtp),
  });
  alpha = await buildCompany(t.db, 'Alpha Bank');
  beta = await buildCompany(t.db, 'Beta Retail');
  gamma = await buildCompany(t.db, 'Gamma Closed');
  await t.db.query(sql`UPDATE companies SET is_active = false WHERE id = ${gamma}`);
  await person('alpha_admin', alpha, { email: null, permissions: mailPermissions });
  await person('alpha_plain', alpha, { email: null });
  await person('alice', alpha);
  await person('bob', alpha, { archived: true });
  await person('carol', alpha, { email: null });
  await person('dave', alpha, { releaseNotes: false });
  await person('erin', beta);
  await person('gus', gamma);
  admin = await t.admin();
  alphaAdmin = t.client();
  await alphaAdmin.signIn('alpha_admin', 'User-password-1');
  alphaPlain = t.client();
  await alphaPlain.signIn('alpha_plain', 'User-password-1');
  anonymous = t.client();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.app.jobs.runDueJobs();
  await t.db.query(sql`DELETE FROM jobs`);
  smtp.reset();
});

describe('POST /api/users/send_custom_mail/', () => {
  const url = '/api/users/send_custom_mail/';

  it('needs a signed-in caller with users/send_custom_mail', async () => {
    const body = { subject: 'Hi', text: 'x', user_ids: [ids.alice] };
    expect((await anonymous.post(url, body)).status).toBe(401);
    expect((await alphaPlain.post(url, body)).status).toBe(403);
    expect(await mailJobCount()).toBe(0);
  });

  it('refuses bad input with field errors and queues nothing', async () => {
    const cases: [unknown, string][] = [
      [{ text: 'x', user_ids: [ids.alice] }, 'subject'],
      [{ subject: '   ', text: 'x', user_ids: [ids.alice] }, 'subject'],
      [{ subject: 'a\nb', text: 'x', user_ids: [ids.alice] }, 'subject'],
      [{ subject: 'x'.repeat(201), text: 'x', user_ids: [ids.alice] }, 'subject'],
      [{ subject: 'Hi', user_ids: [ids.alice] }, 'text'],
      [{ subject: 'Hi', text: '  ', user_ids: [ids.alice] }, 'text'],
      [{ subject: 'Hi', text: 'x' }, 'non_field_errors'],
      [{ subject: 'Hi', text: 'x', user_ids: [], company_ids: [], all_users: false }, 'non_field_errors'],
      [{ subject: 'Hi', text: 'x', user_ids: ['alice'] }, 'user_ids.0'],
      [{ subject: 'Hi', text: 'x', user_ids: [0] }, 'user_ids.0'],
      [{ subject: 'Hi', text: 'x', company_ids: 'all' }, 'company_ids'],
      [{ subject: 'Hi', text: 'x', all_users: 'yes' }, 'all_users'],
      [{ subject: 'Hi', text: 'x', all_users: true, priority: 'high' }, 'priority'],
      [{ subject: 'Hi', html: '<script>alert(1)</script>', user_ids: [ids.alice] }, 'html'],
    ];
    for (const [body, field] of cases) {
      const answer = await alphaAdmin.post<{ errors: Record<string, string[]> }>(url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors), JSON.stringify(body)).toContain(field);
    }
    const malformed = await alphaAdmin.request('POST', url, {
      rawBody: '{"subject":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await mailJobCount()).toBe(0);
  });

  it('mails the chosen users, skipping and reporting archived users and users without e-mail', async () => {
    const answer = await alphaAdmin.post<MailSendAnswer>(url, {
      subject: 'Maintenance tonight',
      text: 'The console is down from 22:00 to 23:00.',
      user_ids: [ids.alice, ids.bob, ids.carol, ids.alice],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.queued).toBe(1);
    expect(answer.body.skipped).toEqual([
      { id: ids.bob, username: 'bob', reason: 'archived' },
      { id: ids.carol, username: 'carol', reason: 'no_email' },
    ]);
    expect(answer.body.messages).toEqual([
      { title: 'Mail queued', message: '1 message is queued for sending. 2 users were skipped.', type: 'success' },
    ]);
    expect(await deliver()).toEqual([['alice@example.com', 'Maintenance tonight']]);
    const mail = smtp.received[0]!;
    expect(mail.text.trim()).toBe('The console is down from 22:00 to 23:00.');
    expect(mail.html).toContain('<p>The console is down from 22:00 to 23:00.</p>');
  });

  it('mails whole companies; the release-notes opt-out does not apply to custom mail', async () => {
    const answer = await alphaAdmin.post<MailSendAnswer>(url, {
      subject: 'For Alpha',
      text: 'x',
      company_ids: [alpha],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.queued).toBe(2);
    expect(answer.body.skipped.map((s) => [s.username, s.reason])).toEqual([
      ['alpha_admin', 'no_email'],
      ['alpha_plain', 'no_email'],
      ['bob', 'archived'],
      ['carol', 'no_email'],
    ]);
    expect(await deliver()).toEqual([
      ['alice@example.com', 'For Alpha'],
      ['dave@example.com', 'For Alpha'],
    ]);
  });

  it("answers 404 for another company's users and companies, and queues nothing", async () => {
    const otherUser = await alphaAdmin.post<{ detail: string }>(url, {
      subject: 'Hi',
      text: 'x',
      user_ids: [ids.alice, ids.erin],
    });
    expect(otherUser.status).toBe(404);
    expect(otherUser.body.detail).toBe(`No user with id ${ids.erin}.`);
    const missingUser = await alphaAdmin.post<{ detail: string }>(url, {
      subject: 'Hi',
      text: 'x',
      user_ids: [999999],
    });
    expect(missingUser.status).toBe(404);
    expect(missingUser.body.detail).toBe('No user with id 999999.');
    const otherCompany = await alphaAdmin.post<{ detail: string }>(url, {
      subject: 'Hi',
      text: 'x',
      company_ids: [beta],
    });
    expect(otherCompany.status).toBe(404);
    expect(otherCompany.body.detail).toBe(`No company with id ${beta}.`);
    expect(await mailJobCount()).toBe(0);
  });

  it("keeps all_users within the caller's companies", async () => {
    const scoped = await alphaAdmin.post<MailSendAnswer>(url, {
      subject: 'Everyone I see',
      text: 'x',
      all_users: true,
    });
    expect(scoped.body.queued).toBe(2);
    expect(await deliver()).toEqual([
      ['alice@example.com', 'Everyone I see'],
      ['dave@example.com', 'Everyone I see'],
    ]);
    smtp.reset();
    const everybody = await admin.post<MailSendAnswer>(url, { subject: 'Everyone', text: 'x', all_users: true });
    expect(everybody.status).toBe(200);
    expect((await deliver()).map(([to]) => to)).toEqual([
      'alice@example.com',
      'dave@example.com',
      'erin@example.com',
      'gus@example.com',
    ]);
  });

  it('keeps only safe HTML and derives the text part from it', async () => {
    const answer = await alphaAdmin.post<MailSendAnswer>(url, {
      subject: 'Formatted',
      html:
        '<h2>Notice</h2><p onclick="steal()">Read <a href="javascript:alert(1)">this</a> and ' +
        '<a href="https://status.example.com/">status</a>.</p><script>alert(1)</script>' +
        '<img src="https://tracker.example.com/p.gif"><ul><li>one &amp; two</li></ul>',
      user_ids: [ids.alice],
    });
    expect(answer.status).toBe(200);
    await deliver();
    const mail = smtp.received[0]!;
    expect(mail.html).toContain('<h2>Notice</h2>');
    expect(mail.html).toContain('<a href="https://status.example.com/">status</a>');
    expect(mail.html).not.toMatch(/script|onclick|javascript:|<img|tracker/);
    expect(mail.text).toContain('Notice');
    expect(mail.text).toContain('Read this and status.');
    expect(mail.text).toContain('- one & two');
    expect(mail.text).not.toContain('alert');
  });

  it('writes an audit record per company whose users are mailed', async () => {
    await admin.post(url, { subject: 'Audited message', text: 'x', user_ids: [ids.alice, ids.erin] });
    const logs = await admin.post<ListAnswer<SystemLog>>('/api/system_logs/check/', { action: 'send_custom_mail' });
    const mine = logs.body.results.filter((log) => log.object_repr === 'Audited message');
    expect(mine.map((log) => log.company_id).sort()).toEqual([alpha, beta].sort());
    expect(mine.find((log) => log.company_id === beta)?.changes).toMatchObject({
      recipients: { before: null, after: ['erin'] },
    });
    // A customer's administrator sees its own company's record only.
    const alphaLogs = await alphaAdmin.post<ListAnswer<SystemLog>>('/api/system_logs/check/', {
      action: 'send_custom_mail',
    });
    const alphaMine = alphaLogs.body.results.filter((log) => log.object_repr === 'Audited message');
    expect(alphaMine.map((log) => log.company_id)).toEqual([alpha]);
  });
});

describe('GET /api/users/versions_list/', () => {
  it('lists the release notes of the repository to any signed-in user', async () => {
    expect((await anonymous.get('/api/users/versions_list/')).status).toBe(401);
    const answer = await alphaPlain.get<VersionsListAnswer>('/api/users/versions_list/');
    expect(answer.status).toBe(200);
    expect(answer.body.changelog_versions).toContainEqual({
      version: '0.1.0',
      title: 'The foundation',
      date: '2026-11-22',
    });
  });

  it('lists newest first and leaves out files that are not release notes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-notes-'));
    try {
      fs.writeFileSync(path.join(dir, '0.9.0.md'), '# Nine\n\nnotes');
      fs.writeFileSync(path.join(dir, '0.10.0.md'), '# Ten\nReleased: 2027-01-05\n\nnotes');
      fs.writeFileSync(path.join(dir, '0.10.0-rc.1.md'), '# Ten, candidate\n\nnotes');
      fs.writeFileSync(path.join(dir, 'README.md'), '# Not a version');
      fs.writeFileSync(path.join(dir, '1.0.0.md'), 'no title line');
      const app = await buildApp({ db: t.db, config: t.config, version: 'test', logger: false, releaseNotesDir: dir });
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const address = app.server.address();
        const client = new TestClient(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
        await client.signIn('alpha_plain', 'User-password-1');
        const answer = await client.get<VersionsListAnswer>('/api/users/versions_list/');
        expect(answer.body.changelog_versions).toEqual([
          { version: '0.10.0', title: 'Ten', date: '2027-01-05' },
          { version: '0.10.0-rc.1', title: 'Ten, candidate', date: null },
          { version: '0.9.0', title: 'Nine', date: null },
        ]);
      } finally {
        await app.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('POST /api/users/custom_mail_data/release_notes/', () => {
  const url = '/api/users/custom_mail_data/release_notes/';

  it('needs users/mass_changelog', async () => {
    expect((await anonymous.post(url, { version: '0.1.0' })).status).toBe(401);
    expect((await alphaPlain.post(url, { version: '0.1.0' })).status).toBe(403);
  });

  it('refuses a missing, malformed or unknown version', async () => {
    for (const [body, message] of [
      [{}, 'Choose a version.'],
      [{ version: '../../etc/passwd' }, 'A version looks like 1.2.3.'],
      [{ version: '9.9.9' }, 'There are no release notes for version 9.9.9.'],
    ] as const) {
      const answer = await alphaAdmin.post<{ errors: Record<string, string[]> }>(url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors.version, JSON.stringify(body)).toEqual([message]);
    }
    for (const body of [{ version: 1 }, { version: '0.1.0', x: 1 }, []]) {
      expect((await alphaAdmin.post(url, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('prepares the release-notes mail for review', async () => {
    const answer = await alphaAdmin.post<MailData>(url, { version: '0.1.0' });
    expect(answer.status).toBe(200);
    expect(answer.body.subject).toBe('Release notes: Vigil Managed XDR 0.1.0');
    expect(answer.body.text).toMatch(/^Vigil Managed XDR 0\.1\.0 \(2026-11-22\): The foundation\n/);
    expect(answer.body.text).toContain('## Companies');
    expect(answer.body.text).toContain('turn off "Release notes"');
    expect(answer.body.html).toContain('<h1>Vigil Managed XDR 0.1.0 (2026-11-22): The foundation</h1>');
    expect(answer.body.html).toContain('<h2>Companies</h2>');
    expect(answer.body.html).toMatch(/<li>.*<\/li>/);
  });
});

describe('POST /api/users/mass_changelog/', () => {
  const url = '/api/users/mass_changelog/';

  it('needs users/mass_changelog', async () => {
    expect((await anonymous.post(url, { version: '0.1.0' })).status).toBe(401);
    expect((await alphaPlain.post(url, { version: '0.1.0' })).status).toBe(403);
    expect(await mailJobCount()).toBe(0);
  });

  it('refuses bad input with field errors', async () => {
    const cases: [unknown, string][] = [
      [{}, 'version'],
      [{ version: '9.9.9' }, 'version'],
      [{ version: 'latest' }, 'version'],
      [{ version: '0.1.0', subject: '' }, 'subject'],
      [{ version: '0.1.0', text: '' }, 'text'],
      [{ version: '0.1.0', company_ids: [] }, 'company_ids'],
      [{ version: '0.1.0', company_ids: ['alpha'] }, 'company_ids.0'],
      [{ version: '0.1.0', to: 'everyone' }, 'to'],
    ];
    for (const [body, field] of cases) {
      const answer = await alphaAdmin.post<{ errors: Record<string, string[]> }>(url, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect(await mailJobCount()).toBe(0);
  });

  it("sends the notes to every active user with an e-mail in the caller's companies, honouring the opt-out", async () => {
    const answer = await alphaAdmin.post<MailSendAnswer>(url, { version: '0.1.0' });
    expect(answer.status).toBe(200);
    expect(answer.body.queued).toBe(1);
    expect(answer.body.skipped.map((s) => [s.username, s.reason])).toEqual([
      ['alpha_admin', 'no_email'],
      ['alpha_plain', 'no_email'],
      ['carol', 'no_email'],
      ['dave', 'opted_out'],
    ]);
    expect(answer.body.messages[0]).toMatchObject({ title: 'Mail queued', type: 'success' });
    expect(await deliver()).toEqual([['alice@example.com', 'Release notes: Vigil Managed XDR 0.1.0']]);
    expect(smtp.received[0]!.html).toContain('<h2>Companies</h2>');
    expect(smtp.received[0]!.text).toContain('The foundation');

    const logs = await admin.post<ListAnswer<SystemLog>>('/api/system_logs/check/', { action: 'mass_changelog' });
    expect(logs.body.results).toHaveLength(1);
    expect(logs.body.results[0]).toMatchObject({
      company_id: alpha,
      object_type: 'release_notes',
      object_id: '0.1.0',
      username: 'alpha_admin',
    });
  });

  it('sends what the administrator edited, and only to the chosen companies', async () => {
    const answer = await admin.post<MailSendAnswer>(url, {
      version: '0.1.0',
      subject: 'Vigil 0.1.0 is here',
      text: 'Short version: it works.',
      company_ids: [beta],
    });
    expect(answer.body.queued).toBe(1);
    expect(await deliver()).toEqual([['erin@example.com', 'Vigil 0.1.0 is here']]);
    expect(smtp.received[0]!.text.trim()).toBe('Short version: it works.');
    expect(smtp.received[0]!.html).toContain('<p>Short version: it works.</p>');
  });

  it("leaves out deactivated companies, and answers 404 for a company outside the caller's scope", async () => {
    const all = await admin.post<MailSendAnswer>(url, { version: '0.1.0' });
    expect((await deliver()).map(([to]) => to)).toEqual(['alice@example.com', 'erin@example.com']);
    expect(all.body.queued).toBe(2);
    smtp.reset();
    const before = await mailJobCount();
    const other = await alphaAdmin.post<{ detail: string }>(url, { version: '0.1.0', company_ids: [alpha, beta] });
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe(`No company with id ${beta}.`);
    expect(await mailJobCount()).toBe(before);
    expect(await deliver()).toEqual([]);
  });
});
