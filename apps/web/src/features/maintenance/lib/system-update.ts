import { MAINTENANCE_RETRY_AFTER_SECONDS } from '@vigil/contract/client';
import { useSyncExternalStore } from 'react';
import { isSystemUpdating, onHttpEvent } from '../../../lib/http';

/** How often the system-update page asks the server again. */
export const SYSTEM_UPDATE_RETRY_MS = MAINTENANCE_RETRY_AFTER_SECONDS * 1000;

/** Calls `listener` when the server starts or stops answering 423. */
export function subscribeSystemUpdate(listener: () => void): () => void {
  const offUpdate = onHttpEvent('system-update', listener);
  const offAvailable = onHttpEvent('system-available', listener);
  return () => {
    offUpdate();
    offAvailable();
  };
}

/** Whether the server's last answer was 423 (the system is being updated). */
export function useSystemUpdating(): boolean {
  return useSyncExternalStore(subscribeSystemUpdate, isSystemUpdating, () => false);
}

/**
 * Asks the server again (`probe`, any call through the HTTP client) every `intervalMs` until it
 * answers something other than 423, then calls `onAvailable` once. A probe that fails to reach the
 * server (it may be restarting) just waits for the next turn. Answers a function that stops.
 */
export function retryUntilAvailable(
  probe: () => Promise<unknown>,
  onAvailable: () => void,
  intervalMs: number = SYSTEM_UPDATE_RETRY_MS,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (stopped) return;
    stop();
    onAvailable();
  };
  const offAvailable = onHttpEvent('system-available', finish);
  const schedule = () => {
    timer = setTimeout(() => {
      void probe()
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) schedule();
        });
    }, intervalMs);
  };
  function stop() {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    offAvailable();
  }
  if (!isSystemUpdating()) {
    // Already answered meanwhile.
    queueMicrotask(finish);
    return stop;
  }
  schedule();
  return stop;
}
