import { endpointActions, isEndpointAction } from '@vigil/contract/client';
import type { TFunction } from '../../../lib/i18n';

/**
 * An endpoint action as people read it, in the console's language. Events stored before the one
 * vocabulary may hold another word: it is shown as it was stored.
 */
export function actionLabel(t: TFunction, action: string | null | undefined): string | null {
  if (action === null || action === undefined) return null;
  return isEndpointAction(action) ? t(`endpointActions.${action}`) : action;
}

/** Every action of the vocabulary with its name, sorted by name: the choices of the action filter. */
export function actionOptions(t: TFunction): { value: string; label: string }[] {
  return endpointActions
    .map((action) => ({ value: action, label: t(`endpointActions.${action}`) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
