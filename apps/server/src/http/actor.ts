import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { forbidden, unauthorized } from './errors';
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
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** Whether the actor may perform `action` on resources of kind `basename`. */
export function can(actor: Actor, basename: string, action: string): boolean {
  if (actor.isSuperuser) return true;
  return actor.permissions.get(basename)?.has(action) ?? false;
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
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  return `${base}${request.url.split('?')[0] ?? ''}`;
}
