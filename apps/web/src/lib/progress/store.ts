import { MAILED_ACTIVATION_PATH_PREFIX } from '../session/paths';

/**
 * The progress bar's state: it starts with the first call in flight and ends 200 ms
 * after the last one finishes; calls to the activation path never show it.
 */
export const PROGRESS_END_DELAY_MS = 200;
/** The activation link's own calls (the page shows its own progress). */
const ignoredPrefixes = [MAILED_ACTIVATION_PATH_PREFIX];

let inFlight = 0;
let active = false;
let endTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setActive(next: boolean): void {
  if (active === next) return;
  active = next;
  for (const listener of listeners) listener();
}

function counts(url: string): boolean {
  return !ignoredPrefixes.some((prefix) => url.startsWith(prefix));
}

export function progressRequestStarted(url: string): void {
  if (!counts(url)) return;
  inFlight += 1;
  if (endTimer !== undefined) {
    clearTimeout(endTimer);
    endTimer = undefined;
  }
  setActive(true);
}

export function progressRequestEnded(url: string): void {
  if (!counts(url)) return;
  inFlight = Math.max(0, inFlight - 1);
  if (inFlight > 0) return;
  if (endTimer !== undefined) clearTimeout(endTimer);
  endTimer = setTimeout(() => {
    endTimer = undefined;
    if (inFlight === 0) setActive(false);
  }, PROGRESS_END_DELAY_MS);
}

export function isProgressActive(): boolean {
  return active;
}

export function subscribeProgress(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
