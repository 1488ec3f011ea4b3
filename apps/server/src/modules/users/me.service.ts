import type { CurrentUser, ProfileUpdate } from '@vigil/contract';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { permissionsOf } from '../roles/permission-rules';
import { activeSessions, countActiveSessions } from '../sessions/sessions.repository';
import { ssoAuthorizeUrlFor } from '../sso/sso.service';
import { companiesOfScope, findMe, findUsername, lockProfile, profileColumns, updateProfile } from './users.repository';

/** Whether a name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}

/** The signed-in user's own data: what the console reads at start-up, and the profile's edits. */
export class MeService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'publicUrl'>,
  ) {}

  async current(actor: Actor): Promise<CurrentUser> {
    const { db } = this;
    const me = await findMe(db, actor.userId);
    if (!me) throw notFound();
    const impersonator = actor.impersonatorId ? await findUsername(db, actor.impersonatorId) : null;
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
      companies: await companiesOfScope(db, actor.scope),
      mailing_setting: me.mailing_setting,
      two_factor_enabled: me.otp_secret !== null,
      sessions: await activeSessions(db, actor),
      sessions_count: await countActiveSessions(db, actor),
      ts_password_updated: me.password_changed_at?.toISOString() ?? null,
      critan: me.critan,
      telephone_notifications_settings: me.telephone_notifications_settings,
      permissions: permissionsOf(actor),
      privileged_settings: me.privileged_settings,
      is_superuser: me.is_superuser,
      all_companies: me.all_companies,
      sso_authorize_url: await ssoAuthorizeUrlFor(db, this.config, actor.userId),
      two_factor_passed: actor.twoFactorPassed,
      password_expired: actor.passwordExpired,
      impersonator,
      label: { company_name: me.label_name ?? me.provider_label },
    };
  }

  /** Changes the caller's own profile fields, audited as `update_profile`. */
  async updateProfile(actor: Actor, audit: AuditContext, input: ProfileUpdate): Promise<void> {
    if (input.time_zone !== undefined && input.time_zone !== null && !isTimeZone(input.time_zone)) {
      throw ValidationError.field('time_zone', `Attempt to set invalid timeZone ${input.time_zone}`);
    }
    await this.db.transaction(async (tx) => {
      const before = await lockProfile(tx, actor.userId);
      if (!before) throw notFound();
      if (!(await updateProfile(tx, actor.userId, input))) return;
      const after = Object.fromEntries(profileColumns.map((c) => [c, input[c] === undefined ? before[c] : input[c]]));
      await recordAudit(tx, audit, {
        action: 'update_profile',
        objectType: 'user',
        objectId: actor.userId,
        objectRepr: actor.username,
        companyId: Number(before.company_id),
        before: Object.fromEntries(profileColumns.map((c) => [c, before[c]])),
        after,
      });
    });
  }
}
