import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/** A row in view: its index and its distance (px) from the top of the list. */
export interface FixedRow {
  index: number;
  start: number;
}

/** The first and last row to draw, overscan included. */
export interface RowRange {
  first: number;
  last: number;
}

/**
 * Which rows to draw when rows are `rowHeight` high, the box shows `viewport` px and is scrolled
 * `offset` px down: from the row at the top edge to the row that reaches the bottom edge, and
 * `overscan` more on either side. Nothing is drawn while the box has no height or there are no rows.
 */
export function rowRange(
  count: number,
  rowHeight: number,
  viewport: number,
  offset: number,
  overscan: number,
): RowRange | null {
  if (count === 0 || viewport <= 0 || rowHeight <= 0) return null;
  const last = count - 1;
  // Past the end (a list that got shorter) the window is the list's last screen.
  const top = Math.max(0, Math.min(offset, count * rowHeight - viewport));
  const first = Math.min(last, Math.floor(top / rowHeight));
  const bottom = Math.max(first, Math.min(last, Math.ceil((top + viewport) / rowHeight) - 1));
  return { first: Math.max(0, first - overscan), last: Math.min(last, bottom + overscan) };
}

export type RowAlign = 'auto' | 'start' | 'end';

/**
 * Where to scroll the box so row `index` shows. `auto`: not at all when the row is inside the box,
 * its bottom to the box's bottom when it is at or below the bottom edge, its top to the box's top
 * when it is at or above the top edge. The answer stays between 0 and `maxOffset`; `undefined` means
 * stay where it is.
 */
export function offsetForRow(
  index: number,
  geometry: { count: number; rowHeight: number; viewport: number; offset: number; maxOffset: number },
  align: RowAlign = 'auto',
): number | undefined {
  const { count, rowHeight, viewport, offset, maxOffset } = geometry;
  if (count === 0) return undefined;
  const row = Math.max(0, Math.min(index, count - 1));
  const start = row * rowHeight;
  const end = start + rowHeight;
  let side: 'start' | 'end';
  if (align !== 'auto') side = align;
  else if (end >= offset + viewport) side = 'end';
  else if (start <= offset) side = 'start';
  else return undefined;
  if (side === 'end' && row === count - 1) return Math.max(0, maxOffset);
  const target = side === 'end' ? end - viewport : start;
  return Math.max(0, Math.min(maxOffset, target));
}

export interface FixedRowsOptions {
  count: number;
  rowHeight: number;
  overscan: number;
  /** The box's height before it has been measured, so rows are drawn in the first paint. */
  initialHeight: number;
  scrollRef: RefObject<HTMLElement | null>;
}

export interface FixedRows {
  /** The rows to draw, in order. */
  items: readonly FixedRow[];
  /** The height of the whole list (px). */
  totalSize: number;
  scrollToIndex: (index: number, options?: { align?: RowAlign }) => void;
}

interface View {
  viewport: number;
  offset: number;
}

function sameRange(a: RowRange | null, b: RowRange | null): boolean {
  return a === b || (a !== null && b !== null && a.first === b.first && a.last === b.last);
}

/**
 * Virtual rows of one fixed height inside a scrolling box: follows the box's scroll position and
 * height (a ResizeObserver), and renders again only when the set of rows to draw changes.
 */
export function useFixedRows({ count, rowHeight, overscan, initialHeight, scrollRef }: FixedRowsOptions): FixedRows {
  const [view, setView] = useState<View>({ viewport: initialHeight, offset: 0 });
  const latest = useRef({ count, rowHeight, overscan });
  latest.current = { count, rowHeight, overscan };

  // The numbers the rows on screen were worked out from. They are replaced only when the rows to draw
  // change, so scrolling within a row renders nothing; a change of the rows' count looks again.
  const drawn = useRef<View>(view);
  const readBox = useCallback(
    (sync: boolean) => {
      const box = scrollRef.current;
      if (!box) return;
      const next: View = { viewport: box.clientHeight, offset: box.scrollTop };
      const { count: rows, rowHeight: height, overscan: extra } = latest.current;
      const before = rowRange(rows, height, drawn.current.viewport, drawn.current.offset, extra);
      const after = rowRange(rows, height, next.viewport, next.offset, extra);
      if (sameRange(before, after)) return;
      drawn.current = next;
      if (sync) flushSync(() => setView(next));
      else setView(next);
    },
    [scrollRef],
  );

  // Measure the box when it appears and follow its scrolling and resizing.
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return undefined;
    readBox(false);
    const onScroll = () => readBox(true);
    box.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => readBox(false));
    observer?.observe(box);
    return () => {
      box.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, [scrollRef, readBox]);

  // More or fewer rows: the box may have been scrolled back by the browser.
  useLayoutEffect(() => readBox(false), [count, rowHeight, readBox]);

  const range = rowRange(count, rowHeight, view.viewport, view.offset, overscan);
  const first = range?.first ?? -1;
  const last = range?.last ?? -1;
  const items = useMemo(() => {
    const rows: FixedRow[] = [];
    for (let index = Math.max(first, 0); first >= 0 && index <= last; index += 1) {
      rows.push({ index, start: index * rowHeight });
    }
    return rows;
    // A new list of items when the rows change too, so what depends on the last item looks again.
  }, [first, last, rowHeight, count]);

  const scrollToIndex = useCallback(
    (index: number, options?: { align?: RowAlign }) => {
      const box = scrollRef.current;
      if (!box) return;
      const offset = offsetForRow(
        index,
        {
          count: latest.current.count,
          rowHeight: latest.current.rowHeight,
          viewport: box.clientHeight,
          offset: box.scrollTop,
          maxOffset: box.scrollHeight - box.clientHeight,
        },
        options?.align,
      );
      if (offset !== undefined) box.scrollTo({ top: offset });
    },
    [scrollRef],
  );

  return { items, totalSize: count * rowHeight, scrollToIndex };
}
