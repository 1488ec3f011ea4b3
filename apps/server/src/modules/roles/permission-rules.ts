import { actionsOf, findResourceKind, resourceKinds, type Permission } from '@vigil/contract';
import type { Actor } from '../../http/actor';
import { inScope, seesAllCompanies } from '../../http/tenancy';

/**
 * Checks role permissions against the resource registry: every basename must be a known resource
 * kind and every action one it has. Returns field errors keyed `permissions.<index>`.
 */
export function permissionErrors(permissions: readonly Permission[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  permissions.forEach((entry, index) => {
    const kind = findResourceKind(entry.basename);
    if (!kind) {
      errors[`permissions.${index}.basename`] = [`"${entry.basename}" is not a resource kind.`];
      return;
    }
    const allowed = actionsOf(kind);
    const unknown = entry.actions.filter((a) => !allowed.includes(a));
    if (unknown.length > 0) {
      errors[`permissions.${index}.actions`] = [
        `${entry.basename} has no action ${unknown.map((a) => `"${a}"`).join(', ')}; it has ${allowed.join(', ')}.`,
      ];
    }
  });
  return errors;
}

/** Merges duplicate basenames and drops empty entries, in registry order. */
export function normalisePermissions(permissions: readonly Permission[]): Permission[] {
  const merged = new Map<string, Set<string>>();
  for (const entry of permissions) {
    const set = merged.get(entry.basename) ?? new Set<string>();
    for (const action of entry.actions) set.add(action);
    merged.set(entry.basename, set);
  }
  const order = resourceKinds.map((k) => k.basename as string);
  return [...merged]
    .filter(([, actions]) => actions.size > 0)
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([basename, actions]) => ({ basename, actions: [...actions] }));
}

/** The actor's own permissions as entries; a superuser has every action on every resource kind. */
export function permissionsOf(actor: Actor): Permission[] {
  if (actor.isSuperuser) return resourceKinds.map((k) => ({ basename: k.basename, actions: actionsOf(k) }));
  return normalisePermissions(
    [...actor.permissions].map(([basename, actions]) => ({ basename, actions: [...actions] })),
  );
}

/** Entries the actor could not grant because it does not hold them itself (no privilege escalation). */
export function beyondActor(actor: Actor, permissions: readonly Permission[]): string[] {
  if (actor.isSuperuser) return [];
  const missing: string[] = [];
  for (const entry of permissions) {
    const held = actor.permissions.get(entry.basename);
    for (const action of entry.actions) if (!held?.has(action)) missing.push(`${entry.basename}:${action}`);
  }
  return missing;
}

/** What a user may see and do: what an administrator is measured against before changing that user. */
export interface UserReach {
  isSuperuser: boolean;
  allCompanies: boolean;
  /** The user's own company and the companies granted to it. */
  companyIds: readonly number[];
  /** The permissions of the user's roles. */
  permissions: readonly Permission[];
}

/**
 * The one rule for acting on another user (changing any field, its roles or flags, archiving,
 * resetting its two-factor or sign-in, unlocking, acting as it): the actor must hold everything the
 * user holds — superuser rank, every permission, every company it sees. Otherwise whoever changed,
 * say, its e-mail address could take over an account stronger than their own. Answers why not, or
 * null when the actor may.
 */
export function outranksActor(actor: Actor, user: UserReach): string | null {
  if (actor.isSuperuser) return null;
  if (user.isSuperuser) return 'Only a superuser can change a superuser.';
  const missing = beyondActor(actor, user.permissions);
  if (missing.length > 0) {
    return `This user holds permissions you do not have (${[...new Set(missing)].join(', ')}), so you cannot change it.`;
  }
  if (user.allCompanies && !seesAllCompanies(actor.scope)) {
    return 'This user sees every company and you do not, so you cannot change it.';
  }
  if (user.companyIds.some((id) => !inScope(actor.scope, id))) {
    return 'This user sees companies you do not, so you cannot change it.';
  }
  return null;
}
