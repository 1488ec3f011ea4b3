import { currentUserSchema, profileUpdateSchema, type CurrentUser, type ProfileUpdate } from '@vigil/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import type { Queryable } from '../../db/database';
import { sql } from '../../db/sql';
import { requireActor, type Actor } from '../../http/actor';
import { parseOrThrow, ValidationError } from '../../http/errors';
import { auditContextOf, recordAudit } from '../audit/audit.repository';
import { permissionsOf } from '../roles/permission-rules';
import { activeSessions, countActiveSessions } from '../sessions/sessions.repository';
import { ssoAuthorizeUrlFor } from '../sso/sso.service';

interface MeRow {
  id: number;
  username: string;
  email: string | null;
  first_name: string;
  last_name: string;
  phone: string;
  time_zone: string | null;
  theme: CurrentUser['theme'];
  locale: CurrentUser['locale'];
  ip_whitelist: string[];
  token_created_at: Date | null;
  company_id: number;
  mailing_setting: CurrentUser['mailing_setting'];
  otp_secret: string | null;
  password_changed_at: Date | null;
  critan: boolean;
  telephone_notifications_settings: CurrentUser['telephone_notifications_settings'];
  privileged_settings: Record<string, boolean>;
  is_superuser: boolean;
  all_companies: boolean;
  label_name: string | null;
  provider_label: string | null;
}

/** Whether a name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}

async function currentUser(db: Queryable, deps: AppDeps, actor: Actor): Promise<CurrentUser> {
  const { rows } = await db.query<MeRow>(sql`
    SELECT u.id, u.username, u.email, u.first_name, u.last_name, u.phone, u.time_zone, u.theme, u.locale, u.ip_whitelist,
           u.token_created_at, u.company_id, u.mailing_setting, u.otp_secret, u.password_changed_at, u.critan,
           u.telephone_notifications_settings, u.privileged_settings, u.is_superuser, u.all_companies, c.label_name,
           (SELECT p.label_name FROM companies p WHERE p.kind = 'provider') AS provider_label
    FROM users u JOIN companies c ON c.id = u.company_id WHERE u.id = ${actor.userId}`);
  const me = rows[0]!;
  const companies = await db.query<{ id: number; name: string; kind: 'provider' | 'customer' }>(sql`
    SELECT c.id, c.name, c.kind FROM companies c
    WHERE c.is_active AND ${actor.scope.companies === 'all' ? sql`TRUE` : sql`c.id = ANY(${[...actor.scope.companies]}::int8[])`}
    ORDER BY c.kind DESC, lower(c.name) LIMIT 1000`);
  const sessions = await activeSessions(db, actor);
  const sessionsCount = await countActiveSessions(db, actor);
  const impersonator = actor.impersonatorId
    ? ((
        await db.query<{ id: number; username: string }>(
          sql`SELECT id, username FROM users WHERE id = ${actor.impersonatorId}`,
        )
      ).rows[0] ?? null)
    : null;
  return {
    id: me.id,
    username: me.username,
    email: me.email,
    first_name: me.first_name,
    last_name: me.last_name,
    phone: me.phone,
    time_zone: me.time_zone,
    theme: me.theme,
    locale: me.locale,
    ip_whitelist: me.ip_whitelist,
    token_creation_ts: me.token_created_at?.toISOString() ?? null,
    company_id: me.company_id,
    companies: companies.rows,
    mailing_setting: me.mailing_setting,
    two_factor_enabled: me.otp_secret !== null,
    sessions,
    sessions_count: sessionsCount,
    ts_password_updated: me.password_changed_at?.toISOString() ?? null,
    critan: me.critan,
    telephone_notifications_settings: me.telephone_notifications_settings,
    permissions: permissionsOf(actor),
    privileged_settings: me.privileged_settings,
    is_superuser: me.is_superuser,
    all_companies: me.all_companies,
    sso_authorize_url: await ssoAuthorizeUrlFor(db, deps.config, actor.userId),
    two_factor_passed: actor.twoFactorPassed,
    password_expired: actor.passwordExpired,
    impersonator,
    label: { company_name: me.label_name ?? me.provider_label },
  };
}

const profileColumns = [
  'first_name',
  'last_name',
  'phone',
  'time_zone',
  'theme',
  'locale',
  'mailing_setting',
  'telephone_notifications_settings',
  'critan',
] as const satisfies readonly (keyof ProfileUpdate)[];

/** The signed-in user's own data: read by the console at start-up, and the profile page's edits. */
export async function registerMe(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const reduced = { config: { reducedApp: true } };

  // The console asks for the current user often; the answer is remembered with the identity and
  // forgotten with it (any write request clears both).
  app.get('/api/users/me/', reduced, async (request) => {
    const actor = requireActor(request);
    const key = `me:${actor.sessionId ?? `token-user:${actor.userId}`}`;
    const hit = app.identityCache.get<CurrentUser>(key);
    if (hit) return hit;
    const mark = app.identityCache.mark();
    // Checked against the contract once when built; a remembered answer is sent as it is.
    const answer = currentUserSchema.parse(await currentUser(db, deps, actor));
    app.identityCache.set(key, answer, mark);
    return answer;
  });

  const update = async (request: FastifyRequest) => {
    const actor = requireActor(request);
    const input = parseOrThrow(profileUpdateSchema, request.body ?? {});
    if (input.time_zone !== undefined && input.time_zone !== null && !isTimeZone(input.time_zone)) {
      throw ValidationError.field('time_zone', `Attempt to set invalid timeZone ${input.time_zone}`);
    }
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<Record<string, unknown>>(sql`
        SELECT ${sql.join(profileColumns.map((c) => sql.ident(c)))}, company_id FROM users WHERE id = ${actor.userId} FOR UPDATE`);
      const before = rows[0]!;
      const sets = profileColumns
        .filter((column) => input[column] !== undefined)
        .map((column) => {
          const value = input[column];
          return typeof value === 'object' && value !== null
            ? sql`${sql.ident(column)} = ${JSON.stringify(value)}::jsonb`
            : sql`${sql.ident(column)} = ${value}`;
        });
      if (sets.length === 0) return;
      await tx.query(sql`UPDATE users SET ${sql.join([...sets, sql`updated_at = now()`])} WHERE id = ${actor.userId}`);
      const after = Object.fromEntries(profileColumns.map((c) => [c, input[c] === undefined ? before[c] : input[c]]));
      await recordAudit(tx, auditContextOf(request), {
        action: 'update_profile',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: Number(before.company_id),
        before: Object.fromEntries(profileColumns.map((c) => [c, before[c]])),
        after,
      });
    });
    return currentUserSchema.parse(await currentUser(db, deps, actor));
  };
  app.put('/api/users/me/', reduced, update);
  app.patch('/api/users/me/', reduced, update);
}
