import type { ReducedAppStates } from '@vigil/contract';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { forbidden, HttpError, unauthorized } from './errors';
import type { TenantScope } from './tenancy';

/** Who is calling: resolved once per request from the session cookie or an API token. */
export interface Actor {
  userId: number;
  username: string;
  /** The user's own company. */
  companyId: number;
  isSuperuser: boolean;
  /** Companies whose data the user may see. */
  scope: TenantScope;
  /** basename → allowed actions. */
  permissions: ReadonlyMap<string, ReadonlySet<string>>;
  /** Set while an administrator acts as this user. */
  impersonatorId: number | null;
  /** How the caller proved who it is. */
  via: 'session' | 'token';
  /** Hash of the session token, for session-authenticated callers. */
  sessionId: string | null;
  /** Whether this session has passed two-factor authentication, when the user has it. */
  twoFactorPassed: boolean;
  /** The password must be replaced before anything else (expired, or set by someone else). */
  passwordExpired: boolean;
}

/** What a route needs: a permission on a resource kind, or just a signed-in caller. */
export interface RoutePermission {
  basename: string;
  action: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Permission checked before the handler; routes without one and without `public` need a signed-in caller. */
    permission?: RoutePermission;
    /** Open to callers who are not signed in (sign-in, health, activation). */
    public?: boolean;
    /** Which half-signed-in states the route answers in (the reduced app; see `halfSignedInRefusal`). */
    reducedApp?: ReducedAppStates;
  }
}

/** Whether the actor may perform `action` on resources of kind `basename`. */
export function can(actor: Actor, basename: string, action: string): boolean {
  if (actor.isSuperuser) return true;
  return actor.permissions.get(basename)?.has(action) ?? false;
}

export const twoFactorRequired = () =>
  new HttpError(403, 'Enter the one-time code from your authenticator app first.', 'two_factor_required');
export const passwordExpired = () =>
  new HttpError(403, 'Your password has expired; choose a new one first.', 'password_expired');

/**
 * The one rule for a session that is only half signed in: before the one-time code of the sign-in
 * is given only routes flagged `reducedApp: true` answer; while the password is expired, also those
 * flagged `'password_expired'`. Every other route is refused with the state the session is in. A
 * fully signed-in caller (or an API key, which has no such states) is never refused here.
 */
export function halfSignedInRefusal(actor: Actor, reducedApp: ReducedAppStates | undefined): HttpError | null {
  if (!actor.twoFactorPassed) return reducedApp === true ? null : twoFactorRequired();
  if (actor.passwordExpired) return reducedApp ? null : passwordExpired();
  return null;
}

/** The signed-in caller, or 401. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/** Route guard: 401 when not signed in, 403 without the permission. */
export function requirePermission(basename: string, action: string): preHandlerAsyncHookHandler {
  return async (request) => {
    const actor = requireActor(request);
    if (!can(actor, basename, action)) throw forbidden();
  };
}

/** Route guard: any signed-in caller. */
export const requireSignedIn: preHandlerAsyncHookHandler = async (request) => {
  requireActor(request);
};

/** Absolute URL of the current request without its query string, honouring PUBLIC_URL. */
export function requestUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return `${publicBase(request, publicUrl)}${request.url.split('?')[0] ?? ''}`;
}

/** A route the permission guard protects, as collected at start-up (for the permission matrix). */
export interface GuardedRoute {
  method: string;
  url: string;
  permission: RoutePermission | null;
  public: boolean;
  /** Registered from a contract declaration (`route` in http/endpoints.ts). */
  declared: boolean;
}

/**
 * Installs the one permission guard: every /api/ route is checked before its handler from its
 * `config` — public routes are open, routes with `permission` need it, the rest a signed-in caller.
 * Returns the list of guarded routes, filled as routes are registered.
 */
export function installPermissionGuard(app: FastifyInstance): GuardedRoute[] {
  const routes: GuardedRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const config = (route.config ?? {}) as FastifyContextConfig;
    // The contract declares every endpoint; a route registered any other way would be missing from
    // the reference, the typed client and the answer schemas.
    if (!config.endpoint) {
      throw new Error(
        `${String(route.method)} ${route.url} is not registered from a contract declaration (use route()).`,
      );
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({
        method,
        url: route.url,
        permission: config.permission ?? null,
        public: config.public === true,
        declared: config.endpoint !== undefined,
      });
    }
    if (config.public) return;
    const guard = config.permission
      ? requirePermission(config.permission.basename, config.permission.action)
      : requireSignedIn;
    const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [guard, ...existing];
  });
  return routes;
}

/** Origin users open the console at: PUBLIC_URL when set, else the one this request came to. */
export function publicBase(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
