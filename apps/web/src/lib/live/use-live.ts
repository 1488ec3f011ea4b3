import { useEffect, useRef, useSyncExternalStore } from 'react';
import { liveClient, type LiveEvent, type LiveEventType, type LiveStatus } from './live-client';

/**
 * Calls `handler` for every live event of the given kinds while the component is mounted. The
 * handler may change between renders without reconnecting.
 */
export function useLiveEvents(types: readonly LiveEventType[], handler: (event: LiveEvent) => void, enabled = true) {
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const key = types.join(',');
  useEffect(() => {
    if (!enabled) return undefined;
    const wanted = new Set(key.split(','));
    return liveClient().subscribe((event) => {
      if (wanted.has(event.type)) handlerRef.current(event);
    });
  }, [key, enabled]);
}

/** The state of the live stream (for a "live" / "reconnecting" indicator). */
export function useLiveStatus(): LiveStatus {
  const client = liveClient();
  return useSyncExternalStore(
    (notify) => client.onStatus(notify),
    () => client.status,
    () => 'closed' as const,
  );
}
