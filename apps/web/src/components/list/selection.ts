import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

type Id = number;

/**
 * What is selected in a list: some rows by id, or every row matching the filters ("all N
 * matching"), which reaches rows never loaded in the browser. Bulk endpoints get `{ ids }` for
 * the first and `{ filter }` for the second.
 */
export interface Selection<F> {
  mode: 'none' | 'some' | 'all-matching';
  /** The ids picked one by one (empty in `all-matching`). */
  ids: ReadonlySet<Id>;
  /** How many rows the selection stands for: the picked ids, or the list's count. */
  size: number;
  has: (id: Id) => boolean;
  toggle: (id: Id) => void;
  /** Picks a run of rows at once (shift-click), from the last toggled row to this one. */
  toggleRange: (id: Id) => void;
  /** Every loaded row picked, or none when they all were. */
  toggleLoaded: () => void;
  /** True when every loaded row is picked (or all matching). */
  allLoadedSelected: boolean;
  selectAllMatching: () => void;
  clear: () => void;
  /** The body of a bulk request. */
  asRequest: () => { ids: Id[] } | { filter: F };
}

/**
 * Selection over a list's loaded rows. It is cleared when the filters change (`filterKey`), so a
 * bulk action never reaches rows the user no longer sees.
 */
export function useSelection<Row, F>(options: {
  rows: readonly Row[];
  rowId: (row: Row) => Id;
  count: number | undefined;
  filter: F;
  /** Anything that changes with the filters (e.g. their JSON). */
  filterKey: string;
}): Selection<F> {
  const { rows, rowId, count, filter, filterKey } = options;
  const [ids, setIds] = useState<ReadonlySet<Id>>(() => new Set());
  const [allMatching, setAllMatching] = useState(false);
  const anchor = useRef<Id | null>(null);

  useEffect(() => {
    setIds(new Set());
    setAllMatching(false);
    anchor.current = null;
  }, [filterKey]);

  const loadedIds = useMemo(() => rows.map(rowId), [rows, rowId]);

  const toggle = useCallback((id: Id) => {
    anchor.current = id;
    setAllMatching(false);
    setIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const toggleRange = useCallback(
    (id: Id) => {
      const from = anchor.current === null ? -1 : loadedIds.indexOf(anchor.current);
      const to = loadedIds.indexOf(id);
      if (from < 0 || to < 0) {
        toggle(id);
        return;
      }
      const [start, end] = from < to ? [from, to] : [to, from];
      anchor.current = id;
      setAllMatching(false);
      setIds((current) => {
        const next = new Set(current);
        for (const rowIdValue of loadedIds.slice(start, end + 1)) next.add(rowIdValue);
        return next;
      });
    },
    [loadedIds, toggle],
  );

  const allLoadedSelected = allMatching || (loadedIds.length > 0 && loadedIds.every((id) => ids.has(id)));

  const toggleLoaded = useCallback(() => {
    setAllMatching(false);
    setIds(allLoadedSelected ? new Set() : new Set(loadedIds));
  }, [allLoadedSelected, loadedIds]);

  const selectAllMatching = useCallback(() => {
    setAllMatching(true);
    setIds(new Set());
  }, []);

  const clear = useCallback(() => {
    setAllMatching(false);
    setIds(new Set());
    anchor.current = null;
  }, []);

  return {
    mode: allMatching ? 'all-matching' : ids.size > 0 ? 'some' : 'none',
    ids,
    size: allMatching ? (count ?? 0) : ids.size,
    has: (id) => allMatching || ids.has(id),
    toggle,
    toggleRange,
    toggleLoaded,
    allLoadedSelected,
    selectAllMatching,
    clear,
    asRequest: () => (allMatching ? { filter } : { ids: [...ids] }),
  };
}
