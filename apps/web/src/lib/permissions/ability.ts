import type { Permission, ResourceBasename } from '@vigil/contract';
import type { Camelize } from '../http';

/** What a permission check names: an action (`view`, `add`, `impersonate`…) on a resource kind's basename. */
export type Subject = ResourceBasename | 'all';

/** What the user may do: some actions on a subject. `manage` stands for every action, `all` for every subject. */
export interface PermissionRule {
  action: string | readonly string[];
  subject: Subject | readonly Subject[];
}

/** The user's rules and the checks against them. */
export interface AppAbility {
  readonly rules: readonly PermissionRule[];
  /** Whether a rule allows `action` on `subject`. */
  can: (action: string, subject: Subject) => boolean;
  cannot: (action: string, subject: Subject) => boolean;
  /** Replaces the rules and tells every listener. */
  update: (rules: readonly PermissionRule[]) => AppAbility;
  /** Calls `listener` after each update; returns the way to stop. */
  subscribe: (listener: () => void) => () => void;
}

const EVERY_ACTION = 'manage';
const EVERY_SUBJECT = 'all';
const listOf = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

/** An ability over `rules`, rebuilt in place by `update`. */
export function createAbility(initial: readonly PermissionRule[] = []): AppAbility {
  let allowed = new Map<string, Set<string>>();
  let current: readonly PermissionRule[] = [];
  const listeners = new Set<() => void>();
  const mayDo = (action: string, subject: string) => {
    const actions = allowed.get(subject);
    return actions !== undefined && (actions.has(action) || actions.has(EVERY_ACTION));
  };
  const self: AppAbility = {
    get rules() {
      return current;
    },
    can: (action, subject) => mayDo(action, subject) || mayDo(action, EVERY_SUBJECT),
    cannot: (action, subject) => !self.can(action, subject),
    update: (rules) => {
      const next = new Map<string, Set<string>>();
      for (const rule of rules) {
        for (const subject of listOf(rule.subject)) {
          const actions = next.get(subject) ?? new Set<string>();
          for (const action of listOf(rule.action)) actions.add(action);
          next.set(subject, actions);
        }
      }
      allowed = next;
      current = rules;
      for (const listener of [...listeners]) listener();
      return self;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return self.update(initial);
}

/** The one ability of the console; rebuilt in place so every `Can` and `useAbility` follows it. */
export const ability: AppAbility = createAbility();

type PermissionEntry = Partial<Camelize<Permission>> | null | undefined;

/**
 * Each entry `{basename, actions}` becomes a rule with the basename as subject and the
 * actions as allowed actions; entries lacking a basename or actions are ignored.
 */
export function rulesFromPermissions(permissions: readonly PermissionEntry[] | null | undefined) {
  const rules: PermissionRule[] = [];
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
 * the main application, so the reduced one does not download the permission checks.
 */
export function connectAbility(
  subscribe: (listener: () => void) => () => void,
  permissions: () => readonly PermissionEntry[] | null | undefined,
): () => void {
  updateAbility(permissions());
  return subscribe(() => updateAbility(permissions()));
}
