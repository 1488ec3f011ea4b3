/**
 * Events the HTTP client emits for the rest of the console, without knowing who listens:
 * `system-update` when the server answers 423 (no notification), `system-available` on the next answer
 * that is not 423 (success or error alike), so the system-update page can come and go.
 */
export type HttpEventName = 'system-update' | 'system-available';

const target = new EventTarget();
let updating = false;

export function emitHttpEvent(name: HttpEventName): void {
  if (name === 'system-update') updating = true;
  else if (!updating) return;
  else updating = false;
  target.dispatchEvent(new Event(name));
}

/** Subscribes to an event; returns the function that unsubscribes. */
export function onHttpEvent(name: HttpEventName, listener: () => void): () => void {
  target.addEventListener(name, listener);
  return () => target.removeEventListener(name, listener);
}

/** Whether the last answer said the system is being updated. */
export function isSystemUpdating(): boolean {
  return updating;
}
