import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

/** What the OpenID Connect client needs of a company's settings. */
export interface OidcClientSettings {
  issuer: string;
  client_id: string;
  /** Empty for a public client (PKCE only); otherwise sent with HTTP Basic authentication (client_secret_basic). */
  client_secret: string;
}

/** The claims Vigil uses from the ID token (and the userinfo endpoint when they are not in it). */
export interface IdentityClaims {
  subject: string;
  email: string | null;
  /** `false` only when the provider says the address is not verified; absent counts as verified. */
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

/** Seconds any call to a provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** How long a discovered configuration is reused before the issuer is asked again. */
const CONFIGURATION_TTL_MS = 60 * 60 * 1000;
/** Configurations remembered at most (the oldest is forgotten first). */
const MAX_CONFIGURATIONS = 500;

/** Whether the issuer is plain http (accepted on loopback only, see the contract). */
const insecure = (issuer: string) => issuer.startsWith('http:');

interface CachedConfiguration {
  configuration: Promise<oidc.Configuration>;
  fetchedAt: number;
}

/**
 * OpenID provider configurations known to this process, one per issuer and client: the discovered
 * metadata (`/.well-known/openid-configuration`) and, inside openid-client's configuration, the
 * provider's signing keys — so a sign-in does not fetch both every time. A changed issuer, client
 * id or secret gives a new entry; a failed discovery is not kept.
 */
export class OidcProviders {
  private readonly cache = new Map<string, CachedConfiguration>();

  /** A client configuration for a company's settings (discovers the issuer when needed). */
  configuration(settings: OidcClientSettings): Promise<oidc.Configuration> {
    const key = JSON.stringify([
      settings.issuer,
      settings.client_id,
      createHash('sha256').update(settings.client_secret).digest('hex'),
    ]);
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.fetchedAt < CONFIGURATION_TTL_MS) return cached.configuration;
    if (this.cache.size >= MAX_CONFIGURATIONS) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    const configuration = oidc
      .discovery(
        new URL(settings.issuer),
        settings.client_id,
        settings.client_secret ? { client_secret: settings.client_secret } : undefined,
        settings.client_secret ? oidc.ClientSecretBasic(settings.client_secret) : oidc.None(),
        {
          execute: insecure(settings.issuer) ? [oidc.allowInsecureRequests] : [],
          timeout: PROVIDER_TIMEOUT_SECONDS,
        },
      )
      .then((discovered) => {
        discovered.timeout = PROVIDER_TIMEOUT_SECONDS;
        return discovered;
      });
    const entry: CachedConfiguration = { configuration, fetchedAt: Date.now() };
    this.cache.delete(key);
    this.cache.set(key, entry);
    configuration.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return configuration;
  }
}

/** Everything a sign-in must remember between the redirect and the callback. */
export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Builds the provider's authorization URL with PKCE (S256), state and nonce. */
export async function startAuthorization(
  configuration: oidc.Configuration,
  redirectUri: string,
  scopes: string,
): Promise<AuthorizationStart> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Finishes a sign-in: validates the authorization response (state, issuer), exchanges the code
 * with the PKCE verifier, validates the ID token (signature, issuer, audience, expiry, nonce) and
 * reads the identity. Claims missing from the ID token are read from the userinfo endpoint, as many
 * providers only put `sub` in it. Throws openid-client's errors on any failure.
 */
export async function finishAuthorization(
  configuration: oidc.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<IdentityClaims> {
  const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.codeVerifier,
    idTokenExpected: true,
  });
  const idToken = tokens.claims();
  if (!idToken) throw new Error('the provider answered without an ID token');
  let claims: Record<string, unknown> = idToken;
  if (!text(idToken.email) && tokens.access_token && configuration.serverMetadata().userinfo_endpoint) {
    const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
    claims = { ...userinfo, ...idToken };
  }
  return {
    subject: idToken.sub,
    email: text(claims.email) || null,
    emailVerified: claims.email_verified !== false && claims.email_verified !== 'false',
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
  };
}

/** Whether a failure is the provider's answer to the authorization request (cancelled, refused). */
export function isAuthorizationResponseError(error: unknown): error is oidc.AuthorizationResponseError {
  return error instanceof oidc.AuthorizationResponseError;
}
