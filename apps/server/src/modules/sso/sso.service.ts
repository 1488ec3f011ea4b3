import { randomUUID } from 'node:crypto';
import {
  hasControlCharacters,
  type SsoErrorCode,
  type SsoPasswordResetAnswer,
  type SsoSettings,
  type SsoSettingsUpdate,
} from '@vigil/contract';
import type { Config } from '../../config';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import { notFound, ValidationError } from '../../http/errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { endUserSessions } from '../sessions/sessions.service';
import {
  assertCanManage,
  insertSsoUser,
  linkSubject,
  unlinkCompanyUsers,
  unlinkUser,
  type SsoUserRow,
} from '../users/users.service';
import type { IdentityClaims } from './sso.oidc';
import {
  companyOfLogin,
  companyOfUser,
  deleteSettings,
  findCompanyInScope,
  findEnabledSettings,
  findSettings,
  findUserInScope,
  saveSettings,
  findUserByEmail,
  findUserBySubject,
  isRoleOfCompany,
  usernameTaken,
  type SsoSettingsRow,
  type SsoSettingsValues,
} from './sso.repository';

export const DEFAULT_SCOPES = 'openid email profile';
export const LOGIN_PATH = '/api/sso/login/';
export const CALLBACK_PATH = '/api/sso/callback/';

/** Where the console sends the browser to sign in with a company's provider. */
export function loginUrlFor(config: Pick<Config, 'publicUrl'>, companyId: number): string {
  return `${config.publicUrl ?? ''}${LOGIN_PATH}?company=${companyId}`;
}

/**
 * For a user whose company uses single sign-on (enabled, company active), the URL the console
 * should send the browser to; null for everyone else. Relative when PUBLIC_URL is not set.
 */
export async function ssoAuthorizeUrlFor(
  db: Queryable,
  config: Pick<Config, 'publicUrl'>,
  userId: number,
): Promise<string | null> {
  const companyId = await companyOfUser(db, userId);
  if (companyId === null) return null;
  return (await findEnabledSettings(db, companyId)) ? loginUrlFor(config, companyId) : null;
}

/**
 * The provider page where a user changes its password: the configured one, else `<issuer>/account`
 * (the account console of Keycloak-style providers; set `password_change_url` for other providers).
 */
export function passwordChangeUrlOf(settings: Pick<SsoSettingsRow, 'issuer' | 'password_change_url'>): string {
  return settings.password_change_url ?? `${settings.issuer.replace(/\/+$/, '')}/account`;
}

/**
 * A path of this console to return to after signing in, or null. Only same-site absolute paths
 * pass (`/alerts?x=1`); `//host`, `/\host`, schemes and control characters are refused, so the
 * redirect can never leave the site.
 */
export function safeNextPath(value: string | undefined): string | null {
  if (!value || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\s\\]/.test(value) || hasControlCharacters(value)) return null;
  try {
    const base = new URL('http://vigil.invalid');
    const resolved = new URL(value, base);
    if (resolved.origin !== base.origin) return null;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return null;
  }
}

/** A username made from an e-mail address: lower-cased, characters usernames allow only. */
export function usernameFromEmail(email: string): string {
  const cleaned = email
    .toLowerCase()
    .replace(/[^a-z0-9._@+-]/g, '_')
    .slice(0, 140);
  return cleaned.length >= 2 ? cleaned : `sso_${cleaned}`;
}

async function freeUsername(db: Queryable, email: string): Promise<string> {
  const base = usernameFromEmail(email);
  if (!(await usernameTaken(db, base))) return base;
  for (let n = 2; n < 100; n++) {
    const candidate = `${base}-${n}`;
    if (!(await usernameTaken(db, candidate))) return candidate;
  }
  return `${base}-${randomUUID().slice(0, 8)}`;
}

/** The settings as answered: defaults when none are stored, and never the secret. */
export function toSsoSettings(companyId: number, row: SsoSettingsRow | null, redirectUri: string): SsoSettings {
  if (!row) {
    return {
      company_id: companyId,
      configured: false,
      enabled: false,
      issuer: null,
      client_id: null,
      client_secret_set: false,
      scopes: DEFAULT_SCOPES,
      jit_create: false,
      default_role_id: null,
      password_change_url: null,
      redirect_uri: redirectUri,
      updated_at: null,
    };
  }
  return {
    company_id: row.company_id,
    configured: true,
    enabled: row.enabled,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.client_secret !== '',
    scopes: row.scopes,
    jit_create: row.jit_create,
    default_role_id: row.default_role_id,
    password_change_url: row.password_change_url,
    redirect_uri: redirectUri,
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Merges a change into the stored settings (or the defaults) and checks the whole: issuer and
 * client id are needed, the default role must belong to the company, and creating users at first
 * sign-in needs a default role. Throws a 400 naming every field at fault.
 */
export async function mergeSettings(
  db: Queryable,
  companyId: number,
  existing: SsoSettingsRow | null,
  update: SsoSettingsUpdate,
): Promise<SsoSettingsValues> {
  const merged = {
    enabled: update.enabled ?? existing?.enabled ?? true,
    issuer: update.issuer ?? existing?.issuer ?? null,
    client_id: update.client_id ?? existing?.client_id ?? null,
    client_secret: update.client_secret ?? existing?.client_secret ?? '',
    scopes: update.scopes ?? existing?.scopes ?? DEFAULT_SCOPES,
    jit_create: update.jit_create ?? existing?.jit_create ?? false,
    default_role_id:
      update.default_role_id !== undefined ? update.default_role_id : (existing?.default_role_id ?? null),
    password_change_url:
      update.password_change_url !== undefined ? update.password_change_url : (existing?.password_change_url ?? null),
  };
  const errors: Record<string, string[]> = {};
  if (merged.issuer === null) errors.issuer = ["Enter the provider's issuer URL."];
  if (merged.client_id === null) errors.client_id = ['Enter the client id registered at the provider.'];
  if (merged.default_role_id !== null && !(await isRoleOfCompany(db, merged.default_role_id, companyId))) {
    errors.default_role_id = ['Choose a role of this company.'];
  }
  if (merged.jit_create && merged.default_role_id === null) {
    errors.default_role_id = ['Choose the role given to users created at their first sign-in.'];
  }
  if (merged.issuer === null || merged.client_id === null || Object.keys(errors).length > 0) {
    throw new ValidationError(errors);
  }
  return { ...merged, issuer: merged.issuer, client_id: merged.client_id };
}

/** The outcome of mapping a provider identity to a user of the company. */
export type SsoUserResolution =
  | { ok: true; user: SsoUserRow; created: boolean; linked: boolean }
  | { ok: false; error: SsoErrorCode; reason: string };

/**
 * Finds (or creates) the user a provider identity signs in, within the company whose provider it
 * came from:
 * 1. the user of that company already linked to the identity's `sub`;
 * 2. else the user whose e-mail (case-insensitive) equals the identity's, if it is of that company
 *    and not linked to another identity; it gets linked;
 * 3. else, when the company creates users at first sign-in, a new user of that company with the
 *    default role (username from the e-mail), linked.
 * A user of another company is never signed in, and an e-mail the provider marks unverified is
 * not used. Archived users are refused. Run it inside the sign-in transaction.
 */
export async function resolveSsoUser(
  tx: Queryable,
  settings: SsoSettingsRow,
  claims: IdentityClaims,
): Promise<SsoUserResolution> {
  const linked = await findUserBySubject(tx, settings.company_id, claims.subject);
  if (linked) {
    return linked.archived
      ? { ok: false, error: 'account_disabled', reason: 'linked user is archived' }
      : { ok: true, user: linked, created: false, linked: false };
  }
  if (!claims.email || claims.email.length > 254 || !claims.emailVerified) {
    return { ok: false, error: 'email_missing', reason: claims.email ? 'e-mail not verified' : 'no e-mail claim' };
  }
  const byEmail = await findUserByEmail(tx, claims.email);
  if (byEmail) {
    if (byEmail.company_id !== settings.company_id) {
      return { ok: false, error: 'no_account', reason: "e-mail belongs to another company's user" };
    }
    if (byEmail.archived) return { ok: false, error: 'account_disabled', reason: 'user is archived' };
    if (byEmail.sso_subject !== null) {
      return { ok: false, error: 'subject_mismatch', reason: 'user is linked to another provider identity' };
    }
    await linkSubject(tx, byEmail.id, claims.subject);
    return { ok: true, user: { ...byEmail, sso_subject: claims.subject }, created: false, linked: true };
  }
  if (!settings.jit_create) return { ok: false, error: 'no_account', reason: 'no user with that e-mail' };
  const user = await insertSsoUser(tx, {
    companyId: settings.company_id,
    username: await freeUsername(tx, claims.email),
    email: claims.email,
    firstName: claims.givenName.slice(0, 150),
    lastName: claims.familyName.slice(0, 150),
    subject: claims.subject,
    roleId: settings.default_role_id,
  });
  return { ok: true, user, created: true, linked: true };
}

/** The settings fields an audit record shows: everything an administrator sets, but the secret. */
function auditView(settings: SsoSettings | null): Record<string, unknown> | null {
  if (!settings?.configured) return null;
  return {
    enabled: settings.enabled,
    issuer: settings.issuer,
    client_id: settings.client_id,
    client_secret_set: settings.client_secret_set,
    scopes: settings.scopes,
    jit_create: settings.jit_create,
    default_role_id: settings.default_role_id,
    password_change_url: settings.password_change_url,
  };
}

/**
 * A company's provider settings, and what single sign-on changes about passwords: each change in
 * one transaction with its audit record. `redirectUri` is the callback address to show.
 */
export class SsoService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'publicUrl'>,
  ) {}

  async settings(actor: Actor, companyId: number, redirectUri: string): Promise<SsoSettings> {
    if (!(await findCompanyInScope(this.db, actor.scope, companyId))) throw notFound();
    return toSsoSettings(companyId, await findSettings(this.db, companyId), redirectUri);
  }

  async saveSettings(
    actor: Actor,
    audit: AuditContext,
    companyId: number,
    update: SsoSettingsUpdate,
    redirectUri: string,
  ): Promise<SsoSettings> {
    const saved = await this.db.transaction(async (tx) => {
      const company = await findCompanyInScope(tx, actor.scope, companyId, true);
      if (!company) throw notFound();
      const before = await findSettings(tx, companyId, true);
      const values = await mergeSettings(tx, companyId, before, update);
      const after = await saveSettings(tx, companyId, values);
      // Subjects are only unique per issuer: with a new provider, users map by e-mail again.
      const unlinked = before && before.issuer !== after.issuer ? await unlinkCompanyUsers(tx, companyId) : 0;
      await recordAudit(tx, audit, {
        action: before ? 'update' : 'create',
        objectType: 'company_sso',
        objectId: companyId,
        objectRepr: company.name,
        companyId,
        before: auditView(before && toSsoSettings(companyId, before, '')),
        after: {
          ...auditView(toSsoSettings(companyId, after, '')),
          ...(update.client_secret !== undefined ? { client_secret_changed: true } : {}),
          ...(unlinked > 0 ? { users_unlinked: unlinked } : {}),
        },
      });
      return after;
    });
    return toSsoSettings(companyId, saved, redirectUri);
  }

  async removeSettings(actor: Actor, audit: AuditContext, companyId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await findCompanyInScope(tx, actor.scope, companyId, true);
      if (!company) throw notFound();
      const before = await findSettings(tx, companyId, true);
      if (!before) throw notFound('This company has no single sign-on settings.');
      await deleteSettings(tx, companyId);
      await unlinkCompanyUsers(tx, companyId);
      await recordAudit(tx, audit, {
        action: 'delete',
        objectType: 'company_sso',
        objectId: companyId,
        objectRepr: company.name,
        companyId,
        before: auditView(toSsoSettings(companyId, before, '')),
      });
    });
  }

  /**
   * Where the login screen sends someone who typed `login`, when its company signs in through its
   * provider. Unknown users, archived users and users of companies without SSO all get null alike.
   */
  async authorizeUrlForLogin(login: string): Promise<string | null> {
    const companyId = await companyOfLogin(this.db, login);
    const enabled = companyId !== null && (await findEnabledSettings(this.db, companyId)) !== null;
    return enabled && companyId !== null ? loginUrlFor(this.config, companyId) : null;
  }

  /** The provider page where the signed-in user changes its password. */
  async passwordChangeUrl(actor: Actor): Promise<string> {
    const settings = await findEnabledSettings(this.db, actor.companyId);
    if (!settings) throw ValidationError.field('non_field_errors', 'Your company does not use single sign-on.');
    return passwordChangeUrlOf(settings);
  }

  /**
   * "Reset SSO password" of another user. Vigil holds no provider password, so it does what is in
   * its power and the administrator resets the password at the provider:
   * - the link between the user and its provider identity (`sso_subject`) is removed, so the next
   *   SSO sign-in maps the user by e-mail again (an identity re-created at the provider works);
   * - every open session of the user ends, so whoever held them must sign in again;
   * - the action is audited. The answer carries the provider's password page.
   */
  async resetPassword(actor: Actor, audit: AuditContext, userId: number): Promise<SsoPasswordResetAnswer> {
    const result = await this.db.transaction(async (tx) => {
      const user = await findUserInScope(tx, actor.scope, userId);
      if (!user) throw notFound();
      await assertCanManage(tx, actor, user.id);
      const settings = await findSettings(tx, user.company_id);
      if (!settings) {
        throw ValidationError.field('non_field_errors', "This user's company does not use single sign-on.");
      }
      const unlinked = await unlinkUser(tx, user.id);
      const sessionsEnded = await endUserSessions(tx, user.id, null);
      await recordAudit(tx, audit, {
        action: 'reset_sso_password',
        objectType: 'user',
        objectId: user.id,
        objectRepr: user.username,
        companyId: user.company_id,
        before: { sso_linked: user.sso_subject !== null },
        after: { sso_linked: false, sessions_ended: sessionsEnded },
      });
      return { username: user.username, unlinked, sessionsEnded, url: passwordChangeUrlOf(settings) };
    });
    return {
      sessions_ended: result.sessionsEnded,
      unlinked: result.unlinked,
      url: result.url,
      messages: [
        {
          title: 'Single sign-on reset',
          message: `${result.username} was signed out and will be matched by e-mail at the next single sign-on. Reset the password at the provider.`,
          type: 'success',
        },
      ],
    };
  }
}
