import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { migrate } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import { JobRunner } from '../src/modules/jobs/job-runner';
import { findJob, listJobs, type JobRow } from '../src/modules/jobs/jobs.repository';
import { InvalidMailError, MAIL_JOB_KIND, enqueueMail, mailJobHandler } from '../src/modules/mail/mail.queue';
import { createSmtpMailer, type Mailer } from '../src/modules/mail/mail.transport';
import { smtpEnv, startTestSmtpServer, type TestSmtpServer } from './helpers/smtp-server';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

let database: TestDatabase;
let smtp: TestSmtpServer;
let mailer: Mailer;

function smtpConfig(env: Record<string, string> = {}) {
  return loadConfig({
    ...smtpEnv(smtp),
    ...env,
  });
}

/** A runner that sends mail through `through`, as the app's runner does. */
function mailRunner(through: Mailer = mailer, options: { backoffSeconds?: (attempt: number) => number } = {}) {
  const runner = new JobRunner({ db: database.db, ...options });
  runner.register(MAIL_JOB_KIND, mailJobHandler(through));
  return runner;
}

async function job(id: number): Promise<JobRow> {
  const row = await findJob(database.db, id);
  if (!row) throw new Error(`job ${id} is gone`);
  return row;
}

beforeAll(async () => {
  database = await createTestDatabase({ migrated: true });
  await migrate(database.db);
  smtp = await startTestSmtpServer();
  mailer = createSmtpMailer(smtpConfig());
});
afterAll(async () => {
  mailer?.close();
  await smtp?.close();
  await database?.drop();
});
beforeEach(async () => {
  smtp.reset();
  await database.db.query(sql`DELETE FROM jobs`);
});

describe('mail through the job queue, to a real SMTP server', () => {
  it('delivers a queued message after commit with its recipients, subject and both bodies', async () => {
    const id = await database.db.transaction((tx) =>
      enqueueMail(tx, {
        to: ['alice@example.com', 'bob@example.com'],
        cc: 'carol@example.com',
        bcc: ['audit@example.com'],
        subject: 'Your account is ready — café',
        text: 'Hello Alice,\n\nopen https://xdr.example.com/activate/abc/ to start.',
        html: '<p>Hello Alice,</p><p><a href="https://xdr.example.com/activate/abc/">Start</a></p>',
      }),
    );
    expect(smtp.received).toEqual([]);
    expect(await mailRunner().runDueJobs()).toMatchObject([{ id, outcome: 'done' }]);

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.subject).toBe('Your account is ready — café');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Vigil', address: 'vigil@example.com' }]);
    expect(mail.envelopeFrom).toBe('vigil@example.com');
    expect(mail.to).toEqual(['alice@example.com', 'bob@example.com']);
    expect(mail.cc).toEqual(['carol@example.com']);
    // Bcc travels in the envelope only, never in the headers others see.
    expect(mail.envelopeTo.sort()).toEqual([
      'alice@example.com',
      'audit@example.com',
      'bob@example.com',
      'carol@example.com',
    ]);
    expect(mail.headers).not.toContain('bcc');
    expect(mail.text.trim()).toBe('Hello Alice,\n\nopen https://xdr.example.com/activate/abc/ to start.');
    expect(mail.html).toContain('<a href="https://xdr.example.com/activate/abc/">Start</a>');

    // Once delivered, the job keeps the envelope and message id, not the body (it may hold a one-time link).
    const done = await job(id);
    expect(done.status).toBe('done');
    expect(done.payload).toMatchObject({ to: ['alice@example.com', 'bob@example.com'], subject: mail.subject });
    expect(JSON.stringify(done.payload)).not.toContain('activate/abc');
    expect((done.payload as { message_id: string }).message_id).toBe(mail.parsed.messageId);
  });

  it('sends nothing for a transaction that rolls back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueMail(tx, { to: 'alice@example.com', subject: 'Welcome', text: 'Hi' });
        throw new Error('creating the user failed');
      }),
    ).rejects.toThrow('creating the user failed');
    expect(await mailRunner().runDueJobs()).toEqual([]);
    expect(await listJobs(database.db, MAIL_JOB_KIND)).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it('refuses bad addresses and subjects when queuing, naming the field', async () => {
    const bad = [
      [{ to: 'not an address', subject: 'Hi', text: 'x' }, /to: Enter a valid e-mail address/],
      [{ to: [], subject: 'Hi', text: 'x' }, /to/],
      [{ to: 'a@example.com', cc: ['b@example.com', 'nope'], subject: 'Hi', text: 'x' }, /cc\.1/],
      [{ to: 'a@example.com', subject: 'Hi\r\nBcc: victim@example.com', text: 'x' }, /subject: A subject is one line/],
      [{ to: 'a@example.com', subject: '', text: 'x' }, /subject/],
    ] as const;
    for (const [mail, problem] of bad) {
      const attempt = enqueueMail(database.db, mail as Parameters<typeof enqueueMail>[1]);
      await expect(attempt).rejects.toBeInstanceOf(InvalidMailError);
      await expect(enqueueMail(database.db, mail as Parameters<typeof enqueueMail>[1])).rejects.toThrow(problem);
    }
    expect(await listJobs(database.db, MAIL_JOB_KIND)).toEqual([]);
  });

  it('retries with back-off when the server refuses with 451, and the mail arrives once', async () => {
    smtp.refuseNext(1, 451, 'Try again later');
    const id = await enqueueMail(database.db, { to: 'alice@example.com', subject: 'Retry me', text: 'Body' });
    const runner = mailRunner();

    expect(await runner.runDueJobs()).toMatchObject([{ id, outcome: 'retry' }]);
    expect(smtp.refusals).toBe(1);
    expect(smtp.received).toEqual([]);
    const waiting = await job(id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting.last_error).toMatch(/451/);
    expect(waiting.last_error).toMatch(/Try again later/);

    // Not due again yet: the back-off holds it back.
    expect(await runner.runDueJobs()).toEqual([]);
    expect(await runner.runDueJobs({ now: waiting.run_at })).toMatchObject([{ id, outcome: 'done', attempt: 2 }]);
    expect(await runner.runDueJobs({ now: new Date(waiting.run_at.getTime() + 86_400_000) })).toEqual([]);
    expect(smtp.received.map((m) => m.subject)).toEqual(['Retry me']);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('marks the job failed with the last error after its attempts run out', async () => {
    smtp.refuseNext(10, 451, 'Mailbox busy');
    const id = await enqueueMail(
      database.db,
      { to: 'alice@example.com', subject: 'Never', text: 'x' },
      { maxAttempts: 3 },
    );
    const runner = mailRunner();
    const outcomes = [];
    let now = new Date(Date.UTC(2030, 0, 1));
    for (let i = 0; i < 4; i += 1) {
      outcomes.push(...(await runner.runDueJobs({ now })));
      now = new Date(now.getTime() + 24 * 3_600_000);
    }
    expect(outcomes.map((o) => o.outcome)).toEqual(['retry', 'retry', 'failed']);
    const failed = await job(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed.last_error).toMatch(/451.*Mailbox busy|Mailbox busy.*451/);
    expect(failed.finished_at).not.toBeNull();
    expect(smtp.received).toEqual([]);
  });

  it('fails at once when every recipient is refused for good (550)', async () => {
    smtp.rejectRecipient('gone@example.com');
    const id = await enqueueMail(database.db, { to: 'gone@example.com', subject: 'Hello', text: 'x' });
    expect(await mailRunner().runDueJobs()).toMatchObject([{ id, outcome: 'failed' }]);
    const failed = await job(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.last_error).toMatch(/550/);
  });

  it('sends to the recipients that are accepted and records those refused', async () => {
    smtp.rejectRecipient('gone@example.com');
    const id = await enqueueMail(database.db, {
      to: ['alice@example.com', 'gone@example.com'],
      subject: 'Partly',
      text: 'x',
    });
    expect(await mailRunner().runDueJobs()).toMatchObject([{ id, outcome: 'done' }]);
    expect(smtp.received[0]?.envelopeTo).toEqual(['alice@example.com']);
    expect((await job(id)).payload).toMatchObject({ rejected: ['gone@example.com'] });
  });

  it('never sends one message twice when two runners work the queue at once', async () => {
    const second = createSmtpMailer(smtpConfig());
    for (let n = 0; n < 12; n += 1) {
      await enqueueMail(database.db, { to: `user${n}@example.com`, subject: `Message ${n}`, text: `n=${n}` });
    }
    const results = await Promise.all([
      mailRunner().runDueJobs({ concurrency: 2 }),
      mailRunner(second).runDueJobs({ concurrency: 2 }),
    ]);
    second.close();
    expect(results.flat()).toHaveLength(12);
    const subjects = smtp.received.map((m) => m.subject).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect(subjects).toEqual(Array.from({ length: 12 }, (_, n) => `Message ${n}`));
  });

  it('fails visibly, with a last_error naming SMTP_HOST, when mail is not configured', async () => {
    const unconfigured = createSmtpMailer(loadConfig({}));
    const id = await enqueueMail(database.db, { to: 'alice@example.com', subject: 'Lost?', text: 'x' });
    expect(await mailRunner(unconfigured).runDueJobs()).toMatchObject([{ id, outcome: 'retry' }]);
    const waiting = await job(id);
    expect(waiting.status).toBe('pending');
    expect(waiting.last_error).toMatch(/Mail is not configured: SMTP_HOST is not set/);
  });

  it('authenticates with SMTP_USER and SMTP_PASSWORD when the relay asks for it', async () => {
    const secured = await startTestSmtpServer({ users: { vigil: 's3cret' } });
    try {
      const good = createSmtpMailer(
        loadConfig({
          SMTP_HOST: secured.host,
          SMTP_PORT: String(secured.port),
          SMTP_USER: 'vigil',
          SMTP_PASSWORD: 's3cret',
        }),
      );
      const bad = createSmtpMailer(
        loadConfig({
          SMTP_HOST: secured.host,
          SMTP_PORT: String(secured.port),
          SMTP_USER: 'vigil',
          SMTP_PASSWORD: 'wrong',
        }),
      );
      const first = await enqueueMail(database.db, { to: 'alice@example.com', subject: 'Signed', text: 'x' });
      expect(await mailRunner(bad).runDueJobs()).toMatchObject([{ id: first, outcome: 'retry' }]);
      expect((await job(first)).last_error).toMatch(/535|auth/i);
      expect(JSON.stringify(await job(first))).not.toContain('wrong');
      expect(await mailRunner(good).runDueJobs({ now: (await job(first)).run_at })).toMatchObject([
        { id: first, outcome: 'done' },
      ]);
      expect(secured.received.map((m) => [m.subject, m.user])).toEqual([['Signed', 'vigil']]);
      good.close();
      bad.close();
    } finally {
      await secured.close();
    }
  });
});

describe('mail configuration', () => {
  it('has defaults and reads every variable', () => {
    expect(loadConfig({})).toMatchObject({
      smtp: { host: undefined, port: 587, secure: false, user: undefined, password: undefined },
      mailFrom: 'Vigil <no-reply@localhost>',
      jobsPollMs: 1000,
    });
    expect(
      loadConfig({
        SMTP_HOST: 'smtp.example.com',
        SMTP_PORT: '465',
        SMTP_SECURE: 'true',
        SMTP_USER: 'vigil',
        SMTP_PASSWORD: 'pw',
        MAIL_FROM: 'soc@example.com',
        JOBS_POLL_MS: '0',
      }),
    ).toMatchObject({
      smtp: { host: 'smtp.example.com', port: 465, secure: true, user: 'vigil', password: 'pw' },
      mailFrom: 'soc@example.com',
      jobsPollMs: 0,
    });
  });

  it.each([
    ['SMTP_PORT', '0', /SMTP_PORT="0"/],
    ['SMTP_SECURE', 'yes', /SMTP_SECURE="yes".*true or false/],
    ['MAIL_FROM', 'not an address', /MAIL_FROM="not an address".*must be an address/],
    ['MAIL_FROM', 'Vigil <a@b>\r\nBcc: x@y', /MAIL_FROM=/],
    ['JOBS_POLL_MS', '-1', /JOBS_POLL_MS="-1"/],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
