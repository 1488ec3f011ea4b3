import { Writable } from 'node:stream';
import type { ApiToken, OtpSecret } from '@vigil/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { migrate } from '../src/db/migrate';
import { sql } from '../src/db/sql';
import { totp } from '../src/modules/auth/otp';
import { createUserToken } from '../src/modules/auth/user-tokens';
import { bootstrap } from '../src/modules/users/bootstrap';
import { TestClient, type Answer } from './helpers/http-client';
import { ADMIN, buildCompany, buildUser } from './helpers/test-app';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

let database: TestDatabase;
let app: FastifyInstance;
let url: string;
let logText = '';

beforeAll(async () => {
  database = await createTestDatabase({ migrated: true });
  const config = loadConfig({
    DATA_DIR: database.dataDir ?? '/nonexistent',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    VIGIL_ADMIN_USERNAME: ADMIN.username,
    VIGIL_ADMIN_PASSWORD: ADMIN.password,
    JOBS_POLL_MS: '0',
  });
  await migrate(database.db);
  await bootstrap(database.db, config);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logText += chunk.toString('utf8');
      done();
    },
  });
  // The most talkative logger there is: every secret must still stay out of it.
  app = await buildApp({ db: database.db, config, version: 'test', logger: { level: 'trace', stream } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('secrets stay secret', () => {
  it('never appear in answers after creation, in the audit log, or in the server log', async () => {
    const db = database.db;
    const secrets: Record<string, string> = { adminPassword: ADMIN.password };
    const laterAnswers: Answer[] = [];
    const alpha = await buildCompany(db, 'Alpha Bank');
    const lena = await buildUser(db, {
      username: 'lena',
      companyId: alpha,
      password: 'Blue-harbour-first-1',
      privileged: { api_tokens: true },
    });
    secrets.lenaPassword = lena.password;

    const admin = new TestClient(url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    secrets.adminSession = admin.cookie('vigil_session')!;
    secrets.wrongPassword = 'Wrong-secret-password-1';
    expect(
      (await new TestClient(url).post('/api/auth/', { username: 'lena', password: secrets.wrongPassword })).status,
    ).toBe(400);

    // Two-factor: the secret is shown once, when generated.
    const client = new TestClient(url);
    await client.signIn('lena', lena.password);
    secrets.lenaSession = client.cookie('vigil_session')!;
    const generated = await client.get<OtpSecret>('/api/users/otp/secret/generate/');
    secrets.otpSecret = generated.body.secret;
    laterAnswers.push(await client.post('/api/users/otp/secret/save/', { code: totp(secrets.otpSecret) }));
    const second = new TestClient(url);
    laterAnswers.push(await second.post('/api/auth/', { username: 'lena', password: lena.password }));
    secrets.secondSession = second.cookie('vigil_session')!;
    laterAnswers.push(await second.post('/api/auth/otp/', { code: totp(secrets.otpSecret, Date.now() + 30_000) }));

    // API key: shown once, when created.
    const created = await client.post<ApiToken>('/api/users/me/token/');
    secrets.apiToken = created.body.token;
    const machine = new TestClient(url);
    machine.csrf = false;
    laterAnswers.push(await machine.get('/api/auth/', { authorization: `Token ${secrets.apiToken}` }));
    laterAnswers.push(await machine.get('/api/users/me/', { authorization: `Token ${secrets.apiToken}` }));

    // Password change.
    secrets.newPassword = 'Green-valley-second-2';
    laterAnswers.push(
      await client.post('/api/users/password/change/', {
        old_password: lena.password,
        new_password: secrets.newPassword,
        new_password_retry: secrets.newPassword,
      }),
    );

    // Activation link: the token travels in the URL.
    const { rows } = await db.query<{ id: number }>(
      sql`INSERT INTO users (company_id, username) VALUES (${alpha}, 'mona') RETURNING id`,
    );
    secrets.activationToken = await createUserToken(db, rows[0]!.id, 'activation');
    secrets.activationPassword = 'Quiet-forest-first-3';
    const mona = new TestClient(url);
    laterAnswers.push(await mona.get(`/api/activate/${secrets.activationToken}/`));
    laterAnswers.push(
      await mona.post(`/api/activate/${secrets.activationToken}/`, {
        new_password: secrets.activationPassword,
        new_password_retry: secrets.activationPassword,
      }),
    );
    secrets.monaSession = mona.cookie('vigil_session')!;

    // Everything a user or an administrator can read afterwards.
    // (The second browser was signed out by the password change.)
    for (const c of [client, mona, admin]) {
      laterAnswers.push(await c.get('/api/auth/'));
      laterAnswers.push(await c.get('/api/users/me/'));
      laterAnswers.push(await c.post('/api/sessions/check/', {}));
    }
    laterAnswers.push(await admin.post('/api/system_logs/check/?page_size=500', {}));
    laterAnswers.push(await admin.post('/api/users/check/?page_size=500', {}));
    laterAnswers.push(await admin.get(`/api/users/${lena.id}/`));
    for (const answer of laterAnswers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);

    const { rows: auditRows } = await db.query(sql`SELECT * FROM system_logs`);
    expect(auditRows.length).toBeGreaterThanOrEqual(10);
    const places = {
      answers: JSON.stringify(laterAnswers.map((a) => a.body)),
      'system_logs rows': JSON.stringify(auditRows),
      'server log': logText,
    };
    // The log was really written, with the most detailed level on.
    expect(app.log.level).toBe('trace');
    expect(logText).toContain('incoming request');
    expect(logText).toContain('/api/activate/***/');
    for (const [place, text] of Object.entries(places)) {
      for (const [name, secret] of Object.entries(secrets)) {
        expect(text.includes(secret), `${name} appears in ${place}`).toBe(false);
      }
      expect(text, `a password hash appears in ${place}`).not.toMatch(/\$argon2id\$/);
    }
  });
});
