import './virtual-table.css';
import { Loader, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from '../../lib/i18n';
import { useNavigate } from '../../lib/router';
import { orderingField } from '../../lib/list';
import type { Selection } from './selection';
import { useFixedRows } from './use-fixed-rows';

/** One column of a virtual table. */
export interface Column<Row> {
  id: string;
  header: ReactNode;
  /** A CSS grid track: `110px`, `minmax(240px, 1fr)`… */
  width: string;
  /** The API field the column orders by, when it can. */
  sortField?: string;
  render: (row: Row, index: number) => ReactNode;
  align?: 'start' | 'end';
}

export interface VirtualTableProps<Row> {
  rows: readonly Row[];
  rowKey: (row: Row) => number | string;
  columns: readonly Column<Row>[];
  /** Accessible name of the table. */
  ariaLabel: string;
  /** Every row has this height (px); the table does not measure rows. */
  rowHeight?: number;
  /** How many rows match (for screen readers and the loader row); the loaded rows when unknown. */
  total?: number;
  ordering?: string;
  onSort?: (field: string) => void;
  /** Checkboxes on each row and in the header. */
  selection?: Selection<unknown>;
  rowId?: (row: Row) => number;
  /** A text naming a row for its checkbox ("Select alert 12"). */
  rowLabel?: (row: Row) => string;
  /** Whether a row's checkbox may be ticked (all rows when left out). */
  rowSelectable?: (row: Row) => boolean;
  /** The keyboard cursor; the table scrolls to keep it in view. */
  activeIndex?: number;
  onActiveIndexChange?: (index: number) => void;
  onRowClick?: (row: Row, index: number, event: MouseEvent | KeyboardEvent) => void;
  /** Where a row leads: a click opens it, a middle or Ctrl/⌘-click opens it in a new tab. */
  rowHref?: (row: Row) => string;
  rowClassName?: (row: Row) => string | undefined;
  hasMore?: boolean;
  loadMore?: () => void;
  /** The first page is being read: skeleton rows are shown. */
  loading?: boolean;
  loadingMore?: boolean;
  /** Shown instead of rows when there are none. */
  empty?: ReactNode;
  /** `fill`: down to the bottom of the window (default); or a height in px. */
  height?: 'fill' | number;
  /** Space to leave under the table when it fills the window (px). */
  bottomGap?: number;
  /** With `fill`: no taller than its rows need (a short page of a paged list leaves no empty box). */
  fitRows?: boolean;
  testId?: string;
  /** `data-testid` of every row. */
  rowTestId?: string;
}

const CHECKBOX_TRACK = '40px';

/**
 * The narrowest the table may be: the fixed part of every track (`120px`, `minmax(200px, 1fr)`).
 * Header and rows are both this wide at least, so their grids resolve the same tracks and the
 * columns line up however many flexible ones there are; a narrower window scrolls sideways.
 */
export function minimumWidth(tracks: readonly string[]): number {
  let total = 0;
  for (const track of tracks) {
    const fixed = /^(\d+(?:\.\d+)?)px$/.exec(track.trim()) ?? /^minmax\(\s*(\d+(?:\.\d+)?)px\s*,/.exec(track.trim());
    if (fixed) total += Number(fixed[1]);
  }
  return Math.ceil(total);
}
const SKELETON_ROWS = 12;
/** The header row's height and borders (px), as virtual-table.css draws them. */
const HEAD_HEIGHT = 39;
/** A fitted table is never shorter than this many rows (room for the empty and loading states). */
const FIT_MIN_ROWS = 5;
const OVERSCAN = 8;

interface RowStrings {
  label: string | undefined;
  className: string | undefined;
  selectable: boolean;
}

/**
 * A row's checkbox label and class, worked out once per row object: the table renders on every
 * scroll step, and asking the page's functions (a translation each) for every row in view each time
 * is most of that render. The memory is dropped when the page passes other functions.
 */
export function useRowStrings<Row>(
  rowLabel: ((row: Row) => string) | undefined,
  rowClassName: ((row: Row) => string | undefined) | undefined,
  rowSelectable?: (row: Row) => boolean,
): (row: Row) => RowStrings {
  return useMemo(() => {
    const known = new WeakMap<object, RowStrings>();
    return (row: Row) => {
      const cacheable = typeof row === 'object' && row !== null;
      const found = cacheable ? known.get(row) : undefined;
      if (found) return found;
      const strings = {
        label: rowLabel?.(row),
        className: rowClassName?.(row),
        selectable: rowSelectable?.(row) ?? true,
      };
      if (cacheable) known.set(row, strings);
      return strings;
    };
  }, [rowLabel, rowClassName, rowSelectable]);
}

interface RowProps<Row> {
  row: Row;
  index: number;
  top: number;
  height: number;
  columns: readonly Column<Row>[];
  active: boolean;
  selected: boolean | undefined;
  /** The checkbox may not be ticked. */
  locked: boolean;
  checkboxLabel: string | undefined;
  className: string | undefined;
  testId: string | undefined;
  onClick: (index: number, event: MouseEvent) => void;
  onToggle: (index: number, shift: boolean) => void;
}

function RowView<Row>({
  row,
  index,
  top,
  height,
  columns,
  active,
  selected,
  locked,
  checkboxLabel,
  className,
  testId,
  onClick,
  onToggle,
}: RowProps<Row>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-active={active || undefined}
      data-selected={selected || undefined}
      data-index={index}
      data-testid={testId}
      className={className ? `vigil-vtable__row ${className}` : 'vigil-vtable__row'}
      style={{ transform: `translateY(${top}px)`, height }}
      onClick={(event) => onClick(index, event)}
      onAuxClick={(event) => event.button === 1 && onClick(index, event)}
    >
      {selected !== undefined && (
        <div role="cell" className="vigil-vtable__cell vigil-vtable__check">
          <input
            type="checkbox"
            className="vigil-check"
            checked={selected}
            disabled={locked}
            aria-label={checkboxLabel}
            onClick={(event) => {
              event.stopPropagation();
              onToggle(index, event.shiftKey);
            }}
            onChange={() => undefined}
          />
        </div>
      )}
      {columns.map((column) => (
        <div key={column.id} role="cell" className="vigil-vtable__cell" data-align={column.align}>
          {column.render(row, index)}
        </div>
      ))}
    </div>
  );
}

const MemoRow = memo(RowView) as typeof RowView;

/** Marks a `title` the table gave a cut text (a page's own titles are left alone). */
const CUT_TITLE = 'data-cut-title';

/**
 * When the pointer comes to a cell, every text in it that its box cuts off (and ends in an ellipsis)
 * gets its whole text as a tooltip, unless the page gave it one. Worked out on hover only: a row is
 * mounted each time it scrolls into view, and measuring there would lay out every row.
 */
export function titleCutTexts(cell: Element): void {
  for (const element of [cell, ...Array.from(cell.querySelectorAll('*'))]) {
    if (!(element instanceof HTMLElement)) continue;
    const ours = element.hasAttribute(CUT_TITLE);
    if (element.title && !ours) continue;
    // A box of a pixel or less is text kept for screen readers only.
    const cut = element.clientWidth > 1 && element.scrollWidth > element.clientWidth + 1;
    if (cut) {
      element.title = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
      element.setAttribute(CUT_TITLE, '');
    } else if (ours) {
      element.removeAttribute('title');
      element.removeAttribute(CUT_TITLE);
    }
  }
}

function onPointerOverCell(event: MouseEvent) {
  const cell = (event.target as Element).closest('[role="cell"], [role="columnheader"]');
  if (cell) titleCutTexts(cell);
}

function HeaderCellView<Row>({
  column,
  ordering,
  onSort,
}: {
  column: Column<Row>;
  ordering: string | undefined;
  onSort: ((field: string) => void) | undefined;
}) {
  const field = onSort && ordering !== undefined ? column.sortField : undefined;
  const current = field === undefined ? undefined : orderingField(ordering!);
  const active = current?.field === field;
  const Icon = !active ? IconArrowsSort : current?.descending ? IconArrowDown : IconArrowUp;
  return (
    <div
      role="columnheader"
      className="vigil-vtable__cell vigil-vtable__head-cell"
      data-align={column.align}
      // A header cut by a narrow column is read whole in its tooltip.
      title={typeof column.header === 'string' ? column.header : undefined}
      aria-sort={field === undefined ? undefined : active ? (current?.descending ? 'descending' : 'ascending') : 'none'}
    >
      {field === undefined ? (
        column.header
      ) : (
        <UnstyledButton className="vigil-table__sort" onClick={() => onSort?.(field)} data-active={active}>
          <span>{column.header}</span>
          <Icon size={14} stroke={1.8} />
        </UnstyledButton>
      )}
    </div>
  );
}

/** Header cells hold Mantine buttons: memoised, so scrolling (which renders the table) leaves them alone. */
const HeaderCell = memo(HeaderCellView) as typeof HeaderCellView;

/** Keeps `height: 'fill'` tables down to the bottom of the window as it resizes. */
function useFillHeight(enabled: boolean, bottomGap: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number>(480);
  useLayoutEffect(() => {
    if (!enabled) return undefined;
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(240, Math.floor(window.innerHeight - top - bottomGap)));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (observer && ref.current?.parentElement) observer.observe(ref.current.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [enabled, bottomGap]);
  return { ref, height };
}

/**
 * A table that renders only the rows in view, so tens of thousands of rows scroll smoothly. Rows
 * have one fixed height; more rows are asked for as the end comes into view. The keyboard moves a
 * cursor (↑/↓, Home/End, PageUp/PageDown), Enter opens the row and Space selects it.
 */
export function VirtualTable<Row>(props: VirtualTableProps<Row>) {
  const {
    rows,
    rowKey,
    columns,
    ariaLabel,
    rowHeight = 40,
    total,
    ordering,
    onSort,
    selection,
    rowId,
    rowLabel,
    rowSelectable,
    activeIndex,
    onActiveIndexChange,
    onRowClick,
    rowHref,
    rowClassName,
    hasMore = false,
    loadMore,
    loading = false,
    loadingMore = false,
    empty,
    height = 'fill',
    bottomGap = 24,
    fitRows = false,
    testId,
    rowTestId,
  } = props;
  const { t } = useTranslation();
  // Read once per language: the table renders on every scroll step.
  const texts = useMemo(
    () => ({
      selectLoaded: t('list.selectLoaded'),
      loading: t('common.loading'),
      nothingFound: t('common.nothingFound'),
      loadingMore: t('list.loadingMore'),
    }),
    [t],
  );
  const navigate = useNavigate();
  const scrollRef = useRef<HTMLDivElement>(null);
  const fill = useFillHeight(height === 'fill', bottomGap);
  const selectable = selection !== undefined && rowId !== undefined;
  const tracks = [selectable ? CHECKBOX_TRACK : null, ...columns.map((column) => column.width)].filter(
    (track) => track !== null,
  );
  const template = tracks.join(' ');
  const minWidth = minimumWidth(tracks);
  const itemCount = rows.length + (hasMore ? 1 : 0);

  const tableHeight =
    height !== 'fill'
      ? height
      : fitRows
        ? Math.min(fill.height, HEAD_HEIGHT + Math.max(rows.length, FIT_MIN_ROWS) * rowHeight)
        : fill.height;
  const { items, totalSize, scrollToIndex } = useFixedRows({
    count: itemCount,
    rowHeight,
    // Rows are drawn in the first paint, before the scroll box has been measured.
    initialHeight: tableHeight,
    scrollRef,
    // Rows are cheap to mount; a few beyond the edges is enough at any scrolling speed a person uses.
    overscan: OVERSCAN,
  });
  const rowStrings = useRowStrings(rowLabel, rowClassName, rowSelectable);
  const lastItem = items[items.length - 1];

  // Near the end of what is loaded: ask for the next page.
  useEffect(() => {
    if (!lastItem || !hasMore || loadingMore || !loadMore) return;
    if (lastItem.index >= rows.length - 10) loadMore();
  }, [lastItem, hasMore, loadingMore, loadMore, rows.length]);

  // Keep the keyboard cursor in view when it moves (not when more rows arrive while the user scrolls away).
  const scrolledTo = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (activeIndex === scrolledTo.current) return;
    if (activeIndex !== undefined && activeIndex >= 0 && activeIndex < rows.length) {
      scrolledTo.current = activeIndex;
      scrollToIndex(activeIndex, { align: 'auto' });
    }
  }, [activeIndex, rows.length, scrollToIndex]);

  // Row callbacks read the latest props through a ref, so they stay the same function and the
  // memoised rows do not render again when the page around them does.
  const latest = useRef({ rows, rowHref, onRowClick, onActiveIndexChange, selection, rowId, rowSelectable, navigate });
  latest.current = { rows, rowHref, onRowClick, onActiveIndexChange, selection, rowId, rowSelectable, navigate };

  const open = useCallback((index: number, event: MouseEvent | KeyboardEvent) => {
    const { rows: currentRows, rowHref: hrefOf, onRowClick: clicked, navigate: go } = latest.current;
    const row = currentRows[index];
    if (row === undefined) return;
    const href = hrefOf?.(row);
    const newTab = 'button' in event && (event.button === 1 || event.ctrlKey || event.metaKey);
    if (href && newTab) {
      window.open(href, '_blank', 'noopener');
      return;
    }
    if (clicked) clicked(row, index, event);
    else if (href) void go(href);
  }, []);

  const handleClick = useCallback(
    (index: number, event: MouseEvent) => {
      // A click on a link or control inside the row does its own thing.
      const target = event.target as HTMLElement;
      if (target.closest('a, button, input, select, textarea, [role="button"], [role="menuitem"]')) return;
      if (window.getSelection()?.toString()) return;
      latest.current.onActiveIndexChange?.(index);
      open(index, event);
    },
    [open],
  );

  const handleToggle = useCallback((index: number, shift: boolean) => {
    const { rows: currentRows, selection: picked, rowId: idOf, rowSelectable: mayPick } = latest.current;
    const row = currentRows[index];
    if (row === undefined || !picked || !idOf || mayPick?.(row) === false) return;
    if (shift) picked.toggleRange(idOf(row));
    else picked.toggle(idOf(row));
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || rows.length === 0) return;
    const current = activeIndex ?? -1;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: rows.length - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      onActiveIndexChange?.(Math.min(rows.length - 1, Math.max(0, target)));
    } else if (event.key === 'Enter' && current >= 0) {
      event.preventDefault();
      open(current, event);
    } else if (event.key === ' ' && current >= 0) {
      event.preventDefault();
      handleToggle(current, event.shiftKey);
    }
  };

  const showEmpty = !loading && rows.length === 0;

  return (
    <div ref={fill.ref} className="vigil-vtable" data-testid={testId} style={{ height: tableHeight }}>
      <div
        ref={scrollRef}
        className="vigil-vtable__scroll"
        role="table"
        aria-label={ariaLabel}
        aria-rowcount={(total ?? rows.length) + 1}
        aria-busy={loading || loadingMore}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onMouseOver={onPointerOverCell}
        style={{
          ['--vigil-vtable-columns' as string]: template,
          ['--vigil-vtable-row' as string]: `${rowHeight}px`,
          ['--vigil-vtable-min-width' as string]: `${minWidth}px`,
        }}
      >
        <div role="rowgroup" className="vigil-vtable__head">
          <div role="row" aria-rowindex={1} className="vigil-vtable__head-row">
            {selectable && (
              <div role="columnheader" className="vigil-vtable__cell vigil-vtable__check">
                <input
                  type="checkbox"
                  className="vigil-check"
                  checked={selection.allLoadedSelected}
                  ref={(input) => {
                    if (input) input.indeterminate = selection.mode === 'some' && !selection.allLoadedSelected;
                  }}
                  onChange={selection.toggleLoaded}
                  aria-label={texts.selectLoaded}
                  disabled={rows.length === 0}
                />
              </div>
            )}
            {columns.map((column) => (
              <HeaderCell key={column.id} column={column} ordering={ordering} onSort={onSort} />
            ))}
          </div>
        </div>
        {loading && rows.length === 0 ? (
          <div role="rowgroup" className="vigil-vtable__skeleton" aria-label={texts.loading}>
            {Array.from({ length: SKELETON_ROWS }, (_, index) => (
              <div key={index} className="vigil-vtable__skeleton-row" style={{ height: rowHeight }}>
                <span />
              </div>
            ))}
          </div>
        ) : showEmpty ? (
          <div className="vigil-vtable__empty">{empty ?? texts.nothingFound}</div>
        ) : (
          <div role="rowgroup" className="vigil-vtable__body" style={{ height: totalSize }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (row === undefined) {
                return (
                  <div
                    key="more"
                    className="vigil-vtable__more"
                    style={{ transform: `translateY(${item.start}px)`, height: rowHeight }}
                  >
                    <Loader size="xs" type="dots" />
                    <span>{texts.loadingMore}</span>
                  </div>
                );
              }
              return (
                <MemoRow
                  key={rowKey(row)}
                  row={row}
                  index={item.index}
                  top={item.start}
                  height={rowHeight}
                  columns={columns}
                  active={item.index === activeIndex}
                  selected={selectable ? selection.has(rowId(row)) : undefined}
                  locked={!rowStrings(row).selectable}
                  checkboxLabel={rowStrings(row).label}
                  className={rowStrings(row).className}
                  testId={rowTestId}
                  onClick={handleClick}
                  onToggle={handleToggle}
                />
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
