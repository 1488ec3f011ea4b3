import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Alert as AlertWire, ListAnswer } from '@vigil/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSelection } from '../../../../components/list/selection';
import type { Camelize } from '../../../../lib/http';
import { useListState } from '../../../../lib/list';
import { useInfiniteList } from '../../../../lib/list/infinite';
import { useLiveEvents } from '../../../../lib/live';
import { alertList, countAlerts, toApiFilters, type Alert, type AlertApiFilters } from '../../api/alerts';
import { useLiveRowRefresh } from '../../api/live-rows';
import { addLiveEvent, newAlertsCount, noNewAlerts } from '../../lib/new-alerts';

type Page = Camelize<ListAnswer<AlertWire>>;

export function rowIdOf(row: Alert): number {
  return row.id;
}

/**
 * The queue's data: filters from the URL, the keyset-paged rows, the count (corrected after a
 * change), the selection, the keyboard cursor and the alerts that arrived live since the last read.
 */
export function useAlertQueue() {
  const list = useListState(alertList);
  const queryClient = useQueryClient();
  const tableRef = useRef<HTMLDivElement>(null);

  const filtersKey = JSON.stringify(list.filters);
  // A relative period is read as of when the filters were set; a refresh keeps that start.
  const apiFilters = useMemo<AlertApiFilters>(
    () => toApiFilters(JSON.parse(filtersKey) as typeof list.filters, Date.now()),
    [filtersKey],
  );
  const queue = useInfiniteList<AlertWire, (typeof alertList)['filters']>(alertList, {
    ordering: list.ordering,
    pageSize: list.pageSize,
    filters: apiFilters,
  });
  const { rows, refresh } = queue;
  const [countOverride, setCountOverride] = useState<{ key: string; count: number } | null>(null);
  const count = countOverride?.key === filtersKey ? countOverride.count : queue.count;

  const selection = useSelection<Alert, AlertApiFilters>({
    rows,
    rowId: rowIdOf,
    count,
    filter: apiFilters,
    filterKey: filtersKey,
  });
  // -1: no row highlighted yet (j or ↓ highlights the first); actions then reach the first row.
  const [activeIndex, setActiveIndex] = useState(-1);
  const [fresh, setFresh] = useState(noNewAlerts);

  useEffect(() => {
    setActiveIndex(-1);
    setFresh(noNewAlerts);
    setCountOverride(null);
  }, [filtersKey, list.ordering]);

  useLiveEvents(['alert.created'], (event) => setFresh((state) => addLiveEvent(state, event, apiFilters)));

  const scrollToTop = useCallback(
    () => tableRef.current?.querySelector('.vigil-vtable__scroll')?.scrollTo({ top: 0 }),
    [],
  );

  /** Reads the queue again from its first page, the cursor on the first row. */
  const showNew = async () => {
    setFresh(noNewAlerts);
    setCountOverride(null);
    setActiveIndex(0);
    scrollToTop();
    await refresh();
  };

  /** Replaces rows in every loaded page of the queue (no reload, nothing moves). */
  const patchRows = useCallback(
    (update: (row: Alert) => Alert | null) => {
      queryClient.setQueryData<InfiniteData<Page, string | null>>(queue.queryKey, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                results: page.results.map((row) => update(row) ?? row),
              })),
            }
          : data,
      );
    },
    [queryClient, queue.queryKey],
  );

  // Rows someone else triaged show their new state in place (they move or leave on the next refresh).
  useLiveRowRefresh({
    shownIds: () => new Set(rows.map(rowIdOf)),
    apply: (changed) => {
      const byId = new Map(changed.map((row) => [row.id, row]));
      patchRows((row) => byId.get(row.id) ?? null);
    },
  });

  const recount = useCallback(async () => {
    try {
      const answer = await countAlerts(apiFilters);
      setCountOverride({ key: filtersKey, count: answer.count });
    } catch {
      // The count shown stays the last one read; the next refresh corrects it.
    }
  }, [apiFilters, filtersKey]);

  return {
    list,
    queue,
    rows,
    count,
    selection,
    activeIndex,
    setActiveIndex,
    newCount: newAlertsCount(fresh),
    tableRef,
    scrollToTop,
    showNew,
    patchRows,
    recount,
  };
}

export type AlertQueue = ReturnType<typeof useAlertQueue>;
