import { createHash, timingSafeEqual } from 'node:crypto';
import type { SsoErrorCode } from '@vigil/contract';
import type { Database } from '../../db/database';
import { recordAudit } from '../audit/audit.service';
import { createSession } from '../sessions/sessions.service';
import { recordLoginSuccess } from '../users/users.service';
import { finishAuthorization, isAuthorizationResponseError, OidcProviders, startAuthorization } from './sso.oidc';
import { findEnabledSettings, insertLoginState, takeLoginState } from './sso.repository';
import { resolveSsoUser, safeNextPath } from './sso.service';

/** How long a sign-in may stay at the provider before its state is forgotten. */
export const LOGIN_STATE_SECONDS = 10 * 60;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Why a sign-in through the provider stopped: the code the login screen shows, and what the log says. */
export interface SsoRefusal {
  ok: false;
  code: SsoErrorCode;
  reason: string;
  error?: unknown;
}

const refusal = (code: SsoErrorCode, reason: string, error?: unknown): SsoRefusal => ({
  ok: false,
  code,
  reason,
  ...(error === undefined ? {} : { error }),
});

/** The browser making the request, as the sign-in records it. */
export interface SsoClient {
  ip: string;
  userAgent: string;
}

/**
 * Signing in with a company's provider (authorization code flow with PKCE, state and nonce): the
 * start keeps the verifier and nonce server-side under the hash of the state; the finish checks
 * that the state belongs to a sign-in this browser started, lets openid-client exchange the code
 * and validate the ID token, maps the identity to a user of the same company and starts a session.
 */
export class SsoLoginService {
  private readonly providers = new OidcProviders();

  constructor(private readonly db: Database) {}

  /** Starts a sign-in: answers the provider address to send the browser to, and the state to keep. */
  async start(
    companyId: number,
    next: string | undefined,
    redirectUri: string,
  ): Promise<{ ok: true; url: string; state: string } | SsoRefusal> {
    const settings = await findEnabledSettings(this.db, companyId);
    if (!settings) return refusal('unavailable', 'company has no enabled single sign-on');
    try {
      const configuration = await this.providers.configuration(settings);
      const start = await startAuthorization(configuration, redirectUri, settings.scopes);
      await insertLoginState(
        this.db,
        sha256(start.state),
        {
          company_id: settings.company_id,
          code_verifier: start.codeVerifier,
          nonce: start.nonce,
          redirect_uri: redirectUri,
          next_path: safeNextPath(next),
        },
        LOGIN_STATE_SECONDS,
      );
      return { ok: true, url: start.url.href, state: start.state };
    } catch (error) {
      return refusal('unavailable', `provider ${settings.issuer} could not be used`, error);
    }
  }

  /**
   * Finishes a sign-in from the provider's answer (`search`: the callback's query string, with its
   * `?`). Answers the new session's token and where to go, or why it was refused.
   */
  async finish(
    state: string,
    browserState: string,
    search: string,
    client: SsoClient,
  ): Promise<{ ok: true; token: string; nextPath: string | null } | SsoRefusal> {
    if (!state || !browserState || !sameSecret(state, browserState)) {
      return refusal('invalid_state', 'state does not match this browser');
    }
    const pending = await takeLoginState(this.db, sha256(state));
    if (!pending) return refusal('invalid_state', 'unknown or expired state');
    const settings = await findEnabledSettings(this.db, pending.company_id);
    if (!settings) return refusal('unavailable', 'single sign-on was disabled meanwhile');

    let claims;
    try {
      const configuration = await this.providers.configuration(settings);
      const answer = new URL(pending.redirect_uri);
      answer.search = search;
      claims = await finishAuthorization(configuration, answer, {
        state,
        nonce: pending.nonce,
        codeVerifier: pending.code_verifier,
      });
    } catch (error) {
      if (isAuthorizationResponseError(error)) {
        return refusal(
          error.error === 'access_denied' ? 'denied' : 'provider_error',
          `provider answered ${error.error}`,
        );
      }
      return refusal('provider_error', 'code exchange or ID token refused', error);
    }

    try {
      const outcome = await this.db.transaction(async (tx) => {
        const resolved = await resolveSsoUser(tx, settings, claims);
        if (!resolved.ok) return resolved;
        const { user } = resolved;
        const who = { userId: user.id, username: user.username, impersonatorId: null, ip: client.ip };
        if (resolved.created) {
          await recordAudit(tx, who, {
            action: 'create',
            objectType: 'user',
            objectId: user.id,
            objectRepr: user.username,
            companyId: user.company_id,
            after: {
              username: user.username,
              email: user.email,
              via: 'sso',
              default_role_id: settings.default_role_id,
            },
          });
        }
        // The provider did the strong authentication, so the session counts as two-factor passed.
        const token = await createSession(tx, user.id, {
          ip: client.ip,
          userAgent: client.userAgent,
          twoFactorPassed: true,
        });
        await recordLoginSuccess(tx, user.id);
        await recordAudit(tx, who, {
          action: 'login',
          objectType: 'user',
          objectId: user.id,
          objectRepr: user.username,
          companyId: user.company_id,
          after: { via: 'sso', issuer: settings.issuer, ...(resolved.linked ? { sso_linked: true } : {}) },
        });
        return { ok: true as const, token };
      });
      if (!outcome.ok) return refusal(outcome.error, outcome.reason);
      return { ok: true, token: outcome.token, nextPath: pending.next_path };
    } catch (error) {
      return refusal('server_error', 'signing the user in failed', error);
    }
  }
}
