import { AbilityProvider as CaslAbilityProvider, Can as CaslCan, useAbility as useCaslAbility } from '@casl/react';
import type { ReactNode } from 'react';
import { ability, type AppAbility, type PermissionCheck } from './ability';

/** Puts the console's ability in the tree (done once, in the root). */
export function AbilityProvider({ children }: { children: ReactNode }) {
  return <CaslAbilityProvider value={ability}>{children}</CaslAbilityProvider>;
}

/** `<Can I="view" a="users">…</Can>`: renders its children only when the user may. */
export const Can = CaslCan;

/** The ability, re-rendering the component whenever the rules change. */
export function useAbility(): AppAbility {
  return useCaslAbility<AppAbility>();
}

/** Whether the user may do something; `undefined` (nothing required) is always allowed. */
export function usePermission(check: PermissionCheck | undefined): boolean {
  const current = useAbility();
  return check === undefined || current.can(check.action, check.subject);
}
