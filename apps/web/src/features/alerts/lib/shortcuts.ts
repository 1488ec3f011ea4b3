import type { AlertResolution } from '@vigil/contract';

/** What a key does on the alert queue. */
export type ShortcutAction =
  | 'next'
  | 'previous'
  | 'open'
  | 'toggleSelect'
  | 'assignToMe'
  | 'unassign'
  | 'inProgress'
  | 'resolve'
  | 'close'
  | 'addToIncident'
  | 'addTag'
  | 'graph'
  | 'focusSearch'
  | 'clearSelection'
  | 'help';

/** Every shortcut with the keys that trigger it (as `KeyboardEvent.key`), in the order the help lists them. */
export const shortcuts: readonly {
  action: ShortcutAction;
  keys: readonly string[];
  group: 'move' | 'triage' | 'other';
}[] = [
  { action: 'next', keys: ['j', 'ArrowDown'], group: 'move' },
  { action: 'previous', keys: ['k', 'ArrowUp'], group: 'move' },
  { action: 'open', keys: ['Enter', 'o'], group: 'move' },
  { action: 'toggleSelect', keys: ['x'], group: 'move' },
  { action: 'clearSelection', keys: ['Escape'], group: 'move' },
  { action: 'assignToMe', keys: ['a'], group: 'triage' },
  { action: 'unassign', keys: ['u'], group: 'triage' },
  { action: 'inProgress', keys: ['e'], group: 'triage' },
  { action: 'resolve', keys: ['r'], group: 'triage' },
  { action: 'close', keys: ['c'], group: 'triage' },
  { action: 'addToIncident', keys: ['i'], group: 'triage' },
  { action: 'addTag', keys: ['t'], group: 'triage' },
  { action: 'graph', keys: ['g'], group: 'other' },
  { action: 'focusSearch', keys: ['/'], group: 'other' },
  { action: 'help', keys: ['?'], group: 'other' },
];

const byKey = new Map<string, ShortcutAction>(shortcuts.flatMap((s) => s.keys.map((key) => [key, s.action] as const)));

/** Actions that change alerts, unavailable without the `change` permission. */
export const changingActions: ReadonlySet<ShortcutAction> = new Set([
  'assignToMe',
  'unassign',
  'inProgress',
  'resolve',
  'close',
  'addToIncident',
  'addTag',
]);

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file']);

/** Whether the key went to something the user types into (where letters must stay letters). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  const tag = element.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((element as HTMLInputElement).type);
  const role = element.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'searchbox';
}

/** Whether a modal dialog is open (its own keys win). */
function dialogOpen(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  return (target as Element).closest('[role="dialog"], [aria-modal="true"]') !== null;
}

/**
 * The shortcut a key press means, or null: never while typing, inside a dialog, with Ctrl/⌘/Alt
 * held, or when something (the table, a menu) has already handled the key.
 */
export function shortcutFor(
  event: Pick<
    KeyboardEvent,
    'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'defaultPrevented' | 'target' | 'repeat'
  >,
): ShortcutAction | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target) || dialogOpen(event.target)) return null;
  // Another keyboard layout (Cyrillic, say) gives other letters: the physical key decides then.
  const latin = /^Key[A-Z]$/.test(event.code) && !/^[a-z]$/i.test(event.key) ? event.code.slice(3).toLowerCase() : null;
  const action = byKey.get(event.key) ?? (latin ? byKey.get(latin) : undefined) ?? null;
  // Holding a key down repeats moves only, never a change.
  if (event.repeat && action !== 'next' && action !== 'previous') return null;
  return action;
}

/** One-key answers when closing or resolving: a digit or the first letter. */
export const resolutionKeys: readonly { resolution: AlertResolution; keys: readonly string[] }[] = [
  { resolution: 'true_positive', keys: ['1', 't'] },
  { resolution: 'false_positive', keys: ['2', 'f'] },
  { resolution: 'benign', keys: ['3', 'b'] },
  { resolution: 'duplicate', keys: ['4', 'd'] },
];

export function resolutionForKey(key: string): AlertResolution | null {
  const lower = key.toLowerCase();
  return resolutionKeys.find((entry) => entry.keys.includes(lower))?.resolution ?? null;
}

/** How a key is written in the help (arrows as symbols). */
export function keyLabel(key: string): string {
  const symbols: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', Enter: '↵', Escape: 'Esc' };
  return symbols[key] ?? key;
}
