import { useSyncExternalStore, type ReactNode } from 'react';
import { ability, type AppAbility, type PermissionCheck, type Subject } from './ability';

/**
 * Marks the part of the tree that checks permissions (done once, in the root). The console has one
 * ability, the module's `ability`; the components below follow its updates.
 */
export function AbilityProvider({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

/** The ability, re-rendering the component whenever the rules change. */
export function useAbility(): AppAbility {
  // Each update is a new number: the component renders again even when the rules look the same.
  useSyncExternalStore(subscribeToUpdates, updateCount);
  return ability;
}

let updates = 0;
ability.subscribe(() => {
  updates += 1;
});
const updateCount = () => updates;
const subscribeToUpdates = (listener: () => void) => ability.subscribe(listener);

type CanProps = {
  /** The action (`do` says the same). */
  I?: string;
  do?: string;
  /** The subject (`an`, `this` and `on` say the same). */
  a?: Subject;
  an?: Subject;
  this?: Subject;
  on?: Subject;
  /** Renders when the user may NOT. */
  not?: boolean;
  /** Always renders the children, telling a function child whether the user may. */
  passThrough?: boolean;
  children?: ReactNode | ((allowed: boolean, current: AppAbility) => ReactNode);
};

/** `<Can I="view" a="users">…</Can>`: renders its children only when the user may. */
export function Can(props: CanProps) {
  const current = useAbility();
  const action = props.I ?? props.do ?? '';
  const subject = props.a ?? props.an ?? props.this ?? props.on;
  const may = subject !== undefined && current.can(action, subject);
  const allowed = props.not ? !may : may;
  const { children } = props;
  if (typeof children === 'function') return <>{allowed || props.passThrough ? children(allowed, current) : null}</>;
  return <>{allowed || props.passThrough ? children : null}</>;
}

/** Whether the user may do something; `undefined` (nothing required) is always allowed. */
export function usePermission(check: PermissionCheck | undefined): boolean {
  const current = useAbility();
  return check === undefined || current.can(check.action, check.subject);
}
