import { endpoints } from '@vigil/contract/client';
import { useEffect, useRef } from 'react';
import { call } from '../../../lib/http';
import { useLiveEvents, type LiveEvent } from '../../../lib/live';
import type { Alert } from './alerts';

/** The alerts of a live `alert.updated` event that the page shows (ids only; the event caps them at 500). */
export function shownIdsOf(event: LiveEvent, shown: ReadonlySet<number>): number[] {
  return event.ids.filter((id) => shown.has(id));
}

/** Re-reads alerts by id (at most 500 a request), in the caller's scope. */
export async function fetchAlertsById(ids: readonly number[], signal?: AbortSignal): Promise<Alert[]> {
  if (ids.length === 0) return [];
  const answer = await call(endpoints.alerts.list, {
    query: { pageSize: 500 },
    body: { id: ids.slice(0, 500) },
    signal,
  });
  return answer.results;
}

/**
 * Keeps rows on screen true when someone else triages them: ids of shown alerts named by live
 * `alert.updated` events are gathered for `delayMs` (a bulk action sends many at once), re-read
 * in one request and handed to `apply`, which replaces them in place — nothing moves or
 * disappears under the analyst's cursor; the next refresh re-sorts and re-filters.
 */
export function useLiveRowRefresh(options: {
  /** Ids of the rows the page holds now. */
  shownIds: () => ReadonlySet<number>;
  apply: (rows: Alert[]) => void;
  delayMs?: number;
  enabled?: boolean;
}): void {
  const pending = useRef(new Set<number>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );

  useLiveEvents(
    ['alert.updated'],
    (event) => {
      for (const id of shownIdsOf(event, latest.current.shownIds())) pending.current.add(id);
      if (pending.current.size === 0 || timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        const ids = [...pending.current];
        pending.current.clear();
        fetchAlertsById(ids)
          .then((rows) => latest.current.apply(rows))
          // A failed re-read leaves the rows as they were; the next refresh corrects them.
          .catch(() => undefined);
      }, latest.current.delayMs ?? 400);
    },
    options.enabled ?? true,
  );
}
