import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import type { Permission, ResourceBasename } from '@vigil/contract';
import type { Camelize } from '../http';

/** What a permission check names: an action (`view`, `add`, `impersonate`…) on a resource kind's basename. */
export type Subject = ResourceBasename | 'all';
export type AppAbility = MongoAbility<[string, Subject]>;

/** The one ability of the console; rebuilt in place so every `Can` and `useAbility` follows it. */
export const ability: AppAbility = createMongoAbility<[string, Subject]>([]);

type PermissionEntry = Partial<Camelize<Permission>> | null | undefined;

/**
 * Each entry `{basename, actions}` becomes a rule with the basename as subject and the
 * actions as allowed actions; entries lacking a basename or actions are ignored.
 */
export function rulesFromPermissions(permissions: readonly PermissionEntry[] | null | undefined) {
  const rules: RawRuleOf<AppAbility>[] = [];
  for (const entry of permissions ?? []) {
    if (!entry || typeof entry.basename !== 'string' || entry.basename === '') continue;
    if (!Array.isArray(entry.actions) || entry.actions.length === 0) continue;
    const actions = entry.actions.filter((action): action is string => typeof action === 'string' && action !== '');
    if (actions.length === 0) continue;
    rules.push({ action: actions, subject: entry.basename as Subject });
  }
  return rules;
}

/** Replaces the rules; called each time the user's data is set. */
export function updateAbility(permissions: readonly PermissionEntry[] | null | undefined): void {
  ability.update(rulesFromPermissions(permissions));
}

/** A permission a route, menu item or button needs. */
export interface PermissionCheck {
  action: string;
  subject: Subject;
}

/**
 * Rebuilds the rules from the user's permissions now and each time user data is set. Installed by
 * the main application, so the reduced one does not download CASL.
 */
export function connectAbility(
  subscribe: (listener: () => void) => () => void,
  permissions: () => readonly PermissionEntry[] | null | undefined,
): () => void {
  updateAbility(permissions());
  return subscribe(() => updateAbility(permissions()));
}
